"""What a checker sees of one function's analysis (the hooks' argument; see saturn/checker.py)."""
from __future__ import annotations

from ..ir import nodes as N
from ..logic.circuit import FALSE, TRUE
from ..memory.gls import GLS
from ..report.diagnostic import Report, TraceNote

MAX_WITNESS_BRANCHES = 40


class FunctionContext:
    def __init__(self, program, fn: N.Function, ev, session, options):
        self.program, self.fn, self.ev, self.session, self.options = program, fn, ev, session, options
        self.c, self.guards, self.env = ev.c, ev.guards, ev.env
        self.reports: list[Report] = []
        self.branches: list[tuple] = []   # (cond lit, guard before, Branch, instance id)
        self.data: dict[str, object] = {}  # per-checker scratch, by checker name
        self.summaries: dict = {}          # callee key -> {checker: summary}

    def dispose(self) -> None:
        """Break the reference cycles that hold BDD nodes (see Guards.dispose)."""
        self.session.close()
        self.branches.clear()
        self.ev.call_hooks.clear()
        self.data.pop("<states>", None)
        self.guards.dispose()

    # -- logic ----------------------------------------------------------------------------------
    def lit(self, guard) -> int:
        return self.guards.to_lit(guard)

    def may(self, *lits, observe=()):
        return self.session.may(*lits, observe=observe)

    def truth(self, value) -> int:
        return self.ev.truth(value)

    # -- values ---------------------------------------------------------------------------------
    def value(self, expr, state):
        return self.ev.value(expr, state)

    def locations(self, value):
        """The non-null locations of a pointer value with their guards."""
        return value.locations() if isinstance(value, GLS) else []

    def restrict(self, state, lit: int) -> None:
        """Continue the path only where `lit` holds (an assumption)."""
        state.guard = state.guard & self.guards.of_lit(lit)

    def end_path(self, state) -> None:
        state.guard = self.guards.false

    # -- reports --------------------------------------------------------------------------------
    def report(self, checker: str, kind: str, coord: N.Coord, message: str, notes=(),
               statement: str = "") -> Report:
        r = Report(checker, kind, self.fn.name, self.fn.key, coord.file, coord.line, coord.col,
                   message, list(notes), statement=statement)
        self.reports.append(r)
        return r

    def witness(self, guard_lit: int, *extra: int) -> list[TraceNote]:
        """A path through the function satisfying `guard_lit`: branches taken and input values."""
        branch_guards = [(self.lit(g), cond, term) for cond, g, term, _ in
                         self.branches[:MAX_WITNESS_BRANCHES * 4]]
        observe = [x for gl, cond, _ in branch_guards for x in (gl, cond)]
        inputs = [(obj, v) for obj, v in self.env.inputs if not isinstance(v, GLS)][:12]
        observe += [b for _, v in inputs for b in v.bits]
        model = self.may(guard_lit, *extra, observe=observe)
        if model is None:
            return []
        notes: list[TraceNote] = []
        for gl, cond, term in branch_guards:
            if len(notes) >= MAX_WITNESS_BRANCHES:
                break
            if model.value(gl) and cond not in (TRUE, FALSE):
                taken = "true" if model.value(cond) else "false"
                text = f"'{term.text}' is {taken}" if term.text else f"taking the {taken} branch"
                notes.append(TraceNote(term.coord.file, term.coord.line, text))
        for obj, v in inputs:
            raw = model.bits(v.bits)
            if v.signed and raw >> (v.width - 1):
                raw -= 1 << v.width
            notes.append(TraceNote(self.fn.file, self.fn.line, f"{obj.display} = {raw}"))
        return notes
