"""Joining states at control-flow merges (Fig. 2.3, 2.6): guards join in the BDD; each value that
differs becomes a multiplexer over the predecessors' guards."""
from __future__ import annotations

from .state import State


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
    lits = ev.guards.select_lits([s.guard for s in live])
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
            if table == "store":
                vals = [v if v is not None else ev.read_obj(key, _EMPTY) for v in vals]
            elif any(v is None for v in vals):
                vals = [v if v is not None else ev.attr_default(key) for v in vals]
            target[key] = _multiplex(ev, lits, vals)
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
