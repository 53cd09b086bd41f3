"""Runs and each report's detection status across them (docs/WEB.md "Runs").

NOTE [detection-status]: each `saturn check` that writes the database records a run: its time,
root, options, checkers, counts, version and the files its functions were in, and one
`run_reports` row per report with its status in that run — `new` (never seen before),
`unresolved` (in the previous run that checked its file), `reopened` (seen before, gone since)
or `resolved` (in the previous run of its file, gone from this one, whose files include it).
The status is decided once, when the run is written, and kept: a page over 50 runs reads rows,
never replays the history. `reports` holds each fingerprint's latest text and status (a
resolved report keeps the text it had, so it can still be shown). A report outside the run's
files keeps its status: checking one file does not resolve the others'. Runs past the kept
history (--keep-runs) are dropped with their rows, and so are the reports no kept run names.
Nothing here is read by `saturn check`'s report output: records only go into the database.
"""
from __future__ import annotations

import json
import time

RESOLVED = "resolved"
STATUSES = ("new", "unresolved", "reopened", RESOLVED)
DEFAULT_KEEP = 50

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, time TEXT NOT NULL, root TEXT NOT NULL, options TEXT NOT NULL,
    checkers TEXT NOT NULL, counts TEXT NOT NULL, version TEXT NOT NULL, files TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS run_reports (run INTEGER NOT NULL, fingerprint TEXT NOT NULL,
    status TEXT NOT NULL, PRIMARY KEY (run, fingerprint));
