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

from saturn.plugin.checker import FALSE

from .lock_props import (MAX_FIELD_TRIES, MAX_PIN, field_candidates, inherited_props,
                         input_props, kind_of_object, output_props)
from .lock_states import REL, E, L, R, U


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


QUESTION_BUDGET = 10_000_000   # the solver's propagations: NOTE [lock-summary-budget]
MAX_INHERITED = 2


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


def _ambiguity(locks) -> float:
    """The share of the locks' entry conditions with an exit locked or unlocked: a share, not a
    count, so that one of several conditions a release needs together (no parent, not
    read-only) counts as progress."""
    groups = [exits for lk in locks for exits in _outcomes(lk).values()]
    return sum(1 for exits in groups if {U, L} <= exits) / len(groups) if groups else 0.0


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
    if not holds and not ask(ctx, memo, base):
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


def ask(ctx, memo, lits) -> bool:
    """Whether `lits` can hold together, answered from `memo` or asked within its budget."""
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
    data = checker.state(ctx)
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
# `saturn summary` shows it. The tests of a double lock from both entry states (lock_reports)
# have one such budget for all the function's locks: over it, no report.
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
    uids, locks = list(locks), list(locks.values())
    data = checker.state(ctx)
    if _ambiguous(locks):
        # Only the propositions that matter take the places of the fields'.
        keep = [j for j in range(len(pin)) if any(_matters(lk["transitions"], j) for lk in locks)]
        pin = [pin[j] for j in keep]
        locks = [dict(lk, transitions=_project(lk["transitions"], keep)) for lk in locks]
        cands = field_candidates(ctx, data.read_before(ctx))
        # Fields that say what kind of object it is given and together settle every exit
        # (no parent, not read-only: lmdb's mdb_txn_end), each making a share of them plain;
        # else only those that settle some on their own (a callee that releases by the
        # state of an object, `o->del || o->cmt`, stays ambiguous: NOTE [vague-callees]).
        by_share = _fields(ctx, checker, exit_state, pin, pout, memo, locks, cands, _ambiguity)
        if not _ambiguous(by_share[1]):
            fewest = _fewest(ctx, checker, exit_state, pout, memo, *by_share, len(pin),
                             _ambiguous)
            if any(kind_of_object(d) for d, _ in fewest[0][len(pin):]):
                return fewest
        return _fields(ctx, checker, exit_state, pin, pout, memo, locks, cands, _ambiguous)
    erring = [uid for uid, lk in zip(uids, locks) if _errs(lk)]
    if erring:
        # NOTE [callback-flags]
        before = set().union(*(data.read_before(ctx, uid) for uid in erring))
        cands = field_candidates(ctx, before)
        got = _fields(ctx, checker, exit_state, pin, pout, memo, locks, cands, _erring_share)
        if not _erring_share(got[1]):
            return _fewest(ctx, checker, exit_state, pout, memo, *got, len(pin), _erring_share)
    return pin, locks


# NOTE [callback-flags]: a function that takes a lock again only where a flag of what it is
# given says it may (mosquitto's packet__queue writes a packet, taking the callback mutex,
# only where `mosq->in_callback` is clear: the library sets it while a user's callback runs
# with that mutex held) errs on a held entry by that flag. The flags read before the
# function's first operation on that lock (not before its first on any lock: the packet
# queue's own mutex comes first) that together settle every such error become its
# propositions, and through the callers that pass the object on (NOTE [lock-propositions])
# the library's callback sees its flag set. Only when they settle them all: a flag that
# settles half leaves the caller what it knew.
def _errs(lock) -> bool:
    """An entry condition with an error and another outcome."""
    return any(E in exits and len(exits) > 1 for exits in _outcomes(lock).values())


def _erring_share(locks) -> float:
    groups = [exits for lk in locks for exits in _outcomes(lk).values()]
    return sum(1 for exits in groups if E in exits and len(exits) > 1) / len(groups) \
        if groups else 0.0


