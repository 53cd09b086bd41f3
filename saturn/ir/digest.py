"""The hash of a function's IR that keys its cached results (saturn/cache.py)."""
from __future__ import annotations

import hashlib
import re

from . import nodes as N
from .loops import natural_loops
from .types import CType

NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")   # a decimal number in C or JSON text
# ... or a C string or character literal (matched whole, so no number inside one is found)
NUMBER_OR_LITERAL = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|""" +
                               NUMBER.pattern)


def number_as(text: str, number: str, by: str, pattern=NUMBER) -> str:
    """`text` with each decimal number `number` (as `pattern` finds numbers) written `by`: a
    line constant as `__LINE__`, or moved (NOTE [line-constants])."""
    return pattern.sub(lambda m: by if m[0] == number else m[0], text)


def ir_digest(fn) -> str:
    """A hash of the function's IR (types by their keys, symbols by name: stable across runs),
    computed once: a unit from the unit cache carries it (NOTE [unit-cache]).

    NOTE [line-shift]: lines in the function's own file count from its first line, so a
    function that only moved (lines added above it) keeps its digest; a reused result's report
    and note lines are moved with it (saturn/cache.py).

    NOTE [line-constants]: an integer constant equal to the line of its statement (in the
    function's own file) is hashed as `__LINE__`, in the statement's text too: SQLite passes
    __LINE__ to sqlite3CorruptError in hundreds of functions, and a line added above them
    changed them all. Equal digests then mean equal IR up to such constants moving with their
    lines; the values are kept in `fn.line_values`, and a result that mentions one of them is
    not reused at another place (saturn/cache.py)."""
    if fn.digest:
        return fn.digest
    h = hashlib.sha256()
    found: set = set()
    for _, block in sorted(fn.blocks.items()):
        h.update(repr((block.id, [_stmt_sig(s, fn, found) for s in block.stmts],
                       _stmt_sig(block.term, fn, found))).encode())
    fn.digest = h.hexdigest()[:24]
    fn.line_values = tuple(sorted(found))
    analysis_weight(fn)   # kept with the digest, so a cached function has it without its body
    return fn.digest


def analysis_weight(fn) -> int:
    """NOTE [critical-path] in interproc/schedule.py: a function's analysis cost, estimated as
    its statements times one plus its loops (unrolled, each runs its body again): among the
    estimates tried on five corpora's measured times, the one never worse than none."""
    if not fn.weight:
        size = sum(len(b.stmts) + 1 for b in fn.blocks.values())
        fn.weight = size * (1 + len(natural_loops(fn)[1]))
    return fn.weight


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
