"""Lock summaries applied at call sites (Fig. 2.9): the caller's lock objects and their states
before the call, the summary's rows chosen by the propositions' values in the caller, errors
recorded where a row leads to Error. Inference is lock_summary.py (NOTE [lock-propositions])."""
from __future__ import annotations

from saturn.plugin.checker import FALSE, callee_summary, equals_const

from . import lock_class
from .lock_props import input_field
from .lock_states import ACQ, REL, E, L, R, U, mixed
from .lock_rows import LockError


def prepare(ctx, checker, summary, args, st):
    """Before the call: the caller's lock objects, their states, and the input propositions."""
    pins = [_pin_value(ctx, d, args, st, checker.state(ctx)) for d in summary["pin"]]
    locks = []
    for lk in summary["locks"]:
        if lk["path"][0][0] == "ret" or lk.get("constructor"):
            # Resolved after the call: what it hands out (`*out = new_lock_holder()`) is there
            # only then, and a constructor's lock is new, whatever was there before.
            locks.append((lk, None))
            continue
        objs = ctx.resolve(lk["path"], args, None, st)
        if objs:  # the callee dereferenced the pointer on every path that reached its exit
            ctx.restrict(st, ctx.c.OR_all(g for _, g in objs))
        locks.append((lk, [(o, g, ctx.get_attr(st, o, "#lock")) for o, g in objs]))
    return pins, locks


def _pin_value(ctx, d, args, st, data) -> int:
    if d["kind"] == "field":
        objs = ctx.resolve(d["path"], args, None, st)
        _inherit(ctx, data, objs, st, d.get("eq"), d.get("bit"))
        return _read_truth(ctx, objs, st, d.get("eq"), d.get("bit"))
    if d["index"] >= len(args):
        return ctx.c.new_var()
    value = args[d["index"]]
    if "bit" in d:   # a flag word's bit (NOTE [flag-words] in lock_props.py)
        bits = getattr(value, "bits", ())
        return bits[d["bit"]] if d["bit"] < len(bits) else ctx.c.new_var()
    if "eq" in d:    # a command code (lock_props.command_codes)
        value = ctx.force(value)
        return equals_const(ctx.c, value, d["eq"]) if hasattr(value, "bits") else \
            ctx.c.new_var()
    return ctx.truth(value)


def _inherit(ctx, data, objs, st, eq, bit) -> None:
    """A callee's flag that is still this function's entry value of an input field becomes a
    proposition of this summary too (NOTE [lock-propositions]): the callee behaves by it, so
    this function does (sound/core's snd_pcm_action takes the group lock as its callee
    snd_pcm_stream_group_ref does, by `substream->pcm->nonatomic`)."""
    if len(objs) != 1:
        return
    obj = objs[0][0]
    initial = ctx.initial(obj)
    unchanged = ctx.same(st.memory.get(obj, initial), initial)   # NOTE [lazy-values]
    steps = ctx.interface_steps(obj) if unchanged else None
    if input_field(steps):
        data.inherited.setdefault((obj, eq, bit), (steps, initial))


def _read_truth(ctx, objs, st, eq=None, bit=None) -> int:
    """`value != 0` (or `value == eq`, or its bit) of the object the path names (guarded), or a
    fresh literal if none."""
    if not objs:
        return ctx.c.new_var()

    def test(value):
        if bit is not None:
            bits = getattr(ctx.force(value), "bits", ())
            return bits[bit] if bit < len(bits) else ctx.c.new_var()
        return ctx.truth(value) if eq is None else equals_const(ctx.c, value, eq)
    values = [(g, test(ctx.read(o, st))) for o, g in objs]
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
        if d["kind"] == "ret_is":
            out.append(_result_is(ctx, ret, args[d["index"]] if d["index"] < len(args)
                                  else None))
            continue
        out.append(_read_truth(ctx, ctx.resolve([["param", d["index"]], ["deref"]], args, None,
                                                st), st))
    return out


