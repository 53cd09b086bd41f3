"""The lock checker's reports (docs/DESIGN.md "Lock checker"): Type A double lock/unlock, Type B
ambiguous exit, and locks the function made that stay held where no caller can reach them."""
from __future__ import annotations

from saturn.ir import nodes as N
from saturn.ir import types as T
from saturn.ir.program import static_local_of
from saturn.report.diagnostic import TraceNote

from .lock_apply import reported_by_callee
from .lock_props import input_props
from .lock_states import ACQ, NAMES, REL, L, R, U, mixed
from .lock_rows import QUESTION_BUDGET, Answers, OverBudget, ask, lock_exists, valuations


def report(ctx, checker, exit_state, summary) -> None:
    data = checker.state(ctx)
    if not data.locks:
        return
    roots = ctx.handed_out(exit_state) if exit_state is not None else {}
    entry = ctx.fn.key in ctx.program.entries   # NOTE [entry-points] in saturn/ir/program.py
    by_uid, own = {}, []
    memo = Answers(QUESTION_BUDGET)   # all locks' tests of both entry states together
    for uid, obj in sorted(data.locks.items(), key=lambda kv: (kv[1].path, kv[0])):
        steps = ctx.interface_steps(obj, roots)
        by_uid[uid] = steps
        known = uid in data.known
        if exit_state is not None and _owned(ctx, steps, roots, exit_state) and \
                _owned_errors(ctx, checker, data, uid, obj, exit_state):
            continue
        # A lock only this function sees (in a block an unknown function returned) has an
        # unknown state, as an input's has: a double lock from both states is one all the same.
        if _type_a(ctx, checker, data, uid, obj, known, memo):
            continue
        if exit_state is not None and ((steps is None and known) or entry):
            _not_released(ctx, checker, data, uid, obj, exit_state, entry)
        elif exit_state is not None and uid in data.direct | (data.certain - data.uncertain):
            own.append((uid, obj))
    if exit_state is not None and not summary.get("coarse"):
        # Coarse, its rows lost conditions to the budget: an exit they make ambiguous may not be
        # (NOTE [lock-summary-budget]).
        uid_of = {tuple(map(tuple, steps)): uid for uid, steps in by_uid.items() if steps}
        for lk in summary["locks"]:
            uid = uid_of.get(tuple(map(tuple, lk["path"])))
            if uid is not None:
                _type_b(ctx, checker, data, uid, lk, exit_state, summary)
    for uid, obj in own:   # (after Type B: an ambiguous exit is that report, not this one)
        _held_on_error(ctx, checker, data, uid, obj, exit_state)


# NOTE [owned-locks]: a lock that is one of this function's `static` locals (or inside one),
# its address handed to no caller, belongs to the function: no caller can name it, and its
# state at an entry is the one the previous call left (unlocked at the first). So where no
# path from an unlocked entry returns it held, every entry finds it unlocked, and an error
# from that state alone is one (a release of a lock nothing ever takes). Where a path returns
# it held and none from a held entry releases it, it is never released again: the next call
# that takes it waits forever. Reported in the function, wherever it sits in the call graph.
def _owned(ctx, steps, roots, exit_state) -> bool:
    if not steps or steps[0][0] != "global" or any(s[0] == "deref" for s in steps) or \
            not static_local_of(steps[0][1], ctx.fn):
        return False
    rv = ctx.fn.rv
    if rv is not None and isinstance(rv.type, T.PtrT):
        value = ctx.exit_value(rv, exit_state)
        if any(ctx.interface_steps(loc, roots)[:1] == steps[:1]
               for loc, _ in ctx.locations(value) if loc is not None):
            return False   # handed out: the caller releases it
    return True


def _owned_errors(ctx, checker, data, uid, obj, exit_state) -> bool:
    fs = data.fs
    s0 = checker._entry_value(data, (uid, "#lock"))
    final = exit_state.attrs.get((uid, "#lock"), s0)
    g = ctx.lit(exit_state.guard)
    clear = -fs.is_(exit_state.attrs.get((uid, "#lockvague"), fs.const(0)), 1)
    if ctx.can(g, fs.is_(s0, U), fs.is_(final, L), clear):
        if ctx.can(g, fs.is_(s0, L), fs.is_(final, U)):
            return False   # a protocol its callers keep (a locking callback)
        _not_released(ctx, checker, data, uid, obj, exit_state, made=fs.is_(s0, U))
        return True
    for e in data.errors:
        if e.uid == uid and not e.reported and ctx.can(e.lit, fs.is_(s0, U)):
            _issue(ctx, checker, data, uid, obj, ctx.c.AND(e.lit, fs.is_(s0, U)), e.coord,
                   e.kind, e.text)
            return True
    return False


