"""The hash of a function's IR that keys its cached results (results.py)."""
from __future__ import annotations

import hashlib

from ..ir import nodes as N
from ..ir.types import CType
from .lines import number_as


def ir_digest(fn) -> str:
    """A hash of the function's IR (types by their keys, symbols by name: stable across runs),
    computed once and kept with the function: lines in its own file count from its first line
    (NOTE [line-shift] in lines.py), a constant equal to its statement's line is `__LINE__`
    and its value goes to `fn.line_values` (NOTE [line-constants])."""
    if fn.digest:
        return fn.digest
    h = hashlib.sha256()
    found: set = set()
    for _, block in sorted(fn.blocks.items()):
        h.update(repr((block.id, [_stmt_sig(s, fn, found) for s in block.stmts],
                       _stmt_sig(block.term, fn, found))).encode())
    fn.digest = h.hexdigest()[:24]
    fn.line_values = tuple(sorted(found))
    return fn.digest


def _stmt_sig(stmt, fn, found: set):
    coord = getattr(stmt, "coord", None)
    line = coord.line if isinstance(coord, N.Coord) and coord.file == fn.file else 0
    return _sig(stmt, fn, (line, str(line), found) if line > 0 else None)


def _sig(x, fn, here=None):
    """`here`: (the statement's line, as a number and as text, the line values met)."""
    kind = _KINDS.get(type(x)) or _kind(type(x))
    if kind == "atom":
        return x
    if kind == "str":
        if here is not None and here[1] in x:
            text = number_as(x, here[1], "__LINE__")
            if text != x:
                here[2].add(here[0])
            return text
        return x
    if kind == "seq":
        return tuple([_sig(v, fn, here) for v in x])
    if kind == "coord":   # line 0: no place (an initializer's implicit zeroes)
        return (x.file, x.line - fn.line if x.file == fn.file and x.line else x.line, x.col)
    if kind == "type":
        return x.key()
    if kind == "symbol":
        return (x.kind, x.name, x.key)
    if kind is N.Const and here is not None and x.value == here[0]:
        here[2].add(x.value)
        return ("Const", "__LINE__", x.type.key())
    return (type(x).__name__,) + tuple([_sig(getattr(x, f), fn, here) for f in _FIELDS[kind]])


_KINDS: dict = {int: "atom", bool: "atom", float: "atom", type(None): "atom", str: "str",
                tuple: "seq", list: "seq", N.Coord: "coord", N.Symbol: "symbol"}
_FIELDS: dict = {}


def _kind(t):
    """How `_sig` takes a value of type `t` apart (a node: by its dataclass fields)."""
    if issubclass(t, CType):
        kind = "type"
    elif hasattr(t, "__dataclass_fields__"):
        kind, _FIELDS[t] = t, tuple(t.__dataclass_fields__)
    else:
        kind = "atom"
    _KINDS[t] = kind
    return kind
