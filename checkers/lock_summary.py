"""Lock summaries ⟨P_in, P_out, M, R⟩: inference at the exit by SAT queries (Fig. 2.10);
lock_apply.py applies them at call sites (Fig. 2.9).

NOTE [lock-propositions]: beyond the paper's fixed P_out = {ret ≠ 0}, propositions are chosen per
function: `ret ≠ 0` for integer and pointer results, `*param_i ≠ 0` for integer out-parameters the
function writes, and `param_i ≠ 0` for the integer parameters the lock behaviour depends on (at
most MAX_PIN candidates, kept only when some transition differs with their value). So
`complex_wrapper` of Fig. 2.8 comes out as printed there. When the summary is still ambiguous,
integer fields reached from the parameters or globals whose entry value the function read before
its first lock operation (`substream->pcm->nonatomic` choosing between a mutex and a spinlock)
are tried as well, and kept while they remove ambiguity; callers evaluate them on their own
state. A callee's such flag that is still the caller's entry value of an input field is the
caller's flag too (`_inherit` in lock_apply.py): tried when some lock has more than one outcome
under one condition — locked or unlocked, or an error or not — and kept (at most
MAX_INHERITED) while it tells more of them apart. So a function that only passes the flag on
(`snd_pcm_action`, whose callees read `substream->pcm->nonatomic`) still says which lock it
releases under which value of it.
"""
from __future__ import annotations

import itertools
from typing import NamedTuple

from saturn.checker import FALSE, equals_const
from saturn.ir import nodes as N
from saturn.ir import types as T


class LockError(NamedTuple):
    """A path entering Error at an operation: `lit` is the path's condition there; `first` the
    lock's #lockfirst value then; `inited` whether this function had set its state by then (an
    init or a constructor), so the error does not depend on its entry state."""
    uid: int
    lit: int
    coord: object
    kind: int          # ACQ or REL
    first: object
    reported: bool     # a callee's own report (not issued again here)
    text: str
    inited: int


MAX_PIN = 3
QUESTION_BUDGET = 10_000_000   # the solver's propagations: NOTE [lock-summary-budget]
MAX_FIELD_TRIES = 6
MAX_INHERITED = 2
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
        initial = ctx.param_value(p)
        for target, _ in ctx.locations(initial) if initial is not None else []:
            after = ctx.stored(exit_state, target)
            if after is not None and after is not ctx.input_value(target):
                props.append(({"kind": "outparam", "index": p.index, "name": f"*param{p.index}"},
                              ctx.truth(after)))
                break
    return props[:3]


def input_props(ctx):
    """`param != 0` for integer parameters, and a flag word's bits one by one (NOTE
    [flag-words])."""
    out, words = [], flag_words(ctx)
    for p in ctx.fn.params:
        if not _is_int(p.type) or len(out) >= MAX_PIN:
            continue
        value = ctx.initial_value(p)
        for bit in words.get(p.uid, ()):
            out.append(({"kind": "param", "index": p.index, "bit": bit,
                         "name": f"param{p.index} & {1 << bit:#x}"}, value.bits[bit]))
        if p.uid not in words:
            out.append(({"kind": "param", "index": p.index, "name": f"param{p.index}"},
                        ctx.truth(value)))
    return out


# NOTE [flag-words]: a parameter the function tests against two or more single-bit masks is a
# word of flags (`flags & NO_MUTEX_LOCK`, `flags & NO_MUTEX_UNLOCK`): callers say with it what
# the function is to do, so its bits are propositions of their own when deciding whether an
# error follows both entry states. One mask alone is not (`if (c & 0x80) lock(); if (c >= 0)
# unlock();` stays the paper's double unlock).
def flag_words(ctx) -> dict:
    """Parameter uid -> the bits (at most 4) of each parameter that is a word of flags."""
    masks: dict = {}
    for block in ctx.fn.blocks.values():
        for p, k in _bit_tests(getattr(block.term, "cond", None)):
            masks.setdefault(p, set()).add(k.bit_length() - 1)
    widths = {p.uid: getattr(p.type, "bits", 0) for p in ctx.fn.params}
    return {p: sorted(b for b in bits if b < widths.get(p, 0))[:4]
            for p, bits in masks.items() if len(bits) >= 2}


