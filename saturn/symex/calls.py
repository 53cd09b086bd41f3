"""Calls: memory effects. A callee analysed before its caller changes only the interface objects
its summary lists (M); otherwise the documented default — the result is unknown and the call may
change what it can reach (pointer arguments' targets and globals), but never a file-scope static
it cannot see (docs/DESIGN.md "From C to the IR"). Checkers' attributes are their own business."""
from __future__ import annotations

from ..plugin.checker import library_spellings, result_lit
from ..ir import nodes as N
from ..ir import types as T
from ..logic.circuit import FALSE
from ..memory import gls
from ..memory.gls import GLS
from ..memory.locations import child, unzero
from . import copies, results
from .interface import resolve, value_at
from .lazy import force
from .lvalues import union_members


def default_call(ev, call: N.Call, args: list, st) -> None:
    label = f"*{(call.callee or 'call').rsplit(':', 1)[-1]}()"
    modifies = ev.effects.get(call.callee) if call.callee else None
    if modifies is not None:
        _summarized_call(ev, call, args, st, modifies, label)
        return
    name = (call.callee or "").rsplit(":", 1)[-1]
    if call.lv is not None:
        at = RETURNS_ARG.get(name)
        ev.store(call.lv, args[at] if at is not None and at < len(args) and
                 isinstance(call.lv.type, T.PtrT) else ev.fresh_value(call.lv.type, label), st)
        fresh_fields(ev, call, st, label)
        if name in OBJECT_LENGTHS:
            _below_address_space(ev, call, st)
    effect = "none" if call.callee == N.ASM_CALL else ev.library_effects.get(name)
    if effect == "none":
        return
    written = [v for i, v in enumerate(args) if i in effect] if isinstance(effect, tuple) \
        else args
    pointed = [(loc, g) for v in written if isinstance(v, GLS) for loc, g in v.entries
               if loc is not None]
    if effect in ("args", "release") or isinstance(effect, tuple):
        # A library function writes what its arguments point to (`snprintf(info->fix.id,
        # ..)` writes that array, not the rest of *info), and overwrites it for real: where
        # the argument points there (`free(a)` with `a` one of a list's nodes by the path
        # taken leaves the other nodes as they were). Objects only read so far count too:
        # `memset(s, 0, sizeof *s)` changes `s->buf` though nothing wrote it before.
        # A block given back keeps its flags: a caller reading them after the call reads
        # freed memory, and the flags a callee tested before its free stay its own
        # (NOTE [kept-bits]).
        if effect != "release":   # NOTE [whole-arrays]: what it surely writes, for summaries
            ev.written_whole.update((loc, None) for loc, _ in _destination(written, effect))
            for loc, _ in pointed:
                unzero(loc)
        at = by_address(pointed)
        for obj in ev.met(st):
            if effect == "release" and not isinstance(obj.type, T.PtrT):
                continue
            g = _under(ev.c, obj, at)
            if g != FALSE:
                ev.store_obj(obj, ev.fresh_value(obj.type, obj.display), g, st)
        return
    _forget_for_unknown(ev, call, pointed, st)


def _forget_for_unknown(ev, call, pointed, st) -> None:
    """NOTE [forgotten-values]: what a function we know nothing of may have changed. A callee
    whose summary has too many changes to list (ev.unlisted) changed what this function only
    read, too (a callee's summary read `d->err` to free it, and gdbm_store refills it, so the
    next call must not find the freed block there again), and what the arguments reach
    through their pointers (the vector it shifts down, behind the struct it was given:
    `remove_map(mpp, vecs->mpvec)` two calls down). That is all it may have changed, though
    its writes may all have gone elsewhere (counters in a global)."""
    roots = {loc.root for loc, _ in pointed}
    for root in roots:
        unzero(root)
    callee_file = ev.program_function_file(call.callee)
    unlisted = call.callee in ev.unlisted
    for obj in (ev.met(st) if unlisted else list(st.memory)):
        root = obj.root
        if obj in ev.pinned:
            continue   # NOTE [lock-paths]
        if root in roots or _visible_global(ev, root, callee_file) or \
                unlisted and _reached_from(root, roots):
            unzero(root)
            ev.forget(obj, st)


