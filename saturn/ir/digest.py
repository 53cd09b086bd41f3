"""The hash of a function's IR that keys its cached results (saturn/cache.py)."""
from __future__ import annotations

import hashlib

from . import nodes as N
from .types import CType


def ir_digest(fn) -> str:
    """A hash of the function's IR (types by their keys, symbols by name: stable across runs),
    computed once: a unit from the unit cache carries it (NOTE [unit-cache]).

    NOTE [line-shift]: lines in the function's own file count from its first line, so a
    function that only moved (lines added above it) keeps its digest; a reused result's report
    and note lines are moved with it (saturn/cache.py)."""
    if fn.digest:
        return fn.digest
    h = hashlib.sha256()
    for _, block in sorted(fn.blocks.items()):
        h.update(repr((block.id, [_sig(s, fn) for s in block.stmts], _sig(block.term, fn)))
                 .encode())
    fn.digest = h.hexdigest()[:24]
    return fn.digest


def _sig(x, fn):
    if isinstance(x, N.Coord):   # line 0: no place (an initializer's implicit zeroes)
        return (x.file, x.line - fn.line if x.file == fn.file and x.line else x.line, x.col)
    if isinstance(x, CType):
        return x.key()
    if isinstance(x, N.Symbol):
        return (x.kind, x.name, x.key)
    if isinstance(x, (list, tuple)):
        return tuple(_sig(v, fn) for v in x)
    if hasattr(x, "__dataclass_fields__"):
        return (type(x).__name__,) + tuple(_sig(getattr(x, f), fn)
                                           for f in x.__dataclass_fields__)
    return x
