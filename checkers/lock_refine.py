"""Which input propositions a lock summary keeps beyond the parameters' (NOTE
[lock-propositions] in lock_summary.py): the callees' flags this function passes on, and
fields of what it is given, tried while they settle its exits."""
from __future__ import annotations

import itertools

from .lock_props import (MAX_FIELD_TRIES, MAX_PIN, field_candidates, inherited_props,
                         kind_of_object)
from .lock_rows import OverBudget, ambiguous, locks_by_uid, matters, outcomes, project, \
    vague_share
from .lock_states import mixed

MAX_INHERITED = 2


def _ambiguity(locks) -> float:
    """The share of the locks' entry conditions with an exit locked or unlocked: a share, not a
    count, so that one of several conditions a release needs together (no parent, not
    read-only) counts as progress."""
    groups = [exits for lk in locks for exits in outcomes(lk).values()]
    return sum(1 for exits in groups if mixed(exits)) / len(groups) if groups else 0.0


def refined(ctx, checker, exit_state, pin, pout, memo):
    """The input propositions and the locks' transitions: the parameters', then callees' flags
    and input fields tried while they remove ambiguity (NOTE [lock-propositions])."""
    locks = locks_by_uid(ctx, checker, exit_state, pin, pout, memo=memo)   # may be over budget
    # Only the parameters that matter go on: each one more doubles every question after.
    keep = [j for j in range(len(pin))
            if any(matters(lk["transitions"], j) for lk in locks.values())]
    if len(keep) < len(pin):
        pin = [pin[j] for j in keep]
        locks = {uid: dict(lk, transitions=project(lk["transitions"], keep))
                 for uid, lk in locks.items()}
    vague = {uid for uid, lk in locks.items() if vague_share(lk)}
    added, tried = _inherited_pins(ctx, checker, exit_state, pin, pout, locks, vague, memo) \
        if vague else ([], {})
    if added:
        pin = pin + added
        locks = {uid: tried.get(uid) or _widen(lk, len(added)) for uid, lk in locks.items()}
    locks = list(locks.values())
    if ambiguous(locks):
        pin, locks = _settle_exits(ctx, checker, exit_state, pin, pout, memo, locks)
    return pin, locks


def _settle_exits(ctx, checker, exit_state, pin, pout, memo, locks):
    """Fields of the inputs that tell an ambiguous exit's outcomes apart."""
    cands = field_candidates(ctx, checker.state(ctx).read_before(ctx))
    # Fields that say what kind of object it is given and together settle every exit (no
    # parent, not read-only: lmdb's mdb_txn_end), each making a share of them plain; else
    # only those that settle some on their own (a callee that releases by the state of an
    # object, `o->del || o->cmt`, stays ambiguous: NOTE [vague-callees]).
    by_share = _fields(ctx, checker, exit_state, pin, pout, memo, locks, cands, _ambiguity)
    if not ambiguous(by_share[1]):
        fewest = _fewest(ctx, checker, exit_state, pout, memo, *by_share, len(pin))
        if any(kind_of_object(d) for d, _ in fewest[0][len(pin):]):
            return fewest
    return _fields(ctx, checker, exit_state, pin, pout, memo, locks, cands, ambiguous)


def _fewest(ctx, checker, exit_state, pout, memo, pin, locks, first):
    """Without the added propositions (from index `first` on) that the others make needless
    (`nfs != 0` beside `nfs == 2`)."""
    j = first
    while j < len(pin):
        fewer = pin[:j] + pin[j + 1:]
        trial = _rows_with(ctx, checker, exit_state, fewer, pout, memo)
        if trial is None:
            break
        if ambiguous(trial):
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
        trial = _rows_with(ctx, checker, exit_state, pin + [cand], pout, memo)
        if trial is None:
            break
        if measure(trial) < measure(locks):
            pin, locks = pin + [cand], trial
            if not measure(locks):
                break
    return pin, locks


def _rows_with(ctx, checker, exit_state, pin, pout, memo):
    """The locks' rows with these propositions, or None over the budget."""
    try:
        return list(locks_by_uid(ctx, checker, exit_state, pin, pout, memo=memo).values())
    except OverBudget:
        return None


def _inherited_pins(ctx, checker, exit_state, pin, pout, locks, vague, memo):
    """The callees' flags (`inherited_props`) that tell more of the vague locks' outcomes
    apart, added one at a time, and the vague locks' transitions with them. Each doubles the
    valuations rows are made from, so at most MAX_INHERITED are kept and only the vague locks
    are computed again, asking only what `memo` does not know (they are split on last); the
    others' rows hold for every value of them (`_widen`)."""
    def trial(extra):
        got = locks_by_uid(ctx, checker, exit_state, pin + extra, pout, memo, only=vague)
        return sum(map(vague_share, got.values())), got
    added, best, tried = [], sum(vague_share(locks[uid]) for uid in vague), {}
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