def _reached_from(root, roots) -> bool:
    """Whether `root` was reached from one of `roots` through the pointers read to find it,
    the entries found from their members and the elements past their starts included."""
    cur = root
    for _ in range(16):
        up = cur.deref_of or (cur.container_of[0] if cur.container_of else None) or \
            cur.derived_from
        if up is None:
            return False
        cur = up.root
        if cur in roots:
            return True
    return False


def _destination(written, effect) -> list:
    """The locations a library function writes all of: those of the arguments its effect
    lists, else of its first pointer argument (`memcpy(dst, src, n)`, `snprintf(buf, ...)`,
    `read(fd, buf, n)`: the C library's convention), not a source it only reads."""
    values = written if isinstance(effect, tuple) else \
        [next((v for v in written if isinstance(v, GLS) and v.locations()), None)]
    return [(loc, g) for v in values if isinstance(v, GLS) for loc, g in v.locations()]


def _summarized_call(ev, call, args, st, modifies, label) -> None:
    """The callee's summary names what it may change (M, §2.5.3): only that becomes unknown,
    or what it copied there (NOTE [copied-pointers]). Every path, the result's included, names
    the callee's entry state, so all are resolved before anything changes: `take(list)`
    returns the head it found, not the head it left."""
    memo: dict = {}
    targets = [(repr(steps), hit) for steps in modifies if steps[-1] != ["any"]
               for hit in resolve(ev, steps, args, None, st, memo)]
    wholes = [hit for steps in modifies if steps[-1] == ["any"]
              for hit in resolve(ev, steps[:-1], args, None, st, memo)]
    if wholes:   # NOTE [whole-arrays]: what was met inside them, before anything changes
        ev.written_whole.update((obj, None) for obj, _ in wholes)
        for obj, _ in wholes:
            unzero(obj)
        named, at = {obj for _, (obj, _) in targets}, by_address(wholes)
        targets += [(f"inside:{obj.uid}", (obj, g)) for obj in ev.met(st)
                    if obj not in named and (g := _under(ev.c, obj, at)) != FALSE]
    targets += _elements_past(ev, targets, st)
    copied = copies.values(ev, ev.copies.get(call.callee), args, st, memo)
    result = fields = None
    if call.lv is not None:
        result = results.at_call(ev, ev.results.get(call.callee, {}), args, call.lv.type, st) \
            or returned_value(ev, call, args, st) or ev.fresh_value(call.lv.type, label)
        fields = returned_fields(ev, call, args, st)
    for key, (obj, g) in _one_per_union(targets):   # written by the callee: overwritten
        if obj in ev.pinned:
            continue   # NOTE [lock-paths]
        value = copied.get(key)
        if isinstance(value, copies.KeptBits):
            value = value.apply(ev, ev.unknown_for(obj, g), result)
        elif value is None or isinstance(value, list):
            kept, value = value or [], ev.unknown_for(obj, g)
            for when, before in reversed(kept):   # the first that holds decides
                value = ev.ite(result_lit(ev, when, result) if result is not None else
                               ev.c.new_var(), before, value)
        ev.store_obj(obj, value, g, st)
    if call.lv is not None:
        ev.store(call.lv, result, st)
        fresh_fields(ev, call, st, label)
        for obj, value, g in fields:
            ev.store_obj(obj, value, g, st)
        constrain_result(ev, call, args, st)


