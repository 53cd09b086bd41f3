"""Ownership summaries (Fig. 2.15–2.16), inferred at the exit (apply.py applies them at calls).

Beyond the paper: `returns_param` (the result is parameter i or null — Fig. 2.18's BN_copy;
with `returns_param_always`, null only where parameter i is),
`out_alloc` (new memory handed out through `*param_i`, as asprintf and getline do), `field_alloc`
(new memory stored in a field of `*param_i`: a constructor's helper filling the object it is
given, so that the constructor's error path that frees only the object leaks it) and `fields`
(an allocator's result comes with fields it allocated, so freeing only the struct leaks them).
For descriptors (NOTE [descriptors]): an allocator returns a new one or a failure, `out_alloc`
hands one out through an `int *`, and `values` names the integer inputs that escape (a
parameter the function closes or keeps; taken.py), `values_if` those kept only where the call
succeeds.
"""
from __future__ import annotations

from saturn.plugin.checker import FALSE, less_than, same_int
from saturn.ir import types as T

from . import conditions, handles, taken
from .escape import POINTER_HOPS, EscapeRules

RET = ("ret", None)
CONDITIONAL_ESCAPEES = 16   # escapees asked whether they escape only where the call succeeds


def empty() -> dict:
    return {"version": 1, "allocator": False, "returns_param": None, "out_alloc": [],
            "field_alloc": [], "fields": [], "escapees": []}


def infer(ctx, checker, exit_state) -> dict:
    summary = empty()
    if exit_state is None:
        return summary
    data = checker.state(ctx)
    rules = EscapeRules(ctx, data, exit_state)
    g = ctx.lit(exit_state.guard)
    rv, view = ctx.fn.rv, conditions.ExitView(ctx, exit_state)
    if rv is not None and isinstance(rv.type, T.PtrT):
        _result(ctx, data, rules, g, view, summary)
    elif rv is not None and isinstance(rv.type, T.IntT) and data.handles.new():
        summary["allocator"] = _descriptor_result(ctx, data, rules, g,
                                                  ctx.exit_value(rv, exit_state))
    summary["out_alloc"] = _out_allocs(ctx, checker, data, rules, g, view)
    summary["field_alloc"] = _field_allocs(ctx, data, rules, g, view)
    summary["escapees"], kept_if, stored = _escapees(ctx, checker, rules, g, view,
                                                     summary["returns_param"])
    if kept_if:
        summary["escapees_if"] = kept_if
    if stored:
        summary["stored"] = stored
    if checker.has_descriptors():
        values, values_if = taken.values(ctx, data, rules, g, view)
        if values:
            summary["values"] = values
        if values_if:
            summary["values_if"] = values_if
    return summary


def _descriptor_result(ctx, data, rules, g, ret) -> bool:
    """Whether the function returns a descriptor it opened, or one it does not own (a failure,
    or 0..2), and keeps no other reference to it."""
    c = ctx.c
    held = [(h, c.AND(same_int(c, ret, v), data.new_locs[h][0]))
            for h, v in data.handles.new()]
    some = c.OR_all(lit for _, lit in held)
    owned = -less_than(c, ret, handles.STANDARD + 1)
    if not ctx.can(g, some) or ctx.can(g, owned, -some):
        return False
    return all(not ctx.can(g, lit, rules.escaped(h, frozenset({RET}))) for h, lit in held)


