"""The escape and leak conditions of Fig. 2.14, with exclusion sets so that cycles still leak.

Routes are named by the root of the pointer that holds the reference: a local (no escape, unless
it is an element of a local array — §2.7 counts those as escaped), a global or static, a
parameter or the return value (escape, unless excluded), a new location l' (escape when l'
escapes, with l excluded — `via-newloc`), or memory we know nothing about (escape).
"""
from __future__ import annotations

from saturn.plugin.checker import FALSE, TRUE, same_int, summarized

# The ownership checkers follow at most this many pointer hops: new locations along an escape route
# here, what a kept object holds and how deep escapees are named (summary.py). Deeper
# chains are rare; cutting them can only add a leak report (an escape not seen), and it keeps
# summaries small (sqlite3Insert's escapees were 5,123 paths of up to 30 hops before the cut).
POINTER_HOPS = 4
ESCAPED = "#escaped"
STORED = "#stored"

# NOTE [stored-escapees]: a callee's escapee it only stores (`vector_set_slot(v, pp)` puts pp
# in an array, and frees nothing) is marked #stored in its callers, not #escaped (freed, or
# given to a function that may free it). Both are escapes. But only a stored one may escape
# under the caller's result's condition (a helper that appends the item only where it could
# grow the array leaves it the caller's where it failed): a free keeps its own condition
# (a reference count falling to zero), which callers do not test.

# NOTE [linked-inputs]: an input block a parameter reaches escapes (a summary's escapee) by any
# route but its own: left where the parameter reaches it, the caller still sees it there. A
# route through new memory is not its own even where that memory goes back through the same
# parameter (`n->next = *list; *list = n;`): the caller learns "new memory in *list", a block
# whose fields it knows nothing of, so the old head is the new node's and goes where it goes.
# Where the push fails the list is left exactly as it was (NOTE [copied-pointers]'s "kept"
# copies), and the caller still holds the old head there.


class EscapeRules:
    def __init__(self, ctx, data, exit_state, locals_keep=False):
        """`locals_keep`: what the function's locals still hold at the exit is kept (NOTE
        [main-exit] in report.py)."""
        self.ctx, self.data, self.st = ctx, data, exit_state
        self.locals_keep = locals_keep
        self.c = ctx.c
        self.slots = ctx.pointer_slots(exit_state)
        self._int_slots = self._pointer_slots = None
        self.memo: dict = {}
        self.route_kind: dict = {}   # pointer object -> (kind, name)

    def points_to(self, value, l) -> int:
        value = self.ctx.force(value)   # NOTE [lazy-values]
        return self.c.OR_all(g for loc, g in value.entries if loc is not None and loc.root is l)

    def holds(self, value, l) -> int:
        """Where an integer slot's value is descriptor l's (NOTE [descriptors])."""
        return same_int(self.c, self.ctx.force(value), self.data.handles.values[l])

    def int_slots(self):
        """The integer slots, for descriptors (NOTE [descriptors])."""
        if self._int_slots is None:
            self._int_slots = self._owning(self.ctx.int_slots(self.st))
        return self._int_slots

    def pointer_slots(self):
        """The pointer slots, each with whether it is a local array's element that keeps what
        it holds (arrays_escape off)."""
        if self.data.arrays_escape:
            return ((p, v, False) for p, v in self.slots)
        if self._pointer_slots is None:
            self._pointer_slots = self._owning(self.slots)
        return self._pointer_slots

    def _owning(self, slots):
        """A local array's element holds its own (pipe's `int fds[2]`), unless the array is
        also reached by an index the analysis does not follow one by one (a derived object):
        memory in local arrays escapes (§2.7), files and descriptors do not."""
        blurred = {p.root for p, _ in slots if p.origin == "derived"}
        return [(p, v, self.route(p)[0] == "local-array" and p.root not in blurred)
                for p, v in slots]

    def route(self, p):
        got = self.route_kind.get(p)
        if got is None:
            got = self.route_kind[p] = self._classify(p)
        return got

    def _classify(self, p):
        root = p.root
        steps = self.ctx.interface_steps(p)
        if steps is not None:
            head = steps[0]
            if head[0] == "param" and len(steps) == 1:
                return ("local", None)   # the parameter itself: the callee's own copy
            return ("param", head[1]) if head[0] == "param" else \
                ("ret", None) if head[0] == "ret" else ("global", head[1])
        if root in self.data.new_locs:
            return ("newloc", root)
        sym = root.sym
        if sym is not None and sym.kind in ("local", "temp"):
            # An element the analysis does not tell apart (a derived object) is an array's too,
            # for the checkers whose arrays own what they hold.
            in_array = _inside_array(p) or (not self.data.arrays_escape and summarized(p))
            return ("local-array", None) if in_array else ("local", None)
        if sym is not None and sym.kind == "global":
            return ("global", sym.key)
        return ("unknown", None)

    def released(self, l) -> int:
        """Where l was freed or handed to a callee that may free it (its #escaped attribute)."""
        return self.data.fs.is_(self.ctx.get_attr(self.st, l, ESCAPED), 1)

    def stored_by_callee(self, l) -> int:
        """Where a callee stored l and freed nothing (NOTE [stored-escapees])."""
        return self.data.fs.is_(self.ctx.get_attr(self.st, l, STORED), 1)

    def let_go(self, l) -> int:
        """Where l was freed, or given to a callee that keeps it, either way."""
        return self.c.OR(self.released(l), self.stored_by_callee(l))

    def escaped(self, l, excluded=frozenset(), direct=frozenset()) -> int:
        """Where l escapes by a route not `excluded`; routes in `direct` are excluded only
        where l itself is stored in them, not where new memory that holds l is."""
        key = (l, excluded, direct)
        if key in self.memo:
            return self.memo[key]
        self.memo[key] = FALSE  # a cycle back to (l, X) adds no route
        out = self.let_go(l)
        descriptor = l in self.data.handles.values
        slots = self.int_slots() if descriptor else self.pointer_slots()
        for p, value, own in slots:
            kind, name = self.route(p)
            if (kind == "local" and not self._keeps(p)) or own or (kind, name) in excluded \
                    or (kind, name) in direct:
                continue   # before reading the value: a local's may be unbuilt
            guard = self.holds(value, l) if descriptor else self.points_to(value, l)
            if guard == FALSE:
                continue
            if kind == "newloc":
                if name is l or name in {x for _, x in excluded} or \
                        len(excluded) >= POINTER_HOPS:
                    continue
                guard = self.c.AND(guard, self.escaped(name, excluded | {("newloc", l)}))
            out = self.c.OR(out, guard)
            if out == TRUE:
                break
        self.memo[key] = out
        return out

    def _keeps(self, p) -> bool:
        """Whether local slot `p` keeps what it holds: a variable of the program's own (not
        the lowering's temporaries), with `locals_keep`."""
        sym = p.root.sym
        return self.locals_keep and sym is not None and sym.kind == "local"

    def leaked(self, l, excluded=frozenset()) -> int:
        valid = self.data.new_locs[l][0]
        return self.c.AND(valid, -self.escaped(l, excluded))


def _inside_array(p) -> bool:
    cur = p
    while cur is not None and cur.parent is not None:
        if isinstance(cur.step, int):
            return True
        cur = cur.parent
    return False
