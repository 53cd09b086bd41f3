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

from .lock_props import input_props, output_props
from .lock_refine import refined
from .lock_rows import QUESTION_BUDGET, Answers, OverBudget, locks_by_uid, matters, project


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
        locks = list(locks_by_uid(ctx, checker, exit_state, [], pout, memo=memo).values())
        pin, locks = refined(ctx, checker, exit_state, pin, pout, memo)
    except OverBudget:
        summary["coarse"] = True
        pin = []
        if locks is None:   # not even the outputs' rows: no propositions at all
            pout = []
            memo.left = QUESTION_BUDGET   # its first questions were the outputs' stage's
            locks = list(locks_by_uid(ctx, checker, exit_state, [], [], memo=memo,
                                partial=True).values())
    # A lock no path reaches the exit with (its object made only on paths that fail) says
    # nothing to callers, and no row of it could apply: left out.
    locks = [lk for lk in locks if lk["transitions"] or lk.get("unknown")]
    keep = [j for j in range(len(pin)) if any(matters(lk["transitions"], j) for lk in locks)]
    for lk in locks:
        lk["transitions"] = project(lk["transitions"], keep)
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