def _result(ctx, data, rules, g, view, summary) -> None:
    locs = ctx.locations(view.ret)
    new = [(loc, gl) for loc, gl in locs if loc.root in data.new_locs]
    # Error pointers are failures, as null is (NOTE [error-pointers]).
    other = [(loc, gl) for loc, gl in locs if loc.root not in data.new_locs and loc.origin != "int"]
    # Only an allocator's result needs the queries (one over the whole exit formula each).
    if new and not ctx.can(g, ctx.c.OR_all(gl for _, gl in other)) and \
            ctx.can(g, ctx.c.OR_all(gl for _, gl in new)):
        if all(not ctx.can(g, gl, rules.escaped(loc.root, frozenset({RET})))
               for loc, gl in new):
            summary["allocator"] = True
            if all(loc.addr.zeroed and not ctx.written_in(view.st, loc) for loc, _ in new):
                summary["zeroed"] = True   # a wrapper of calloc (NOTE [zeroed-blocks])
            summary["fields"], aliases = _owned_fields(ctx, data, rules, g,
                                                       {loc.root for loc, _ in new})
            if aliases:
                summary["field_aliases"] = aliases
            made = ctx.c.OR_all(ctx.c.AND(gl, data.new_locs[loc.root][0]) for loc, gl in new)
            when = conditions.find(ctx, g, made, view, result=False)
            if when != "always":   # jq's sort_items: a block only where *too_deep == 0
                summary["allocator_when"] = when
        return
    if not new and other:
        params = {tuple(map(tuple, ctx.interface_steps(loc) or [])) for loc, _ in other}
        if len(params) == 1:
            steps = next(iter(params))
            if len(steps) == 2 and steps[0][0] == "param" and steps[1] == ("deref",):
                summary["returns_param"] = steps[0][1]
                if _never_null_instead(ctx, g, view.ret, steps[0][1]):
                    summary["returns_param_always"] = True


def _never_null_instead(ctx, g, ret, i) -> bool:
    """Whether the result is null only where parameter i is (`free_and_assign(d, s)` returns
    s: its caller's null test on the result is one on s), not BN_copy's null for a failure."""
    p = next((p for p in ctx.fn.params if p.index == i), None)
    value = ctx.param_value(p) if p is not None else None
    return value is not None and not ctx.can(g, -ctx.truth(ret), ctx.truth(value))


def _owned_fields(ctx, data, rules, g, roots) -> tuple[list, list]:
    """Pointer fields of the result that hold new memory nothing else refers to, and the
    fields of those blocks in turn (a context whose `env` block holds `env->zones`: a caller
    that frees ctx->env and ctx leaks it); and [field, other field] where another field points
    to the same block (flex's `yy_ch_buf` and `yy_buf_pos`): a caller makes the block once and
    points both at it."""
    first: dict = {}   # new block -> the first field found holding it
    aliases = []
    prefix = {r: [] for r in roots}   # new block -> the steps from *ret to it
    for _ in range(MAX_FIELD_DEPTH):
        found = _fields_of(ctx, data, rules, g, roots, prefix, first, aliases)
        if not found:
            break
        prefix = found
    return sorted(first.values(), key=lambda s: (len(s), str(s))), sorted(aliases, key=str)


MAX_FIELD_DEPTH = 3


def _fields_of(ctx, data, rules, g, roots, prefix, first, aliases) -> dict:
    """One level of _owned_fields: the new blocks found in the fields of the blocks in
    `prefix`, each with its steps from *ret."""
    found = {}
    for p, value in sorted(rules.slots, key=lambda pv: str(_relative(pv[0]))):
        if p.root not in prefix or p is p.root:
            continue
        for loc, gl in ctx.locations(value):
            if loc.root in data.new_locs and loc.root not in roots and \
                    not ctx.can(g, gl, rules.escaped(loc.root, frozenset({RET}))):
                steps = prefix[p.root] + _relative(p)
                if not _relative(p) or steps in first.values():
                    continue
                if loc.root in first:
                    aliases.append([first[loc.root], steps])
                else:
                    first[loc.root] = steps
                    found[loc.root] = steps + [["deref"]]
    return found


def _relative(obj) -> list:
    steps = []
    while obj.parent is not None:
        steps.append(["field", obj.step] if isinstance(obj.step, str) else ["index", obj.step])
        obj = obj.parent
    return steps[::-1]


