"""The `assert` checker: a reachable assertion failure, with the function's inputs unconstrained.

`assert(e)` preprocesses to a call of `__assert_fail` (glibc); SV-COMP's `reach_error` and
`__VERIFIER_error` count too. `__VERIFIER_assume(c)` restricts the path. Intraprocedural: a call
without a spec returns an unknown value (the engine's default).
"""
from __future__ import annotations

from saturn.plugin.checker import Checker, Kind, short_name

FAILURES = frozenset({"__assert_fail", "__assert_perror_fail", "__assert", "__assert_rtn",
                      "reach_error", "__VERIFIER_error"})
ASSUMES = frozenset({"__VERIFIER_assume", "__CPROVER_assume"})


class AssertChecker(Checker[set]):
    name = "assert"
    description = ("Assertions that can fail for some input, with a witness (within one function).")
    kinds = (Kind("assert.violation", "error", "An assertion can fail for some input."),)
    enabled_by_default = False

    def begin(self, ctx):
        self.keep_state(ctx, set())

    def pre_call(self, ctx, call, args, state) -> None:
        name = short_name(call.callee)
        if name in ASSUMES and args:
            ctx.restrict(state, ctx.truth(args[0]))
            return
        if name not in FAILURES:
            return
        guard = ctx.lit(state.guard)
        if not ctx.can(guard):
            ctx.end_path(state)
            return
        seen = self.state(ctx)
        if (call.coord.file, call.coord.line) in seen:
            ctx.end_path(state)
            return
        seen.add((call.coord.file, call.coord.line))
        notes = ctx.witness(guard)
        ctx.report(self.name, "assert.violation", call.coord,
                   f"assertion can fail in '{ctx.fn.name}'", notes, statement=call.text)
        ctx.end_path(state)


CHECKER = AssertChecker()
