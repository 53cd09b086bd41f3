"""The summary database: SQLite (WAL), one row per (function, checker).

Schema version 3. `summaries` has one row per (function, checker); `functions` one per function
with the facts the web page filters on; `calls` the call graph of the last run; `meta` the run's
root (the source view serves only files recorded here) and a digest
of the calls. A `summaries` row holds the function's key, file, line, its cache key
(saturn/incremental/results.py), Saturn's version, the summary JSON, status (`ok`/`incomplete`) with notes,
the function's reports and its time. The web page and `saturn summary` read while an analysis
writes (WAL mode)."""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3

from .facts import FLAGS, facts

SCHEMA_VERSION = 3
DEFAULT_PATH = os.path.join(".saturn", "saturn.db")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS summaries (
    function TEXT NOT NULL, checker TEXT NOT NULL, name TEXT NOT NULL, file TEXT NOT NULL,
    line INTEGER NOT NULL, cache_key TEXT NOT NULL, version TEXT NOT NULL, summary TEXT NOT NULL,
    status TEXT NOT NULL, notes TEXT NOT NULL, reports TEXT NOT NULL, seconds REAL NOT NULL,
    PRIMARY KEY (function, checker));
CREATE INDEX IF NOT EXISTS summaries_name ON summaries(name);
CREATE INDEX IF NOT EXISTS summaries_file ON summaries(file);
CREATE TABLE IF NOT EXISTS functions (
    function TEXT PRIMARY KEY, name TEXT NOT NULL, file TEXT NOT NULL, line INTEGER NOT NULL,
    status TEXT NOT NULL, reports INTEGER NOT NULL, seconds REAL NOT NULL, flags TEXT NOT NULL,
    touches_locks INTEGER, lock_wrapper INTEGER, unlock_wrapper INTEGER, follows_return INTEGER,
    allocator INTEGER, escapees INTEGER, out_alloc INTEGER);
CREATE INDEX IF NOT EXISTS functions_name ON functions(name);
CREATE INDEX IF NOT EXISTS functions_file ON functions(file);
CREATE TABLE IF NOT EXISTS calls (caller TEXT NOT NULL, callee TEXT NOT NULL,
                                  PRIMARY KEY (caller, callee));
CREATE INDEX IF NOT EXISTS calls_callee ON calls(callee);
"""


def _function_rows(rows):
    by_fn: dict = {}
    for r in rows:
        by_fn.setdefault(r[0], []).append(r)
    out = []
    for key, group in by_fn.items():
        first = group[0]
        f = facts({r[1]: json.loads(r[7]) if isinstance(r[7], str) else r[7] for r in group})
        flags = [name for name in FLAGS if f[name]]
        out.append((key, first[2], first[3], first[4], first[8], sum(len(r[10]) for r in group),
                    first[11], ",".join(flags), *(int(f[name]) for name in FLAGS)))
    return out


def summary_text(summary) -> str:
    """A summary as stored: JSON with sorted keys (cache keys hash this text, saturn/incremental/results.py)."""
    return json.dumps(summary, sort_keys=True)


class StoreError(Exception):
    """The database cannot be opened or is not a Saturn database of a known version."""


class Store:
    def __init__(self, path: str = DEFAULT_PATH, readonly: bool = False):
        self.path = path
        try:
            if readonly:
                if not os.path.exists(path):
                    raise StoreError(f"{path}: no such database (run `saturn check` first)")
                self.db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
            else:
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
                self.db = sqlite3.connect(path, timeout=30)
                self.db.execute("PRAGMA journal_mode=WAL")
                # No fsync per commit (one per function: 5.5 s of SQLite's run): in WAL mode a
                # commit still survives the process being killed, only not the machine's power.
                self.db.execute("PRAGMA synchronous=NORMAL")
                self.db.executescript(_SCHEMA)
                self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)",
                                (str(SCHEMA_VERSION),))
                self.db.commit()
            row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path}: not a Saturn database ({exc})") from None
        if row is None or row[0] != str(SCHEMA_VERSION):
            raise StoreError(f"{path}: schema version {row[0] if row else '?'} is not "
                             f"{SCHEMA_VERSION}; remove it to start again")

    def close(self) -> None:
        self.db.close()

    def put(self, rows: list[tuple]) -> None:
        """Rows of (function, checker, name, file, line, cache_key, version, summary (or its
        stored text), status, notes, reports, seconds); committed together (a killed run loses
        only what is in flight)."""
        self.db.executemany("INSERT OR REPLACE INTO summaries VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                            [(*r[:7], r[7] if isinstance(r[7], str) else summary_text(r[7]), r[8],
                              json.dumps(r[9]), json.dumps(r[10]), r[11]) for r in rows])
        self.db.executemany("INSERT OR REPLACE INTO functions VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                            _function_rows(rows))
        self.db.commit()

    def move(self, rows: list[tuple]) -> None:
        """Rows of (line, notes, reports — as their JSON text —, function, checker) of reused
        functions that only moved (saturn/incremental/results.py `_moved`); their summaries, and so their
        facts, are as stored (writing them all again was ~45 ms of zstd's re-check after an
        edit: 664 functions)."""
        self.db.executemany("UPDATE summaries SET line=?, notes=?, reports=? "
                            "WHERE function=? AND checker=?", rows)
        self.db.executemany("UPDATE functions SET line=? WHERE function=?",
                            sorted({(r[0], r[3]) for r in rows}))
        self.db.commit()

    def record_run(self, root: str, calls) -> None:
        """The run's root directory and its call graph (caller, callee) pairs (written again
        only when they changed: zstd's 5,000 calls were ~10 ms of each re-check)."""
        calls = sorted(calls)
        digest = hashlib.sha256(repr(calls).encode()).hexdigest()
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('root', ?)", (os.path.abspath(root),))
        if self.meta("calls") != digest:
            self.db.execute("DELETE FROM calls")
            self.db.executemany("INSERT OR IGNORE INTO calls VALUES (?, ?)", calls)
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('calls', ?)", (digest,))
        self.db.commit()

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def stored_rows(self) -> dict:
        """Every function's rows by checker, as (cache key, row); summary, notes and reports
        as their JSON text (saturn/incremental/results.py decodes what it needs). One query: a re-check
        looks every function up, and a query each was ~20 ms of zstd's 1,330."""
        out: dict = {}
        for r in self.db.execute("SELECT function, checker, cache_key, summary, status, notes, "
                                 "reports, seconds, line FROM summaries"):
            out.setdefault(r[0], {})[r[1]] = (r[2], {
                "summary": r[3], "status": r[4], "notes": r[5], "reports": r[6],
                "seconds": r[7], "line": r[8]})
        return out

    def find(self, name: str) -> list[str]:
        """Function keys whose name or key is `name` (a static is `file:name`)."""
        rows = self.db.execute("SELECT DISTINCT function FROM summaries WHERE name=? OR function=?"
                               " ORDER BY function", (name, name)).fetchall()
        return [r[0] for r in rows]

    def summaries(self, key: str) -> dict:
        rows = self.db.execute("SELECT checker, summary, status, notes FROM summaries "
                               "WHERE function=? ORDER BY checker", (key,)).fetchall()
        return {r[0]: {"summary": json.loads(r[1]), "status": r[2], "notes": json.loads(r[3])}
                for r in rows}

    def count(self) -> int:
        return self.db.execute("SELECT COUNT(DISTINCT function) FROM summaries").fetchone()[0]
