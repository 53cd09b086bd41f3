"""Joining states at control-flow merges (Fig. 2.3, 2.6): guards join in the BDD; each value that
differs becomes a multiplexer over the predecessors' guards.

NOTE [lazy-mux]: a stored value that differs between the joined states becomes a `Mux`, built into
gates only when something reads it (`force`): most are never read again — temporaries, dead
locals, the fields of objects a call returned on one path, values every call havocs. SQLite's
sqlite3Pragma made ~770 k multiplexer gates for such objects, lookupName ~430 k. Whatever reads
a store's values goes through `force` (LvalueEval.read_obj, FunctionContext.stored, .locations);
identity tests (`v is initial`) need no value. Attributes (checker state) stay eager.
"""
from __future__ import annotations

from ..memory.gls import GLS
from .state import State

# A chain of joins each wrapping the last (a value nobody reads through a long function) is
# forced before it nests deeper than this, so forcing never recurses too far.
MAX_MUX_DEPTH = 64


class Mux:
    """ITE over one join's states (their selectors `sel`), made on demand."""
    __slots__ = ("sel", "vals", "pointer", "depth", "value")

    def __init__(self, sel, vals, pointer, depth):
        self.sel, self.vals, self.pointer, self.depth, self.value = sel, vals, pointer, depth, None


class _Selectors:
    """The literals that tell one join's states apart (Guards.select_lits), made on demand."""
    __slots__ = ("guards", "lits")

    def __init__(self, guards):
        self.guards, self.lits = guards, None

    def get(self, ev) -> list[int]:
        if self.lits is None:
            self.lits, self.guards = ev.guards.select_lits(self.guards), None
        return self.lits


def force(ev, v):
    """A stored value as gates (a `Mux` is built once, then shared by every state holding it)."""
    if type(v) is not Mux:
        return v
    if v.value is None:
        v.value = _multiplex(ev, v.sel.get(ev), [force(ev, x) for x in v.vals])
        v.vals = v.sel = None
    return v.value


def _mux(ev, sel, vals):
    depth = 0
    for i, x in enumerate(vals):
        if type(x) is Mux:
            if x.depth >= MAX_MUX_DEPTH:
                vals[i] = x = force(ev, x)
            else:
                depth = max(depth, x.depth)
    pointer = any(isinstance(x, GLS) or (type(x) is Mux and x.pointer) for x in vals)
    return Mux(sel, vals, pointer, depth + 1)


def merge(ev, states: list[State]) -> State | None:
    live = [s for s in states if s.guard != ev.guards.false]
    if not live:
        return None
    if len(live) == 1:
        return live[0]
    compact = ev.guards.compact
    guard = live[0].guard
    for s in live[1:]:   # compacting as it goes: a 150-way join once reached 54M nodes
        guard = compact(guard | s.guard)
    out = State(guard, {}, {})
    sel = _Selectors([s.guard for s in live])
    for table in ("store", "attrs"):
        tables = [getattr(s, table) for s in live]
        # First-seen order, not a set's: objects hash by address, and the order of the
        # multiplexers made here numbers the circuit's gates (NOTE [gate-order]).
        keys = dict.fromkeys(k for t in tables for k in t)
        target = getattr(out, table)
        for key in keys:
            vals = [t.get(key) for t in tables]
            first = vals[0]
            if first is not None and all(v is first for v in vals[1:]):
                target[key] = first
                continue
            if table == "store":   # NOTE [lazy-mux]
                vals = [v if v is not None else ev.read_obj(key, _EMPTY) for v in vals]
                target[key] = _mux(ev, sel, vals)
                continue
            if any(v is None for v in vals):
                vals = [v if v is not None else ev.attr_default(key) for v in vals]
            target[key] = _multiplex(ev, sel.get(ev), vals)
    return out


def _multiplex(ev, lits, vals):
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


class _Empty:
    store: dict = {}


_EMPTY = _Empty()
