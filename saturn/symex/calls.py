"""Calls: memory effects. A callee analysed before its caller changes only the interface objects
its summary lists (M); otherwise the documented default — the result is unknown and the call may
change what it can reach (pointer arguments' targets and globals), but never a file-scope static
it cannot see (DESIGN.md "From C to the IR"). Checkers' attributes are their own business."""
from __future__ import annotations

from ..ir import nodes as N
from ..ir import types as T
from ..memory import gls
from ..memory.gls import GLS
from ..memory.locations import child
from . import results
from .interface import resolve


def default_call(ev, call: N.Call, args: list, st) -> None:
    label = f"*{(call.callee or 'call').rsplit(':', 1)[-1]}()"
    modifies = ev.effects.get(call.callee) if call.callee else None
    if modifies is not None:
        # The callee's summary names what it may change (M, §2.5.3): only that becomes unknown.
        # Every path is resolved before anything changes.
        memo: dict = {}
        targets = [hit for steps in modifies for hit in resolve(ev, steps, args, None, st, memo)]
        for obj, g in targets:
            ev.store_obj(obj, ev.fresh_value(obj.type, obj.display), g, st)
        if call.lv is not None:
            summary = ev.results.get(call.callee, {})
            ev.store(call.lv, results.at_call(ev, summary, args, call.lv.type) or
                     returned_value(ev, call, args, st) or
                     ev.fresh_value(call.lv.type, label), st)
            returned_fields(ev, call, args, st)
            constrain_result(ev, call, st)
        return
    if call.lv is not None:
        ev.store(call.lv, ev.fresh_value(call.lv.type, label), st)
    effect = "none" if call.callee == N.ASM_CALL else \
        ev.library_effects.get((call.callee or "").rsplit(":", 1)[-1])
    if effect == "none":
        return
    roots = set()
    for v in args:
        if isinstance(v, GLS):
            roots.update(loc.root for loc in (l for l, _ in v.entries if l is not None))
    callee_file = ev.program_function_file(call.callee)
    for obj in list(st.store):
        root = obj.root
        if root in roots or (effect is None and _visible_global(ev, root, callee_file)):
            st.store[obj] = ev.fresh_value(obj.type, obj.display)


def returned_value(ev, call: N.Call, args: list, st):
    """A pointer result the callee's summary ties to one interface object: that object (as the
    caller resolves it), or null under a fresh condition, as an unknown pointer may be."""
    steps = ev.returns.get(call.callee) if call.callee else None
    if not steps or not isinstance(call.lv.type, T.PtrT) or isinstance(steps, dict):
        return None
    return _pointer_to(ev, steps, args, st)


def constrain_result(ev, call: N.Call, st) -> None:
    """What the callee's summary promises of its result, as an assumption: its sign, its known
    bits, that it is not null (NOTE [result-summaries] in symex/results.py)."""
    sign = ev.signs.get(call.callee) if call.callee else None
    summary = ev.results.get(call.callee, {}) if call.callee else {}
    if not sign and not summary:
        return
    value, c = ev.load(call.lv, st), ev.c
    lit = results.assume_known(ev, summary, value)
    if summary.get("nonnull") and isinstance(value, GLS):
        lit = c.AND(lit, -value.null_guard())
    if sign and hasattr(value, "bits"):
        neg = value.bits[-1]
        lit = c.AND(lit, -neg if sign == "nonnegative" else
                    c.OR(neg, c.AND_all([-b for b in value.bits])))
    st.guard = st.guard & ev.guards.of_lit(lit)


def returned_fields(ev, call: N.Call, args: list, st) -> None:
    """The pointer fields of a struct result that the callee's summary ties to its arguments."""
    got = ev.returns.get(call.callee) if call.callee else None
    if not isinstance(got, dict) or not isinstance(call.lv.type, T.StructT):
        return
    for obj, g in ev.locs(call.lv, st):
        for name, steps in sorted(got["fields"].items()):
            ftype = obj.type.field_type(name) if isinstance(obj.type, T.StructT) else None
            value = _pointer_to(ev, steps, args, st) if ftype is not None else None
            if value is not None:
                ev.store_obj(child(obj, name, ftype), value, g, st)


def _pointer_to(ev, steps, args, st):
    hits = resolve(ev, steps, args, None, st)
    if not hits:
        return None
    null = ev.c.new_var()
    pairs = [(None, null)] + [(obj, ev.c.AND(-null, g)) for obj, g in hits]
    return gls.make(ev.c, pairs)


def _visible_global(ev, root, callee_file) -> bool:
    sym = root.sym
    if sym is None or sym.kind != "global":
        return False
    g = ev.env.program.globals.get(sym.key)
    if g is None or g.keeps_initializer:
        return False
    if g.static and not g.address_taken:
        return callee_file == g.file  # only its own translation unit can write it
    return True


def arg_values(ev, call: N.Call, st) -> list:
    return [_arg_value(ev, a, st) for a in call.args]


def _arg_value(ev, a, st):
    """An argument's value; a struct passed by value stands for the caller's struct (a pointer
    to it), so the callee's summary paths `param_i.field` name its fields (interface.py)."""
    if isinstance(a, N.Read) and isinstance(a.type, T.StructT):
        objs = ev.locs(a.lv, st)
        if ev.load_hooks and N.through_pointer(a.lv):
            ev.loaded(a.lv, objs, st)
        return gls.make(ev.c, objs)
    return ev.value(a, st)


def is_pointer(t) -> bool:
    return isinstance(t, T.PtrT)