def _ops(data, uid):
    return [(lit, coord, text) for u, lit, coord, text in data.ops if u == uid]


def _type_a(ctx, checker, data, uid, obj, known, memo) -> bool:
    """A double lock or unlock. An error after this function set the lock's state (init or a
    constructor: `inited`) is one whatever the entry state; before that, or for a lock it
    never sets, only if both entry states reach an error (NOTE [lock-propositions])."""
    fs, c = data.fs, ctx.c
    errors = [e for e in data.errors if e.uid == uid and not e.reported]
    if not errors:
        return False
    s0 = checker._entry_value(data, (uid, "#lock"))
    after_init = [(c.AND(e.lit, e.inited), e) for e in errors] if known else []
    for lit, e in after_init:
        if ctx.can(lit):
            _issue(ctx, checker, data, uid, obj, lit, e.coord, e.kind, e.text)
            return True
    errors = [e._replace(lit=c.AND(e.lit, -e.inited)) for e in errors]
    if not _from_both_entries(ctx, data, uid, s0, c.OR_all(e.lit for e in errors), memo):
        return False
    fallback = None
    for e in errors:
        if fallback is None and ctx.can(e.lit, fs.is_(s0, U)):
            fallback = (c.AND(e.lit, fs.is_(s0, U)), e.coord, e.kind, e.text)
        # Follow the entry state the first operation on the lock expects.
        first = e.first
        first_acq = c.OR(fs.is_(first, ACQ), c.AND(fs.is_(first, 0), 1 if e.kind == ACQ else -1))
        first_rel = c.OR(fs.is_(first, REL), c.AND(fs.is_(first, 0), 1 if e.kind == REL else -1))
        follows = c.AND(e.lit, c.OR(c.AND(fs.is_(s0, U), first_acq),
                                    c.AND(fs.is_(s0, L), first_rel)))
        if ctx.can(follows):
            _issue(ctx, checker, data, uid, obj, follows, e.coord, e.kind, e.text)
            return True
    if fallback is not None:
        # No path errs from the entry state its first operation expects, but both entry states
        # reach Error: report the first error that a path can reach.
        _issue(ctx, checker, data, uid, obj, *fallback)
        return True
    return False


def _from_both_entries(ctx, data, uid, s0, any_error, memo) -> bool:
    """Some valuation of the input propositions lets an error follow both entry states (the
    paper's rule: `if (c & 0x80) lock(); if (c >= 0) unlock();` is a bug, though no one value
    of c errs from both), and of the branch conditions the inputs alone decide (NOTE
    [caller-decides])."""
    pins = [lit for _, lit in input_props(ctx)]   # flag words bit by bit: NOTE [flag-words]
    fs = data.fs
    if not _both(ctx, fs, s0, any_error, pins, memo):
        return False
    try:
        branches = _input_branches(ctx, data, uid, any_error, memo)
    except OverBudget:
        return False
    return _both(ctx, fs, s0, any_error, pins + branches, memo)


def _both(ctx, fs, s0, any_error, pins, memo) -> bool:
    """NOTE [lock-summary-budget]: over the budget (one for the function's locks), no report
    (less, never more)."""
    try:
        for vals in valuations(ctx, [any_error], pins, memo):
            assume = [x if v else -x for x, v in zip(pins, vals)]
            if ask(ctx, memo, [any_error, fs.is_(s0, U), *assume]) and \
                    ask(ctx, memo, [any_error, fs.is_(s0, L), *assume]):
                return True
    except OverBudget:
        pass
    return False


