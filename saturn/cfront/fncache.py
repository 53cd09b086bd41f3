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
import copyreg
import hashlib
import io
import os
import pickle
import re

from ..ir import nodes as N
from ..ir import types as T
from .files import write_atomically

# A definition whose lowered IR is cached stands in the AST as `int FN_STUB<i>;` (declruns.py).
FN_STUB = STUB = "__saturn_fn_"

_MARKER_LINE = re.compile(r"^(#\s*)\d+", re.M)
_IMPURE = b""


def _relative(file, line, col):
    """What a coordinate in the function's own file is pickled as; `_Loader` shifts it."""
    return N.Coord(file, line, col)


def _struct_ref(tag):
    raise pickle.UnpicklingError("read by _Loader only")


def _global_ref(key):
    raise pickle.UnpicklingError("read by _Loader only")


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
            key = self._key(i) if not self._shares_a_line(i) else None
            entry = self.old.get(key) if key is not None else None
            if key is not None:
                self.pure[i] = entry != _IMPURE
            if entry:
                stubs.add(i)
            self.predicted[i] = key
        self.assumed = dict(self.pure)
        return stubs

    def stub_index(self, name: str) -> int | None:
        return int(name[len(STUB):]) if name.startswith(STUB) else None

    def slot(self, decl) -> "_Slot | None":
        """The entry of the main-file definition `decl` (its context folded in first), or
        None when it is not one of the scanned bodies."""
        i = self._index(decl.coord)
        return None if i is None else _Slot(self, i, self._key(i))

    def stubbed(self, lowerer, i: int):
        """(function, statics, uses) for the stub of definition `i`, its prototype replayed;
        None (and the unit lowered again) if it does not load."""
        got = _Slot(self, i, self._key(i)).load(lowerer) if i in self.stubs else None
        if got is None:
            self.failed = True
            return None
        (fn, statics, uses), (name, entry, notes) = got[:3], got[3]
        lowerer.file_scope.names[name] = entry
        if notes:
            lowerer.program.lock_annotations.setdefault(fn.key, notes)
        return fn, statics, uses

    def finish(self) -> None:
        """Keep the entries this lowering used or made, and only those."""
        if self.new != self.old and not self.failed:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            write_atomically(self.path, pickle.dumps(self.new, protocol=pickle.HIGHEST_PROTOCOL))

    def _index(self, c) -> int | None:
        k = bisect.bisect_right(self.firsts, c.line) - 1 if c is not None else -1
        if k < 0:
            return None
        i = self.mains[k]
        file, first, last = self.spans[i]
        if file != c.file or not first <= c.line <= last or i < self.done or \
                self._shares_a_line(i):
            return None
        return i

    def _key(self, i: int) -> str | None:
        if self._as_predicted(i):
            return self.predicted[i]
        self._fold(i)
        file, first, _ = self.spans[i]
        own = self.bodies.key(self.text, self.decls[i], file, first, exact=True)
        return None if own is None else \
            hashlib.sha256((self.context.hexdigest() + own).encode()).hexdigest()[:40]

    def _as_predicted(self, i: int) -> bool:
        """Whether `predict`'s key for `i` holds: every definition before it turned out as
        pure or impure as it assumed (else the context is hashed again, from the start)."""
        while not self.diverged and self.checked < len(self.mains) and \
                self.mains[self.checked] < i:
            j = self.mains[self.checked]
            self.diverged = self.pure.get(j) != self.assumed.get(j)
            self.checked += 1
        return not self.diverged and i in self.predicted and self.done == 0

    def _shares_a_line(self, i: int) -> bool:
        """Declarations on one line (a macro defining several) are told apart by none of
        this: they are lowered every time."""
        file, first, last = self.spans[i]
        before = self.spans[i - 1] if i else None
        after = self.spans[i + 1] if i + 1 < len(self.spans) else None
        return (before is not None and before[0] == file and before[2] >= first) or \
            (after is not None and after[0] == file and after[1] <= last)

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
        or None: NOTE [lazy-install])."""
        first, base, data, head, check = pickle.loads(entry)
        if _check(data) != check:   # a body read later must load: damage is seen here
            raise pickle.UnpicklingError("damaged entry")
        return base + self.spans[i][1] - first, data, head


class _Slot:
    def __init__(self, cache: FunctionCache, index: int, key: str | None):
        self.cache, self.index, self.key = cache, index, key

    def load(self, lowerer):
        """(function, its static locals, its global_uses, its prototype's effect) from the
        cache; None on a miss."""
        entry = self.cache.old.get(self.key) if self.key is not None else None
        if not entry:
            return None
        try:
            line, data, head = self.cache._at(entry, self.index)
            tags, globs = lowerer.file_scope.tags, lowerer.program.globals
            fn, statics, uses, proto = load_blob(data, tags, globs, line) if head is None \
                else _lazy(data, head, tags, globs, line)
        except Exception:   # damaged, or naming a struct or global not here
            return None
        self.cache.pure[self.index] = True
        self.cache.new[self.key] = entry
        self.cache.blobs[fn.key] = (fn, line, data)
        self.cache.hits += 1
        return fn, statics, uses, proto

    def save(self, lowerer, fn, statics: list, uses: tuple, pure: bool) -> None:
        """Record the function's purity (for later contexts); keep it if it is pure."""
        from ..ir.digest import ir_digest
        self.cache.misses += 1
        if self.key is None:
            return
        self.cache.pure[self.index] = pure
        if not pure:
            self.cache.new[self.key] = _IMPURE
            return
        ir_digest(fn)
        proto = (fn.name, lowerer.file_scope.names.get(fn.name),
                 lowerer.program.lock_annotations.get(fn.key))
        own = {id(g.sym) for g in statics}
        try:
            data = _dump((fn, statics, uses, proto), lowerer, fn, own)
            # NOTE [lazy-install]: what installing it needs, without the body (none for a
            # function with notes: their lines are absolute).
            head = None if fn.notes else \
                _dump((statics, uses, proto, {f: getattr(fn, f) for f in META}), lowerer, fn, own)
        except (RecursionError, pickle.PickleError, TypeError):
            return
        self.cache.new[self.key] = pickle.dumps(
            (self.cache.spans[self.index][1], fn.line, data, head, _check(data)),
            protocol=pickle.HIGHEST_PROTOCOL)
        self.cache.blobs[fn.key] = (fn, fn.line, data)


def _dump(entry, lowerer, fn, own: set) -> bytes:
    tags, globs, file, base = lowerer.file_scope.tags, lowerer.program.globals, fn.file, fn.line

    def coord(c):
        return (_relative, (c.file, c.line - base, c.col)) if c.file == file else \
            (N.Coord, (c.file, c.line, c.col))

    def struct(st):
        return (_struct_ref, (st.tag,)) if tags.get(st.tag) is st else st.__reduce_ex__(5)

    def symbol(s):
        g = globs.get(s.key) if s.kind == "global" and id(s) not in own else None
        return (_global_ref, (s.key,)) if g is not None and g.sym is s else s.__reduce_ex__(5)
    buf = io.BytesIO()
    pickler = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = copyreg.dispatch_table.copy()
    pickler.dispatch_table.update({N.Coord: coord, T.StructT: struct, N.Symbol: symbol})
    pickler.dump(entry)
    return buf.getvalue()


def _check(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


# The fields read without the body (NOTE [packed-units], NOTE [lazy-install]).
META = ("key", "name", "file", "line", "end_line", "static", "notes", "callees",
        "fn_pointer_calls", "text", "digest", "line_values", "weight")


class LazyFunction(N.Function):
    """A function whose body is still the cache entry's bytes (NOTE [packed-units])."""

    def __getattr__(self, name):   # only for what is not in the instance yet: the body
        blob = self.__dict__.pop("_blob", None)
        if blob is None:
            raise AttributeError(name)
        self.__dict__.update(load_blob(*blob)[0].__dict__)
        return getattr(self, name)

    def __reduce_ex__(self, protocol):   # a worker or a cache gets a plain function
        getattr(self, "blocks")
        return _function, (dict(self.__dict__),)


def _function(state: dict) -> N.Function:
    fn = N.Function.__new__(N.Function)
    fn.__dict__.update(state)
    return fn


def lazy_function(meta: dict, blob: tuple) -> LazyFunction:
    fn = LazyFunction.__new__(LazyFunction)
    fn.__dict__.update(meta)
    fn.__dict__["_blob"] = blob
    return fn


def _lazy(data: bytes, head: bytes, tags: dict, globs: dict, base: int):
    """NOTE [lazy-install]: after a one-function edit the lowering installed every other
    main-file function from the cache, unpickling its whole IR (SQLite: ~0.6 s of a 4.7 s
    re-check) for the few a re-check analyses. The entry also keeps, pickled apart, what the
    lowering and the driver read — static locals, global uses, the prototype's effect and the
    META fields —, and the body stays bytes until something reads it."""
    statics, uses, proto, meta = _Loader(io.BytesIO(head), tags, globs, base).load()
    meta = dict(meta, line=base, end_line=meta["end_line"] + base - meta["line"])
    return lazy_function(meta, (data, tags, globs, base)), statics, uses, proto


def load_blob(data: bytes, tags: dict, globs: dict, base: int):
    """What `_dump` made, its structs and globals taken from `tags` and `globs`, its
    function placed at line `base`."""
    entry = _Loader(io.BytesIO(data), tags, globs, base).load()
    fn = entry[0]
    fn.line, fn.end_line = base, fn.end_line + base - fn.line
    fn.notes = sorted({f"{s.coord}: {s.text}" for blk in fn.blocks.values()
                       for s in blk.stmts if isinstance(s, N.Note)})
    return entry


class _Loader(pickle.Unpickler):
    def __init__(self, fh, tags: dict, globs: dict, base: int):
        super().__init__(fh)
        self.tags, self.globs, self.base = tags, globs, base

    def find_class(self, module, name):
        if module == __name__ and name == "_relative":
            base = self.base
            return lambda file, line, col: N.Coord(file, line + base, col)
        if module == __name__ and name == "_struct_ref":
            return self.tags.__getitem__
        if module == __name__ and name == "_global_ref":
            globs = self.globs
            return lambda key: globs[key].sym
        return super().find_class(module, name)


def _prototype(chunk: str) -> str | None:
    """A definition's text before its body (None when its first top-level brace does not
    follow a parameter list: a struct defined in its return type)."""
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
