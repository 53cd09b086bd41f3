"""A lowered function as the function cache keeps it: bytes that load at another line.

NOTE [function-entries]: an entry is (the fields the driver, the call graph and the result cache
read, what installing the function needs, its body), the last two pickled apart. Coordinates
in the function's own file are kept relative to its first line, so it loads wherever it moved;
the unit's structs and globals are kept as references (by tag and key), resolved against the
lowering it is installed into. The body stays bytes until something reads it (`LazyFunction`):
a re-check analyses a few functions of a unit and reads the others' names, callees and digests
only. A lowered unit stores its functions as their entries (units.py), so loading it unpickles
no body either.
"""
from __future__ import annotations

import copyreg
import io
import pickle
import re

from ..ir import nodes as N
from ..ir import types as T

# The fields read without the body.
META = ("key", "name", "file", "line", "end_line", "static", "notes", "callees",
        "fn_pointer_calls", "text", "digest", "line_values", "weight")
_NOTE_LINE = re.compile(r"^([^:]*):(\d+):")


def dump(fn: N.Function, statics: list, uses: tuple, tags: dict, globs: dict,
         first: int) -> bytes:
    """The entry of `fn` (lowered with `tags` and `globs`; its declaration's first line
    `first`), with its static locals and its global uses (program.global_uses)."""
    own = {id(g.sym) for g in statics}
    meta = {f: getattr(fn, f) for f in META}
    meta.update(line=fn.line - first, end_line=fn.end_line - first, first=first,
                notes=[_moved_note(n, fn.file, -first) for n in fn.notes])
    return pickle.dumps((meta, _pickled((statics, uses), fn.file, first, tags, globs, own),
                         _pickled(fn, fn.file, first, tags, globs, own)),
                        protocol=pickle.HIGHEST_PROTOCOL)


def parts(entry: bytes) -> tuple:
    """(fields, what installing needs, body) of an entry, the last two still bytes."""
    return pickle.loads(entry)


def usable(parts: tuple, first: int) -> bool:
    """Whether an entry holds at a declaration starting on line `first`: not when it moved and
    has constants equal to their line (NOTE [line-constants]: a fresh lowering's digest would
    not count them as such)."""
    meta = parts[0]
    return not meta["line_values"] or meta["first"] == first


def install(parts: tuple, tags: dict, globs: dict, first: int):
    """(the function with its body still bytes, its static locals, its global uses), placed at
    a declaration starting on line `first`."""
    meta, head, body = parts
    statics, uses = _Loader(io.BytesIO(head), tags, globs, first).load()
    return lazy(meta, body, tags, globs, first), statics, uses


def lazy(meta: dict, body: bytes, tags: dict, globs: dict, first: int) -> "LazyFunction":
    fn = LazyFunction.__new__(LazyFunction)
    fn.__dict__.update(meta)
    fn.__dict__.pop("first")
    fn.line, fn.end_line = meta["line"] + first, meta["end_line"] + first
    fn.notes = [_moved_note(n, meta["file"], first) for n in meta["notes"]]
    fn.__dict__["_body"] = (body, tags, globs, first)
    return fn


class LazyFunction(N.Function):
    """A function whose body is still its entry's bytes (NOTE [function-entries])."""

    def __getattr__(self, name):   # only for what is not in the instance yet: the body
        body = self.__dict__.pop("_body", None)
        if body is None:
            raise AttributeError(name)
        data, tags, globs, first = body
        fn = _Loader(io.BytesIO(data), tags, globs, first).load()
        for f in ("blocks", "params", "ret", "rv", "entry", "exit"):
            self.__dict__[f] = getattr(fn, f)
        return getattr(self, name)

    def __reduce_ex__(self, protocol):   # a worker or a cache gets a plain function
        getattr(self, "blocks")
        return _function, (dict(self.__dict__),)


def _function(state: dict) -> N.Function:
    fn = N.Function.__new__(N.Function)
    fn.__dict__.update(state)
    return fn


def _moved_note(note: str, file: str, by: int) -> str:
    m = _NOTE_LINE.match(note)
    if m is None or m[1] != file:
        return note
    return f"{m[1]}:{int(m[2]) + by}:{note[m.end():]}"


def _relative(file, line, col):
    """What a coordinate in the function's own file is pickled as; `_Loader` shifts it."""
    return N.Coord(file, line, col)


def _struct_ref(tag):
    raise pickle.UnpicklingError("read by _Loader only")


def _global_ref(key):
    raise pickle.UnpicklingError("read by _Loader only")


def _pickled(obj, file: str, first: int, tags: dict, globs: dict, own: set) -> bytes:
    def coord(c):
        return (_relative, (c.file, c.line - first, c.col)) if c.file == file else \
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
    pickler.dump(obj)
    return buf.getvalue()


class _Loader(pickle.Unpickler):
    def __init__(self, fh, tags: dict, globs: dict, first: int):
        super().__init__(fh)
        self.tags, self.globs, self.first = tags, globs, first

    def find_class(self, module, name):
        if module != __name__:
            return super().find_class(module, name)
        first, globs = self.first, self.globs
        made = {"_relative": lambda file, line, col: N.Coord(file, line + first, col),
                "_struct_ref": self.tags.__getitem__,
                "_global_ref": lambda key: globs[key].sym}
        return made.get(name) or super().find_class(module, name)
