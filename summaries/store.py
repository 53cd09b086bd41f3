"""The summary database: SQLite (WAL), one row per (function, checker).

Schema version 5. `summaries` has one row per (function, checker); `functions` one per function
with its name, place, status, report count and the names of its search facts; `facts` one row
per (function, checker, fact) that holds — each checker says which of its facts a summary gives
(Checker.search_facts), so a new checker adds rows, never columns; `sources` the absolute path of
each function's file (the source view serves only these); `calls` the call graph of the last
run; `meta` the schema version, the run's root, the schedule's last order, a digest of the
calls and the key of the last run (NOTE [run-memo] in saturn/incremental/runs.py); `runs`,
`run_reports` and `reports` the run history (summaries/history.py), `reviews` the review
status of reports (summaries/reviews.py). A `summaries` row holds the function's key, file,
line, its cache key (saturn/incremental/results.py), Saturn's version, the summary JSON,
status (`ok`/`incomplete`) with notes, the function's reports and its time. The web page
and `saturn summary` read while an analysis writes (WAL mode). A database of another schema version is refused with a one-line error saying to delete
it: its summaries are what a run of this version makes again (a new version reuses no stored
summary: saturn/incremental/codehash.py), so there is nothing to migrate; the reviews are meant to live in
git too (`saturn review export`, docs/WEB.md), and the run history starts again."""
from __future__ import annotations

import functools
import hashlib
import json
import os
import sqlite3
import tempfile

from checkers import registry

from . import history, reviews

SCHEMA_VERSION = 5
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
    status TEXT NOT NULL, reports INTEGER NOT NULL, seconds REAL NOT NULL, flags TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS functions_name ON functions(name);
CREATE INDEX IF NOT EXISTS functions_file ON functions(file);
CREATE TABLE IF NOT EXISTS facts (function TEXT NOT NULL, checker TEXT NOT NULL,
                                  fact TEXT NOT NULL, PRIMARY KEY (function, checker, fact));
