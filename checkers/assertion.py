"""The `assert` checker: a reachable assertion failure, with the function's inputs unconstrained.

`assert(e)` preprocesses to a call of `__assert_fail` (glibc); SV-COMP's `reach_error` and
`__VERIFIER_error` count too. `__VERIFIER_assume(c)` restricts the path. Intraprocedural: a call
without a spec returns an unknown value (the engine's default).
"""
from __future__ import annotations

from saturn.checker import CallHook, Checker

FAILURES = frozenset({"__assert_fail", "__assert_perror_fail", "__assert", "__assert_rtn",
                      "reach_error", "__VERIFIER_error"})
ASSUMES = frozenset({"__VERIFIER_assume", "__CPROVER_assume"})


def _short(key):
    return key.rsplit(":", 1)[-1] if key else None


class AssertChecker(Checker):
    name = "assert"
    kinds = ("assert.violation",)
    enabled_by_default = False

    def begin(self, ctx):
        ctx.data[self.name] = set()
        ctx.ev.call_hooks.append(CallHook(before=lambda call, args, st: self.before(ctx, call, args, st)))

    def before(self, ctx, call, args, state) -> None:
        name = _short(call.callee)
        if name in ASSUMES and args:
            ctx.restrict(state, ctx.truth(args[0]))
            return
        if name not in FAILURES:
            return
        guard = ctx.lit(state.guard)
        if not ctx.can(guard):
            ctx.end_path(state)
            return
        seen = ctx.data[self.name]
        if (call.coord.file, call.coord.line) in seen:
            ctx.end_path(state)
            return
        seen.add((call.coord.file, call.coord.line))
        notes = ctx.witness(guard)
        ctx.report(self.name, "assert.violation", call.coord,
                   f"assertion can fail in '{ctx.fn.name}'", notes, statement=call.text)
        ctx.end_path(state)


CHECKER = AssertChecker()
