"""Lowered functions cached one by one, so a unit with one edited body lowers only that body.

NOTE [function-cache]: after a one-function edit the unit cache (NOTE [unit-cache]) misses, and
lowering SQLite's 2,500 functions again and hashing their IR was ~7 s of a 14 s re-check. A
main-file function's lowered IR is kept under a hash of its own text (BodyCache.key: lines
relative to its first, NOTE [body-cache]) and of its *context*: everything before it in the
pruned text — gcc's line markers without their numbers, the other function definitions by
their prototypes only. Lowering a body reads the declarations before it and, but for a few
constructs, writes nothing outside the function: those (a block-scope `extern` or prototype,
a tag completed in an outer scope; ir/lower.py tracks them) make the function *impure*, and an
impure function is neither cached nor folded into later contexts as a prototype: its whole
text is. An edit inside a pure body therefore changes no other function's key.

A cached entry refers to the unit's file-scope structs and globals by tag and key (pickled as
references, resolved against this lowering's tables), and keeps coordinates in its own file
relative to its first line, so a function that moved loads at its new place. (Unlike the
summaries' digest, NOTE [line-constants], the key is the exact text: a __LINE__ that moved is
another number in it, and a constant that merely equals its line is right wherever it is.)

Before parsing, `predict` walks the same keys and finds which entries are there: those
definitions are parsed as one-token stubs (BodyCache.parse), and the lowering replays what
their prototypes did (a file-scope name, lock annotations) and installs the cached IR. A
prediction that fails (an entry that does not load) has the unit parsed and lowered again
without stubs. A unit's entries live in one pack file per (file, --root): opening 2,500 small
files was ~0.5 s by itself; each lowering rewrites the pack with the entries it used.
"""
from __future__ import annotations

import bisect
import hashlib
import os
import pickle
import re

from .files import write_later
from .fnpickle import META, check, dump, lazy_install, load_blob, moving_part

# A definition whose lowered IR is cached stands in the AST as `int FN_STUB<i>;` (declruns.py).
FN_STUB = STUB = "__saturn_fn_"

_MARKER_LINE = re.compile(r"(#(?<![^\n]#)\s*)\d+")   # a marker's line (as LINE_MARKER)
_IMPURE = b""