CREATE INDEX IF NOT EXISTS facts_fact ON facts(fact, function);
CREATE TABLE IF NOT EXISTS sources (function TEXT PRIMARY KEY, path TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS calls (caller TEXT NOT NULL, callee TEXT NOT NULL,
                                  PRIMARY KEY (caller, callee));
CREATE INDEX IF NOT EXISTS calls_callee ON calls(callee);
"""


def _function_rows(rows):
    """(functions rows, facts rows) for the store's rows, grouped by function."""
    by_fn: dict = {}
    for r in rows:
        by_fn.setdefault(r[0], []).append(r)
    functions, facts = [], []
    for key, group in by_fn.items():
        first, names = group[0], []
        for r in group:
            summary = json.loads(r[7]) if isinstance(r[7], str) else r[7]
            for fact in registry.search_facts(r[1], summary):
                facts.append((key, r[1], fact))
                names.append(fact)
        functions.append((key, first[2], first[3], first[4], first[8],
                          sum(len(r[10]) for r in group), first[11], ",".join(names)))
    return functions, facts


def summary_text(summary) -> str:
    """A summary as stored: JSON with sorted keys (cache keys hash this text, saturn/incremental/results.py)."""
    return json.dumps(summary, sort_keys=True)


class StoreError(Exception):
    """The database cannot be opened, written or read, or is not a Saturn database of a known
    version; the message is one line, naming the file."""


def _guarded(method):
    """SQLite's errors after opening (a corrupt page, a full disk) as StoreError."""
    @functools.wraps(method)
    def run(self, *args):
        try:
            return method(self, *args)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: {exc}") from None
    return run


class Store:
    def __init__(self, path: str = DEFAULT_PATH, readonly: bool = False, root: str = "."):
        """`root`: the writing run's --root, against which its reports' paths are relative."""
        self.path = path
        self.root = os.path.abspath(root)
        try:
            if readonly:
                if not os.path.exists(path):
                    raise StoreError(f"{path}: no such database (run `saturn check` first)")
                self.db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
            else:
                self.db = self._create(path)
            row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise StoreError(_open_error(path, exc, readonly)) from None
        if row is None or row[0] != str(SCHEMA_VERSION):
            raise StoreError(_version_error(path, row[0] if row else "?"))

    @staticmethod
    def _create(path: str):
        folder = os.path.dirname(os.path.abspath(path))
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as exc:
            while folder and not os.path.exists(folder):
                folder = os.path.dirname(folder)
            why = f"{folder} is a file" if os.path.isfile(folder) else exc.strerror
            raise StoreError(f"{path}: cannot make its directory: {why}") from None
        db = sqlite3.connect(path, timeout=30)
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if tables and "meta" not in tables:   # another program's database: left as it is
            db.close()
            raise StoreError(f"{path}: not a Saturn database (it holds other tables: "
                             f"{', '.join(sorted(tables)[:5])}); give another --db")
        if tables:   # another version's tables are left as they are
            row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is not None and row[0] != str(SCHEMA_VERSION):
                db.close()
                raise StoreError(_version_error(path, row[0]))
        db.execute("PRAGMA journal_mode=WAL")
        # No fsync per commit (one per function: 5.5 s of SQLite's run): in WAL mode a
        # commit still survives the process being killed, only not the machine's power.
        db.execute("PRAGMA synchronous=NORMAL")
        db.executescript(_SCHEMA + history.SCHEMA + reviews.SCHEMA)
        db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        db.commit()
        return db

    def close(self) -> None:
        self.db.close()

    @_guarded
    def put(self, rows: list[tuple]) -> None:
        """Rows of (function, checker, name, file, line, cache_key, version, summary (or its
        stored text), status, notes, reports, seconds); committed together (a killed run loses
        only what is in flight)."""
        self.db.executemany("INSERT OR REPLACE INTO summaries VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                            [(*r[:7], r[7] if isinstance(r[7], str) else summary_text(r[7]), r[8],
                              json.dumps(r[9]), json.dumps(r[10]), r[11]) for r in rows])
        functions, facts = _function_rows(rows)
        self.db.executemany("DELETE FROM facts WHERE function=?", [(f[0],) for f in functions])
        self.db.executemany("INSERT OR REPLACE INTO functions VALUES (?,?,?,?,?,?,?,?)",
                            functions)
        self.db.executemany("INSERT OR REPLACE INTO facts VALUES (?,?,?)", facts)
        self.db.executemany("INSERT OR REPLACE INTO sources VALUES (?, ?)",
                            sorted({(r[0], os.path.join(self.root, r[3])) for r in rows}))
        self.db.commit()

    @_guarded
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

    @_guarded
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

    @_guarded
    def record_history(self, info: dict, reports, hidden, files, keep: int) -> int:
        """One run and its reports' detection status (NOTE [detection-status])."""
        return history.record(self.db, info, reports, hidden, files, keep)

    @_guarded
    def reviews(self) -> dict:
        return reviews.all_reviews(self.db)

    @_guarded
    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
        self.db.commit()

    @_guarded
    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    @_guarded
    def stored_rows(self) -> dict:
        """Every function's rows by checker, as (cache key, row); summary, notes and reports
        as their JSON text (incremental/results.py decodes what it needs). One query: a re-check
        looks every function up, and a query each was ~20 ms of zstd's 1,330."""
        out: dict = {}
        for r in self.db.execute("SELECT function, checker, cache_key, summary, status, notes, "
                                 "reports, seconds, line FROM summaries"):
            out.setdefault(r[0], {})[r[1]] = (r[2], {
                "summary": r[3], "status": r[4], "notes": r[5], "reports": r[6],
                "seconds": r[7], "line": r[8]})
        return out

    @_guarded
    def find(self, name: str) -> list[str]:
        """Function keys whose name or key is `name` (a static is `file:name`)."""
        rows = self.db.execute("SELECT DISTINCT function FROM summaries WHERE name=? OR function=?"
                               " ORDER BY function", (name, name)).fetchall()
        return [r[0] for r in rows]

    @_guarded
    def summaries(self, key: str) -> dict:
        rows = self.db.execute("SELECT checker, summary, status, notes FROM summaries "
                               "WHERE function=? ORDER BY checker", (key,)).fetchall()
        return {r[0]: {"summary": json.loads(r[1]), "status": r[2], "notes": json.loads(r[3])}
                for r in rows}

    @_guarded
    def count(self) -> int:
        return self.db.execute("SELECT COUNT(DISTINCT function) FROM summaries").fetchone()[0]


def _version_error(path: str, found: str) -> str:
    which = "an older" if found.isdigit() and int(found) < SCHEMA_VERSION else "another"
    return (f"{path}: made by {which} Saturn (schema version {found}, this one reads "
            f"{SCHEMA_VERSION}); delete it to start again, or give another --db")


def _open_error(path: str, exc: sqlite3.DatabaseError, readonly: bool) -> str:
    """Why `path` could not be opened: a place this process may not write is not a damaged
    database."""
    denied = None if readonly else _read_only(path)
    if denied:
        return (f"{path}: cannot write the database: its {denied} is read-only "
                "(give another --db, or --no-db)")
    if not os.path.isfile(path):
        return f"{path}: cannot open the database ({exc})"
    return f"{path}: not a Saturn database ({exc})"


def _read_only(path: str) -> str | None:
    """"file" or "directory" when that cannot be written, tried rather than asked (os.access
    answers for the real user, and root may lack the right)."""
    try:
        if os.path.exists(path):
            os.close(os.open(path, os.O_WRONLY))
    except OSError:
        return "file"
    try:
        tempfile.TemporaryFile(dir=os.path.dirname(os.path.abspath(path))).close()
    except OSError:   # SQLite writes its journal beside the database
        return "directory"
    return None
