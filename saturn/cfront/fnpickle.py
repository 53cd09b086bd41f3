"""How the function cache (NOTE [function-cache] in fncache.py) pickles a lowered function:
coordinates in its own file relative to its first line, the unit's structs and globals by
reference, and the constants and texts made from its line literals relative to that line
(NOTE [moved-line-constants]); and how it loads one at its new place, its body maybe later."""
from __future__ import annotations

import copyreg
import hashlib
import io
import pickle
import re

from ..ir import nodes as N
from ..ir import types as T
from ..ir.digest import NUMBER_OR_LITERAL


def _relative(file, line, col):
    """What a coordinate in the function's own file is pickled as; `_Loader` shifts it."""
    return N.Coord(file, line, col)


def _struct_ref(tag):
    raise pickle.UnpicklingError("read by _Loader only")


def _global_ref(key):
    raise pickle.UnpicklingError("read by _Loader only")


def dump(entry, lowerer, fn, own: set, moving=None) -> bytes:
    """`moving`: what moves with the function's lines (`moving_part`), or None."""
    tags, globs, file, base = lowerer.file_scope.tags, lowerer.program.globals, fn.file, fn.line
    ids, texts = moving or (set(), {})

    def coord(c):
        return (_relative, (c.file, c.line - base, c.col)) if c.file == file else \
            (N.Coord, (c.file, c.line, c.col))

    def struct(st):
        return (_struct_ref, (st.tag,)) if tags.get(st.tag) is st else st.__reduce_ex__(5)

    def symbol(s):
        g = globs.get(s.key) if s.kind == "global" and id(s) not in own else None
        return (_global_ref, (s.key,)) if g is not None and g.sym is s else s.__reduce_ex__(5)

    def const(c):
        return (_line_const, (c.type, c.value - base)) if id(c) in ids else c.__reduce_ex__(5)

    def texted(x):   # a call or branch whose text writes one of its line literals
        template = NUMBER_OR_LITERAL.sub(
            lambda m: f"\0{texts[m[0]]}\0" if m[0] in texts else m[0], x.text) if texts else x.text
        return (_line_node, (type(x), {f: getattr(x, f) for f in x.__dataclass_fields__},
                             template)) if template != x.text else x.__reduce_ex__(5)
    buf = io.BytesIO()
    pickler = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = copyreg.dispatch_table.copy()
    pickler.dispatch_table.update({N.Coord: coord, T.StructT: struct, N.Symbol: symbol,
                                   N.Const: const, N.Call: texted, N.Branch: texted})
    pickler.dump(entry)
    return buf.getvalue()


# NOTE [moved-line-constants] (the IR side; the AST side is in bodycache.py): a function below
# an edit that adds a line moved, and each `assert` in it wrote its own line (zstd's first
# re-check lowered 10 such functions again, 0.16 s). A function whose text has line literals
# (numbers equal to their line, outside string and character literals) is kept under its text
# with them as __LINE__, if its IR moves with its lines exactly: each literal became Consts
# of the IR (the lowering marks those it makes: Builder.line_literals), no number is written
# in the text both as a line literal and otherwise, the digest's line values are those (so the
# digest does not change when it moves), and only call and branch texts write them. Then the
# Consts, and those numbers in those texts, are kept relative to the function's first line.
# Otherwise it is kept under its exact text, as before.
_FILL = re.compile("\0(-?\\d+)\0")