# NOTE [somewhere-past]: a callee that writes at an unknown offset from a pointer (`v->slot[i - 1]
# = v->slot[i]`, shifting a vector down) changes the one derived object past it (NOTE
# [constant-offsets]), and that object stands for every element, the first and those at
# constant offsets included. A caller that read `v->slot[0]` or `v->slot[2]` itself holds them as
# objects of their own, so the callee's change must reach them too: left as they were, a loop
# that frees a vector's element, deletes its slot and reads the slot again found the freed block
# there. Each becomes unknown where the derived object is written. And such a write is a change
# in the callee's summary though the derived object gets back the value read from it
# (`written_past`, interface.modified): the shift reads and writes that one object.
def _elements_past(ev, targets, st) -> list:
    """The caller's objects at a constant offset from the base of a derived object the callee
    wrote at an unknown offset, and their parts along the same steps, as extra targets."""
    wanted: dict = {}
    for _, (obj, g) in targets:
        steps, cur = [], obj
        while cur.derived_from is None and cur.parent is not None:
            steps.append(cur.step)
            cur = cur.parent
        if cur.derived_from is not None and cur.offset is None:
            wanted.setdefault(id(cur.derived_from.addr), []).append((steps, g))
    if not wanted:
        return []
    out, named = [], {obj for _, (obj, _) in targets}
    for obj in ev.met(st):
        steps, cur = [], obj
        while cur is not None and obj not in named:
            # the element itself: the base (offset 0), or an object k past it
            base = cur if cur.derived_from is None else cur.derived_from \
                if cur.offset is not None else None
            guards = [g for s, g in wanted.get(id(base.addr), ()) if s == steps] if base else []
            if guards:
                out.append((f"past:{obj.uid}", (obj, ev.c.OR_all(guards))))
                break
            steps.append(cur.step)
            cur = cur.parent
    return out


def _one_per_union(targets) -> list:
    """The callee's changes, one for each set of union members that share their bits with
    one guard (NOTE [union-members]): a write to one is a write to all of them, and the
    callee's M lists each, so writing each (a dozen pointers of one union) built the same
    values a dozen times."""
    seen, out = set(), []
    for key, (obj, g) in targets:
        members = union_members(obj)
        if len(members) > 1:
            shared = (min(m.uid for m in members), g)
            if shared in seen:
                continue
            seen.add(shared)
        out.append((key, (obj, g)))
    return out


# Library functions that return one of their arguments: `return memcpy(d, s, n);` returns d.
RETURNS_ARG = dict.fromkeys(library_spellings(
    ("memcpy", "memmove", "memset", "strcpy", "strncpy", "strcat", "strncat")), 0)


# NOTE [object-sizes]: no object is larger than the address space (2^47 bytes for a Linux
# process on 64-bit machines, the widest user space there is), so the length of a string or of
# a span in one is below it: `strlen(a) + 12 + strlen(b)` never wraps a size_t to 0, and a
# witness that needs it to is no input a program can be given.
OBJECT_LENGTHS = library_spellings(("strlen", "strnlen", "wcslen", "strspn", "strcspn"))
ADDRESS_BITS = 47


def _below_address_space(ev, call, st) -> None:
    value = ev.load(call.lv, st)
    bits = getattr(value, "bits", None)
    if bits is not None and len(bits) > ADDRESS_BITS:
        st.guard = st.guard & ev.guards.of_lit(ev.c.AND_all([-b for b in bits[ADDRESS_BITS:]]))


def _under(c, obj, locs) -> int:
    """Where `obj` is one of the (location, guard) pairs `locs` (by_address's), or a part of
    one: inside an object at the same address that is no larger (a view of the block; not the
    struct whose first member was pointed to), or pointer arithmetic reaches it from one
    (`buf + 4`)."""
    found, cur = [], obj
    while cur is not None:
        found += [g for loc, g in locs.get(id(cur.addr), ())
                  if cur is loc or _size(cur) <= _size(loc)]
        cur = cur.parent if cur.parent is not None else cur.derived_from
    return c.OR_all(found) if found else FALSE


def by_address(locs) -> dict:
    """(location, guard) pairs by their address, in their order: _under asks each object met
    about the few at its own address, not every one (a call writing hundreds of wholes, met
    objects by the thousand)."""
    out: dict = {}
    for loc, g in locs:
        out.setdefault(id(loc.addr), []).append((loc, g))
    return out