def _result_is(ctx, ret, given):
    """Whether the call's result is the argument `given`: where the caller's view of the
    result (a fresh object: a callee's result that is one of several objects) shares no
    object with it, which of the callee's exits it was is unknown, not the other one."""
    if ret is None or given is None:
        return ctx.c.new_var()
    mine = {loc.root for loc, _ in ctx.locations(given)}
    if not any(loc.root in mine for loc, _ in ctx.locations(ret)):
        return ctx.c.new_var()
    return ctx.pointers_equal(ret, given)


def apply(ctx, checker, call, summary, token, ret, st):
    pins, locks = token
    args = [ctx.value(a, st) for a in call.args]
    pouts = _out_values(ctx, summary, args, ret, st)
    new_here: set = set()   # locks in objects this call made: NOTE [handed-out-locks]
    fs, todo = checker.state(ctx).fs, []
    for lk, objs in locks:
        if objs is None:  # handed out, or made: resolvable only now
            found = ctx.resolve(lk["path"], args, ret, st)
            objs = [(o, g, _handed_out_state(ctx, checker, o, st, new_here)) for o, g in found]
        for obj, g, old in objs:
            rows = lk["transitions"]
            enabled = _choose(ctx, rows, [_enabled(ctx, fs, r, old, pins, pouts) for r in rows])
            todo.append((lk, obj, g, old, enabled))
    # Every lock's rows are consistent with the path: one restriction for them all (a new
    # guard for each would convert the whole path condition again, lock after lock).
    consistent = ctx.c.AND_all(_consistent(ctx, fs, *item) for item in todo)
    ctx.restrict(st, consistent)
    path = ctx.lit(st.guard)
    coarse = bool(summary.get("coarse"))
    for lk, obj, g, old, enabled in todo:
        _apply_lock(ctx, checker, call, lk, obj, g, old, enabled, pins, pouts, st, path, coarse)


def _consistent(ctx, fs, lk, obj, g, old, enabled) -> int:
    """Where the lock is the object, one of its rows applies (or it is stuck in an error)."""
    if lk.get("unknown") or not lk["transitions"]:
        return 1
    return ctx.c.OR(-g, ctx.c.OR(_stuck(ctx, fs, lk, old, enabled), ctx.c.OR_all(enabled)))


def _stuck(ctx, fs, lk, old, enabled) -> int:
    """The lock was in an error before the call, or read-locked where the callee gives back
    no lock. A constructor's lock is new: whatever the object held before does not stay."""
    if lk.get("constructor"):
        return FALSE
    released = ctx.c.OR_all(en for row, en in zip(lk["transitions"], enabled) if _gives_back(row))
    return ctx.c.OR(fs.is_(old, E), ctx.c.AND(fs.is_(old, R), -released))


def _gives_back(row) -> bool:
    """A row from locked to unlocked. Summaries start from unlocked or locked only: a callee
    that releases a held lock releases a read-held one too (an rwlock's unlock wrapper)."""
    return row[1] == L and row[3] == U


# NOTE [handed-out-locks]: a lock the callee hands out through its result, in an object new to
# the caller (the call's fresh result), was held by nobody the caller knows: every entry of the
# summary for it starts from unlocked. The callee's rows from "locked" are its own double locks
# (its report), and several entries for one path are the callee's alternatives (a tty found
# and locked, or made locked: tty_open_by_driver), not one operation after the other — read
# from an unknown prior state, or from one another, each retry of a caller would be a double
# lock.
def _handed_out_state(ctx, checker, obj, st, new_here: set):
    key = (obj.addr.uid, "#lock")
    if key in new_here or (obj.root.origin == "fresh" and key not in st.attrs):
        new_here.add(key)
        return checker.state(ctx).fs.const(U)
    return ctx.get_attr(st, obj, "#lock")


def _enabled(ctx, fs, row, old, pins, pouts) -> int:
    ins, s, outs, _, _ = row
    conds = [x if v else -x for x, v in zip(pins, ins)] + [x if v else -x for x, v in zip(pouts, outs)]
    if s != "*":
        held = fs.is_(old, s)
        conds.append(ctx.c.OR(held, fs.is_(old, R)) if _gives_back(row) else held)
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