def _bit_tests(cond):
    """(parameter uid, single-bit mask) for `param & mask` tested in a branch condition."""
    stack, out = [cond], []
    while stack:
        e = stack.pop()
        if isinstance(e, N.Binary) and e.op == "and":
            a, b = N.uncast(e.a), N.uncast(e.b)
            for x, y in ((a, b), (b, a)):
                if isinstance(y, N.Const) and y.value > 0 and y.value & (y.value - 1) == 0 and \
                        isinstance(x, N.Read) and isinstance(x.lv, N.VarLv) and \
                        x.lv.sym.kind == "param":
                    out.append((x.lv.sym.uid, y.value))
        for child in (getattr(e, "a", None), getattr(e, "b", None)):
            if isinstance(child, N.Expr):
                stack.append(child)
    return out


def field_candidates(ctx, data):
    """Integer objects reached from the parameters or globals whose entry value the function
    read before its first lock operation (`substream->pcm->nonatomic` choosing the lock), as
    further input propositions (NOTE [lock-propositions]); tried only when the summary is
    ambiguous without them. A value read after taking the lock (`if (dev->busy) return;`
    before the unlock) is not one: that is the forgotten-unlock bug the report is for."""
    out = []
    before = data.read_before_lock or set()
    for obj, value in ctx.inputs.items():
        if obj not in before or not isinstance(obj.type, T.IntT):
            continue
        steps = ctx.interface_steps(obj)
        if input_field(steps):
            out.append((steps, value))
    out.sort(key=lambda sv: (len(sv[0]), ctx.render_path(sv[0])))
    props = [field_prop(ctx, steps, value) for steps, value in out]
    # `if (sbi->options.nfs == FAT_NFS_NOSTALE_RO) mutex_lock(...)`: a field against a constant
    # the function compares with.
    props += [field_prop(ctx, steps, value, k)
              for k in _compared_constants(ctx.fn) for steps, value in out]
    return props[:MAX_FIELD_TRIES]


def inherited_props(ctx, data) -> list:
    """The callees' flags this function passes on (`_inherit` in lock_apply.py), as input
    propositions; kept only where they matter (`_matters`)."""
    return sorted((field_prop(ctx, steps, value, eq)
                   for (_, eq), (steps, value) in data.inherited.items()), key=_prop_order)


def input_field(steps) -> bool:
    """A field reached from a parameter or a global (not the parameter or global itself)."""
    return bool(steps) and len(steps) > 1 and steps[0][0] in ("param", "global")


def field_prop(ctx, steps, value, eq=None):
    """The input proposition `field != 0`, or `field == eq`, with its literal."""
    name = ctx.render_path(steps)
    if eq is None:
        return {"kind": "field", "path": steps, "name": name}, ctx.truth(value)
    return ({"kind": "field", "path": steps, "name": f"{name} == {eq}", "eq": eq},
            equals_const(ctx.c, value, eq))


def _prop_order(prop):
    return len(prop[0]["path"]), prop[0]["name"]


def _compared_constants(fn) -> list[int]:
    """Non-zero constants the function's branch conditions compare something with."""
    found = set()
    for block in fn.blocks.values():
        cond = N.uncast(getattr(block.term, "cond", None))
        if isinstance(cond, N.Binary) and cond.op in ("eq", "ne"):
            for side in map(N.uncast, (cond.a, cond.b)):
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


def _outcomes(lock) -> dict:
    """A lock's exit states by entry condition (input values, entry state, output values)."""
    groups: dict = {}
    for ins, s, outs, s2, _ in lock["transitions"]:
        groups.setdefault((tuple(ins), s, tuple(outs)), set()).add(s2)
    return groups


def _ambiguous(locks) -> int:
    return sum(1 for lk in locks for exits in _outcomes(lk).values() if {U, L} <= exits)


def _vague(lock) -> float:
    """The share of a lock's entry conditions with more than one outcome a caller must tell
    apart: locked or unlocked, or an error or not (a caller holding the other lock of a
    flag-chosen pair would be told it may release this one). A share, not a count: a
    proposition that settles half the conditions doubles them."""
    groups = _outcomes(lock)
    vague = sum(1 for exits in groups.values() if {U, L} <= exits or (E in exits and len(exits) > 1))
    return vague / len(groups) if groups else 0.0


def valuations(ctx, base, lits, memo, prefix=(), holds=False) -> list:
    """Every assignment of `lits` consistent with `base`, by splitting (prunes early; a
    consistent base whose literal cannot hold needs no query for its negation); `memo` keeps
    the answers for a later call whose `lits` extend these."""
    if holds:
        memo[tuple(base)] = True
    if not holds and not _can(ctx, memo, base):
        return []
    if not lits:
        return [prefix]
    head, rest = lits[0], lits[1:]
    first = valuations(ctx, base + [head], rest, memo, prefix + (1,))
    return first + valuations(ctx, base + [-head], rest, memo, prefix + (0,), not first)


