"""Guarded location sets (§2.2.4.1): ((g0, null), (g1, l1), ...) with each location once."""
from __future__ import annotations

from ..logic.circuit import Circuit, FALSE, TRUE


class GLS:
    """`entries`: tuple of (location or None for null, guard Lit), ordered by location uid."""
    __slots__ = ("entries",)

    def __init__(self, entries):
        self.entries = tuple(entries)

    def __repr__(self):
        return "GLS(" + ", ".join(f"{l.path if l else 'null'}:{g}" for l, g in self.entries) + ")"

    def __eq__(self, other):
        return isinstance(other, GLS) and self.entries == other.entries

    def __hash__(self):
        return hash(self.entries)

    def guard_of(self, loc) -> int:
        for l, g in self.entries:
            if l is loc:
                return g
        return FALSE

    def null_guard(self) -> int:
        return self.guard_of(None)

    def locations(self):
        return [(l, g) for l, g in self.entries if l is not None]


def single(loc) -> GLS:
    return GLS(((loc, TRUE),))


NULL = GLS(((None, TRUE),))


def _key(loc):
    return -1 if loc is None else loc.uid


def make(c: Circuit, pairs) -> GLS:
    """Build from (loc, guard) pairs, OR-ing duplicates and dropping false guards."""
    merged: dict = {}
    order = {}
    for loc, g in pairs:
        k = _key(loc)
        order[k] = loc
        merged[k] = c.OR(merged.get(k, FALSE), g)
    return GLS((order[k], g) for k, g in sorted(merged.items()) if g != FALSE)


def ite(c: Circuit, cond: int, a: GLS, b: GLS) -> GLS:
    if cond == TRUE or a is b or a == b:
        return a
    if cond == FALSE:
        return b
    ea, eb = a.entries, b.entries
    if len(ea) == len(eb) and all(x[0] is y[0] for x, y in zip(ea, eb)):
        # The same locations (the common case at joins): pairwise, no dictionaries.
        ite_ = c.ITE   # equal guards skip the call, as in bitvec.vec.ite
        return GLS((l, g) for (l, x), (_, y) in zip(ea, eb)
                   if (g := x if x == y else ite_(cond, x, y)) != FALSE)
    return GLS(_union(c.ITE, cond, ea, eb))


def _union(ite_, cond, ea, eb) -> list:
    """ITE(cond, a, b) location by location, in one walk over both entry lists (each ordered by
    key), making the gates in key order (NOTE [gate-order]). Not by guard_of: a chain of ites
    over sets of hundreds of locations was quadratic."""
    out, i, j, na, nb = [], 0, 0, len(ea), len(eb)
    while i < na and j < nb:
        la, ga = ea[i]
        lb, gb = eb[j]
        ka = -1 if la is None else la.uid
        kb = -1 if lb is None else lb.uid
        if ka == kb:
            loc, g = la, ga if ga == gb else ite_(cond, ga, gb)
            i += 1
            j += 1
        elif ka < kb:
            loc, g = la, ite_(cond, ga, FALSE)
            i += 1
        else:
            loc, g = lb, ite_(cond, FALSE, gb)
            j += 1
        if g != FALSE:
            out.append((loc, g))
    out += [(l, g) for l, x in ea[i:] if (g := ite_(cond, x, FALSE)) != FALSE]
    out += [(l, g) for l, y in eb[j:] if (g := ite_(cond, FALSE, y)) != FALSE]
    return out


def select(c: Circuit, choices) -> GLS:
    """ITE(g0, v0, ITE(g1, v1, ... v_last)) for (guard, GLS) choices in one pass: location l's
    guard is OR_i (s_i & g_i(l)), s_i = g_i & no earlier g (the last: no earlier g). A chain of
    ites made a gate for every location of the running result at every step (quadratic when
    loading through a pointer to many objects); this makes one per location a value holds."""
    groups: dict = {}   # id(value) -> [selector, value]; equal values share one selector
    taken, last = FALSE, len(choices) - 1
    for i, (g, v) in enumerate(choices):
        sel = c.AND(g, -taken) if i < last else -taken
        taken = c.OR(taken, g)
        if sel != FALSE:
            grp = groups.setdefault(id(v), [FALSE, v])
            grp[0] = c.OR(grp[0], sel)
    if len(groups) == 1:
        return next(iter(groups.values()))[1]
    guards: dict = {}
    locs: dict = {}
    for sel, v in groups.values():
        for l, lg in v.entries:
            k = _key(l)
            locs[k] = l
            guards[k] = c.OR(guards.get(k, FALSE), c.AND(sel, lg))
    return GLS((locs[k], g) for k in sorted(locs) if (g := guards[k]) != FALSE)


def non_null(c: Circuit, p: GLS) -> int:
    return c.OR_all(g for l, g in p.entries if l is not None)


def equal(c: Circuit, a: GLS, b: GLS) -> int:
    """p == q: both name the same location (or the same address), or both are null."""
    out = FALSE
    for la, ga in a.entries:
        for lb, gb in b.entries:
            same = (la is lb) or (la is not None and lb is not None and la.addr is lb.addr)
            if same:
                out = c.OR(out, c.AND(ga, gb))
    return out
