"""The summary browser: search, function, reports and overview pages, and a JSON API under /api/.
Read-only: each request opens the database in read-only mode, so it works while an analysis
writes (WAL). Everything from source or the database goes through Jinja's autoescaping."""
from __future__ import annotations

import sqlite3

from flask import Flask, abort, g, jsonify, render_template, request, url_for
from werkzeug.exceptions import HTTPException
from werkzeug.routing import PathConverter

from checkers import registry

from .. import history, queries, triage
from ..render import render
from ..store import Store, StoreError
from . import pictures, triage as triage_routes


class FunctionKey(PathConverter):
    """A function's key: a name, or `file:name` where the file may be an absolute path."""
    regex = ".+"
    part_isolating = False   # it spans '/' (werkzeug guesses from the regex otherwise)


def create_app(db_path: str, read_only: bool = False) -> Flask:
    app = Flask(__name__)
    app.config["DB_PATH"] = db_path
    # A static function in a header outside the root has the key `/abs/path/h.h:fn`, so its
    # URL is /f//abs/path/h.h:fn: merged to one slash, or refused by the path converter
    # (which takes no leading '/'), it named no function.
    app.url_map.merge_slashes = False
    app.url_map.converters["key"] = FunctionKey

    def db():
        if "db" not in g:
            try:
                g.store = Store(db_path, readonly=True)
            except StoreError as exc:
                abort(500, str(exc))
            g.db = g.store.db
        return g.db

    @app.teardown_appcontext
    def close(_exc):
        if "store" in g:
            g.store.close()

    _add_browse_routes(app, db)
    triage_routes.add_routes(app, db, read_only)
    _add_error_handlers(app)
    app.jinja_env.globals["fn_url"] = lambda key: url_for("function_page", key=key)
    return app


def _add_browse_routes(app, db) -> None:
    """Search, the function page, the overview and their JSON."""
    def search_args():
        """(text, {filter: must hold (1) or must not (0)}, checker); other values are a 400."""
        filters = {}
        for f in queries.filters():
            value = request.args.get(f, "")
            if value not in ("", "0", "1"):
                abort(400, f"{f} must be 1 (holds) or 0 (does not hold), not {value!r}")
            if value:
                filters[f] = value == "1"
        return request.args.get("q", "").strip(), filters, request.args.get("checker", "")

    @app.route("/")
    def search_page():
        q, filters, checker = search_args()
        results = queries.search(db(), q, filters, checker)
        return render_template("search.html", q=q, filters=filters, checker=checker,
                               all_filters=queries.filters(), checkers=registry.names(),
                               helps={f.name: f.help for _, f in registry.facts()},
                               results=results, limit=queries.LIMIT)

    @app.route("/f/<key:key>")
    def function_page(key):
        info = queries.function(db(), key)
        if info is None:
            abort(404)
        summary_text = render(key, {c: v["summary"] for c, v in info["checkers"].items()})
        src = queries.source(db(), key)
        reports = triage.by_function(db(), key)
        steps = pictures.bug_paths(reports, src[0]) if src else {}
        marked = {r["line"] for r in reports if src and r["file"] == src[0]}
        graph = pictures.call_graph_svg(db(), key, lambda k: url_for("function_page", key=k))
        return render_template("function.html", f=info, summary_text=summary_text,
                               reports=reports, source=src, marked=marked, steps=steps,
                               graph=graph)

    @app.route("/overview")
    def overview_page():
        return render_template("overview.html", o=queries.overview(db()),
                               charts=charts(db()), bars=pictures.bars,
                               helps={f.name: f.help for _, f in registry.facts()})

    @app.route("/api/search")
    def api_search():
        q, filters, checker = search_args()
        return jsonify(queries.search(db(), q, filters, checker))

    @app.route("/api/function/<key:key>")
    def api_function(key):
        info = queries.function(db(), key)
        if info is None:
            abort(404, f"no function {key!r} in the database")
        return jsonify(info)

    @app.route("/api/source/<key:key>")
    def api_source(key):
        src = queries.source(db(), key)
        if src is None:
            abort(404, f"no source recorded for {key!r}")
        return jsonify({"file": src[0], "lines": src[1]})

    @app.route("/api/overview")
    def api_overview():
        return jsonify(dict(queries.overview(db()), **charts(db())))


def _add_error_handlers(app) -> None:
    def error(status: int, message: str):
        """Under /api/ every error is JSON with its status, never an HTML page."""
        if request.path.startswith("/api/"):
            return jsonify({"error": message, "status": status}), status
        return render_template("error.html", message=message), status

    @app.errorhandler(HTTPException)
    def http_error(exc):
        return error(exc.code or 500, exc.description or exc.name)

    @app.errorhandler(sqlite3.Error)
    def db_error(exc):
        return error(500, f"database error: {exc}")


def charts(db) -> dict:
    """The overview's charts: open reports per kind and per top-level directory, and the last
    runs' new and resolved counts."""
    per_kind, per_dir = {}, {}
    for kind, file, n in db.execute("SELECT kind, file, COUNT(*) FROM reports WHERE status != ? "
                                    "GROUP BY kind, file", (history.RESOLVED,)):
        per_kind[kind] = per_kind.get(kind, 0) + n
        top = triage.top_dir(file)
        per_dir[top] = per_dir.get(top, 0) + n
    runs = [{"id": r["id"], "time": r["time"], "new": r["counts"].get("new", 0),
             "resolved": r["counts"].get("resolved", 0)} for r in history.runs(db)[:10]]
    return {"reports_per_kind": per_kind, "reports_per_directory": per_dir,
            "runs": runs[::-1]}


def serve(db_path: str, host: str, port: int, read_only: bool = False) -> None:
    """Through waitress, a production WSGI server (Flask's own server is for development
    only, and says so at every start); raises OSError when it cannot listen."""
    from waitress import serve as serve_wsgi
    serve_wsgi(create_app(db_path, read_only), host=host, port=port, threads=8)