class Answers(dict):
    """SAT answers by their assumptions, and the solver's work (`ctx.work`) left for new
    questions."""
    def __init__(self, budget: float):
        super().__init__()
        self.left = budget


class OverBudget(Exception):
    pass


def _can(ctx, memo, lits) -> bool:
    key = tuple(lits)
    got = memo.get(key)
    if got is None:
        if memo.left <= 0:
            raise OverBudget
        before = ctx.work()
        got = memo[key] = ctx.can(*lits)
        memo.left -= ctx.work() - before
    return got


def infer(ctx, checker, exit_state) -> dict:
    data = ctx.data[checker.name]
    summary = {"version": 1, "pin": [], "pout": [], "locks": []}
    data.prop_lits = []
    if exit_state is None or not data.locks:
        return summary
    pout, pin = output_props(ctx, exit_state), input_props(ctx)
    memo = Answers(QUESTION_BUDGET)   # shared by the stages below: NOTE [lock-summary-budget]
    locks = None
    try:
        locks = list(_locks(ctx, checker, exit_state, [], pout, memo=memo).values())
        pin, locks = _refined(ctx, checker, exit_state, pin, pout, memo)
    except OverBudget:
        summary["coarse"] = True
        pin = []
        if locks is None:   # not even the outputs' rows: no propositions at all
            pout = []
            memo.left = QUESTION_BUDGET   # its first questions were the outputs' stage's
            locks = list(_locks(ctx, checker, exit_state, [], [], memo=memo,
                                partial=True).values())
    # A lock no path reaches the exit with (its object made only on paths that fail) says
    # nothing to callers, and no row of it could apply: left out.
    locks = [lk for lk in locks if lk["transitions"] or lk.get("unknown")]
    keep = [j for j in range(len(pin)) if any(_matters(lk["transitions"], j) for lk in locks)]
    for lk in locks:
        lk["transitions"] = _project(lk["transitions"], keep)
    summary["pin"] = [pin[j][0] for j in keep]
    summary["pout"] = [d for d, _ in pout]
    summary["locks"] = locks
    data.prop_lits = [pin[j][1] for j in keep] + [lit for _, lit in pout]
    return summary


# NOTE [lock-summary-budget]: a summary's rows are valuations of its propositions, found by SAT
# questions whose number grows with locks x 2^propositions, and in a large function one
# question can take a second (thousands of conflicts to find a path to the exit). So the
# questions of one summary may make at most QUESTION_BUDGET propagations of the solver (its
# count of work: the same on every machine, unlike a clock), asked in order of need: the rows
# by the outputs' propositions, then by the inputs' (split on last, so the first stage's
# answers are reused), then the trials of more input propositions, which stop at the budget
# and keep what they found. A summary over the budget keeps the last complete stage, or, with
# a budget afresh, none of the propositions (at most nine questions a lock, the first of which
# were asked): every row is still a transition some path makes, only conditioned on less, so
# callers see more outcomes at once (vague: NOTE [vague-callees]) and report less, never
# more. The locks even that budget does not reach are "unknown": a caller gives them a state,
# locked or not, on which it reports nothing (lock_apply). The summary says "coarse", and
# `saturn summary` shows it.
def _refined(ctx, checker, exit_state, pin, pout, memo):
    """The input propositions and the locks' transitions: the parameters', then callees' flags
    and input fields tried while they remove ambiguity (NOTE [lock-propositions])."""
    locks = _locks(ctx, checker, exit_state, pin, pout, memo=memo)   # may be over budget
    vague = {uid for uid, lk in locks.items() if _vague(lk)}
    added, tried = _inherited_pins(ctx, checker, exit_state, pin, pout, locks, vague, memo) \
        if vague else ([], {})
    if added:
        pin = pin + added
        locks = {uid: tried.get(uid) or _widen(lk, len(added)) for uid, lk in locks.items()}
    locks = list(locks.values())
    if _ambiguous(locks):
        # The exit state may follow a value the function reads from its inputs (a flag in a
        # struct): add such propositions one at a time while they remove ambiguity.
        for cand in field_candidates(ctx, ctx.data[checker.name]):
            if len(pin) >= MAX_PIN + 2:
                break
            if any(cand[0] == d for d, _ in pin):
                continue
            try:
                trial = list(_locks(ctx, checker, exit_state, pin + [cand], pout,
                                    memo=memo).values())
            except OverBudget:
                break
            if _ambiguous(trial) < _ambiguous(locks):
                pin, locks = pin + [cand], trial
                if not _ambiguous(locks):
                    break
    return pin, locks


