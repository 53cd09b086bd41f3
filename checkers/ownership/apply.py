"""Ownership summaries applied at calls (§2.6.5.3): what the callee's escapees hold before the
call, and the new memory its summary hands out after it (summary.py infers them)."""
from __future__ import annotations

from saturn.plugin.checker import FALSE, TRUE, callee_summary
from saturn.ir import types as T

from . import conditions
from .escape import ESCAPED, POINTER_HOPS, STORED


def resolve_escapees(ctx, checker, summary, args, st) -> tuple[list, list]:
    """Before the call's effects (they change what paths lead to): the escapees' objects, and
    what they hold — a callee that keeps a struct keeps what the struct points to (the caller's
    `&pinfo` whose `kernel->private_data` is new memory) — and the descriptors the `values`
    paths hold; those the callee only stores apart (NOTE [stored-escapees])."""
    out, stored, memo = [], [], {}
    only_stored = _only_stored(summary)
    for steps in summary.get("escapees", []):
        (stored if repr(steps) in only_stored else out).extend(
            ctx.resolve(steps, args, None, st, memo))
    out = out + held_by(ctx, checker, st, out) if out else out
    stored = stored + held_by(ctx, checker, st, stored) if stored else stored
    blurred = [steps for steps in summary.get("values", []) + summary.get("escapees", [])
               if checker.has_descriptors() and any(s[0] == "derived" for s in steps)]
    for steps in blurred:
        # A path through an element the callee could not tell apart (`arr[2]` of a parameter
        # `arr`) names some element of the caller's array: what any of them holds escapes.
        cut = next(i for i, s in enumerate(steps) if s[0] == "derived")
        roots = [(o, g) for o, g in ctx.resolve(steps[:cut], args, None, st, memo)]
        out += held_by(ctx, checker, st, roots, depth=1)
    for steps in summary.get("values", []):
        out += _taken(ctx, checker, steps, args, st, memo)
    return out, stored


def _taken(ctx, checker, steps, args, st, memo) -> list:
    """The descriptors a `values` path holds in the caller."""
    if len(steps) == 1 and steps[0][0] == "param":
        values = [(args[steps[0][1]], 1)] if steps[0][1] < len(args) else []
    else:
        values = [(ctx.read(obj, st), g) for obj, g in ctx.resolve(steps, args, None, st, memo)]
    return [(h, ctx.c.AND(g, lit)) for value, g in values for h, lit in checker.given(ctx, value)]


def resolve_kept_if(ctx, checker, summary, args, st) -> list:
    """Before the call: the objects of the escapees the callee takes only where it succeeds,
    and what they hold, and the descriptors of its `values_if`, each with its condition:
    [(when, locations, attribute)]."""
    out, memo = [], {}
    only_stored = _only_stored(summary)
    for steps, when in summary.get("escapees_if", []):
        objs = ctx.resolve(steps, args, None, st, memo)
        attr = STORED if repr(steps) in only_stored else ESCAPED
        out.append((when, objs + held_by(ctx, checker, st, objs) if objs else objs, attr))
    for steps, when in summary.get("values_if", []):
        out.append((when, _taken(ctx, checker, steps, args, st, memo), ESCAPED))
    return out


def _only_stored(summary) -> set:
    """The escapee paths the callee only stores (NOTE [stored-escapees]), by repr."""
    return {repr(s) for s in summary.get("stored", ())}


def held_by(ctx, checker, st, locations, depth: int = POINTER_HOPS):
    """Locations reachable from the given objects through pointer fields, up to `depth` levels
    (a callback struct holding a pointer to a private block, passed by address through another
    local struct: `pinfo.kernel = &pcb; pcb.private_data = rec;`), and the descriptors their
    integer fields hold."""
    roots = {obj.root for obj, _ in locations}
    slots = ctx.pointer_slots(st, read=True)   # the links the function only followed, too
    out = []
    for _ in range(depth):
        found = [loc for obj, value in slots if obj.root in roots
                 for loc in ctx.locations(value)]
        new = {loc.root for loc, _ in found} - roots
        out += found
        if not new:
            break
        roots |= new
    if checker.has_descriptors() and roots:
        out += [h for obj, value in ctx.int_slots(st) if obj.root in roots
                for h in checker.given(ctx, value)]
    return out