# NOTE [caller-decides]: a branch whose condition the memory the function is given alone
# decides (entry values read through its parameters or from globals: `switch
# (state->conn_state)`, the type of a message in a slot it is given) is the caller's choice. A
# lock the function releases on one side and takes on the other follows a protocol the caller
# keeps (vchiq's PAUSE leaves slot_mutex held, RESUME releases it), so errors from the two
# entry states on the two sides are two contracts, not one bug. So is a parameter's value
# compared with a constant for equality: a command code the caller passes
# (`if (type(msgid) != RESUME) lock(); ... if (type(msgid) != PAUSE) unlock();`). A condition
# on anything else (a callee's result, a value read after a lock operation) still joins
# them, and so do the parameters' bits and signs beyond the paper's propositions
# (`if (c & 0x80) lock(); if (c >= 0) unlock();` stays a bug). "Read after" is per lock: a
# value read before the function's first operation on this lock, even after operations on
# others, is the caller's (SQLite's btreeLockCarefully releases and retakes a list of
# handles' mutexes by each handle's `locked` and `wantToLock` flags). So is any test of the
# parameters whose two sides split the function's acquires from its releases of the lock, no
# path doing both: a locking callback (`if (mode & CRYPTO_LOCK) lock(&locks[n]); else
# unlock(&locks[n]);`) does what its caller asks. One test, not two: the paper's `if (c &
# 0x80) lock(); if (c >= 0) unlock();` on a signed char splits them too, by two tests that
# the bits make complementary, and stays a bug. Of these tests, those with errors on both
# of their sides are the ones that can tell two contracts apart: a dispatch's first cases,
# which touch no lock, do not take the places of the PAUSE and RESUME cases further on.
MAX_INPUT_BRANCHES = 6
MAX_CONE = 2_000


def _input_leaves(ctx, before=None) -> tuple[set, set]:
    """The variables of the entry values the function reads from memory and from its
    parameters (only of the objects in `before`, if given)."""
    memory, params = set(), set()
    for obj, value in ctx.inputs.items():
        if (before is not None and obj not in before) or obj.root.origin != "env":
            continue
        bits = getattr(value, "bits", None)
        lits = bits if bits is not None else [g for _, g in getattr(value, "entries", ())]
        param = obj.sym is not None and obj.sym.kind == "param"
        (params if param else memory).update(abs(x) for x in lits)
    return memory, params


def _input_branches(ctx, data, uid, any_error, memo) -> list[int]:
    memory, params = _input_leaves(ctx, data.read_before(ctx, uid))
    tests: dict = {}
    for lit, _, term, *_ in ctx.branches:
        tests.setdefault(abs(lit), set()).add(id(term))

    def pinned(lit, term) -> bool:
        one_test = len(tests[abs(lit)]) == 1
        return (_cone_in(ctx.c, lit, memory) or
                ((_command_code(term.cond) or one_test and _splits(ctx, data, uid, lit)) and
                 _cone_in(ctx.c, lit, memory | params))) and \
            ask(ctx, memo, [any_error, lit]) and ask(ctx, memo, [any_error, -lit])
    return _branch_tests(ctx, pinned)


def _branch_tests(ctx, pinned) -> list[int]:
    """The first MAX_INPUT_BRANCHES distinct branch literals that `pinned(lit, term)` keeps."""
    out = []
    for lit, _, term, *_ in ctx.branches:
        if abs(lit) > 1 and lit not in out and -lit not in out and pinned(lit, term):
            out.append(lit)
            if len(out) == MAX_INPUT_BRANCHES:
                break
    return out


def _splits(ctx, data, uid, lit) -> bool:
    """Whether the branch puts every acquire of the lock on one side and every release on the
    other."""
    acquires = [a for u, a, _ in data.acquires if u == uid]
    releases = [r for u, r in data.releases if u == uid]
    if not acquires or not releases:
        return False
    for side in (lit, -lit):
        if not any(ctx.can(a, -side) for a in acquires) and \
                not any(ctx.can(r, side) for r in releases):
            return True
    return False


def _command_code(cond) -> bool:
    """`x == K` or `x != K`: a value compared with a constant for equality."""
    cond = N.uncast(cond)
    return isinstance(cond, N.Binary) and cond.op in ("eq", "ne") and \
        (isinstance(N.uncast(cond.a), N.Const)) != (isinstance(N.uncast(cond.b), N.Const))


