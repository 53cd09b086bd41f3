"""Lock summaries ⟨P_in, P_out, M, R⟩: inference at the exit by SAT queries (Fig. 2.10) and
application at call sites (Fig. 2.9).

NOTE [lock-propositions]: beyond the paper's fixed P_out = {ret ≠ 0}, propositions are chosen per
function: `ret ≠ 0` for integer and pointer results, `*param_i ≠ 0` for integer out-parameters the
function writes, and `param_i ≠ 0` for the integer parameters the lock behaviour depends on (at
most MAX_PIN candidates, kept only when some transition differs with their value). So
`complex_wrapper` of Fig. 2.8 comes out as printed there. When the summary is still ambiguous,
integer fields reached from the parameters or globals whose entry value the function read before
its first lock operation (`substream->pcm->nonatomic` choosing between a mutex and a spinlock)
are tried as well, and kept while they remove ambiguity; callers evaluate them on their own
state.
"""
from __future__ import annotations

from saturn.checker import FALSE, equals_const
from saturn.ir import nodes as N
from saturn.ir import types as T

MAX_PIN = 3
MAX_FIELD_TRIES = 6
U, L, R, E = 0, 1, 2, 3
ACQ, REL = 1, 2


def _is_int(t) -> bool:
    return isinstance(t, T.IntT)


def output_props(ctx, exit_state):
    fn, props = ctx.fn, []
    if fn.rv is not None and isinstance(fn.rv.type, (T.IntT, T.PtrT)):
        props.append(({"kind": "ret", "name": "ret"}, ctx.truth(ctx.exit_value(fn.rv, exit_state))))
    for p in fn.params:
        if not (isinstance(p.type, T.PtrT) and _is_int(p.type.target)):
            continue
        initial = ctx.env.initial_values.get(ctx.env.var_obj(p))
        for target, _ in ctx.locations(initial) if initial is not None else []:
            after = exit_state.store.get(target)
            if after is not None and after is not ctx.env.initial_values.get(target):
                props.append(({"kind": "outparam", "index": p.index, "name": f"*param{p.index}"},
                              ctx.truth(after)))
                break
    return props[:3]


def input_props(ctx):
    out = []
    for p in ctx.fn.params:
        if _is_int(p.type) and len(out) < MAX_PIN:
            out.append(({"kind": "param", "index": p.index, "name": f"param{p.index}"},
                        ctx.truth(ctx.initial_value(p))))
    return out


def field_candidates(ctx, data):
    """Integer objects reached from the parameters or globals whose entry value the function
    read before its first lock operation (`substream->pcm->nonatomic` choosing the lock), as
    further input propositions (NOTE [lock-propositions]); tried only when the summary is
    ambiguous without them. A value read after taking the lock (`if (dev->busy) return;`
    before the unlock) is not one: that is the forgotten-unlock bug the report is for."""
    out = []
    before = data.read_before_lock or set()
    for obj, value in ctx.env.initial_values.items():
        if obj not in before or not isinstance(obj.type, T.IntT):
            continue
        steps = ctx.interface_steps(obj)
        if steps and len(steps) > 1 and steps[0][0] in ("param", "global"):
            out.append((ctx.render_path(steps), steps, value))
    out.sort(key=lambda x: (len(x[1]), x[0]))
    props = [({"kind": "field", "path": steps, "name": name}, ctx.truth(value))
             for name, steps, value in out]
    # `if (sbi->options.nfs == FAT_NFS_NOSTALE_RO) mutex_lock(...)`: a field against a constant
    # the function compares with.
    props += [({"kind": "field", "path": steps, "name": f"{name} == {k}", "eq": k},
               equals_const(ctx.c, value, k))
              for k in _compared_constants(ctx.fn) for name, steps, value in out]
    return props[:MAX_FIELD_TRIES]