class FunctionCache:
    """The cache as one unit's front end sees it: `predict` before parsing, then ir/lower.py
    asks in order for each main-file definition (`slot`) or stub (`stubbed`); `finish`."""

    def __init__(self, directory: str, salt: str, bodies):
        self.bodies, self.salt = bodies, salt
        self.path = os.path.join(directory, "functions",
                                 hashlib.sha256(salt.encode()).hexdigest()[:40] + ".pack")
        try:
            with open(self.path, "rb") as fh:
                self.old = pickle.load(fh)
        except Exception:   # none yet, or damaged: every function is lowered
            self.old = {}
        self.old = self.old if isinstance(self.old, dict) else {}
        self.new: dict[str, bytes] = {}
        self.blobs: dict[str, tuple] = {}   # function key: (function, its line, pickled IR)
        self.hits = self.misses = 0
        self.failed = False   # a predicted entry did not load: the unit is lowered again
        self.predicted: dict[int, str | None] = {}   # `predict`'s keys, and the purity they
        self.assumed: dict[int, bool] = {}           # took of the definitions before each
        self.text = self.decls = None
        self.start("", [], set())

    def start(self, text: str, decls: list, stubs: set, spans=None) -> None:
        """Begin the walk through `decls` (of the text the AST was parsed from; `spans`:
        decl_spans(text, decls), if the caller has them)."""
        if text is not self.text or decls is not self.decls:
            self.predicted, self.assumed = {}, {}
        self.text, self.decls, self.stubs = text, decls, stubs
        if not spans:   # bodycache imports pycparser: only when a unit is lowered (NOTE [startup])
            from .bodycache import decl_spans
            spans = decl_spans(text, decls)
        self.spans = spans
        self.mains = [i for i, d in enumerate(decls) if d.body and d.main]
        self.firsts = [self.spans[i][1] for i in self.mains]
        self.pure: dict[int, bool] = {}
        self.context, self.done, self.prev_end = hashlib.sha256(self.salt.encode()), 0, 0
        self.checked, self.diverged = 0, False

    def predict(self, text: str, decls: list, spans=None) -> set:
        """The indices of the definitions whose entries are here (one with no entry is taken
        to be pure, as it most likely is)."""
        self.start(text, decls, set(), spans)
        stubs = set()
        for i in self.mains:
            keys = self._keys(i)
            entry = self._found(keys)[1]
            if keys:
                self.pure[i] = entry != _IMPURE
            if entry and self._stubbable(i):
                stubs.add(i)
            self.predicted[i] = keys
        self.assumed = dict(self.pure)
        return stubs

    def stub_index(self, name: str) -> int | None:
        return int(name[len(STUB):]) if name.startswith(STUB) else None

    def slot(self, decl) -> "_Slot | None":
        """The entry of the main-file definition `decl` (its context folded in first), or
        None when it is not one of the scanned bodies."""
        i = self._index(decl.coord)
        return None if i is None else _Slot(self, i, self._keys(i))

    def stubbed(self, lowerer, i: int):
        """(function, statics, uses) for the stub of definition `i`, its prototype replayed;
        None (and the unit lowered again) if it does not load."""
        got = _Slot(self, i, self._keys(i)).load(lowerer) if i in self.stubs else None
        if got is None:
            self.failed = True
            return None
        (fn, statics, uses), (name, entry, notes) = got[:3], got[3]
        lowerer.file_scope.names[name] = entry
        lowerer.program.add_attributes(fn.key, notes)
        return fn, statics, uses

    def finish(self) -> None:
        """Keep the entries this lowering used or made, and only those."""
        if self.new != self.old and not self.failed:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            new = self.new   # NOTE [background-writes]: not changed after this
            write_later(self.path, lambda: pickle.dumps(new, protocol=pickle.HIGHEST_PROTOCOL))

    def _index(self, c) -> int | None:
        k = bisect.bisect_right(self.firsts, c.line) - 1 if c is not None else -1
        # Several starting on c's line (a macro defining them): the last that starts before c.
        while k >= 0 and self.firsts[k] == c.line and self._column(self.mains[k]) > c.column:
            k -= 1
        if k < 0:
            return None
        i = self.mains[k]
        file, first, last = self.spans[i]
        if file != c.file or not first <= c.line <= last or i < self.done:
            return None
        return i

    def _keys(self, i: int) -> tuple:
        """Its keys: under its text with line literals as __LINE__ (an entry whose IR moves
        with its lines: NOTE [moved-line-constants] in fnpickle.py), then as it is; one when
        those are the same; none when it cannot be cached."""
        if self._as_predicted(i):
            return self.predicted[i]
        self._fold(i)
        file, first, _ = self.spans[i]
        context = self.context.hexdigest()
        return tuple(hashlib.sha256((context + own).encode()).hexdigest()[:40]
                     for own in self.bodies.keys(self.text, self.decls[i], file, first,
                                                 stubbed=False))

    def _found(self, keys: tuple) -> tuple:
        """(the first of `keys` with an entry, the entry), or (None, None)."""
        return next(((k, self.old[k]) for k in keys if k in self.old), (None, None))

    def _as_predicted(self, i: int) -> bool:
        """Whether `predict`'s key for `i` holds: every definition before it turned out as
        pure or impure as it assumed (else the context is hashed again, from the start)."""
        while not self.diverged and self.checked < len(self.mains) and \
                self.mains[self.checked] < i:
            j = self.mains[self.checked]
            self.diverged = self.pure.get(j) != self.assumed.get(j)
            self.checked += 1
        return not self.diverged and i in self.predicted and self.done == 0

    def _stubbable(self, i: int) -> bool:
        """Whether a stub can stand for it (NOTE [body-cache]): not when a declaration shares
        one of its lines (a macro defining several: zstd's 84 `ZSTD_*FindBestMatch_*` and
        such, whose columns a stub would move); those are parsed, and their IR is loaded
        (`slot`, told apart by their columns)."""
        file, first, last = self.spans[i]
        before = self.spans[i - 1] if i else None
        after = self.spans[i + 1] if i + 1 < len(self.spans) else None
        end = self.decls[i].end
        return not ((before is not None and before[0] == file and before[2] >= first) or
                    (after is not None and after[0] == file and after[1] <= last)) and \
            self.text[end:end + 1] in ("\n", "")

    def _column(self, i: int) -> int:
        start = self.decls[i].start
        return start - self.text.rfind("\n", 0, start)

    def _fold(self, upto: int) -> None:
        """Hash declarations [done, upto) into the context."""
        for j in range(self.done, upto):
            d = self.decls[j]
            chunk = self.text[d.start:d.end]
            if d.body and (not d.main or self.pure.get(j)):
                chunk = _prototype(chunk) or chunk
            self.context.update(_MARKER_LINE.sub(r"\1", self.text[self.prev_end:d.start] +
                                                 "\0" + chunk + "\0").encode())
            self.prev_end = d.end
        self.done = max(self.done, upto)

    def _at(self, entry: bytes, i: int) -> tuple:
        """(the function's line here, its pickled IR, what installing it needs without the IR
        or None: NOTE [lazy-install], whether its line literals move)."""
        first, base, data, head, checked, moving = pickle.loads(entry)
        if check(data) != checked:   # a body read later must load: damage is seen here
            raise pickle.UnpicklingError("damaged entry")
        return base + self.spans[i][1] - first, data, head, moving


