"""What a callee leaves in the pointers it changes, when it is one of its inputs' entry values
or null: `line->prev->next = line->next` (a list unlink), `d->err = NULL` (free and clear).

NOTE [copied-pointers]: a modified pointer (M, §2.5.2) becomes a fresh unknown at a call, and a
fresh node knows nothing of the list it came from: a caller that unlinks `line->next` in a loop
would read the freed node again through `line->next`. So the summary also says, for each
modified pointer, the interface pointer whose entry value it holds on every exit path where it
exists (`copies`: [target steps, source steps]), or that it holds null (source "null"). The
caller resolves every target and source before the call changes anything (the callee's reads are
of its entry state) and stores the source's value instead of a fresh one. Only pointers whose
exit value points where an input pointer pointed on entry are tried (its locations' `deref_of`),
one bounded solver question each, and only in functions of a modest size (the helpers that
relink and clear are small): a question left open gives no copy (the fresh unknown).

An out-parameter (`*param_i`, a pointer) that is no copy on every exit may still be one where
the result says the call failed: `expand(in, &name)` writes a new string in `name` where it
returns 0, and leaves what was there (or null) where it does not (`[target, "kept", "ret!=0"]`).
The caller's `name` then still holds the block it freed in the loop's last iteration, and a
second free of it on the error path is the double free it is. Only these slots, and only the
result's own conditions, are asked: a question or two each.
"""
from __future__ import annotations

from ..plugin.checker import result_lit
from ..ir import types as T
from ..memory import gls
from ..memory.gls import GLS
from .interface import steps_of, value_at
from .lazy import same

BUDGET = 2_000       # conflicts per question
MAX_TRIED = 32       # modified pointers tried per function
COPY_MAX_VARS = 20_000   # variables of the function's formula past which no copy is asked


def infer(ctx, exit_state) -> list:
    """[[target steps, source steps or "null"], ...] for the function's modified pointers."""
    if exit_state is None or ctx.c.nvars > COPY_MAX_VARS or not ctx.affordable():
        return []   # the helpers that relink and clear are small; building big values is not
    ev, out, tried = ctx.ev, [], 0
    here = ctx.lit(exit_state.guard)
    for obj, value in exit_state.memory.items():
        if not isinstance(obj.type, T.PtrT) or same(ev, value, ev.env.initial_values.get(obj)):
            continue
        target = steps_of(obj)
        if not _precise(target) or tried >= MAX_TRIED:
            continue
        tried += 1
        source = _source(ctx, obj, ctx.force(value), here)
        when = None if source is not None or not _out_param(target) else \
            _kept_when(ctx, obj, ctx.force(value), here, exit_state)
        if source is not None:
            out.append([target, source])
        elif when is not None:
            out.append([target, "kept", when])
    return sorted(out, key=str)


def _out_param(steps) -> bool:
    return len(steps) == 2 and steps[0][0] == "param" and steps[1] == ["deref"]


def _kept_when(ctx, obj, value, here, exit_state):
    """The condition on the result under which the pointer holds its entry value or null on
    every exit, if one does."""
    rv = ctx.fn.rv
    if not isinstance(value, GLS) or rv is None or not isinstance(rv.type, (T.IntT, T.PtrT)):
        return None
    ret = ctx.exit_value(rv, exit_state)
    kept = ctx.c.OR(ctx.pointers_equal(value, ctx.env.initial(obj)), value.null_guard())
    exists = ctx.exists(obj)
    for when in ("ret==0",) if isinstance(rv.type, T.PtrT) else ("ret!=0", "ret<0"):
        failed = result_lit(ctx, when, ret)
        if not ctx.can(here, exists, failed, -kept, budget=BUDGET) and \
                ctx.can(here, exists, failed, budget=BUDGET):
            return when
    return None


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


def values(ev, copies, args, st, memo) -> dict:
    """At a call, before its effects: repr(target steps) -> the value the target is left with,
    or (condition on the result, value) for one kept where the call fails."""
    out = {}
    for target, source, *when in copies or ():
        if source == "kept":
            before = value_at(ev, target, args, st, memo)
            if before is not None:   # the slot's value now, or null, where the result fails
                out[repr(target)] = (when[0], ev.ite(ev.c.new_var(), before, gls.NULL))
            continue
        if source == "null":
            out[repr(target)] = gls.NULL
            continue
        value = value_at(ev, source, args, st, memo)
        if value is not None:
            out[repr(target)] = value
    return out
