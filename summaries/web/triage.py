"""The triage half of the page: reports with filters and counts, runs, and reviews set through
`POST /api/review` (docs/WEB.md). A review is the one write the page makes.

NOTE [review-csrf]: a page from another site must not set reviews through the user's browser.
The POST needs the token the server put in its own pages (a random one per start: another site
cannot read it) in the `X-Saturn-Token` header, an `Origin` naming this server, and a JSON body
— so it is never a "simple" cross-site request a form could send. `--read-only` refuses it."""
from __future__ import annotations

import hmac
import secrets

from flask import abort, jsonify, render_template, request

from checkers import registry

from .. import history, reviews, triage
from ..store import Store, StoreError

_STATUS_VALUES = {"status": history.STATUSES, "review": (*reviews.STATUSES, reviews.IN_SOURCE)}


def add_routes(app, db, read_only: bool) -> None:
    token = secrets.token_urlsafe(32)
    app.jinja_env.globals.update(csrf_token=token, read_only=read_only,
                                 review_statuses=reviews.STATUSES)

    def report_filters() -> dict:
        """The filters of the query string, checked (a bad value is a 400)."""
        out = {d: request.args.get(d, "").strip() for d in (*triage.DIMENSIONS, "run")}
        for d, allowed in _STATUS_VALUES.items():
            if out[d] and out[d] not in allowed:
                abort(400, f"{d} must be one of {', '.join(allowed)}, not {out[d]!r}")
        if out["run"] and (not out["run"].isdigit() or
                           int(out["run"]) not in history.run_ids(db())):
            abort(400, f"no run {out['run']!r} in the database")
        return out

    @app.route("/reports")
    def reports_page():
        filters = report_filters()
        found = triage.select(db(), filters)
        return render_template("reports.html", filters=filters, found=found,
                               runs=history.runs(db()), limit=triage.LIMIT,
                               kinds={k.name: k.help for k in registry.kinds()})

    @app.route("/api/reports")
    def api_reports():
        limit = request.args.get("limit", "1000")
        if not limit.isdigit():
            abort(400, f"limit must be a number of reports, not {limit!r}")
        return jsonify(triage.select(db(), report_filters(), limit=int(limit)))

    @app.route("/api/runs")
    def api_runs():
        return jsonify(history.runs(db()))

    @app.route("/api/review", methods=["POST"])
    def api_review():
        if read_only:
            abort(403, "this server is read-only (saturn serve --read-only)")
        return _post_review(app.config["DB_PATH"], token)


def _post_review(db_path: str, token: str):
    """NOTE [review-csrf]: this server's Origin, its token, a JSON body; then the review."""
    origin = request.headers.get("Origin", "")
    if origin != request.host_url.rstrip("/"):
        abort(403, f"cross-origin request refused (Origin {origin or 'missing'})")
    if not hmac.compare_digest(request.headers.get("X-Saturn-Token", ""), token):
        abort(403, "missing or wrong X-Saturn-Token (reload the page)")
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        abort(400, "the body must be a JSON object {fingerprint, status, comment}")
    fields = (body.get("fingerprint"), body.get("status"), body.get("comment", ""),
              body.get("author") or reviews.os_user())
    try:
        reviews.check(*fields)
        store = Store(db_path)
        try:
            reviews.put(store.db, *fields)
            saved = store.reviews().get(fields[0])
        finally:
            store.close()
    except reviews.ReviewError as exc:
        abort(400, str(exc))
    except StoreError as exc:
        abort(500, str(exc))
    return jsonify({"fingerprint": fields[0], "review": reviews.shown(saved, False)})
