"""Interface objects (§2.5.1): the names caller and callee share — param_i, globals, the return
value, `*l` and `l.f` — as step lists, e.g. [["param", 0], ["deref"], ["field", "lock"]]."""
from __future__ import annotations

from ..ir import types as T
from ..logic.circuit import FALSE, TRUE
from ..memory.gls import GLS
from ..memory.locations import Obj, child, container, member_names, member_text, view
from ..report.paths import render_steps
from .lazy import same


def steps_of(obj: Obj, roots: dict | None = None):
    """The interface path of an object, or None for locals and memory only the function sees.
    `roots` maps objects made in the function (heap) to the path that hands them out."""
    suffix = []
    cur = obj
    while cur is not None:
        if roots and cur.parent is None and cur.root in roots:
            return roots[cur.root] + suffix[::-1]
        if cur.parent is not None:
            typed = _typed_from(cur.parent) if isinstance(cur.step, str) else None
            if typed is not None:
                suffix.append(["field", cur.step, cur.parent.type.key()])   # NOTE [view-steps]
                cur = typed
                continue
            suffix.append(["field", cur.step] if isinstance(cur.step, str) else ["index", cur.step])
            cur = cur.parent
            continue
        if cur.container_of is not None:
            inner, names = cur.container_of
            suffix.append(["container", cur.type.key(), member_text(names)])
            cur = inner
            continue
        if cur.deref_of is not None:
            suffix.append(["deref"])
            cur = cur.deref_of
            continue
        if cur.derived_from is not None:   # `ds + 1`: a driver's private area after its struct
            suffix.append(["derived", cur.type.key() if cur.type is not None else ""] +
                          ([cur.offset] if cur.offset is not None else []))
            cur = cur.derived_from
            continue
        sym = cur.sym
        if sym is None:
            return None
        if sym.kind == "param":
            return [["param", sym.index]] + suffix[::-1]
        if sym.kind == "global":
            return [["global", sym.key]] + suffix[::-1]
        if sym.kind == "rv":
            return [["ret"]] + suffix[::-1]
        return None
    return None


render = render_steps


def reached_through(obj: Obj) -> list:
    """The pointer objects whose values lead to `obj`, nearest first: the `deref` steps of
    its path, through views, containers and pointer arithmetic as `steps_of` walks them."""
    out, cur = [], obj.root
    for _ in range(8):
        if cur is None:
            break
        if cur.deref_of is not None:
            out.append(cur.deref_of)
            cur = cur.deref_of.root
        elif cur.derived_from is not None:
            cur = cur.derived_from.root
        elif cur.container_of is not None:
            cur = cur.container_of[0].root
        else:
            cur = None
    return out


def _typed_from(parent: Obj) -> Obj | None:
    """Where the path of a field of `parent` goes on when the field names its struct (NOTE
    [view-steps]): the address's first object for a view, `parent` itself for a root struct."""
    if _in_view(parent):
        return parent.addr.root
    if parent.parent is None and isinstance(parent.type, T.StructT):
        return parent
    return None


def _in_view(obj: Obj) -> bool:
    """NOTE [view-steps]: whether `obj` is a struct seen through a cast (a view, or a member at
    offset 0 of one: `gco2th(o)`, `&cast_u(o)->h`). A field of it is named by its address's
    first object and the struct's type — ["field", "ci", "struct lua_State"] after `*param0` —
    and callers resolve that through their own view of that type (made then if they have none
    yet): a caller whose code made no view of that type before the call still sees the
    effect, and paths through a union's members name one memory one way. A field of an object
    reached by a pointer carries its struct's type too: the caller's object may be untyped
    (`lk(sb->s_fs_info)`, a `void *` handed to a `struct msdos_sb_info *` parameter)."""
    if not isinstance(obj.type, T.StructT) or obj.addr.root is obj:
        return False
    top = obj
    while top.parent is not None and top.parent.addr is obj.addr:
        top = top.parent
    return top.parent is None and top.container_of is None and top.addr.root is not top


# Paths a summary names as changed. Over it, callers forget all their arguments reach (a
# free through a vector two calls down then leaves the freed map in the caller's slot).
MAX_MODIFIED = 128


def modified(ev, exit_state, limit: int = MAX_MODIFIED):
    """Interface objects whose exit value may differ from their entry value (M of §2.5.2); over
    `limit`, the arrays they are elements of as wholes (NOTE [whole-arrays]), or None when there
    are still more (callers then assume the worst)."""
    out, env = [], ev.env
    for obj, value in exit_state.memory.items():
        initial = env.initial_values.get(obj)
        if value is initial:
            continue
        steps = steps_of(obj)
        if steps is None or steps[0][0] == "ret" or \
                same(ev, value, initial) and obj not in ev.written_past:
            continue
        out.append(steps)
    if len(out) > limit:
        out = _wholes(out)
    for obj in ev.written_whole:   # beside the paths written inside, which callers keep
        steps = steps_of(obj)
        if steps is not None and steps[0][0] != "ret" and steps + [["any"]] not in out:
            out.append(steps + [["any"]])
    return sorted(out, key=str) if len(out) <= limit else None