def _out_allocs(ctx, checker, data, rules, g, view) -> list:
    out, exit_state = [], view.st
    for p in ctx.fn.params:
        target = p.type.target if isinstance(p.type, T.PtrT) else None
        descriptor = isinstance(target, T.IntT) and checker.has_descriptors() and \
            data.handles.new()
        if not (isinstance(target, T.PtrT) or descriptor):
            continue
        initial = ctx.param_value(p)
        for slot, here in ctx.locations(initial) if initial is not None else []:
            value = ctx.stored(exit_state, slot)
            new = _descriptors_in(ctx, data, value) if descriptor else \
                [(loc, gl) for loc, gl in ctx.locations(value) if loc.root in data.new_locs]
            valid = _handed(ctx, data, rules, g, new, frozenset({("param", p.index)}))
            # None too where no path hands a descriptor out (`*can_write = 1` equals one
            # only where that descriptor is stdout).
            if valid is not None:
                # `if (!*p) *p = alloc();`: only when *p was null on entry (a loop may call it
                # again with the block it got the first time).
                held = ctx.input_value(slot)
                only_if_null = held is not None and not ctx.can(g, valid, ctx.truth(held)) \
                    and _left_as_it_was(ctx, g, slot, held, value)
                when = conditions.find(ctx, g, valid, view, through=p.index)
                # Where the condition holds, is the new thing always there? Then a caller
                # knows it is (read_pair's two strings, both there when it returns non-null).
                exactly = when != "always" and not only_if_null and \
                    not ctx.can(g, here, conditions.lit(ctx, when, view), -valid)
                out.append([p.index, when] + (["if-null"] if only_if_null else []) +
                           (["exactly"] if exactly else []))
                break
    return out


def _handed(ctx, data, rules, g, new, route):
    """Where a slot hands its new blocks `new` to the caller: where they are there and not
    freed or kept by a callee (a reader that frees its buffer where the read fails, leaving
    `*buf` dangling, still hands it out where it succeeds); None where a block may escape by
    another route while still there, or is never handed out."""
    if not new or any(ctx.can(g, gl, rules.escaped(loc.root, route), -rules.let_go(loc.root))
                      for loc, gl in new):
        return None
    valid = ctx.c.OR_all(ctx.c.AND_all([gl, data.new_locs[loc.root][0], -rules.let_go(loc.root)])
                         for loc, gl in new)
    return valid if ctx.can(g, valid) else None


def _left_as_it_was(ctx, g, slot, held, value) -> bool:
    """Whether a non-null `*p` on entry is what `*p` holds at the exit (the callee allocated
    only into a null one, and left another alone): not c-ares's `*host = NULL;` first."""
    if value is None:
        return True
    return not ctx.can(g, ctx.truth(held), -ctx.pointers_equal(value, held))


def _field_allocs(ctx, data, rules, g, view) -> list:
    """[param index, [["field", name]], when] for each pointer field of a struct a parameter
    points to that holds new memory at the exit, kept by nothing but that field, and holds
    nothing else (new memory or null) wherever `when` holds: a helper that fills the field on
    success. With a fourth element "grows": elsewhere the field holds what it held on entry (a
    buffer grown only when too small: NOTE [grown-fields]), and "if-null" after it where only
    a field that held null gets new memory. A block is one field's: not one
    held by another field's new block (gdbm's current bucket, also in the cache array), nor a
    second field pointing into it (the cache's current entry), which a caller would take for
    two. A chain's next element, held by the elements after it, stays the field's."""
    candidates = [(entry, new, {loc.root for loc, _ in new})
                  for entry, new in _field_candidates(ctx, data, rules, g, view)]
    holders: dict = {}   # a new block -> the new blocks holding a pointer to it
    for obj, value in ctx.pointer_slots(view.st):
        if obj.root in data.new_locs:
            for loc, _ in ctx.locations(value):
                holders.setdefault(loc.root, set()).add(obj.root)
    out, owners = [], {}
    for entry, new, roots in candidates:
        held_in = set().union(*[holders.get(r, set()) for r in roots]) - roots
        if any(held_in & other for e, _, other in candidates if e is not entry) or \
                entry[:3] in [e[:3] for e in out]:
            continue
        rival = next((k for k, r in owners.items() if r & roots), None)
        if rival is None:
            owners[len(out)] = roots
            out.append(entry)
        elif all(loc is loc.root for loc, _ in new):   # the block itself, not a pointer into it
            out[rival] = entry
    return out[:8]


