"""The rows of lock summaries: each lock's transitions by the valuations of the summary's
propositions, found by SAT questions within a budget (NOTE [lock-summary-budget] in
lock_summary.py), and the questions' bookkeeping."""
from __future__ import annotations

from typing import NamedTuple

from saturn.plugin.checker import FALSE

from .lock_states import REL, E, L, R, U, mixed


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


def lock_exists(ctx, obj, steps, exit_state) -> int:
    """Where the lock has a state to speak of: not where the pointer it is reached through was
    null, and, for a lock handed out through the result, only where the result points to it
    (not an ERR_PTR returned on failure)."""
    if steps[0][0] != "ret":
        return ctx.exists(obj)
    rv = ctx.fn.rv
    value = ctx.exit_value(rv, exit_state) if rv is not None else None
    return ctx.c.OR_all([g for loc, g in ctx.locations(value) if loc.root is obj.root] or [FALSE])


def outcomes(lock) -> dict:
    """A lock's exit states by entry condition (input values, entry state, output values)."""
    groups: dict = {}
    for ins, s, outs, s2, _ in lock["transitions"]:
        groups.setdefault((tuple(ins), s, tuple(outs)), set()).add(s2)
    return groups


def ambiguous(locks) -> int:
    return sum(1 for lk in locks for exits in outcomes(lk).values() if mixed(exits))


def vague_share(lock) -> float:
    """The share of a lock's entry conditions with more than one outcome a caller must tell
    apart: locked or unlocked, or an error or not (a caller holding the other lock of a
    flag-chosen pair would be told it may release this one). A share, not a count: a
    proposition that settles half the conditions doubles them."""
    groups = outcomes(lock)
    vague = sum(1 for exits in groups.values() if mixed(exits) or (E in exits and len(exits) > 1))
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


def locks_by_uid(ctx, checker, exit_state, pin, pout, memo, only=None, partial=False) -> dict:
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


def matters(rows, j) -> bool:
    """An input proposition matters when flipping it changes the set of transitions."""
    seen = {(tuple(r[0]), r[1], tuple(r[2]), r[3]) for r in rows}
    for ins, s, outs, s2 in seen:
        flipped = list(ins)
        flipped[j] = 1 - flipped[j]
        if (tuple(flipped), s, outs, s2) not in seen:
            return True
    return False


def project(rows, keep):
    out, seen = [], set()
    for ins, s, outs, s2, why in rows:
        row = ([ins[j] for j in keep], s, outs, s2, why)
        key = (tuple(row[0]), s, tuple(outs), s2, why)
        if key not in seen:
            seen.add(key)
            out.append(list(row))
    return out