# NOTE [result-writers]: a checker that stores a new value into a call's result (an
# allocator's new location, the leak checker's "parameter i or null" for `returns_param`)
# changes what the checkers after it read there (NOTE [checker-order]); a condition the free
# checker took from the result before the change no longer matches it. So only the allocators'
# results are written by every ownership checker (a new thing has no other value), and
# `returns_param` only by the leak checker, as it always did: the engine's own summary already
# makes such a result the parameter's object (symex/calls.returned_value).
def _sized(ctx, call, args):
    """Where a new block may be (NOTE [result-summaries]): everywhere for a result never null;
    a fresh literal, false where the size argument is 0 for one null there
    (`frealloc(ud, p, osize, 0)` frees), true where it is not for one null only there (a
    wrapper that dies when realloc fails)."""
    result = (callee_summary(ctx, call.callee, "<engine>") or {}).get("result") or {}
    if result.get("nonnull"):
        return 1
    c, valid = ctx.c, None
    for key, joined in (("null_if_zero", c.AND), ("nonnull_unless_zero", c.OR)):
        k = result.get(key)
        size = ctx.force(args[k]) if k is not None and k < len(args) else None
        if hasattr(size, "bits"):
            valid = joined(c.new_var() if valid is None else valid, ctx.truth(size))
    return valid


def apply(ctx, checker, call, summary, escapees, args, ret, st, held=None,
          kept_if=()) -> None:
    for objs, attr in zip(escapees, (ESCAPED, STORED)):
        if objs:
            checker.escape(ctx, st, objs, call.coord, f"'{call.text}' {checker.kept_note}", attr)
    view = conditions.CallView(ctx, ret, args, st) if kept_if else None
    for when, objs, attr in kept_if:
        cond = conditions.lit(ctx, when, view)
        checker.escape(ctx, st, [(o, ctx.c.AND(g, cond)) for o, g in objs], call.coord,
                       f"'{call.text}' {checker.kept_note} (if {when})", attr)
    name = (call.callee or "").rsplit(":", 1)[-1]
    if summary.get("allocator") and call.lv is not None and \
            checker.has_descriptors() and isinstance(call.ret, T.IntT):
        value, _ = checker.acquire(ctx, st, call.coord, name, call.text, call.ret)
        ctx.store(call.lv, value, st)
    elif summary.get("allocator") and call.lv is not None:
        _allocated_result(ctx, checker, call, summary, args, st, name)
    elif summary.get("returns_param") is not None and call.lv is not None and \
            checker.writes_returned_param:   # NOTE [result-writers]
        i = summary["returns_param"]
        if i < len(args) and summary.get("returns_param_always"):
            ctx.store(call.lv, args[i], st)
        elif i < len(args):
            pick = ctx.c.new_var()
            pairs = [(loc, ctx.c.AND(pick, g)) for loc, g in args[i].entries] + [(None, -pick)]
            ctx.store(call.lv, ctx.pointer(pairs), st)
    _handed_out(ctx, checker, call, summary, args, st, held or {}, name)


def _allocated_result(ctx, checker, call, summary, args, st, name) -> None:
    """An allocator's new block in the call's result, with the fields it comes with."""
    valid = _sized(ctx, call, args)
    if summary.get("allocator_when"):
        valid = ctx.c.AND(valid or ctx.c.new_var(), conditions.lit(
            ctx, summary["allocator_when"], conditions.CallView(ctx, None, args, st)))
    obj, v = checker.allocate(ctx, st, call.coord, name, call.text, valid,
                              bool(summary.get("zeroed")))
    ctx.store(call.lv, ctx.pointer([(obj, v), (None, -v)]), st)
    typed = ctx.pointer([(ctx.view(obj, getattr(call.lv.type, "target", None)), v)])
    made, holders = {}, {repr([]): (typed, v)}
    # Outer fields first: a field's block holds the fields listed past it (["deref"] between),
    # and they are written in that block alone.
    for steps in sorted(summary.get("fields", []), key=len):
        last = max((i for i, s in enumerate(steps) if s == ["deref"]), default=-1)
        holder = holders.get(repr(steps[:max(last, 0)]))
        if holder is None:
            continue
        base, valid = holder
        for slot, g in ctx.resolve([["ret"], ["deref"]] + steps[last + 1:], [], base, st):
            # A field exists only with the block that holds it.
            inner, v2 = checker.allocate(ctx, st, call.coord, name, call.text,
                                         ctx.c.AND(ctx.c.new_var(), valid))
            inner = ctx.view(inner, getattr(slot.type, "target", None))
            holders[repr(steps)] = (ctx.pointer([(inner, v2)]), v2)
            made[repr(steps)] = ctx.pointer([(inner, v2), (None, -v2)])
            ctx.write(slot, made[repr(steps)], g, st)
    for steps, other in summary.get("field_aliases", []):
        for slot, g in ctx.resolve([["ret"], ["deref"]] + other, [], typed, st):
            if repr(steps) in made:
                ctx.write(slot, made[repr(steps)], g, st)


