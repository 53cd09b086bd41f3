"""What a callee leaves in the objects it changes: a pointer that holds one of its inputs' entry
values or null (`line->prev->next = line->next`, a list unlink; `d->err = NULL`, free and
clear), and objects that keep their entry values wherever the result says so (nothing changes
on an error return).

NOTE [copied-pointers]: a modified pointer (M, §2.5.2) becomes a fresh unknown at a call, and a
fresh node knows nothing of the list it came from: a caller that unlinks `line->next` in a loop
would read the freed node again through `line->next`. So the summary also says, for each
modified pointer, the interface pointer whose entry value it holds on every exit path where it
exists (`copies`: [target steps, source steps]), or that it holds null (source "null"). The
caller resolves every target and source before the call changes anything (the callee's reads are
of its entry state) and stores the source's value instead of a fresh one. Only pointers whose
exit value points where an input pointer pointed on entry are tried (its locations' `deref_of`),
one bounded solver question each: a question left open gives no copy (the fresh unknown).
"""
from __future__ import annotations

from ..checker import result_lit, same_int
from ..ir import types as T
from ..memory import gls
from ..memory.gls import GLS
from .interface import steps_of, value_at
from .lazy import same

BUDGET = 2_000       # conflicts per question
MAX_TRIED = 32       # modified objects tried per function, for each question
KEPT_WHEN = ("ret!=0", "ret==0")
COPY_MAX_VARS = 20_000   # variables of the function's formula past which no copy is asked
KEPT_MAX_VARS = 5_000   # variables of the function's formula past which nothing is asked


def infer(ctx, exit_state) -> list:
    """[[target steps, source steps or "null"], ...] for the function's modified pointers."""
    if exit_state is None or ctx.c.nvars > COPY_MAX_VARS or not ctx.affordable():
        return []   # the helpers that relink and clear are small; building big values is not
    ev, out, tried = ctx.ev, [], 0
    here = ctx.lit(exit_state.guard)
    for obj, value in exit_state.store.items():
        if not isinstance(obj.type, T.PtrT) or same(ev, value, ev.env.initial_values.get(obj)):
            continue
        target = steps_of(obj)
        if not _precise(target) or tried >= MAX_TRIED:
            continue
        tried += 1
        source = _source(ctx, obj, ctx.force(value), here)
        if source is not None:
            out.append([target, source])
    return sorted(out, key=str)


# NOTE [kept-on-result]: a callee that changes a field only where it succeeds (the kernel's
# `if (err) return err; ... service->srvstate = CLOSESENT; return 0;`) has that field in its M,
# and a caller that tests the field after an error return would read a fresh unknown: the lock
# it took by that field's value would seem kept on the error path. So the summary says which
# modified objects keep their entry values wherever the result is non-zero, or zero (`kept`:
# [steps, "ret!=0" or "ret==0"]), and the caller keeps what they held where its result says so.
def kept(ctx, exit_state) -> list:
    """[[steps, when], ...]: modified objects unchanged on every exit path where `when` holds:
    all of them where one question says so, else one question each."""
    rv = ctx.fn.rv
    if exit_state is None or rv is None or not isinstance(rv.type, (T.IntT, T.PtrT)) or \
            ctx.c.nvars > KEPT_MAX_VARS or not ctx.affordable():
        return []   # building every changed value's gates costs more than it pays for there
    here, ret = ctx.lit(exit_state.guard), ctx.exit_value(rv, exit_state)
    changed = _changes(ctx, exit_state)
    out = []
    for when in KEPT_WHEN:
        lit = result_lit(ctx, when, ret)
        if not changed or not ctx.can(here, lit, budget=BUDGET):
            continue
        if not ctx.can(here, lit, ctx.c.OR_all(c for _, c in changed), budget=BUDGET):
            out += [[target, when] for target, _ in changed]   # nothing changes there
            changed = []
            continue
        for target, c in changed:
            if not ctx.can(here, lit, c, budget=BUDGET):
                out.append([target, when])
        changed = [tc for tc in changed if [tc[0], when] not in out]
    return sorted(out, key=str)


def _changes(ctx, exit_state) -> list:
    """(steps, literal of "changed here") of the modified integers and pointers."""
    ev, out = ctx.ev, []
    for obj, value in exit_state.store.items():
        if not isinstance(obj.type, (T.IntT, T.PtrT)) or \
                same(ev, value, ev.env.initial_values.get(obj)):
            continue
        target = steps_of(obj)
        if not _precise(target) or len(out) >= MAX_TRIED:
            continue
        value, initial = ctx.force(value), ev.env.initial(obj)
        equal = ctx.pointers_equal(value, initial) if isinstance(obj.type, T.PtrT) else \
            same_int(ctx.c, value, initial)
        out.append((target, ctx.c.AND(ctx.exists(obj), -equal)))
    return out


def _source(ctx, obj, value, here):
    if not isinstance(value, GLS):
        return None
    exists = ctx.exists(obj)
    if not ctx.can(here, exists, -value.null_guard(), budget=BUDGET):
        return "null"
    for ptr in _candidates(value):
        source = steps_of(ptr)
        if not _precise(source) or ptr is obj:
            continue
        equal = ctx.pointers_equal(value, ctx.env.initial(ptr))
        if not ctx.can(here, exists, -equal, budget=BUDGET):
            return source
    return None


def _precise(steps) -> bool:
    """An interface path that names one object: not the result, and no step through elements
    summarized as one (NOTE [summarized] in checkers/free)."""
    return steps is not None and steps[0][0] != "ret" and \
        not any(s[0] == "derived" for s in steps)


def _candidates(value) -> list:
    """The input pointers whose entry values the locations of `value` came from."""
    out = []
    for loc, _ in value.entries:
        if loc is None or loc.parent is not None or loc.root.origin != "env":
            continue
        ptr = loc.deref_of
        if ptr is not None and ptr not in out:
            out.append(ptr)
    return out[:4]


def kept_where(ev, when: str, ret) -> int:
    """At a call: the literal of `when` on the call's result."""
    truth = ev.truth(ret)
    return truth if when == "ret!=0" else -truth


def values(ev, copies, args, st, memo) -> dict:
    """At a call, before its effects: repr(target steps) -> the value the target is left with."""
    out = {}
    for target, source in copies or ():
        if source == "null":
            out[repr(target)] = gls.NULL
            continue
        value = value_at(ev, source, args, st, memo)
        if value is not None:
            out[repr(target)] = value
    return out
