"""Joining states at control-flow merges (Fig. 2.3, 2.6): guards join in the BDD; each value that
differs becomes a multiplexer over the predecessors' guards — for stored values a lazy `Mux`,
built when read (NOTE [lazy-values], lazy.py)."""
from __future__ import annotations

from .lazy import Selectors, multiplex, mux
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
    sel = Selectors([s.guard for s in live])
    for table in ("memory", "attrs"):
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
            if table == "memory":   # NOTE [lazy-values]
                vals = [v if v is not None else ev.read_obj(key, _EMPTY) for v in vals]
                target[key] = mux(ev, sel, vals)
                continue
            if any(v is None for v in vals):
                vals = [v if v is not None else ev.attr_default(key) for v in vals]
            target[key] = multiplex(ev, sel.get(ev), vals)
    return out


class _Empty:
    memory: dict = {}


_EMPTY = _Empty()