def _compared_constants(fn) -> list[int]:
    """Non-zero constants the function's branch conditions compare something with."""
    found = set()
    for block in fn.blocks.values():
        cond = getattr(block.term, "cond", None)
        while isinstance(cond, N.Cast):
            cond = cond.a
        if isinstance(cond, N.Binary) and cond.op in ("eq", "ne"):
            for side in (cond.a, cond.b):
                while isinstance(side, N.Cast):
                    side = side.a
                if isinstance(side, N.Const) and side.value:
                    found.add(side.value)
    return sorted(found)[:4]


def lock_exists(ctx, obj, steps, exit_state) -> int:
    """Where the lock has a state to speak of: not where the pointer it is reached through was
    null, and, for a lock handed out through the result, only where the result points to it
    (not an ERR_PTR returned on failure)."""
    if steps[0][0] != "ret":
        return ctx.exists(obj)
    rv = ctx.fn.rv
    value = ctx.exit_value(rv, exit_state) if rv is not None else None
    return ctx.c.OR_all([g for loc, g in ctx.locations(value) if loc.root is obj.root] or [FALSE])


def _ambiguous(locks) -> int:
    groups = {}
    for lk in locks:
        for ins, s, outs, s2, _ in lk["transitions"]:
            groups.setdefault((id(lk), tuple(ins), s, tuple(outs)), set()).add(s2)
    return sum(1 for exits in groups.values() if {U, L} <= exits)


def _valuations(ctx, base, lits, prefix=()):
    """Every assignment of `lits` consistent with `base`, by splitting (prunes early)."""
    if not ctx.can(*base):
        return
    if not lits:
        yield prefix
        return
    head, rest = lits[0], lits[1:]
    for value in (1, 0):
        yield from _valuations(ctx, base + [head if value else -head], rest, prefix + (value,))


def infer(ctx, checker, exit_state) -> dict:
    data = ctx.data[checker.name]
    summary = {"version": 1, "pin": [], "pout": [], "locks": []}
    data.prop_lits = []
    if exit_state is None or not data.locks:
        return summary
    pout, pin = output_props(ctx, exit_state), input_props(ctx)
    locks = _locks(ctx, checker, exit_state, pin, pout)
    if _ambiguous(locks):
        # The exit state may follow a value the function reads from its inputs (a flag in a
        # struct): add such propositions one at a time while they remove ambiguity.
        for cand in field_candidates(ctx, data):
            if len(pin) >= MAX_PIN + 2:
                break
            trial = _locks(ctx, checker, exit_state, pin + [cand], pout)
            if _ambiguous(trial) < _ambiguous(locks):
                pin, locks = pin + [cand], trial
                if not _ambiguous(locks):
                    break
    keep = [j for j in range(len(pin)) if any(_matters(lk["transitions"], j) for lk in locks)]
    for lk in locks:
        lk["transitions"] = _project(lk["transitions"], keep)
    summary["pin"] = [pin[j][0] for j in keep]
    summary["pout"] = [d for d, _ in pout]
    summary["locks"] = locks
    data.prop_lits = [pin[j][1] for j in keep] + [lit for _, lit in pout]
    return summary


def _locks(ctx, checker, exit_state, pin, pout) -> list:
    data = ctx.data[checker.name]
    fs, g = data.fs, ctx.lit(exit_state.guard)
    roots = ctx.handed_out(exit_state)
    lits = [lit for _, lit in pin] + [lit for _, lit in pout]
    locks = []
    for uid, obj in sorted(data.locks.items(), key=lambda kv: (kv[1].path, kv[0])):
        steps = ctx.interface_steps(obj, roots)
        if steps is None:
            continue
        constructor = uid in data.known
        s0 = checker._entry_value(data, (uid, "#lock"))
        final = exit_state.attrs.get((uid, "#lock"), s0)
        cause = exit_state.attrs.get((uid, "#lockcause"), fs.const(0))
        rows = []
        exists = lock_exists(ctx, obj, steps, exit_state)
        for s in ([None] if constructor else [U, L]):
            entry = [data.known[uid]] if s is None else [fs.is_(s0, s), exists]
            for s2 in (U, L, R, E):
                base = [g, *entry, fs.is_(final, s2)]
                for vals in _valuations(ctx, base, lits):
                    why = ""
                    if s2 == E:
                        assumed = base + [x if v else -x for x, v in zip(lits, vals)]
                        why = "release" if ctx.can(*assumed, fs.is_(cause, REL)) else "acquire"
                    rows.append([list(vals[:len(pin)]), "*" if s is None else s,
                                 list(vals[len(pin):]), s2, why])
        locks.append({"path": steps, "name": ctx.render_path(steps), "constructor": constructor,
                      "transitions": rows})
    return locks