# NOTE [lock-paths]: a callee is taken to leave alone the pointers through which the function
# reached a lock it operated on, whether its changes are unknown (a library function Saturn
# has no spec for, a summary with too many to list) or listed through memory the analysis does
# not tell apart (a driver's private area past its net_device is one derived object, and a
# memset anywhere in it lists every field of it as changed): `mutex_lock(&priv->rtllib->m);
# big_callee(dev); mutex_unlock(&priv->rtllib->m);` unlocks the lock it locked. Forgotten, the
# pointers would lead the unlock to a fresh lock, and the first one would look held at the
# exit. Code that does redirect them between the two operations unlocks another lock, which
# this takes for the same one. (symex: ctx.pin_path)
def _apply_lock(ctx, checker, call, lk, obj, g, old, enabled, pins, pouts, st, path, coarse):
    data, fs, c = checker.state(ctx), checker.state(ctx).fs, ctx.c
    ctx.pin_path(obj)
    data.first_op(ctx, [obj.addr.uid])
    data.locks.setdefault(obj.addr.uid, obj)
    rows = lk["transitions"]
    if lk.get("unknown"):   # NOTE [lock-summary-budget]
        held = fs.ite(c.new_var(), fs.const(L), fs.const(U))
        ctx.set_attr(st, obj, "#lock", held, g)
        set_alternative(ctx, fs, st, obj, g)   # vague here, and in this function's callers
        return
    if not rows:
        return   # (summaries stored before such locks were left out of them)
    if lk.get("constructor"):
        _constructed(ctx, data, obj, c.AND(g, c.OR_all(enabled)), path, st)
    stuck = _stuck(ctx, fs, lk, old, enabled)
    _classes(ctx, checker, call, lk, obj, g, pins, pouts, st, path)
    reported = reported_by_callee(rows)
    first_now = ctx.get_attr(st, obj, "#lockfirst")
    was_vague = fs.is_(ctx.get_attr(st, obj, "#lockvague"), 1)
    inited = checker.inited(ctx, st, obj)
    guess = coarse and _guessed(ctx, fs, rows, old, path, g)
    new = old
    for row, en in zip(rows, enabled):
        if row[3] == E and (lk.get("alternative") or guess and _vague_row(rows, row)):
            continue   # a guess: the state stays, vague (below), and no error is entered
        new = fs.ite(en, fs.const(row[3]), new)
        if row[3] == E:
            kind = REL if row[4] == "release" else ACQ
            enters = c.AND_all([path, g, en, -fs.is_(old, E), -was_vague])
            data.errors.append(LockError(obj.addr.uid, enters, call.coord, kind, first_now,
                                         reported, call.text, inited))
            ctx.set_attr(st, obj, "#lockcause", fs.const(kind), c.AND(g, c.AND(en, -fs.is_(old, E))))
    changes = any(r[1] != r[3] for r in rows if r[3] != E)
    ctx.set_attr(st, obj, "#lock", new, c.AND(g, -stuck))
    set_mine(ctx, fs, st, obj, old, new, c.AND(g, -stuck))
    vague = c.OR_all(en for row, en in zip(rows, enabled) if _vague_row(rows, row))
    if lk.get("alternative"):   # NOTE [alternative-targets]
        set_alternative(ctx, fs, st, obj, c.AND(g, c.OR_all(enabled)))
    elif vague != FALSE:   # NOTE [vague-callees]
        ctx.set_attr(st, obj, "#lockvague", fs.const(1), c.AND(g, vague))
    if changes:
        certain = _unconditional(rows) and not lk.get("alternative") and not coarse
        # NOTE [vague-callees]
        (data.certain if certain else data.uncertain).add(obj.addr.uid)
        if certain and any(r[1] == L and r[3] == U for r in rows):   # NOTE [held-on-error]
            data.releases.append((obj.addr.uid, c.AND_all([path, g, fs.is_(old, L),
                                                           fs.is_(new, U)])))
        data.ops.append((obj.addr.uid, c.AND(path, g), call.coord,
                         f"'{call.text}' changes the state of {obj.display} ({lk['name']} in its summary)"))
    first = _expected_first(rows)
    if first:
        cur = ctx.get_attr(st, obj, "#lockfirst")
        ctx.set_attr(st, obj, "#lockfirst", fs.ite(fs.is_(cur, 0), fs.const(first), cur), g)
    if any(r[1] in (U, "*") and r[3] == L for r in rows):
        data.acquires.append((obj.addr.uid, c.AND(path, c.AND(g, fs.is_(new, L))), call.coord))


