"""Stored values made into gates only when read.

NOTE [lazy-values]: most values a function stores are never read again — temporaries, dead
locals, the fields of objects a call returned on one path, what every call may change. So the
value of an object that differs between the states a join merges (merge.py) is a `Mux`, made
into gates only when something reads it (`force`): in a large function nearly all the
multiplexers a join would build are never read. Whatever reads a state's memory goes
through `force` (LvalueEval.read_obj, FunctionContext.stored and .locations); identity tests
(`v is initial`) compare built values where a join of equal values must count as that value
(`same`: interface.modified, engine._havoc, lock_apply._inherit). Attributes (checker state) stay eager.
Building happens in the order the analysis reads, which is deterministic (NOTE [gate-order]).
The unknown values a call gives what it changes stay eager: the leak checker reads much of
memory at each call anyway (the callee's escapee paths).
"""
from __future__ import annotations

from ..memory.gls import GLS

# A chain of joins each wrapping the last (a value nobody reads through a long function) is
# built before it nests deeper than this, so forcing never recurses too far.
MAX_MUX_DEPTH = 64


class Mux:
    """ITE(l0, v0, ITE(l1, v1, ... v_last)) over the literals `sel` gives, made on demand."""
    __slots__ = ("sel", "vals", "pointer", "depth", "value")

    def __init__(self, sel, vals, pointer, depth):
        self.sel, self.vals, self.pointer, self.depth, self.value = sel, vals, pointer, depth, None


class Selectors:
    """The literals that tell one join's states apart (Guards.select_lits), made on demand."""
    __slots__ = ("guards", "lits")

    def __init__(self, guards):
        self.guards, self.lits = guards, None

    def get(self, ev) -> list[int]:
        if self.lits is None:
            self.lits, self.guards = ev.guards.select_lits(self.guards), None
        return self.lits


def force(ev, v):
    """A stored value as gates; a lazy one is built once, then shared by every state holding it."""
    if type(v) is not Mux:
        return v
    if v.value is None:
        v.value = multiplex(ev, v.sel.get(ev), [force(ev, x) for x in v.vals])
        v.vals = v.sel = None
    return v.value


def same(ev, a, b) -> bool:
    """Whether two stored values are one value once built (a join of equal values is that value):
    the identity tests against entry values."""
    return a is b or force(ev, a) is force(ev, b)


def mux(ev, sel, vals) -> Mux:
    depth = 0
    for i, x in enumerate(vals):
        if type(x) is Mux:
            if x.depth >= MAX_MUX_DEPTH:
                vals[i] = x = force(ev, x)
            else:
                depth = max(depth, x.depth)
    pointer = any(isinstance(x, GLS) or (type(x) is Mux and x.pointer) for x in vals)
    return Mux(sel, vals, pointer, depth + 1)


def multiplex(ev, lits, vals):
    """ITE(l0, v0, ITE(l1, v1, ... v_last)), with neighbours holding the same value sharing one
    multiplexer: ITE(a, v, ITE(b, v, r)) = ITE(a | b, v, r), one gate instead of one per bit."""
    runs: list = []   # [selector literals, value], in the chain's order
    for lit, v in zip(lits[:-1], vals[:-1]):
        if runs and runs[-1][1] is v:
            runs[-1][0].append(lit)
        else:
            runs.append([[lit], v])
    value = vals[-1]
    if runs and runs[-1][1] is value:
        runs.pop()    # ITE(l, v, v) = v
    for run_lits, v in reversed(runs):
        value = ev.ite(ev.c.OR_all(run_lits), v, value)
    return value