CREATE INDEX IF NOT EXISTS run_reports_fingerprint ON run_reports(fingerprint);
CREATE TABLE IF NOT EXISTS reports (
    fingerprint TEXT PRIMARY KEY, checker TEXT NOT NULL, kind TEXT NOT NULL,
    function TEXT NOT NULL, function_key TEXT NOT NULL, file TEXT NOT NULL,
    line INTEGER NOT NULL, message TEXT NOT NULL, trace TEXT NOT NULL,
    in_source INTEGER NOT NULL, status TEXT NOT NULL, run INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS reports_function ON reports(function_key);
"""
_COLUMNS = "fingerprint, checker, kind, function, function_key, file, line, message, trace, " \
           "in_source, status, run"


def record(db, info: dict, reports, hidden, files, keep: int = DEFAULT_KEEP) -> int:
    """Write one run: `info` has root, options, checkers, version; `reports` those shown and
    `hidden` those a `saturn-ignore` comment hides (still reports: `intentional (in source)`);
    `files` the run's files as reports name them. Returns the run's id."""
    last = {fp: (st, f) for fp, st, f in
            db.execute("SELECT fingerprint, status, file FROM reports")}
    files = sorted(set(files) | {r.file for r in reports} | {r.file for r in hidden})
    cur = db.execute("INSERT INTO runs (time, root, options, checkers, counts, version, files) "
                     "VALUES (?,?,?,?,?,?,?)",
                     (time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), info["root"],
                      json.dumps(info["options"], sort_keys=True), json.dumps(info["checkers"]),
                      "{}", info["version"], json.dumps(files)))
    run = cur.lastrowid
    rows, statuses, seen = [], [], set()
    for r, in_source in [(r, 0) for r in reports] + [(r, 1) for r in hidden]:
        if r.fingerprint in seen:
            continue
        seen.add(r.fingerprint)
        before = last.get(r.fingerprint, (None,))[0]
        status = "new" if before is None else "reopened" if before == RESOLVED else "unresolved"
        statuses.append((run, r.fingerprint, status))
        rows.append((r.fingerprint, r.checker, r.kind, r.function, r.function_key, r.file,
                     r.line, r.message, json.dumps([vars(n) for n in r.trace]), in_source,
                     status, run))
    in_run = set(files)
    gone = [fp for fp, (st, file) in last.items()
            if st != RESOLVED and fp not in seen and file in in_run]
    statuses += [(run, fp, RESOLVED) for fp in gone]
    db.executemany(f"INSERT OR REPLACE INTO reports ({_COLUMNS}) VALUES "
                   "(?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    db.executemany("UPDATE reports SET status=?, run=? WHERE fingerprint=?",
                   [(RESOLVED, run, fp) for fp in gone])
    db.executemany("INSERT INTO run_reports VALUES (?,?,?)", statuses)
    counts = {s: 0 for s in STATUSES}
    for _, _, s in statuses:
        counts[s] += 1
    counts.update(reports=len(rows), hidden_in_source=len(hidden), files=len(files),
                  **info.get("counts", {}))
    db.execute("UPDATE runs SET counts=? WHERE id=?", (json.dumps(counts, sort_keys=True), run))
    _forget(db, keep)
    db.commit()
    return run


def _forget(db, keep: int) -> None:
    """Keep the last `keep` runs, and the reports they name."""
    row = db.execute("SELECT id FROM runs ORDER BY id DESC LIMIT 1 OFFSET ?", (keep,)).fetchone()
    if row is None:
        return
    db.execute("DELETE FROM run_reports WHERE run <= ?", (row[0],))
    db.execute("DELETE FROM runs WHERE id <= ?", (row[0],))
    db.execute("DELETE FROM reports WHERE fingerprint NOT IN "
               "(SELECT fingerprint FROM run_reports)")


def runs(db) -> list[dict]:
    """Every kept run, the latest first."""
    out = []
    for r in db.execute("SELECT id, time, root, options, checkers, counts, version "
                        "FROM runs ORDER BY id DESC"):
        counts = json.loads(r[5])
        out.append({"id": r[0], "time": r[1], "root": r[2], "options": json.loads(r[3]),
                    "checkers": json.loads(r[4]), "counts": counts,
                    "version": r[6], "files": counts.get("files", 0)})
    return out


def run_ids(db) -> list[int]:
    return [r[0] for r in db.execute("SELECT id FROM runs ORDER BY id")]


def report_tuples(db, run: int | None = None, function_key: str | None = None) -> list:
    """Reports as rows of `_COLUMNS` (the trace as its JSON text), in the order of the page:
    as of the latest run of their files (run=None), as recorded in `run` (the reports it
    reported and those it resolved), or a function's as of the latest runs."""
    order = " ORDER BY file, line, kind, message, fingerprint"
    if function_key is not None:
        return db.execute(f"SELECT {_COLUMNS} FROM reports WHERE function_key=?" + order,
                          (function_key,)).fetchall()
    if run is None:
        return db.execute(f"SELECT {_COLUMNS} FROM reports" + order).fetchall()
    return db.execute("SELECT r.fingerprint, checker, kind, function, function_key, file, line, "
                      "message, trace, in_source, rr.status, rr.run FROM run_reports rr "
                      "JOIN reports r ON r.fingerprint = rr.fingerprint WHERE rr.run = ?"
                      + order.replace("fingerprint", "r.fingerprint"),
                      (run,)).fetchall()


def as_dict(r) -> dict:
    return {"fingerprint": r[0], "checker": r[1], "kind": r[2], "function": r[3],
            "function_key": r[4], "file": r[5], "line": r[6], "message": r[7],
            "trace": json.loads(r[8]), "in_source": bool(r[9]), "detection_status": r[10],
            "run": r[11]}


def report_rows(db, run: int | None = None, function_key: str | None = None) -> list[dict]:
    """report_tuples as dicts, the trace decoded."""
    return [as_dict(r) for r in report_tuples(db, run, function_key)]


def diff(db, a: int, b: int) -> dict:
    """Reports in run b and not in run a (new), and those in a, not in b, in a file b checked
    (resolved)."""
    def fingerprints(run):
        return {fp for fp, st in db.execute(
            "SELECT fingerprint, status FROM run_reports WHERE run=?", (run,)) if st != RESOLVED}
    in_a, in_b = fingerprints(a), fingerprints(b)
    files = set(json.loads(db.execute("SELECT files FROM runs WHERE id=?", (b,)).fetchone()[0]))
    rows = {r["fingerprint"]: r for r in report_rows(db)}
    pick = lambda fps: [_short(rows[fp]) for fp in sorted(  # noqa: E731
        fps, key=lambda fp: (rows[fp]["file"], rows[fp]["line"], fp)) if fp in rows]
    return {"from": a, "to": b, "new": pick(in_b - in_a),
            "resolved": pick({fp for fp in in_a - in_b if rows.get(fp, {}).get("file") in files})}


def _short(r: dict) -> dict:
    return {k: r[k] for k in ("fingerprint", "kind", "function", "file", "line", "message")}
