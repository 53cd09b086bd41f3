"""One incremental SAT session per function: clauses go in lazily, queries use assumptions."""
from __future__ import annotations

import functools

import pysolvers
from pysat.solvers import Solver

from .circuit import BudgetExceeded, Circuit, FALSE, TRUE

SOLVER_NAME = "cadical153"
# Models asked for by `which_may`: on sqlite's whereScanNext each model settled one of ~170
# escape questions at ~0.9 s a query (1.7M variables to assign each time).
WHICH_MAY_ROUNDS = 12
WHICH_MAY_CONFLICTS = 5_000   # per model; zlib-ng's inflate spent ~10 s a query otherwise
# NOTE [model-budget]: and propagations per model, where the solver counts them (Glucose, the
# model solver; CaDiCaL has no such limit). A model of a big formula can take a few thousand
# conflicts at milliseconds each, while the questions that come out impossible — the answers
# that sharpen a summary — are refuted quickly (bench/RESULTS.md has the measurements that
# set the limits). A literal given up on takes the caller's conservative answer and the rest
# are asked together (`Session._rounds`).
WHICH_MAY_PROPAGATIONS = 1_500_000
# Past about this many variables a model can cost tens of seconds however few its conflicts:
# questions that only sharpen a summary, where a conservative answer exists, are not asked
# (`Session.affordable`).
OPTIONAL_QUERY_VARS = 1_000_000
# NOTE [model-solver]: `which_may` wants models of many easy satisfiable questions; the lock
# checker's questions are mostly refutations. Glucose 4 finds such models faster, CaDiCaL
# refutes faster. So past this size `which_may` runs on a Glucose session of its own given
# only the cone of its question, one literal at a time; the cone is encoded and loaded again,
# which pays only on large formulas (the threshold is measured: bench/RESULTS.md); the main
# CaDiCaL session keeps the rest.
MODEL_SOLVER = "glucose4"
MODEL_SOLVER_VARS = 200_000
# Kissat ignores assumptions and Lingeling aborts on them (docs/DESIGN.md "Stack notes").
UNKNOWN = object()            # a query over its own budget (`may(..., budget=N)`)


# The bindings of the two solvers used: pysat's append_formula goes through two Python calls a
# clause (add_clause, then the binding), ~1.5 M clauses for whereScanNext's model solver.
_ADD_CLAUSE = {"Cadical153": ("cadical", "cadical153_add_cl"), "Glucose4": ("glucose", "glucose41_add_cl")}


def _clause_adder(solver: Solver):
    """A function adding one clause straight through the solver's binding (pysat's own
    add_clause for a solver not listed)."""
    inner = solver.solver
    attr, name = _ADD_CLAUSE.get(type(inner).__name__, (None, None))
    binding = getattr(pysolvers, name, None) if name else None
    handle = getattr(inner, attr, None) if attr else None
    if binding is None or handle is None:
        return solver.add_clause
    return functools.partial(binding, handle)


class Model:
    """A satisfying assignment; `value(lit)` reads any literal (unset ones read false).
    pysat's model lists ±v at index v-1; indexing it beats building a set of millions."""

    def __init__(self, assignment: list[int]):
        self._a = assignment

    def value(self, lit: int) -> bool:
        if lit == TRUE:
            return True
        if lit == FALSE:
            return False
        v = abs(lit)
        a = self._a
        holds = v <= len(a) and a[v - 1] > 0
        return holds == (lit > 0)

    def bits(self, lits) -> int:
        return sum(1 << i for i, b in enumerate(lits) if self.value(b))