def _matters(rows, j) -> bool:
    """An input proposition matters when flipping it changes the set of transitions."""
    seen = {(tuple(r[0]), r[1], tuple(r[2]), r[3]) for r in rows}
    for ins, s, outs, s2 in seen:
        flipped = list(ins)
        flipped[j] = 1 - flipped[j]
        if (tuple(flipped), s, outs, s2) not in seen:
            return True
    return False


def _project(rows, keep):
    out, seen = [], set()
    for ins, s, outs, s2, why in rows:
        row = ([ins[j] for j in keep], s, outs, s2, why)
        key = (tuple(row[0]), s, tuple(outs), s2, why)
        if key not in seen:
            seen.add(key)
            out.append(list(row))
    return out


# -- application (Fig. 2.9) ------------------------------------------------------------------------
def prepare(ctx, checker, summary, args, st):
    """Before the call: the caller's lock objects, their states, and the input propositions."""
    pins = [_pin_value(ctx, d, args, st) for d in summary["pin"]]
    locks = []
    for lk in summary["locks"]:
        if lk["path"][0][0] == "ret":
            locks.append((lk, None))
            continue
        objs = ctx.resolve(lk["path"], args, None, st)
        if objs:  # the callee dereferenced the pointer on every path that reached its exit
            ctx.restrict(st, ctx.c.OR_all(g for _, g in objs))
        locks.append((lk, [(o, g, ctx.ev.get_attr(st, o, "#lock")) for o, g in objs]))
    return pins, locks


def _pin_value(ctx, d, args, st) -> int:
    if d["kind"] == "field":
        return _read_truth(ctx, ctx.resolve(d["path"], args, None, st), st, d.get("eq"))
    return ctx.truth(args[d["index"]]) if d["index"] < len(args) else ctx.c.new_var()


def _read_truth(ctx, objs, st, eq=None) -> int:
    """`value != 0` (or `value == eq`) of the object the path names (guarded), or a fresh
    literal if none."""
    if not objs:
        return ctx.c.new_var()

    def test(value):
        return ctx.truth(value) if eq is None else equals_const(ctx.c, value, eq)
    values = [(g, test(ctx.ev.read_obj(o, st))) for o, g in objs]
    lit = values[-1][1]
    for g, v in reversed(values[:-1]):
        lit = ctx.c.ITE(g, v, lit)
    return lit


def _out_values(ctx, summary, args, ret, st):
    out = []
    for d in summary["pout"]:
        if d["kind"] == "ret":
            out.append(ctx.truth(ret) if ret is not None else ctx.c.new_var())
            continue
        out.append(_read_truth(ctx, ctx.resolve([["param", d["index"]], ["deref"]], args, None,
                                                st), st))
    return out


def apply(ctx, checker, call, summary, token, ret, st):
    pins, locks = token
    pouts = _out_values(ctx, summary, [ctx.value(a, st) for a in call.args], ret, st)
    fs, c = ctx.data[checker.name].fs, ctx.c
    for lk, objs in locks:
        if objs is None:  # handed out through the result: resolvable only now
            found = ctx.resolve(lk["path"], [], ret, st)
            objs = [(o, g, ctx.ev.get_attr(st, o, "#lock")) for o, g in found]
        for obj, g, old in objs:
            _apply_lock(ctx, checker, call, lk, obj, g, old, pins, pouts, st)