def _field_candidates(ctx, data, rules, g, view):
    """(entry, new locations) of the fields of *param that hold new memory (see above)."""
    params = {p.index: p for p in ctx.fn.params if isinstance(p.type, T.PtrT) and
              isinstance(p.type.target, T.StructT)}
    if not data.new_locs:
        return
    for i, p in sorted(params.items()):
        initial = ctx.param_value(p)
        objects = {slot for slot, _ in ctx.locations(initial)} if initial is not None else set()
        for obj, value in sorted(ctx.pointer_slots(view.st), key=lambda ov: ov[0].uid):
            if obj.parent not in objects or not isinstance(obj.step, str):
                continue
            held = ctx.locations(value)
            new = [(loc, gl) for loc, gl in held if loc.root in data.new_locs]
            other = ctx.c.OR_all(gl for loc, gl in held if loc.root not in data.new_locs)
            route = frozenset({("param", i)})
            # A field freed on some path is no field allocation (a vector's slots, freed when
            # it empties and reallocated when it shrinks): its callers would read the new
            # block's slots as what they were.
            if new and all(not ctx.can(g, gl, rules.escaped(loc.root, route)) for loc, gl in new):
                valid = ctx.c.OR_all(ctx.c.AND(gl, data.new_locs[loc.root][0]) for loc, gl in new)
                when = conditions.find(ctx, g, valid, view, through=i)
                # The field names its struct (NOTE [view-steps]): a caller's untyped block
                # (malloc's, calloc's) is seen through the parameter's type.
                step = ["field", obj.step, p.type.target.key()]
                entry = [i, [step], when] + _grows(ctx, g, obj, value, other,
                                                                  conditions.lit(ctx, when, view))
                if "grows" in entry[3:]:
                    entry += _emptied(ctx, g, obj, value, view)
                if entry[-1] is not None:
                    yield entry, new


def _grows(ctx, g, obj, value, other, when) -> list:
    """[] when the field holds only new memory (or null) wherever `when` holds; ["grows"] when
    it holds what it held on entry where not, ["grows", "if-null"] when it gets new memory
    only where it held null; [None] (no entry) when it may hold anything else."""
    if not ctx.can(g, when, other):
        return []
    initial = ctx.input_value(obj)
    if initial is None:
        return [None]
    changed = -ctx.pointers_equal(value, initial)
    if ctx.can(g, when, other, changed):
        return [None]
    # Made only where it held null (`if (!c->f) c->f = alloc()`): a block it held stays.
    return ["grows"] if ctx.can(g, changed, ctx.truth(initial)) else ["grows", "if-null"]


def _emptied(ctx, g, obj, value, view) -> list:
    """["null if C"] when a grown field is null exactly where the result says C (a callee
    that frees and clears what it was given where it fails: c-ares's init_by_defaults), else
    []: the caller's old block is not there any more."""
    initial = ctx.input_value(obj)
    if initial is None:
        return []
    null = -ctx.truth(ctx.force(value))
    if not ctx.can(g, null, ctx.truth(ctx.force(initial))):
        return []
    when = conditions.find(ctx, g, null, view)
    if when == "always" or ctx.can(g, conditions.lit(ctx, when, view), -null):
        return []
    return [f"null if {when}"]