def _handed_out(ctx, checker, call, summary, args, st, held, name) -> None:
    """New things the callee leaves behind its out-parameters and in their fields."""
    ret = ctx.load(call.lv, st) if call.lv is not None else None
    after = conditions.CallView(ctx, ret, args, st)
    for i, when, *flags in summary.get("out_alloc", []):
        valid = conditions.lit(ctx, when, after)
        if "exactly" not in flags:
            valid = ctx.c.AND(ctx.c.new_var(), valid)
        if "if-null" in flags:
            for slot, g, before in held.get(i, []):
                # The callee left a non-null *param as it was: give the old block back.
                nonnull = ctx.truth(before)
                obj, v = checker.allocate(ctx, st, call.coord, name, call.text,
                                          ctx.c.AND_all([valid, g, -nonnull]))
                ctx.write(slot, ctx.ite(nonnull, before, ctx.pointer(
                    [(obj, v), (None, -v)])), g, st)
            continue
        checker.give_out(ctx, st, call, name, checker.slots(ctx, st, args, i), valid)
    for i, steps, when, *flags in summary.get("field_alloc", []):
        valid = ctx.c.AND(ctx.c.new_var(), conditions.lit(ctx, when, after))
        if "grows" in flags:
            for slot, g, before in held.get(("field", i, repr(steps)), []):
                if _global_reach(ctx, slot):
                    continue
                kept = _kept_by_grower(ctx, st, before)
                if "if-null" in flags:
                    kept = ctx.c.OR(kept, ctx.truth(before))
                value, made = checker.acquire(ctx, st, call.coord, name, call.text, slot.type,
                                              ctx.c.AND_all([valid, -kept, g]))
                ctx.write(slot, ctx.ite(made, value, _unless_emptied(ctx, flags, after, before)),
                          g, st)
            continue
        slots = ctx.resolve([["param", i], ["deref"]] + steps, args, ret, st)
        checker.give_out(ctx, st, call, name, slots, valid)


# NOTE [grown-fields]: a callee that replaces a field of *param with a bigger block only when
# the old one is too small leaves the field as it was elsewhere, and frees the old block where
# it replaces it (its escapee). After the call the field may hold new memory where it held
# null, a block, or what the caller was given ("if-null": where it held null only). It keeps
# what it held where that is the caller's own array (a local or a global: the caller sized
# it) or an unknown another callee left there.
# Nothing new is given where a pointer a global holds leads to the field: a store there is an
# escape anyway, so a block given there could only be lost to callees moving it between the
# nodes of a global structure in ways a caller's view of their changes does not follow.
GROWN = ("env", "heap")


def _unless_emptied(ctx, flags, after, before):
    """What a grown field holds where the callee made nothing: null where its result says it
    emptied the field ("null if C"), else what it held before."""
    for flag in flags:
        if flag.startswith("null if "):
            return ctx.ite(conditions.lit(ctx, flag[len("null if "):], after),
                           ctx.pointer([(None, TRUE)]), before)
    return before


def _global_reach(ctx, slot) -> bool:
    """Whether a pointer a global holds, or one a loop lost track of, leads to the field."""
    if slot.root.origin in ("local", "heap"):
        return False
    steps = ctx.interface_steps(slot)
    return steps is None or steps[0][0] == "global" and ["deref"] in steps


def _kept_by_grower(ctx, st, before) -> int:
    """Where a grown field keeps what it held before the call (NOTE [grown-fields]): the
    caller's own array, or an unknown another callee left there, null or not (one it may
    hold on this path: not the one a path where its block was not made would read)."""
    pairs = ctx.locations(before)
    path = ctx.lit(st.guard)
    unknown = any(loc.root.origin == "fresh" and ctx.can(path, g) for loc, g in pairs)
    null = -ctx.truth(before) if unknown else FALSE
    return ctx.c.OR_all([gl for loc, gl in pairs if loc.root.origin not in GROWN] + [null])


def held_out_params(ctx, summary, args, st) -> dict:
    """Before a call: what the out-parameters of `if-null` out-allocations hold, and the fields
    of `grows` field allocations (by ("field", i, repr(steps)))."""
    out = {}
    for i, _, *flags in summary.get("out_alloc", []):
        if "if-null" in flags and i < len(args):
            out[i] = [(slot, g, ctx.read(slot, st)) for slot, g in ctx.locations(args[i])]
    for i, steps, _, *flags in summary.get("field_alloc", []):
        if "grows" in flags and i < len(args):
            out[("field", i, repr(steps))] = [
                (slot, g, ctx.read(slot, st))
                for slot, g in ctx.resolve([["param", i], ["deref"]] + steps, args, None, st)]
    return out