# NOTE [whole-arrays]: a function that writes more interface objects than a summary lists
# (bytes of an output written one by one) says which arrays or blocks it writes somewhere
# inside, `[..., ["any"]]`: the path up to its first element or offset step. A caller forgets
# what it knows of those objects and everything inside them, and keeps the rest (the pointers
# beside them), where None would make it forget everything the arguments reach. So does a
# block a call wrote all of (`memset(event, 0, sizeof *event)`, a callee's own wholes), though
# the function met nothing inside it: a caller's `event.data.anchor` is not the last round's.
def _wholes(paths: list) -> list:
    cut = []
    for steps in paths:
        i = next((k for k, s in enumerate(steps) if s[0] in ("index", "derived")), None)
        cut.append(steps if i is None else steps[:i] + [["any"]])
    wholes = {repr(c[:-1]) for c in cut if c[-1] == ["any"]}
    return [c for c in {repr(c): c for c in cut}.values()
            if c[-1] == ["any"] or not any(repr(c[:k]) in wholes for k in range(1, len(c)))]


def returned(ctx, exit_state):
    """The interface object a pointer result points to when it is not null, if there is exactly
    one (`container_of` helpers, `&param->field` getters); None otherwise. Callers use it in
    place of a fresh object (calls.returned_value). A result that is one of a few objects
    stays fresh: its lock, handed out (NOTE [handed-out-locks]), is the caller's to release,
    where one of several list elements the caller knows would each be held or not."""
    fn = ctx.fn
    if exit_state is None or fn.rv is None:
        return None
    rv = ctx.env.var_obj(fn.rv)
    if isinstance(fn.rv.type, T.PtrT):
        return _one_target(ctx.ev.read_obj(rv, exit_state))
    if isinstance(fn.rv.type, T.StructT):
        # A struct returned by value whose pointer fields point at the arguments (the kernel's
        # lock guard classes): {"fields": {name: steps}}.
        fields = {}
        for name, ftype in fn.rv.type.fields:
            if isinstance(ftype, T.PtrT):
                steps = _one_target(ctx.ev.read_obj(child(rv, name, ftype), exit_state))
                if steps is not None:
                    fields[name] = steps
        return {"fields": fields} if fields else None
    return None


def _one_target(value):
    locs = [loc for loc, _ in value.locations()] if isinstance(value, GLS) else []
    if len(locs) != 1:
        return None
    steps = steps_of(locs[0])
    return steps if steps is not None and steps[0][0] != "ret" else None


def return_sign(ctx, exit_state):
    """"nonpositive" when a signed integer result is never > 0 (0 or -errno, the kernel's
    convention), "nonnegative" when never < 0, ["nonnegative-if-zero", i] when never < 0
    where parameter i is 0; None otherwise. Callers that test `err < 0` after a call whose
    summary only tells `ret != 0` apart need it (calls.constrain_result)."""
    rv = ctx.fn.rv
    if exit_state is None or rv is None or not isinstance(rv.type, T.IntT) or \
            not rv.type.signed or not ctx.session.affordable():
        return None
    value = ctx.exit_value(rv, exit_state)
    if not hasattr(value, "bits"):
        return None
    g, c = ctx.lit(exit_state.guard), ctx.c
    neg = value.bits[-1]
    if not ctx.can(g, neg):
        return "nonnegative"
    if not ctx.can(g, -neg, c.OR_all(value.bits[:-1])):
        return "nonpositive"
    return _negative_only_if(ctx, g, neg)


def _negative_only_if(ctx, g, neg):
    """["nonnegative-if-zero", i] when only a non-zero integer parameter lets the result
    be negative (`tube_read_msg(t, &m, &n, nonblock)`: -1 would block, and only where asked
    not to): a caller passing 0 tests `while (read_msg(...))` on a result that is never -1."""
    ints = [p for p in ctx.fn.params if isinstance(p.type, T.IntT)][:4]
    for p in ints:
        value = ctx.param_value(p)
        if hasattr(value, "bits") and \
                not ctx.can(g, neg, ctx.c.AND_all([-b for b in value.bits])):
            return ["nonnegative-if-zero", p.index]
    return None


def handed_out(ctx, exit_state) -> dict:
    """Objects made in the function that the exit state hands to callers: through the return
    value (`*ret`) or an out-parameter (`**param_i`), as constructors and allocators do."""
    roots: dict = {}
    ev, fn = ctx.ev, ctx.fn
    if exit_state is None:
        return roots
    if fn.rv is not None and isinstance(fn.rv.type, T.PtrT):
        value = ev.read_obj(ctx.env.var_obj(fn.rv), exit_state)
        for loc, _ in (value.locations() if isinstance(value, GLS) else []):
            if steps_of(loc) is None:
                roots.setdefault(loc.root, [["ret"], ["deref"]])
    for p in fn.params:
        pobj = ctx.env.var_obj(p)
        initial = ctx.env.initial_values.get(pobj)
        if not isinstance(initial, GLS):
            continue
        for target, _ in initial.locations():
            if not isinstance(target.type, T.PtrT):
                continue
            value = ctx.stored(exit_state, target)
            for loc, _ in (value.locations() if isinstance(value, GLS) else []):
                if steps_of(loc) is None:
                    roots.setdefault(loc.root, [["param", p.index], ["deref"], ["deref"]])
    return roots


