"""One incremental SAT session per function: clauses go in lazily, queries use assumptions."""
from __future__ import annotations

from pysat.solvers import Solver

from .circuit import BudgetExceeded, Circuit, FALSE, TRUE

SOLVER_NAME = "cadical153"  # Kissat ignores assumptions; Lingeling aborts (DESIGN.md stack notes)


class Model:
    """A satisfying assignment; `value(lit)` reads any literal (unset ones read false)."""

    def __init__(self, assignment: list[int]):
        self._true = {x for x in assignment if x > 0}

    def value(self, lit: int) -> bool:
        if lit == TRUE:
            return True
        if lit == FALSE:
            return False
        return (abs(lit) in self._true) == (lit > 0)

    def bits(self, lits) -> int:
        return sum(1 << i for i, b in enumerate(lits) if self.value(b))


class Session:
    def __init__(self, circuit: Circuit, conflict_budget: int | None = None):
        self.circuit = circuit
        self.solver = Solver(name=SOLVER_NAME)
        self.conflict_budget = conflict_budget
        self.queries = 0

    def close(self) -> None:
        self.solver.delete()

    def may(self, *lits: int, observe=()) -> Model | None:
        """A model in which every lit holds, or None when they cannot hold together.
        `observe`: literals whose values the caller will read from the model."""
        lits = [x for x in lits if x != TRUE]
        if FALSE in lits:
            return None
        self.queries += 1
        clauses = self.circuit.cone_clauses(lits + list(observe))
        if clauses:
            self.solver.append_formula(clauses)
        if self.conflict_budget is not None:
            self.solver.conf_budget(self.conflict_budget)
            result = self.solver.solve_limited(assumptions=lits)
            if result is None:
                raise BudgetExceeded("SAT conflicts")
        else:
            result = self.solver.solve(assumptions=lits)
        return Model(self.solver.get_model()) if result else None

    def must(self, lit: int, *under: int) -> bool:
        """True when `lit` holds in every model of `under`."""
        return self.may(-lit, *under) is None
