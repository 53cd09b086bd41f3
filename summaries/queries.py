"""Read-side queries over the summary database, for `saturn serve` and its JSON API."""
from __future__ import annotations

import json
import os
import sqlite3

from checkers import registry

LIMIT = 200


def facts() -> list[str]:
    """Every search fact, in the checkers' order (registry)."""
    return [f.name for _, f in registry.facts()]


def filters() -> list[str]:
    return ["has_reports", "incomplete"] + facts()


_HAS_FACT = "function IN (SELECT function FROM facts WHERE fact = ?)"
# What a checker says about a function: a fact of its summary, or a report.
_CHECKER = ("(function IN (SELECT function FROM facts WHERE checker = ?) OR function IN "
            "(SELECT function FROM summaries WHERE checker = ? AND reports != '[]'))")


def search(db, q: str = "", filters=(), checker: str = "", limit: int = LIMIT) -> list[dict]:
    """`filters`: names that must hold, or a mapping from name to whether it must hold or
    must not."""
    wanted = dict(filters) if isinstance(filters, dict) else dict.fromkeys(filters, True)
    where, args = [], []
    if q:
        # One scan of a short column: `instr` is cheaper than LIKE, and a static's key is its
        # file and name, which both columns already hold.
        where.append("(instr(name, ?) > 0 OR instr(file, ?) > 0)")
        args += [q, q]
    known = set(facts())
    for f, holds in wanted.items():
        test = {"has_reports": "reports > 0", "incomplete": "status != 'ok'"}.get(f)
        if test is None and f in known:
            test = _HAS_FACT
            args.append(f)
        if test:
            where.append(test if holds else f"NOT ({test})")
    if checker:
        where.append(_CHECKER)
        args += [checker, checker]
    sql = ("SELECT function, name, file, line, status, reports, flags FROM functions"
           + (" WHERE " + " AND ".join(where) if where else "")
           + " ORDER BY name, function LIMIT ?")
    rows = db.execute(sql, (*args, limit)).fetchall()
    return [{"key": r[0], "name": r[1], "file": r[2], "line": r[3], "status": r[4],
             "reports": r[5], "flags": [x for x in r[6].split(",") if x]} for r in rows]


def function(db, key: str) -> dict | None:
    row = db.execute("SELECT function, name, file, line, status, reports, seconds, flags "
                     "FROM functions WHERE function=?", (key,)).fetchone()
    if row is None:
        return None
    checkers = {}
    for c, summary, status, notes, reports, seconds in db.execute(
            "SELECT checker, summary, status, notes, reports, seconds FROM summaries "
            "WHERE function=? ORDER BY checker", (key,)):
        checkers[c] = {"summary": json.loads(summary), "status": status,
                       "notes": json.loads(notes), "reports": json.loads(reports),
                       "seconds": seconds}
    callers = [r[0] for r in db.execute("SELECT caller FROM calls WHERE callee=? ORDER BY caller",
                                        (key,))]
    callees = [r[0] for r in db.execute("SELECT callee FROM calls WHERE caller=? ORDER BY callee",
                                        (key,))]
    known = {r[0] for r in db.execute(
        f"SELECT function FROM functions WHERE function IN ({','.join('?' * len(callers + callees))})",
        callers + callees)} if callers or callees else set()
    return {"key": row[0], "name": row[1], "file": row[2], "line": row[3], "status": row[4],
            "reports": row[5], "seconds": row[6], "flags": [x for x in row[7].split(",") if x],
            "checkers": checkers,
            "callers": [{"key": k, "analysed": k in known} for k in callers],
            "callees": [{"key": k, "analysed": k in known} for k in callees]}


def overview(db) -> dict:
    one = lambda sql: db.execute(sql).fetchone()[0]  # noqa: E731
    out = {"functions": one("SELECT COUNT(*) FROM functions"),
           "incomplete": one("SELECT COUNT(*) FROM functions WHERE status != 'ok'"),
           "with_reports": one("SELECT COUNT(*) FROM functions WHERE reports > 0"),
           "reports": one("SELECT COALESCE(SUM(reports), 0) FROM functions"),
           "files": one("SELECT COUNT(DISTINCT file) FROM functions")}
    counts = dict(db.execute("SELECT fact, COUNT(DISTINCT function) FROM facts GROUP BY fact"))
    for fact in facts():
        out[fact] = counts.get(fact, 0)
    return out


def source(db, key: str) -> tuple[str, list[str]] | None:
    """The source of a function's file — only a file the database records, under the run's root."""
    row = db.execute("SELECT file FROM functions WHERE function=?", (key,)).fetchone()
    if row is None:
        return None
    path = _recorded_path(db, key) or row[0]
    if not os.path.isabs(path):   # a database older than its `sources` table: the last root
        root = db.execute("SELECT value FROM meta WHERE key='root'").fetchone()
        path = os.path.join(root[0] if root else ".", path)
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return row[0], fh.read().splitlines()
    except OSError:
        return None


def _recorded_path(db, key: str) -> str | None:
    """The absolute path the function was analysed at (a run from another --root gives other
    relative paths: each function keeps its own)."""
    try:
        row = db.execute("SELECT path FROM sources WHERE function=?", (key,)).fetchone()
    except sqlite3.OperationalError:   # no such table: written by an older Saturn
        return None
    return row[0] if row else None