def _size(obj) -> float:
    size = getattr(obj.type, "size", 0) if obj.type is not None else 0
    return size if size and not isinstance(obj.type, T.VoidT) else float("inf")


def returned_value(ev, call: N.Call, args: list, st):
    """A pointer result the callee's summary ties to one interface object: that object (as the
    caller resolves it), or null under a fresh condition, as an unknown pointer may be."""
    steps = ev.returns.get(call.callee) if call.callee else None
    if not steps or not isinstance(call.lv.type, T.PtrT) or isinstance(steps, dict):
        return None
    if call.callee in ev.returns_copy:   # the pointer's own value, null where it is null
        value = value_at(ev, steps[:-1], args, st)
        if value is not None:
            return value
    return _pointer_to(ev, steps, args, st)


def constrain_result(ev, call: N.Call, args: list, st) -> None:
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
    k = summary.get("nonnull_unless_zero")
    size = force(ev, args[k]) if k is not None and k < len(args) else None
    if isinstance(value, GLS) and hasattr(size, "bits"):
        lit = c.AND(lit, c.OR(-value.null_guard(), -ev.truth(size)))
    if sign and hasattr(value, "bits"):
        neg = value.bits[-1]
        if isinstance(sign, list):   # ["nonnegative-if-zero", k]
            given = force(ev, args[sign[1]]) if sign[1] < len(args) else None
            if hasattr(given, "bits"):
                lit = c.AND(lit, c.OR(-neg, c.OR_all(given.bits)))
        else:
            lit = c.AND(lit, -neg if sign == "nonnegative" else
                        c.OR(neg, c.AND_all([-b for b in value.bits])))
    st.guard = st.guard & ev.guards.of_lit(lit)


MAX_RESULT_LEAVES = 256


def fresh_fields(ev, call: N.Call, st, label: str) -> None:
    """A struct result's fields, each a new unknown at every call: the result's object is the
    call's one temporary, whose fields would otherwise read their first values again (two
    `datum d = fetch(...)` in a loop getting one block)."""
    if not isinstance(call.lv.type, T.StructT):
        return
    budget = [MAX_RESULT_LEAVES]
    for obj, g in ev.locs(call.lv, st):
        _fresh_leaves(ev, obj, g, st, f"{label}.", budget)


def _fresh_leaves(ev, obj, g, st, label, budget) -> None:
    for name, ftype in obj.type.fields:
        if budget[0] <= 0:
            return
        leaf = child(obj, name, ftype)
        if isinstance(ftype, T.StructT):
            _fresh_leaves(ev, leaf, g, st, f"{label}{name}.", budget)
        elif not isinstance(ftype, T.ArrT):
            budget[0] -= 1
            ev.store_obj(leaf, ev.fresh_value(ftype, f"{label}{name}"), g, st)


def returned_fields(ev, call: N.Call, args: list, st) -> list:
    """The pointer fields of a struct result that the callee's summary ties to its arguments:
    (field object, value, guard) to store."""
    got = ev.returns.get(call.callee) if call.callee else None
    if not isinstance(got, dict) or not isinstance(call.lv.type, T.StructT):
        return []
    out = []
    for obj, g in ev.locs(call.lv, st):
        for name, steps in sorted(got["fields"].items()):
            ftype = obj.type.field_type(name) if isinstance(obj.type, T.StructT) else None
            value = _pointer_to(ev, steps, args, st) if ftype is not None else None
            if value is not None:
                out.append((child(obj, name, ftype), value, g))
    return out


def _pointer_to(ev, steps, args, st):
    hits = resolve(ev, steps, args, None, st)
    if not hits:
        return None
    # Null under a fresh condition, or where no object is there (`netdev_priv(dev)` of a null
    # dev): a pointer is null or points somewhere, never neither.
    c = ev.c
    null = c.OR(c.new_var(), -c.OR_all(g for _, g in hits))
    pairs = [(None, null)] + [(obj, c.AND(-null, g)) for obj, g in hits]
    return gls.make(c, pairs)


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