def moving_part(fn, literals: dict, own: dict, every: dict):
    """(ids of the Consts that move, the numbers' texts -> their line less the function's),
    or None when its IR cannot move with its lines (NOTE [moved-line-constants]). `literals`:
    id(Const) -> (Const, id(its AST node), file); `own`/`every`: how many times each number is
    a line literal in its text / is written there (bodycache.line_literals)."""
    values = {v for v, n in own.items() if n}
    if not values or any(every[v] != own[v] for v in values) or \
            {str(v) for v in fn.line_values} != values:
        return None
    found, other_texts = {}, []
    for x in _nodes(fn):
        if isinstance(x, N.Const) and id(x) in literals and literals[id(x)][2] == fn.file:
            found[id(x)] = literals[id(x)][1]
        elif isinstance(x, (N.Note, N.Unknown)):
            other_texts.append(x.text if isinstance(x, N.Note) else x.reason)
    if len(set(found.values())) != sum(own[v] for v in values) or any(
            m[0] in values for t in other_texts for m in NUMBER_OR_LITERAL.finditer(t)):
        return None
    return set(found), {v: int(v) - fn.line for v in values}


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


def _line_const(ctype, rel):
    raise pickle.UnpicklingError("read by _Loader only")


def _line_node(cls, fields, template):
    raise pickle.UnpicklingError("read by _Loader only")


def check(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


# The fields read without the body (NOTE [packed-units], NOTE [lazy-install]).
META = ("key", "name", "file", "line", "end_line", "static", "notes", "callees",
        "fn_pointer_calls", "text", "digest", "line_values", "weight", "indirect", "fn_stores",
        "spawns", "inits")


class LazyFunction(N.Function):
    """A function whose body is still the cache entry's bytes (NOTE [packed-units])."""

    def __getattr__(self, name):   # only for what is not in the instance yet: the body
        blob = self.__dict__.pop("_blob", None)
        if blob is None:
            raise AttributeError(name)
        for k, v in load_blob(*blob)[0].__dict__.items():   # what is here already stays:
            self.__dict__.setdefault(k, v)                  # callees ir/indirect.py added
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


def lazy_install(data: bytes, head: bytes, tags: dict, globs: dict, base: int,
                 moving: bool = False):
    """NOTE [lazy-install]: after a one-function edit the lowering installed every other
    main-file function from the cache, unpickling its whole IR (SQLite: ~0.6 s of a 4.7 s
    re-check) for the few a re-check analyses. The entry also keeps, pickled apart, what the
    lowering and the driver read — static locals, global uses, the prototype's effect and the
    META fields —, and the body stays bytes until something reads it."""
    statics, uses, proto, meta = _Loader(io.BytesIO(head), tags, globs, base).load()
    by = base - meta["line"]
    meta = dict(meta, line=base, end_line=meta["end_line"] + by,
                line_values=tuple(v + by for v in meta["line_values"]) if moving
                else meta["line_values"])
    return lazy_function(meta, (data, tags, globs, base, moving)), statics, uses, proto


def load_blob(data: bytes, tags: dict, globs: dict, base: int, moving: bool = False):
    """What `dump` made, its structs and globals taken from `tags` and `globs`, its
    function placed at line `base` (its line values with it, if its line literals move)."""
    entry = _Loader(io.BytesIO(data), tags, globs, base).load()
    fn = entry[0]
    if moving:
        fn.line_values = tuple(v + base - fn.line for v in fn.line_values)
    fn.line, fn.end_line = base, fn.end_line + base - fn.line
    fn.notes = sorted({f"{s.coord}: {s.text}" for blk in fn.blocks.values()
                       for s in blk.stmts if isinstance(s, N.Note)})
    return entry


class _Loader(pickle.Unpickler):
    def __init__(self, fh, tags: dict, globs: dict, base: int):
        super().__init__(fh)
        self.tags, self.globs, self.base = tags, globs, base

    def find_class(self, module, name):
        if module != __name__:
            return super().find_class(module, name)
        base, globs = self.base, self.globs
        made = {"_relative": lambda file, line, col: N.Coord(file, line + base, col),
                "_struct_ref": self.tags.__getitem__,
                "_global_ref": lambda key: globs[key].sym,
                "_line_const": lambda ctype, rel: N.Const(ctype, base + rel),
                "_line_node": lambda cls, fields, template: cls(**dict(fields, text=_FILL.sub(
                    lambda m: str(base + int(m[1])), template)))}
        return made.get(name) or super().find_class(module, name)