class _Slot:
    def __init__(self, cache: FunctionCache, index: int, keys: tuple):
        self.cache, self.index, self.keys = cache, index, keys

    def load(self, lowerer):
        """(function, its static locals, its global_uses, its prototype's effect) from the
        cache; None on a miss."""
        key, entry = self.cache._found(self.keys)
        if not entry:
            return None
        try:
            line, data, head, moving = self.cache._at(entry, self.index)
            tags, globs = lowerer.file_scope.tags, lowerer.program.globals
            fn, statics, uses, proto = load_blob(data, tags, globs, line, moving) \
                if head is None else lazy_install(data, head, tags, globs, line, moving)
        except Exception:   # damaged, or naming a struct or global not here
            return None
        self.cache.pure[self.index] = True
        self.cache.new[key] = entry
        self.cache.blobs[fn.key] = (fn, line, data, moving)
        self.cache.hits += 1
        return fn, statics, uses, proto

    def save(self, lowerer, fn, statics: list, uses: tuple, pure: bool, literals=None) -> None:
        """Record the function's purity (for later contexts); keep it if it is pure.
        `literals`: the Consts its lowering made of line literals (Builder.line_literals)."""
        from ..ir.digest import ir_digest
        self.cache.misses += 1
        if not self.keys:
            return
        self.cache.pure[self.index] = pure
        if not pure:
            self.cache.new[self.keys[-1]] = _IMPURE
            return
        ir_digest(fn)
        moving = self._moving(fn, literals or {}) if len(self.keys) > 1 else None
        proto = (fn.name, lowerer.file_scope.names.get(fn.name),
                 lowerer.program.attributes.get(fn.key))
        own = {id(g.sym) for g in statics}
        try:
            data = dump((fn, statics, uses, proto), lowerer, fn, own, moving)
            # NOTE [lazy-install]: what installing it needs, without the body (none for a
            # function with notes: their lines are absolute).
            head = None if fn.notes else dump(
                (statics, uses, proto, {f: getattr(fn, f) for f in META}), lowerer, fn, own,
                moving)
        except (RecursionError, pickle.PickleError, TypeError):
            return
        self.cache.new[self.keys[0] if moving else self.keys[-1]] = pickle.dumps(
            (self.cache.spans[self.index][1], fn.line, data, head, check(data), bool(moving)),
            protocol=pickle.HIGHEST_PROTOCOL)
        self.cache.blobs[fn.key] = (fn, fn.line, data, bool(moving))

    def _moving(self, fn, literals: dict):
        from .bodycache import line_literals
        c = self.cache
        d = c.decls[self.index]
        return moving_part(fn, literals, *line_literals(c.text[d.start:d.end],
                                                        c.spans[self.index][1]))


def _prototype(chunk: str) -> str | None:
    """A definition's text before its body (None when its first top-level brace does not
    follow a parameter list: a struct defined in its return type)."""
    brace = chunk.find("{")
    head = chunk[:brace]
    if brace >= 0 and head.count("(") == head.count(")"):   # at depth 0: the usual case
        return head if ")" in head else None
    depth = 0
    for k, ch in enumerate(chunk):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "{" and depth == 0:
            head = chunk[:k]
            return head if ")" in head and "{" not in head else None
    return None