def _enabled(ctx, fs, row, old, pins, pouts) -> int:
    ins, s, outs, _, _ = row
    conds = [x if v else -x for x, v in zip(pins, ins)] + [x if v else -x for x, v in zip(pouts, outs)]
    if s != "*":
        conds.append(fs.is_(old, s))
    return ctx.c.AND_all(conds)


def _choose(ctx, rows, enabled):
    """Rows with one condition and several outcomes (a Type B callee, or propositions that do not
    tell its exits apart) are alternatives: fresh choice literals pick exactly one."""
    groups: dict = {}
    for i, (ins, s, outs, _, _) in enumerate(rows):
        groups.setdefault((tuple(ins), s, tuple(outs)), []).append(i)
    out = list(enabled)
    for members in groups.values():
        rest = 1
        for i in members[:-1]:
            pick = ctx.c.new_var()
            out[i] = ctx.c.AND(enabled[i], ctx.c.AND(rest, pick))
            rest = ctx.c.AND(rest, -pick)
        out[members[-1]] = ctx.c.AND(enabled[members[-1]], rest)
    return out


def reported_by_callee(rows) -> bool:
    """The callee reaches Error from both entry states under one input valuation: its report."""
    errs = {}
    for ins, s, _, s2, _ in rows:
        if s2 == E:
            errs.setdefault(tuple(ins), set()).add(s)
    return any({U, L} <= entries for entries in errs.values())


def _apply_lock(ctx, checker, call, lk, obj, g, old, pins, pouts, st):
    data, fs, c = ctx.data[checker.name], ctx.data[checker.name].fs, ctx.c
    data.first_op(ctx)
    data.locks.setdefault(obj.addr.uid, obj)
    rows = lk["transitions"]
    enabled = _choose(ctx, rows, [_enabled(ctx, fs, r, old, pins, pouts) for r in rows])
    if lk.get("constructor"):
        made = c.AND_all([ctx.lit(st.guard), g, c.OR_all(enabled)])
        data.known[obj.addr.uid] = c.OR(data.known.get(obj.addr.uid, -1), made)
    # A constructor's lock is new: whatever the object held before does not stay.
    stuck = FALSE if lk.get("constructor") else c.OR(fs.is_(old, E), fs.is_(old, R))
    ctx.restrict(st, c.OR(-g, c.OR(stuck, c.OR_all(enabled))))
    path = ctx.lit(st.guard)
    reported = reported_by_callee(rows)
    first_now = ctx.ev.get_attr(st, obj, "#lockfirst")
    new = old
    for row, en in zip(rows, enabled):
        new = fs.ite(en, fs.const(row[3]), new)
        if row[3] == E:
            kind = REL if row[4] == "release" else ACQ
            enters = c.AND_all([path, g, en, -fs.is_(old, E)])
            data.errors.append((obj.addr.uid, enters, call.coord, kind, first_now, reported,
                                call.text))
            ctx.ev.set_attr(st, obj, "#lockcause", fs.const(kind), c.AND(g, c.AND(en, -fs.is_(old, E))))
    changes = any(r[1] != r[3] for r in rows if r[3] != E)
    ctx.ev.set_attr(st, obj, "#lock", new, c.AND(g, -stuck))
    if changes:
        data.ops.append((obj.addr.uid, c.AND(path, g), call.coord,
                         f"'{call.text}' changes the state of {obj.display} ({lk['name']} in its summary)"))
    first = _expected_first(rows)
    if first:
        cur = ctx.ev.get_attr(st, obj, "#lockfirst")
        ctx.ev.set_attr(st, obj, "#lockfirst", fs.ite(fs.is_(cur, 0), fs.const(first), cur), g)
    if any(r[1] in (U, "*") and r[3] == L for r in rows):
        data.acquires.append((obj.addr.uid, c.AND(path, c.AND(g, fs.is_(new, L))), call.coord))


def _expected_first(rows) -> int:
    ok_from = {r[1] for r in rows if r[3] != E}
    err_from = {r[1] for r in rows if r[3] == E}
    if U in ok_from and L in err_from:
        return ACQ
    if L in ok_from and U in err_from:
        return REL
    return 0