def _inherited_pins(ctx, checker, exit_state, pin, pout, locks, vague, memo):
    """The callees' flags (`inherited_props`) that tell more of the vague locks' outcomes
    apart, added one at a time, and the vague locks' transitions with them. Each doubles the
    valuations rows are made from, so at most MAX_INHERITED are kept and only the vague locks
    are computed again, asking only what `memo` does not know (they are split on last); the
    others' rows hold for every value of them (`_widen`)."""
    def trial(extra):
        got = _locks(ctx, checker, exit_state, pin + extra, pout, vague, memo)
        return sum(map(_vague, got.values())), got
    added, best, tried = [], sum(_vague(locks[uid]) for uid in vague), {}
    for cand in inherited_props(ctx, ctx.data[checker.name])[:MAX_FIELD_TRIES]:
        if not best or len(added) >= MAX_INHERITED:
            break
        try:
            share, got = trial(added + [cand])
        except OverBudget:
            break
        if share < best:
            added, best, tried = added + [cand], share, got
    return added, tried


def _widen(lock, k: int) -> dict:
    """A lock's rows for k more input propositions its outcomes do not depend on."""
    rows = [[ins + list(vals), *rest] for ins, *rest in lock["transitions"]
            for vals in itertools.product((1, 0), repeat=k)]
    return dict(lock, transitions=rows)


def _locks(ctx, checker, exit_state, pin, pout, only=None, memo=None, partial=False) -> dict:
    """Each lock's transitions by uid (only those of `only`, if given). The output propositions
    are split on first, then the input ones in their order: a call with more input
    propositions asks `memo` only for the splits the earlier calls did not make. `partial`:
    the locks the budget does not reach are "unknown" (NOTE [lock-summary-budget])."""
    data = ctx.data[checker.name]
    roots = ctx.handed_out(exit_state)
    locks = {}
    for uid, obj in sorted(data.locks.items(), key=lambda kv: (kv[1].path, kv[0])):
        steps = ctx.interface_steps(obj, roots) if only is None or uid in only else None
        if steps is None:
            continue
        locks[uid] = {"path": steps, "name": ctx.render_path(steps),
                      "constructor": uid in data.known}
        try:
            locks[uid]["transitions"] = _rows(ctx, checker, exit_state, uid, obj, steps,
                                              pin, pout, memo)
        except OverBudget:
            if not partial:
                raise
            locks[uid].update(transitions=[], unknown=True)
        if uid in data.tracked:   # NOTE [lock-classes]
            locks[uid]["tracked"] = True
        alt = exit_state.attrs.get((uid, "#lockalt"))
        if alt is not None and ctx.can(ctx.lit(exit_state.guard), data.fs.is_(alt, 1)):
            locks[uid]["alternative"] = True   # NOTE [alternative-targets]
    return locks


def _rows(ctx, checker, exit_state, uid, obj, steps, pin, pout, memo) -> list:
    data = ctx.data[checker.name]
    fs, g = data.fs, ctx.lit(exit_state.guard)
    outs = len(pout)
    lits = [lit for _, lit in pout] + [lit for _, lit in pin]
    constructor = uid in data.known
    s0 = checker._entry_value(data, (uid, "#lock"))
    final = exit_state.attrs.get((uid, "#lock"), s0)
    cause = exit_state.attrs.get((uid, "#lockcause"), fs.const(0))
    rows = []
    exists = lock_exists(ctx, obj, steps, exit_state)
    for s in ([None] if constructor else [U, L]):
        # A lock made here exists only where it is handed out too: not on the paths returning
        # an ERR_PTR (tty_init_dev's alloc_tty_struct initialises it). Where a loop that made
        # it gave it back its loop-entry state (the second pass of a loop keeps attributes'
        # entry values: engine._havoc), that state is unlocked or locked, as every entry
        # state here is, not an error already made.
        entry = [data.known[uid], exists, ctx.c.OR(fs.is_(s0, U), fs.is_(s0, L))] \
            if s is None else [fs.is_(s0, s), exists]
        for s2 in (U, L, R, E):
            base = [g, *entry, fs.is_(final, s2)]
            for vals in valuations(ctx, base, lits, memo):
                why = ""
                if s2 == E:
                    assumed = base + [x if v else -x for x, v in zip(lits, vals)]
                    why = "release" if _can(ctx, memo, assumed + [fs.is_(cause, REL)]) \
                        else "acquire"
                rows.append([list(vals[outs:]), "*" if s is None else s, list(vals[:outs]),
                             s2, why])
    return rows


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