def _descriptors_in(ctx, data, value) -> list:
    """(descriptor, literal) for the new descriptors an integer value may hold (opened)."""
    if value is None:
        return []
    found = [(h, ctx.c.AND(same_int(ctx.c, value, v), data.new_locs[h][0]))
             for h, v in data.handles.new()]
    return [(h, lit) for h, lit in found if lit != FALSE]


def _escapees(ctx, checker, rules, g, view, returned=None) -> tuple[list, list, list]:
    """Locations a parameter or global reaches that escape by a route other than their own
    (freed, or kept elsewhere): a callee that frees what a global holds and clears it
    (`free(list); list = NULL;`) leaves its caller no block to lose. When the summary says the
    result is parameter i, or the result is the pointer to the block, returning it is no
    escape (the caller sees it). Those that escape
    only where the result says the call succeeded come apart, with that condition
    ([[steps, "ret==0"], ...]): a list that links an item in only where it could allocate the
    node leaves the item its caller's where it failed. Third, the paths of those that are
    only stored, never freed (NOTE [stored-escapees])."""
    by_steps: dict[str, tuple] = {}   # one query per interface path, whatever its locations
    for obj, value in list(ctx.inputs.items()):
        for loc, _ in ctx.locations(value):
            if not checker.may_own(loc.type):
                continue
            steps = ctx.interface_steps(loc)
            if not steps or steps[0][0] not in ("param", "global") or \
                    sum(1 for s in steps if s[0] == "deref") > POINTER_HOPS:
                continue
            freed = rules.released(loc)
            if steps[0][0] == "global" and freed == FALSE and \
                    rules.stored_by_callee(loc) == FALSE:
                continue   # a global's block stays the global's unless the function let it go
            excluded = {(steps[0][0], steps[0][1])}
            if returned == steps[0][1] or _returned_as_is(ctx, loc):
                excluded.add(RET)
            key = repr(steps)
            lit = rules.escaped(loc, direct=frozenset(excluded))   # NOTE [linked-inputs]
            old = by_steps.get(key)
            by_steps[key] = (steps, ctx.c.OR(old[1], lit) if old else lit,
                             ctx.c.OR(old[2], freed) if old else freed)
    paths = list(by_steps.values())
    found = sorted(((steps, lit, freed) for (steps, lit, freed), may in
                    zip(paths, ctx.which_may([l for _, l, _ in paths], g)) if may),
                   key=lambda sl: ctx.render_path(sl[0]))
    freed = ctx.which_may([f for _, _, f in found], g) if found else []
    whens = _kept_when(ctx, g, found[:CONDITIONAL_ESCAPEES], freed, view)
    always, kept_if = [], []
    for (steps, _, _), when in zip(found, whens + ["always"] * len(found)):
        if when == "always":
            always.append(steps)
        else:
            kept_if.append([steps, when])
    return always, kept_if, [steps for (steps, _, _), may in zip(found, freed) if not may]


def _returned_as_is(ctx, loc) -> bool:
    """Whether the result is, on every exit, the pointer the caller reached `loc` by (`p =
    b->buf; b->buf = NULL; return p;`, the engine's `returns_copy`): the caller then holds the
    block in the result, and returning it is no escape."""
    return ctx.result_copy is not None and ctx.interface_steps(loc) == ctx.result_copy


def _kept_when(ctx, g, found, freed, view) -> list[str]:
    """For each escapee, the result's condition of its escape where it escapes by being stored
    only. A free, or a callee that took the block, counts as an escape on every path: a release
    that says whether a reference count fell to zero frees under a condition its callers do not
    test, and a buffer grown in place frees the old block only where it succeeded, and keeps
    it (NOTE [grown-fields]). `freed`: whether each may be freed (NOTE [stored-escapees])."""
    if view.ret is None or not found:
        return ["always"] * len(found)
    return ["always" if may else conditions.result_only(ctx, g, lit, view)
            for (_, lit, _), may in zip(found, freed)]
