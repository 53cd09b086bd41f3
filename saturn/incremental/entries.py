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
from .lines import NUMBER_OR_LITERAL as _NUMBERS, moved_place

# The fields read without the body (all but _BODY's: a test checks).
META = ("key", "name", "file", "line", "end_line", "static", "notes", "callees",
        "fn_pointer_calls", "text", "digest", "line_values", "weight", "indirect", "fn_stores",
        "spawns", "inits", "signature", "unmodelled", "stand_ins")
_BODY = ("blocks", "params", "ret", "rv", "entry", "exit")
_FILL = re.compile("\0(-?\\d+)\0")


def dump(fn: N.Function, statics: list, uses: tuple, tags: dict, globs: dict, first: int,
         moving=None) -> bytes:
    """The entry of `fn` (lowered with `tags` and `globs`; its declaration's first line
    `first`), with its static locals and its global uses (program.global_uses); `moving`:
    what moves with its lines (`moving_part`), or None."""
    own = {id(g.sym) for g in statics}
    meta = {f: getattr(fn, f) for f in META}
    meta.update(line=fn.line - first, end_line=fn.end_line - first, first=first,
                notes=[_moved_note(n, fn.file, -first) for n in fn.notes],
                moving=moving is not None)
    if moving is not None:
        meta["line_values"] = tuple(v - first for v in fn.line_values)
    return pickle.dumps((meta, _pickled((statics, uses), fn.file, first, tags, globs, own),
                         _pickled(fn, fn.file, first, tags, globs, own, moving)),
                        protocol=pickle.HIGHEST_PROTOCOL)


def parts(entry: bytes) -> tuple:
    """(fields, what installing needs, body) of an entry, the last two still bytes."""
    return pickle.loads(entry)


def usable(parts: tuple, first: int) -> bool:
    """Whether an entry holds at a declaration starting on line `first`: not when it moved and
    has constants equal to their line that do not move with it (NOTE [line-constants]: a
    fresh lowering's digest would not count them as such)."""
    meta = parts[0]
    return meta["moving"] or not meta["line_values"] or meta["first"] == first


def install(entry: bytes, parts: tuple, tags: dict, globs: dict, first: int):
    """(the function of `entry` (unpickled: `parts`) with its body still bytes, its static
    locals, its global uses), placed at a declaration starting on line `first`."""
    meta, head, _ = parts
    statics, uses = _Loader(io.BytesIO(head), tags, globs, first).load()
    return lazy(meta, entry, tags, globs, first), statics, uses


def lazy(meta: dict, entry: bytes, tags: dict, globs: dict, first: int) -> "LazyFunction":
    """The function of `entry`, whose fields are `meta`, placed at a declaration starting on
    line `first`; its body is read from the entry when something reads it."""
    fn = LazyFunction.__new__(LazyFunction)
    fn.__dict__.update(meta)
    fn.__dict__.pop("first")
    fn.__dict__.pop("moving")
    fn.line, fn.end_line = meta["line"] + first, meta["end_line"] + first
    fn.notes = [_moved_note(n, meta["file"], first) for n in meta["notes"]]
    if meta["moving"]:
        fn.line_values = tuple(v + first for v in meta["line_values"])
    fn.__dict__["_body"] = (entry, tags, globs, first)
    return fn


class LazyFunction(N.Function):
    """A function whose body is still its entry's bytes (NOTE [function-entries])."""

    def __getattr__(self, name):   # only for what is not in the instance yet: the body
        body = self.__dict__.pop("_body", None)
        if body is None:
            raise AttributeError(name)
        entry, tags, globs, first = body
        fn = _Loader(io.BytesIO(parts(entry)[2]), tags, globs, first).load()
        for f in _BODY:
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
    return moved_place(note, lambda f, line: line + by if f == file else line)


def _relative(file, line, col):
    """What a coordinate in the function's own file is pickled as; `_Loader` shifts it."""
    return N.Coord(file, line, col)


def _struct_ref(tag):
    raise pickle.UnpicklingError("read by _Loader only")


def _global_ref(key):
    raise pickle.UnpicklingError("read by _Loader only")


def _line_const(ctype, rel):
    raise pickle.UnpicklingError("read by _Loader only")


def _line_node(cls, fields, template):
    raise pickle.UnpicklingError("read by _Loader only")


def _pickled(obj, file: str, first: int, tags: dict, globs: dict, own: set,
             moving=None) -> bytes:
    ids, texts = moving or (set(), {})

    def coord(c):
        return (_relative, (c.file, c.line - first, c.col)) if c.file == file else \
            (N.Coord, (c.file, c.line, c.col))

    def struct(st):
        return (_struct_ref, (st.tag,)) if tags.get(st.tag) is st else st.__reduce_ex__(5)

    def symbol(s):
        g = globs.get(s.key) if s.kind == "global" and id(s) not in own else None
        return (_global_ref, (s.key,)) if g is not None and g.sym is s else s.__reduce_ex__(5)
    def const(c):
        return (_line_const, (c.type, c.value - first)) if id(c) in ids else c.__reduce_ex__(5)

    def texted(x):   # a call or branch whose text writes one of its line literals
        template = _NUMBERS.sub(lambda m: f"\0{texts[m[0]]}\0" if m[0] in texts else m[0],
                                x.text) if texts else x.text
        return (_line_node, (type(x), {f: getattr(x, f) for f in x.__dataclass_fields__},
                             template)) if template != x.text else x.__reduce_ex__(5)
    buf = io.BytesIO()
    pickler = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = copyreg.dispatch_table.copy()
    pickler.dispatch_table.update({N.Coord: coord, T.StructT: struct, N.Symbol: symbol,
                                   N.Const: const, N.Call: texted, N.Branch: texted})
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
                "_global_ref": lambda key: globs[key].sym,
                "_line_const": lambda ctype, rel: N.Const(ctype, first + rel),
                "_line_node": lambda cls, fields, template: cls(**dict(fields, text=_FILL.sub(
                    lambda m: str(first + int(m[1])), template)))}
        return made.get(name) or super().find_class(module, name)


def moving_part(fn: N.Function, literals: dict, own: dict, every: dict, first: int):
    """(ids of the constants that move, the numbers' texts -> their line less `first`), or
    None when the function's IR cannot move with its lines (NOTE [line-literals]).
    `literals`: id(Const) -> id(its AST node), from the lowering; `own`/`every`: how many
    times each number is a line literal in its text / is written there
    (lines.line_literals)."""
    values = set(own)
    if not values or any(every[v] != own[v] for v in values) or \
            {str(v) for v in fn.line_values} != values:
        return None
    found, other_texts = {}, []
    for x in _nodes(fn):
        if isinstance(x, N.Const) and id(x) in literals:
            found[id(x)] = literals[id(x)]
        elif isinstance(x, (N.Note, N.Unknown)):
            other_texts.append(x.text if isinstance(x, N.Note) else x.reason)
    if len(set(found.values())) != sum(own.values()) or any(
            m[0] in values for t in other_texts for m in _NUMBERS.finditer(t)):
        return None
    return set(found), {v: int(v) - first for v in values}


def _nodes(fn):
    """Every IR node of the function's body (statements, terminators, what they hold)."""
    stack = [x for blk in fn.blocks.values() for x in (*blk.stmts, blk.term)]
    while stack:
        x = stack.pop()
        if isinstance(x, (tuple, list)):
            stack.extend(x)
        elif hasattr(x, "__dataclass_fields__") and \
                not isinstance(x, (N.Symbol, N.Coord, T.CType)):   # (types may be cyclic)
            yield x
            stack.extend(getattr(x, f) for f in x.__dataclass_fields__)
