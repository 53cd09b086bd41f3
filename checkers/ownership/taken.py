"""The integer inputs a function takes (NOTE [descriptors]): the descriptors its callers may own
that it closes, or keeps where the caller no longer holds them, as summary paths (`values`), and
those it keeps only where its result says it succeeded (`values_if`: [[steps, "ret==0"], ...]).
"""
from __future__ import annotations

from saturn.plugin.checker import FALSE, TRUE, same_int

from . import conditions, handles

COPY_CONE = 4_000   # gates looked through for the parameters a stored integer may copy


def values(ctx, data, rules, g, view) -> tuple[list, list]:
    """The integer inputs (descriptors a caller may own) that may escape other than by their
    own place: those a release or an unknown call took, and the parameters a place the caller
    sees holds a copy of at the exit (`c->fd = fd;`). Found without queries: any integer may
    be a descriptor to some caller, and this only ever spares a caller a leak report. A copy
    kept in new memory an out-parameter hands out is taken where that memory is handed out:
    nng's `nni_posix_pfd_init(&pfd, fd)` keeps fd only where it could allocate the pfd, and
    its caller that does not close fd where it failed leaks it."""
    hs = data.handles
    found = {obj: TRUE for obj, stand in hs.stand_ins.items() if stand in hs.taken}
    for obj, lit in _copied_params(ctx, rules, g, _seen_blocks(ctx, data, rules, view)):
        found[obj] = ctx.c.OR(found.get(obj, FALSE), lit)
    always, kept_if = [], []
    for obj, lit in found.items():
        steps = ctx.interface_steps(obj)
        if not steps or steps[0][0] not in ("param", "global"):
            continue
        when = "always" if lit == TRUE else conditions.result_only(ctx, g, lit, view)
        if when == "always":
            always.append(steps)
        else:
            kept_if.append([steps, when])
    return sorted(always, key=ctx.render_path), sorted(kept_if, key=lambda sw: ctx.render_path(
        sw[0]))


def _seen_blocks(ctx, data, rules, view) -> dict:
    """The blocks the caller sees after the call, each with where it does: those the result
    points to, and the new ones (this checker's, memory the function made, or a block a call
    gave it) a parameter's or a global's pointer holds (`*pfdp = pf`). A block the caller's
    memory already held is seen everywhere."""
    seen: dict = {}
    pairs = [(loc, gl) for loc, gl in ctx.locations(view.ret)] if view.ret is not None else []
    for p, value, _ in rules.pointer_slots():
        if rules.route(p)[0] in ("param", "global"):
            pairs += ctx.locations(value)
    for loc, gl in pairs:
        new = loc.root in data.new_locs or loc.root.origin in ("heap", "fresh")
        seen[loc.root] = TRUE if not new else ctx.c.OR(seen.get(loc.root, FALSE), gl)
    return seen


def _copied_params(ctx, rules, g, seen) -> list:
    """(parameter object, where) for the integer parameters a place the caller sees holds a
    copy of at the exit: a value sharing a literal with the parameter's, or one whose cone
    reads it and that may equal it (`s->fd = fd` through a pointer that may be null is a
    choice of the old value and `fd`). A block in `seen` is a place the caller sees where it
    does (`wrap(fd)` keeps fd in it)."""
    params = {}
    for p in ctx.fn.params:
        value = ctx.param_value(p)
        if value is not None and handles.is_input_int(ctx.param_object(p), value):
            for b in value.bits:
                params.setdefault(abs(b), (ctx.param_object(p), value))
    if not params:
        return []
    out = []
    for p, value, own in rules.int_slots():
        where = TRUE if rules.route(p)[0] in ("param", "global", "ret") else seen.get(p.root)
        if own or where is None:
            continue
        bits = getattr(ctx.force(value), "bits", ())
        direct = [params[abs(b)][0] for b in bits if abs(b) in params]
        if direct or not bits:
            out += [(obj, where) for obj in direct]
            continue
        read = {params[v] for v in ctx.c.support(list(bits), COPY_CONE) or () if v in params}
        out += [(obj, where) for obj, pv in sorted(read, key=lambda ov: ov[0].uid)
                if len(pv.bits) == len(bits) and ctx.can(g, same_int(ctx.c, ctx.force(value), pv))]
    return out