def _cone_in(c, lit, leaves) -> bool:
    """Whether the literal's circuit cone has no input but `leaves`."""
    inputs = c.support([lit], MAX_CONE)
    return inputs is not None and inputs <= leaves


def _issue(ctx, checker, data, uid, obj, lit, coord, kind, text) -> None:
    double = "lock.double-lock" if kind == ACQ else "lock.double-unlock"
    if any(r.kind == double and (r.file, r.line, r.column) == (coord.file, coord.line, coord.col)
           for r in ctx.reports):
        return   # one report a statement: a loop's iterations meet several locks of one shape
    verb = "acquired" if kind == ACQ else "released"
    notes = ctx.witness(lit, events=_ops(data, uid))
    ctx.report(checker.name, double, coord,
               f"{obj.display} may be {verb} twice in '{ctx.fn.name}'", notes, statement=text)


def _type_b(ctx, checker, data, uid, lk, exit_state, summary) -> None:
    rows = lk["transitions"]
    if lk.get("constructor") or reported_by_callee(rows) or \
            uid not in data.direct | (data.certain - data.uncertain):
        return   # a lock only vague callees operate on: their ambiguity (NOTE [vague-callees])
    groups = {}
    for ins, s, outs, s2, _ in rows:
        groups.setdefault((tuple(ins), s, tuple(outs)), set()).add(s2)
    for (ins, s, outs), exits in sorted(groups.items(), key=str):
        if not mixed(exits):
            continue
        held = L if L in exits else R
        fs = data.fs
        s0 = checker._entry_value(data, (uid, "#lock"))
        final = exit_state.attrs.get((uid, "#lock"), s0)
        g = ctx.lit(exit_state.guard)
        props = data.prop_lits  # the propositions lock_summary.infer chose
        assume = [x if v else -x for x, v in zip(props, list(ins) + list(outs))]
        base = [g, fs.is_(s0, s), lock_exists(ctx, data.locks[uid], lk["path"], exit_state),
                *assume]
        ret_lits = [ctx.lit(gr) for gr, _ in ctx.returns]
        # Held only where a release may have gone to it unseen (NOTE [lock-classes]): vague.
        clear = -fs.is_(exit_state.attrs.get((uid, "#lockvague"), fs.const(0)), 1)
        locked = ctx.may(*base, fs.is_(final, held), clear, observe=ret_lits)
        unlocked = ctx.may(*base, fs.is_(final, U), observe=ret_lits)
        if locked is None or unlocked is None:
            continue
        where, other = ctx.return_coord(locked), ctx.return_coord(unlocked)
        notes = ctx.witness(ctx.c.AND_all(base + [fs.is_(final, held)]), events=_ops(data, uid))
        notes.append(TraceNote(other.file, other.line,
                               f"another path returns here with {lk['name']} unlocked"))
        ctx.report(checker.name, "lock.ambiguous-exit", where,
                   f"'{ctx.fn.name}' may return with {lk['name']} {NAMES[held]} or unlocked "
                   f"under the same return condition", notes, statement=f"return {lk['name']}")
        return



