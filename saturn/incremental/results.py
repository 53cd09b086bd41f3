"""The result cache: a function is reused from the summary database when its cache key — a hash
of its IR, its callees' summaries, Saturn's version and the store's salt (NOTE [one-salt] in
cachedir.py), the checkers' specs and the options that change results — is the one stored; every
result is saved as soon as it is known, so a killed run loses only the functions in flight."""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping

from summaries.store import StoreError, summary_text

from ..ir import indirect
from ..report.diagnostic import Report
from ..symex.outcome import FunctionResult, Incomplete
from .digest import ir_digest
from .lines import NUMBER, number_as
from .runs import base_key

# An internal error (a bug of Saturn's, or an interrupted output) or a lost worker says
# nothing about the function: the next run analyses it again rather than reuse the failure.
AGAIN = (Incomplete.INTERNAL_ERROR, Incomplete.LOST)


class ResultCache:
    """One run's results in the summary database: `open(program)` before the first lookup."""

    def __init__(self, store, checkers, options, version: str):
        self.store, self.program = store, None
        self.names = [c.name for c in checkers] + ["<engine>"]
        self.checkers, self.version = checkers, version
        self.base = base_key(checkers, options, version)
        self.keys: dict[str, str] = {}
        self.digests: dict[str, str] = {}   # function key -> digest of its summaries' text
        self.moved: list[tuple] = []        # rows of reused functions at their new lines
        # The database's rows, read at the first lookup; each function's dropped at its own
        # (it is looked up once: NOTE [scc-steps]), the texts it keeps are the hit's.
        self.stored: dict | None = None
        self.error: str | None = None   # NOTE [failed-store]

    def open(self, program) -> ResultCache:
        self.program = program
        return self

    def _store(self, method, *args, default=None):
        """NOTE [failed-store]: a database that fails during the run (a corrupt page, a full
        disk) is not used again, and the run goes on: its reports are printed, then the error
        (`self.error`), and the exit status is 2."""
        if self.error is not None:
            return default
        try:
            return method(*args)
        except StoreError as exc:
            self.error = str(exc)
            return default

    def key_for(self, keys, summaries: dict) -> str:
        """One key for a task: its functions' IR and the summaries of the callees outside it."""
        fns = [self.program.functions[k] for k in keys]
        callees = sorted(set().union(*(f.callees for f in fns)))
        used = {c: self.digests.get(c) or self._digest(summaries[c])
                for c in callees if c in summaries}
        # Callees' declaration attributes may act as specs (saturn/ir/annotations.py).
        notes = {c: self.program.attributes[c] for c in callees if c in self.program.attributes}
        dispatch = [indirect.described(self.program.dispatch.get(k)) for k in keys]
        text = json.dumps([self.base, [ir_digest(f) for f in fns], used, notes, dispatch],
                          sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    def lookup(self, keys, summaries):
        """The stored results of `keys` (one function: NOTE [scc-steps]) whose key matches,
        else None."""
        ck = self.key_for(keys, summaries)
        self.keys.update((fkey, ck) for fkey in keys)  # what `save` stores, hit or miss
        results = []
        for fkey in keys:
            got = self._stored(fkey, ck)
            if got is None:
                return None
            results.append(got)
        return results

    def _stored(self, fkey, ck):
        if self.stored is None:
            self.stored = self._store(self.store.stored_rows, default={})
        rows = {name: row for name, (key, row) in self.stored.pop(fkey, {}).items()
                if key == ck} if ck else {}
        if not all(name in rows for name in self.names):
            return None
        first = rows[self.names[0]]
        cause = FunctionResult.cause_of(first["status"])
        if cause in AGAIN or \
                _mentions_moved_constants(self.program.functions[fkey], first["line"], rows):
            return None
        res = FunctionResult(fkey, incomplete=cause,
                             notes=json.loads(first["notes"]),
                             reused=True, seconds=first["seconds"])
        for name in self.names:
            if rows[name]["reports"] != "[]":
                res.reports += [Report.from_json(r) for r in json.loads(rows[name]["reports"])]
        texts = {name: rows[name]["summary"] for name in self.names}
        self.digests[fkey] = _text_digest(texts)
        if res.ok:
            res.summaries = StoredSummaries(texts)
        if _moved(res, self.program.functions[fkey], first["line"]):
            self.save(res)   # its rows now give the function's new place
        return res

    def _digest(self, summaries) -> str:
        """The digest of a function's summaries, as their stored text would give it."""
        return _text_digest({name: summary_text(summaries.get(name, {})) for name in self.names})

    def save(self, res: FunctionResult) -> None:
        """A new result is written at once; a reused one that only moved (`_moved`) waits for
        `flush` with the others: SQLite's re-check after an edit near its middle moved 1,275
        (one commit each, their summaries decoded again for the digest: ~0.8 s)."""
        if res.reused:   # its digest is its stored text's (`_stored`)
            self.moved += _moved_rows(res, self.program.functions[res.key].line, self.names)
            return   # if the run is killed first, the next one moves them again
        self.digests[res.key] = self._digest(res.summaries)
        self._store(self.store.put, _rows(self.program, {res.key: res}, self.checkers,
                                          self.version, {res.key: self.keys.get(res.key, "")}))

    def flush(self) -> None:
        if self.moved:
            self._store(self.store.move, self.moved)
            self.moved = []


def _moved_rows(res: FunctionResult, line: int, names: list) -> list[tuple]:
    """Store.move's rows for a reused function at its new line (as `put` would store them:
    notes and reports by checker as JSON)."""
    notes = json.dumps(res.notes) if res.notes else "[]"
    return [(line, notes, json.dumps([r.to_record() for r in res.reports if r.checker == name])
             if res.reports else "[]", res.key, name) for name in names]


_NOTE_PLACE = re.compile(r"^([^:]+):(\d+):")


def _moved(res: FunctionResult, fn, old_line: int) -> bool:
    """NOTE [line-shift] (lines.py): a reused function that moved by `delta` lines
    has the lines of its reports, traces and notes inside its old extent moved by as much, and
    the line constants in the texts at those lines with them (NOTE [line-constants])."""
    delta = fn.line - old_line
    if not delta:
        return False
    consts = {v - delta for v in fn.line_values}

    def move(file, line):
        return line + delta if file == fn.file and old_line <= line <= fn.end_line - delta \
            else line

    def text_at(file, line, text):
        if file != fn.file or line not in consts:
            return text
        return number_as(text, str(line), str(line + delta))
    for r in res.reports:
        r.message, r.statement = (text_at(r.file, r.line, t) for t in (r.message, r.statement))
        r.line = move(r.file, r.line)
        for t in r.trace:
            t.note = text_at(t.file, t.line, t.note)
            t.line = move(t.file, t.line)
    res.notes = [_NOTE_PLACE.sub(lambda m: f"{m[1]}:{move(m[1], int(m[2]))}:", n, count=1)
                 for n in res.notes]
    return True


def _mentions_moved_constants(fn, old_line: int, rows: dict) -> bool:
    """NOTE [line-constants] (lines.py): a function that moved, whose line-valued
    constants moved with it, is analysed again if its stored results mention one of the old
    values (a number in a summary, a note or a report: perhaps a counterexample's value, but
    perhaps the constant) — but for places and, in a report's texts, the line they stand at:
    there the number is the constant as its statement's text has it, which `_moved` moves."""
    delta = fn.line - old_line
    if not delta or not fn.line_values:
        return False
    old = {str(v - delta) for v in fn.line_values}

    def said(text, file="", line=None):
        here = str(line) if file == fn.file else None
        return any(n in old and n != here for n in NUMBER.findall(text))
    for row in rows.values():
        if said(row["summary"]) or any(said(_NOTE_PLACE.sub("", n, count=1))
                                       for n in json.loads(row["notes"])):
            return True
        for r in json.loads(row["reports"]):
            if said(r["message"] + "\n" + r.get("statement", ""), r["file"], r["line"]) or \
                    any(said(t["note"], t["file"], t["line"]) for t in r["trace"]):
                return True
    return False


def _text_digest(texts: dict) -> str:
    """NOTE [summary-digest]: a caller's cache key names each callee's summaries by a digest of
    their JSON text (as stored: sorted keys), so reused callees need not be decoded or encoded
    again; a fresh result and the same result read back give the same digest."""
    return hashlib.sha256("\x1f".join(f"{k}={v}" for k, v in sorted(texts.items()))
                          .encode()).hexdigest()


def _rows(program, results, checkers, version, cache_keys=None) -> list[tuple]:
    """Database rows: one per (function, checker), plus the engine's own facts."""
    rows = []
    for key, res in results.items():
        fn = program.functions[key]
        names = [c.name for c in checkers] + ["<engine>"]
        text = getattr(res.summaries, "text", None)   # a reused one's, as stored
        for name in names:
            reports = [r.to_record() for r in res.reports if r.checker == name]
            rows.append((key, name, fn.name, fn.file, fn.line, (cache_keys or {}).get(key, ""),
                         version, text(name) if text else res.summaries.get(name, {}),
                         res.status, res.notes, reports, round(res.seconds, 4)))
    return rows


class StoredSummaries(Mapping):
    """A reused function's summaries, by checker, decoded from their stored text only when a
    caller being analysed asks for them. A checker without a summary stored {} and is absent."""

    def __init__(self, texts: dict):
        self.texts = {k: v for k, v in texts.items() if v != "{}"}
        self.decoded: dict = {}

    def __getitem__(self, name):
        if name not in self.decoded:
            self.decoded[name] = json.loads(self.texts[name])
        return self.decoded[name]

    def __iter__(self):
        return iter(self.texts)

    def __len__(self):
        return len(self.texts)

    def text(self, name) -> str:
        """As stored (a moved function's rows are written again without decoding it)."""
        return self.texts.get(name, "{}")