class Session:
    def __init__(self, circuit: Circuit, conflict_budget: int | None = None,
                 name: str = SOLVER_NAME):
        self.circuit = circuit
        self.solver = Solver(name=name)
        self._add = _clause_adder(self.solver)
        self.conflict_budget = conflict_budget
        self.prop_budget: int | None = None   # with `budget`, where the solver has one
        self.queries = 0

    def close(self) -> None:
        self.solver.delete()

    def may(self, *lits: int, observe=(), budget: int | None = None) -> Model | None:
        """A model in which every lit holds, or None when they cannot hold together.
        `observe`: literals whose values the caller will read from the model. `budget`: fewer
        conflicts for this query, over which it returns UNKNOWN instead of raising."""
        result = self._solve(lits, observe, budget)
        if result is UNKNOWN:
            return UNKNOWN
        return Model(self.solver.get_model()) if result else None

    def can(self, *lits: int, budget: int | None = None) -> bool:
        """Whether the lits can hold together: `may` without the model, which is a list of
        every variable (on fs/fat's __fat_readdir a third of the time of its lock queries).
        With a `budget` of conflicts, a question left open counts as possible."""
        result = self._solve(lits, (), budget)
        return True if result is UNKNOWN else bool(result)

    def possible(self, *lits: int, budget: int | None = None) -> bool | None:
        """Whether the lits can hold together: True, False, or None when the budget left the
        question open."""
        result = self._solve(lits, (), budget)
        return None if result is UNKNOWN else bool(result)

    def _solve(self, lits, observe, budget):
        lits = [x for x in lits if x != TRUE]
        if FALSE in lits:
            return False
        self.queries += 1
        self._cone(lits + list(observe), self._add)
        limit = budget if budget is not None else self.conflict_budget
        if limit is None:
            return self.solver.solve(assumptions=lits)
        self.solver.conf_budget(limit)
        if budget is not None and self.prop_budget is not None:
            self.solver.prop_budget(self.prop_budget)
        result = self.solver.solve_limited(assumptions=lits)
        if result is None:
            if budget is not None:
                return UNKNOWN
            raise BudgetExceeded("SAT conflicts")
        return result

    def work(self) -> int:
        """The solver's propagations so far: a measure of the time its questions took that is
        the same on every machine (CaDiCaL and Glucose count them; otherwise the questions)."""
        stats = self.solver.accum_stats() or {}
        return stats.get("propagations", self.queries)

    def _cone(self, lits, emit) -> None:
        self.circuit.cone_clauses(lits, emit)

    def affordable(self) -> bool:
        """Whether a question with a conservative answer is worth asking (NOTE [budgets])."""
        return self.circuit.nvars <= OPTIONAL_QUERY_VARS

    def which_may(self, lits: list[int], *under: int, rounds: int = WHICH_MAY_ROUNDS,
                  otherwise: bool = True) -> list[bool]:
        """For each of `lits`, whether it may hold under `under` — in few queries: each model
        settles every literal true in it (the solver is asked to prefer them true), and one
        unsatisfiable disjunction settles the rest. After `rounds` models, the literals still
        open get `otherwise` (the caller's conservative answer; NOTE [budgets])."""
        known = [lit == TRUE if lit in (TRUE, FALSE) else None for lit in lits]
        if not self.affordable():
            rounds = 0   # every open literal takes `otherwise` (NOTE [budgets])
        side = _ModelSolver(self.circuit) if rounds and self.circuit.nvars > MODEL_SOLVER_VARS \
            and any(k is None for k in known) else None
        try:
            self._rounds(side or self, lits, known, under, rounds, otherwise)
        finally:
            if side is not None:
                side.close()
        return [otherwise if k is None else k for k in known]

    def _rounds(self, solver, lits, known, under, rounds, otherwise) -> None:
        """On the model solver, one literal at a time until one cannot hold or is given up on
        (NOTE [model-budget]), then the rest's disjunction: a model of a disjunction rarely
        settles more than one of it, and finding one took longer than a model of a single
        literal (whereScanNext: 21 s vs 10.7 s)."""
        single = solver is not self
        for _ in range(rounds):
            open_ = sorted({lits[i] for i, k in enumerate(known) if k is None})
            if not open_:
                return
            solver.solver.set_phases(open_)
            ask = open_[0] if single else self.circuit.OR_all(open_)
            model = solver.may(ask, *under, observe=open_, budget=WHICH_MAY_CONFLICTS)
            if model is UNKNOWN and not single:
                return
            if single and (model is None or model is UNKNOWN):
                # Settled (cannot hold) or given up on (the caller's answer); either way ask
                # whether any of the rest can: refutations are cheap where models are not.
                single = False
                answer = False if model is None else otherwise
                known[:] = [answer if lits[i] == ask else k for i, k in enumerate(known)]
                continue
            for i, k in enumerate(known):
                if k is None:
                    known[i] = True if model is not None and model.value(lits[i]) else \
                        (False if model is None else None)

    def must(self, lit: int, *under: int) -> bool:
        """True when `lit` holds in every model of `under`."""
        return not self.can(-lit, *under)


class _ModelSolver(Session):
    """A Glucose session holding only the cones of the questions put to it (NOTE
    [model-solver]): the circuit's emitted clauses are the main session's, so it keeps its own."""

    def __init__(self, circuit: Circuit):
        super().__init__(circuit, name=MODEL_SOLVER)
        self.emitted: set[int] = set()
        self.prop_budget = WHICH_MAY_PROPAGATIONS

    def _cone(self, lits, emit) -> None:
        self.circuit.cone_cnf(lits, self.emitted, emit)