def resolve(ev, steps, args: list, ret_value, state, memo: dict | None = None
            ) -> list[tuple[Obj, int]]:
    """The caller's objects an interface path names at a call (with their guards). `memo`, shared
    by the paths of one call resolved before any of its effects, keeps each prefix's objects: a
    summary's paths share long prefixes (`(*(*(*param0).L).l_G).…`), each a chain of loads."""
    memo = {} if memo is None else memo
    at = _start(ev, steps[0], args, ret_value)
    node = memo.setdefault((id(args), id(ret_value), _step_key(steps[0])), {})
    for step in steps[1:]:   # the memo is a tree of prefixes, one level a step
        if at is None:
            return []
        key = _step_key(step)
        got = node.get(key)
        if got is None:
            got = node[key] = (_advance(ev, at, step, state), {})
        at, node = got
    objs = at[1] if at is not None else None
    return [(o, g) for o, g in (objs or []) if g != FALSE]


def _step_key(step) -> tuple:
    return tuple(x if not isinstance(x, list) else repr(x) for x in step)


def value_at(ev, steps, args: list, state, memo: dict | None = None):
    """The value the caller's objects that an interface path names hold (a parameter's path is
    the argument itself), or None where the path leads nowhere."""
    if len(steps) == 1 and steps[0][0] == "param":
        return args[steps[0][1]] if steps[0][1] < len(args) else None
    objs = resolve(ev, steps, args, None, state, memo)
    return ev.select([(g, ev.read_obj(o, state)) for o, g in objs]) if objs else None


def _start(ev, head, args, ret_value):
    """(value, objects) of a path's first step: one of the two is None."""
    if head[0] == "param":
        return (args[head[1]], None) if head[1] < len(args) else None
    if head[0] == "global":
        g = ev.program.globals.get(head[1])
        return (None, [(ev.env.var_obj(g.sym), TRUE)]) if g is not None else None
    if head[0] == "ret":
        return ret_value, None
    return None, None


def _advance(ev, at, step, state):
    """(value, objects) one step further, or None when the path leads nowhere."""
    value, objs = at
    if step[0] == "deref":
        if value is not None:
            return (None, list(value.locations())) if isinstance(value, GLS) else None
        value = _load(ev, objs, state)
        if not isinstance(value, GLS):
            return None
        # NOTE [pointee-exists]: a pointer loaded from objects that exist only under their
        # guards (a field of `p->next`, where `p->next` may be null) points anywhere only where
        # one of them exists: select takes the last value unguarded, and a field a callee
        # wrote only where its struct exists would otherwise keep its old target beside.
        exists = ev.c.OR_all(g for _, g in objs)
        return None, [(loc, ev.c.AND(exists, g)) for loc, g in value.locations()]
    if objs is None and isinstance(value, GLS) and step[0] == "field":
        objs = list(value.locations())   # a struct passed by value (calls._arg_value)
    if objs is None:
        return None
    out = []
    for obj, g in objs:
        sub = _step(ev, obj, step)
        if sub is not None:
            out.append((sub, g))
    return None, out


def _load(ev, objs, state):
    if not objs:
        return None
    return ev.select([(g, ev.read_obj(obj, state)) for obj, g in objs])


def _step(ev, obj: Obj, step):
    if step[0] == "field":
        if len(step) > 2 and (obj.type is None or obj.type.key() != step[2]):
            st = T.struct_named(step[2], step[1])   # NOTE [view-steps]
            if st is None or st.field_type(step[1]) is None:
                return None
            obj = view(obj, st)
        elif not isinstance(obj.type, T.StructT) or obj.type.field_type(step[1]) is None:
            # An untyped block (e.g. from malloc): use a typed view of it that has the field.
            obj = next((v for _, v in sorted(obj.addr.views.items())
                        if isinstance(v.type, T.StructT) and v.type.field_type(step[1])), None)
            if obj is None:
                return None
        return child(obj, step[1], obj.type.field_type(step[1]))
    if step[0] == "container":
        names = member_names(step[2])
        st = T.struct_named(step[1], names[0])
        return container(obj, st, names) if st is not None else None
    if step[0] == "index":
        t = obj.type
        return child(obj, step[1], t.elem if isinstance(t, T.ArrT) else t)
    if step[0] == "derived":
        if (obj.type is None or obj.type.key() != step[1]) and step[1] in obj.addr.views:
            obj = obj.addr.views[step[1]]   # an untyped block the caller read as `T *`
        t = obj.type if obj.type is not None and obj.type.key() == step[1] else \
            T.struct_named(step[1])
        offset = step[2] if len(step) > 2 else None   # NOTE [constant-offsets]
        return ev.env.derived_object(obj, None, t, offset) if t is not None else None
    return None