def _fewest(ctx, checker, exit_state, pout, memo, pin, locks, first, unsettled):
    """Without the added propositions (from index `first` on) that the others make needless
    (`nfs != 0` beside `nfs == 2`)."""
    j = first
    while j < len(pin):
        fewer = pin[:j] + pin[j + 1:]
        try:
            trial = list(_locks(ctx, checker, exit_state, fewer, pout, memo=memo).values())
        except OverBudget:
            break
        if unsettled(trial):
            j += 1
        else:
            pin, locks = fewer, trial
    return pin, locks


def _fields(ctx, checker, exit_state, pin, pout, memo, locks, cands, measure):
    """The exit state may follow a value the function reads from its inputs (a flag in a
    struct): such propositions added one at a time while they lower `measure`."""
    for cand in cands:
        if len(pin) >= MAX_PIN + 2:
            break
        if any(cand[0] == d for d, _ in pin):
            continue
        try:
            trial = list(_locks(ctx, checker, exit_state, pin + [cand], pout,
                                memo=memo).values())
        except OverBudget:
            break
        if measure(trial) < measure(locks):
            pin, locks = pin + [cand], trial
            if not measure(locks):
                break
    return pin, locks


def _inherited_pins(ctx, checker, exit_state, pin, pout, locks, vague, memo):
    """The callees' flags (`inherited_props`) that tell more of the vague locks' outcomes
    apart, added one at a time, and the vague locks' transitions with them. Each doubles the
    valuations rows are made from, so at most MAX_INHERITED are kept and only the vague locks
    are computed again, asking only what `memo` does not know (they are split on last); the
    others' rows hold for every value of them (`_widen`)."""
    def trial(extra):
        got = _locks(ctx, checker, exit_state, pin + extra, pout, memo, only=vague)
        return sum(map(_vague, got.values())), got
    added, best, tried = [], sum(_vague(locks[uid]) for uid in vague), {}
    for cand in inherited_props(ctx, checker.state(ctx))[:MAX_FIELD_TRIES]:
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


def _locks(ctx, checker, exit_state, pin, pout, memo, only=None, partial=False) -> dict:
    """Each lock's transitions by uid (only those of `only`, if given). The output propositions
    are split on first, then the input ones in their order: a call with more input
    propositions asks `memo` only for the splits the earlier calls did not make. `partial`:
    the locks the budget does not reach are "unknown" (NOTE [lock-summary-budget])."""
    data = checker.state(ctx)
    locks = {}
    for uid, obj, steps in exported(ctx, data, exit_state):
        if only is not None and uid not in only:
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
        if alt is not None and data.fs.is_(alt, 1) != FALSE:   # no question: one per lock
            locks[uid]["alternative"] = True   # NOTE [alternative-targets]
    return locks


# NOTE [summary-lock-cap]: a summary lists at most MAX_LOCKS locks. Calls through pointers
# bring every target's locks (NOTE [alternative-targets]), and a loop over a list makes them
# again for each element it unrolls, so without a bound a summary grows with each caller (a
# device freed through its table of operations, in a loop over a card's devices) and every
# lock costs its questions here and in each caller. Kept first are the locks this function
# operates on itself, then those its callees leave in a known state, then the nearest (the
# shortest access path). A lock left out is one callers take to be unchanged by the call:
# less known, and as for any callee they know nothing of, the caller's own operations on it
# still count.
MAX_LOCKS = 64


def exported(ctx, data, exit_state) -> list:
    """(uid, object, access path) of the locks the summary may list, in the summary's order."""
    roots = ctx.handed_out(exit_state)
    out = []
    for uid, obj in sorted(data.locks.items(), key=lambda kv: (kv[1].path, kv[0])):
        steps = ctx.interface_steps(obj, roots)
        if steps is not None:
            out.append((uid, obj, steps))
    if len(out) <= MAX_LOCKS:
        return out

    def rank(i):
        uid, _, steps = out[i]
        alt = exit_state.attrs.get((uid, "#lockalt"))
        vague = alt is not None and data.fs.is_(alt, 1) != FALSE
        return (uid not in data.direct, vague, len(steps), i)
    keep = sorted(sorted(range(len(out)), key=rank)[:MAX_LOCKS])
    return [out[i] for i in keep]


def _rows(ctx, checker, exit_state, uid, obj, steps, pin, pout, memo) -> list:
    data = checker.state(ctx)
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
                    why = "release" if ask(ctx, memo, assumed + [fs.is_(cause, REL)]) \
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