# NOTE [coarse-guess]: a coarse summary (NOTE [lock-summary-budget]) lost the conditions of its
# rows, so an error beside an outcome without one, for one entry state, may hang on a condition
# the budget dropped, and that condition may be what made the caller hold the lock (a stream
# lock that is a mutex or a spinlock by one flag: held on one side, released by the callee on
# the other). Where the caller holds the lock on every path to the call, the lock's state ties
# nothing: the error is one that some path of the callee makes, and it is the caller's. Not
# seen: a tie to the call's arguments (a `locked` flag the callee tests); such a caller is
# told of an error its argument rules out.
COARSE_HELD_BUDGET = 2_000   # conflicts; a question left open is "not surely held"


def _guessed(ctx, fs, rows, old, path, g) -> bool:
    """Whether the coarse summary's errors beside error-free outcomes are guesses here."""
    if not any(r[3] == E and _vague_row(rows, r) for r in rows):
        return False
    free = fs.is_(old, U)
    if free == FALSE:
        return False
    return not ctx.affordable() or ctx.can(path, g, free, budget=COARSE_HELD_BUDGET)


def _constructed(ctx, data, obj, when, path, st) -> None:
    """The callee made the lock (a constructor's summary): known, and initialised, after it."""
    data.known[obj.addr.uid] = ctx.c.OR(data.known.get(obj.addr.uid, -1), ctx.c.AND(path, when))
    ctx.set_attr(st, obj, "#lockinit", data.fs.const(1), when)


def _classes(ctx, checker, call, lk, obj, g, pins, pouts, st, path) -> None:
    """What the callee would do if the lock were held: take it again (its rows from "locked"
    to an error by an acquire) or release it; their conditions on the propositions only."""
    data, fs, c, rows = checker.state(ctx), checker.state(ctx).fs, ctx.c, lk["transitions"]
    held = fs.const(L)
    if lk.get("tracked") and not lk.get("alternative"):   # NOTE [lock-classes]
        data.tracked.add(obj.addr.uid)
        taking = c.OR_all(_enabled(ctx, fs, row, held, pins, pouts) for row in rows
                          if row[1] == L and row[3] == E and row[4] == "acquire")
        lock_class.check(ctx, checker, st, obj, c.AND(g, taking), call, path)
    releasing = c.OR_all(_enabled(ctx, fs, row, held, pins, pouts) for row in rows
                         if row[1] == L and row[3] == U)
    lock_class.released(ctx, checker, st, obj, c.AND(g, releasing))