# NOTE [held-on-error]: `lock(l); if (parse() < 0) return -1; ...; unlock(l); return 0;` is,
# to the paper's summaries, a function that returns holding l exactly when it returns -1: no
# ambiguity, the callers' to handle. But a function that releases the lock itself where it
# succeeds, and returns an error (a negative integer, a null pointer) still holding the lock
# its own acquire took, has an error path that forgot to release it: the callers seeing the
# error do not release what they did not take. The other contract — held where it succeeds,
# released where it fails (`lock_and_get` returning null unlocked) — is no bug, and neither is
# a wrapper that never releases (a trylock). Its own acquire, or a callee's certain of its
# effect (NOTE [vague-callees]: `item_lock(hv)` always takes the stripe, `item_unlock(hv)`
# always releases it), as for Type B across functions. Nor is an error under inputs (a mode the caller
# chose: vchiq's OPENSYNC service whose `sync` is clear) under which the function returns the
# lock held where it succeeds as well: that is what the function does in that mode, error or
# not, and its callers know it.
def _held_on_error(ctx, checker, data, uid, obj, exit_state) -> None:
    rv = ctx.fn.rv
    if rv is None or not isinstance(rv.type, (T.IntT, T.PtrT)) or \
            (isinstance(rv.type, T.IntT) and not rv.type.signed) or \
            not any(u == uid for u, _ in data.releases) or \
            any(r.kind.startswith("lock.") for r in ctx.reports):
        return
    fs, c = data.fs, ctx.c
    final = exit_state.attrs.get((uid, "#lock"))
    if final is None:
        return
    value = ctx.exit_value(rv, exit_state)
    error = value.bits[-1] if isinstance(rv.type, T.IntT) else -ctx.truth(value)
    g, s0 = ctx.lit(exit_state.guard), checker._entry_value(data, (uid, "#lock"))
    mine = fs.is_(exit_state.attrs.get((uid, "#mine"), fs.const(0)), 1)
    released = c.OR_all(lit for u, lit in data.releases if u == uid)
    ret_lits = [ctx.lit(gr) for gr, _ in ctx.returns]
    held = c.AND_all([g, fs.is_(s0, U), fs.is_(final, L), mine, error])
    if ctx.may(g, fs.is_(s0, U), fs.is_(final, U), released, -error) is None:
        return
    held = _held_unlike_success(ctx, held, c.AND_all([g, fs.is_(s0, U), fs.is_(final, L),
                                                      mine, -error]))
    model = ctx.may(held, observe=ret_lits) if held is not None else None
    if model is None:
        return
    where = ctx.return_coord(model)
    notes = ctx.witness(held, events=_ops(data, uid))
    ctx.report(checker.name, "lock.held-on-error", where,
               f"'{ctx.fn.name}' returns an error with {obj.display} still held, though it "
               f"releases it where it succeeds", notes, statement=f"error return {obj.display}")


def _held_unlike_success(ctx, held, success_held):
    """`held` under input branch decisions (MAX_INPUT_BRANCHES tests of entry values alone)
    where no success holds the lock too, or None where every error holding it is a success
    holding it under the same inputs: a mode the caller chose (NOTE [held-on-error]). Over
    the budget, `held` as it is."""
    memory, params = _input_leaves(ctx)
    pins = _branch_tests(ctx, lambda lit, _: _cone_in(ctx.c, lit, memory | params))
    memo = Answers(QUESTION_BUDGET)
    try:
        for vals in valuations(ctx, [held], pins, memo):
            assume = [x if v else -x for x, v in zip(pins, vals)]
            if not ask(ctx, memo, [success_held, *assume]):
                return ctx.c.AND_all([held, *assume])
    except OverBudget:
        return held
    return None


def _not_released(ctx, checker, data, uid, obj, exit_state, entry=False, made=None) -> None:
    """A lock held at the exit that no caller can release: one this function made (and no
    caller can reach), one it owns (NOTE [owned-locks]: `made` is then its unlocked entry),
    or, in an entry point, one it took itself."""
    fs = data.fs
    final = exit_state.attrs.get((uid, "#lock"))
    if final is None:
        return
    owned = made is not None
    made = made if owned else data.known.get(uid, -1)
    if entry:
        made = ctx.c.OR(made, fs.is_(exit_state.attrs.get((uid, "#mine"), fs.const(0)), 1))
    g = ctx.c.AND(ctx.lit(exit_state.guard), made)
    acquires = [(lit, coord) for u, lit, coord in data.acquires if u == uid]
    # Held only where a release may have gone to it unseen (a call through a pointer whose
    # targets differ on it: NOTE [alternative-targets]) is no report, as for Type B.
    clear = -fs.is_(exit_state.attrs.get((uid, "#lockvague"), fs.const(0)), 1)
    model = ctx.may(g, fs.is_(final, L), clear, observe=[lit for lit, _ in acquires])
    if model is None:
        return
    coord = next((cd for lit, cd in acquires if model.value(lit)), None)
    if coord is None:
        return
    notes = ctx.witness(ctx.c.AND(g, fs.is_(final, L)), events=_ops(data, uid))
    why = "nothing returns to it to release it" if entry else \
        "no path of it releases it again" if owned else "no caller can reach it"
    ctx.report(checker.name, "lock.not-released", coord,
               f"{obj.display} is still held when '{ctx.fn.name}' returns, and {why}", notes,
               statement=f"not released {obj.display}")