# NOTE [alternative-targets]: the targets of one call through a pointer (ir/indirect.py) are
# alternatives the analysis cannot choose between, and often configurations (SQLite's mutex
# methods: pthreads, no-op, debug): a lock that one target takes and another leaves alone
# would come out held or not under one condition (an ambiguous exit in every wrapper), and two
# such calls would pair one configuration's acquire with another's release. So after the
# call, on every path through it, the locks on which its targets' summaries differ are vague
# (NOTE [vague-callees]): nothing later is reported on them. A summary says so of a lock
# that may be vague so at the exit ("alternative"), and its callers make it vague after the
# call in turn, so the wrappers' callers do not report either. Errors at the call itself
# still are (a target that takes a lock the caller holds: meson's codec_ops->resume); an
# "alternative" lock's rows in a summary carry no error and no lock class to its callers,
# which do not know which target the call below took (a timer's device registered through
# `dev->ops`, whose targets include the PCM device's, taking the PCM's register_mutex).
def alternatives(ctx, checker, call, args, st) -> None:
    effects = []
    for target in call.among:
        summary = callee_summary(ctx, target, checker.name) if target else None
        effects.append({tuple(map(tuple, lk["path"])): (lk["transitions"], lk.get("unknown"))
                        for lk in (summary or {}).get("locks", [])})
    differ = {path for eff in effects for path in eff
              if any(other.get(path) != eff[path] for other in effects)}
    fs = checker.state(ctx).fs
    for path in sorted(differ, key=repr):
        if path[0][0] == "ret":
            continue
        for obj, g in ctx.resolve([list(step) for step in path], args, None, st):
            set_alternative(ctx, fs, st, obj, g)


def set_alternative(ctx, fs, st, obj, g) -> None:
    """The lock's state is one alternative target's, or unknown (NOTE [lock-summary-budget]):
    vague; `#lockalt` carries that into the summary, whose callers set it again
    (`alternative` in the summary's lock)."""
    ctx.set_attr(st, obj, "#lockvague", fs.const(1), g)
    ctx.set_attr(st, obj, "#lockalt", fs.const(1), g)


# NOTE [vague-callees]: a callee whose summary says that under one condition it may return
# with the lock held or not (its Type B report, or the owner-field recursion of a hand-made
# recursive mutex that no proposition tells apart) leaves the caller not knowing the state.
# A double lock or unlock that follows in the caller only on such paths is that callee's
# vagueness, reported once in the callee, not again in every caller: the `#lockvague`
# attribute marks the lock from then on, and errors entered under it are not recorded. An
# ambiguous exit is reported for a lock the function operates on itself, or that every
# callee changing it changes with certain effects (one exit state for each entry state,
# whatever else holds; no alternative target; not coarse): a `take()` wrapper called under a
# condition is the paper's Type B across functions, while a release that a global flag
# decides is not certain to a caller that does not know the flag. One that only vaguer
# callees touch is held or not as they leave it (SQLite's pager over its mutex wrappers and
# the alternative targets below them: NOTE [alternative-targets]).
def _unconditional(rows) -> bool:
    """Whether the callee leaves the lock in one state for each state it finds it in, whatever
    else holds (`take()` always takes it): an effect its callers know for certain."""
    exits: dict = {}
    for row in rows:
        if row[3] != E:
            exits.setdefault(row[1], set()).add(row[3])
    return all(len(s) == 1 for s in exits.values())


def _vague_row(rows, row) -> bool:
    """The row is one of several outcomes, held and not held, for one entry condition; or
    an error beside an outcome without one, which in a coarse summary (NOTE
    [lock-summary-budget]) is a condition the budget left out, not one a caller can see."""
    ins, s, outs = row[0], row[1], row[2]
    exits = {r[3] for r in rows if r[0] == ins and r[1] == s and r[2] == outs}
    return mixed(exits) or (row[3] == E and len(exits) > 1)


def set_mine(ctx, fs, st, obj, old, new, g) -> None:
    """`#mine`: held from this function's own acquire (NOTE [lock-classes])."""
    took = ctx.c.AND(fs.is_(new, L), -fs.is_(old, L))
    mine = ctx.get_attr(st, obj, "#mine")
    mine = fs.ite(took, fs.const(1), fs.ite(fs.is_(new, U), fs.const(0), mine))
    ctx.set_attr(st, obj, "#mine", mine, g)


def _expected_first(rows) -> int:
    ok_from = {r[1] for r in rows if r[3] != E}
    err_from = {r[1] for r in rows if r[3] == E}
    if U in ok_from and L in err_from:
        return ACQ
    if L in ok_from and U in err_from:
        return REL
    return 0

