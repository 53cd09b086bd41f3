"""Hash-consed, constant-folded boolean gates over DIMACS literals, Tseitin-encoded on demand.

Lit 1 is the constant true (a unit clause), -1 false. A gate's clauses reach the solver only when
a query needs a literal in its cone (automatic slicing, §2.3.1).

NOTE [gate-order]: variables are numbered in creation order and the numbering shapes the CNF, so
what the solver does within a conflict budget; whatever makes gates while iterating must iterate in
an order fixed by the input (insertion-ordered dicts, sorted lists), never over a set of objects
that hash by address or by salted string hashes: the same input must give the same formula, or
a budgeted query's answer, and with it a report, could differ from run to run.
"""
from __future__ import annotations

TRUE, FALSE = 1, -1


class Circuit:
    def __init__(self):
        self.nvars = 1
        self._gates: dict[tuple, int] = {}
        self.defs: list = [None, None]        # var -> (kind, inputs...), None for an input
        self._emitted: set[int] = {1}
        self.pending: list[list[int]] = [[TRUE]]
        self.required: list[list[int]] = [[TRUE]]   # every `require`d clause (cone_cnf)
        self.budget_vars: int | None = None   # formula-size budget (NOTE [budgets])

    def new_var(self) -> int:
        self.nvars += 1
        self.defs.append(None)
        if self.budget_vars is not None and self.nvars > self.budget_vars:
            raise BudgetExceeded("formula size")
        return self.nvars

    def fresh(self, n: int) -> tuple[int, ...]:
        return tuple(self.new_var() for _ in range(n))

    def _gate(self, key: tuple) -> int:
        lit = self._gates.get(key)
        if lit is None:   # new_var, inlined: millions of calls in a big function
            self.nvars = lit = self.nvars + 1
            if self.budget_vars is not None and lit > self.budget_vars:
                raise BudgetExceeded("formula size")
            self._gates[key] = lit
            self.defs.append(key)
        return lit

    def AND(self, a: int, b: int) -> int:
        if a == FALSE or b == FALSE or a == -b:
            return FALSE
        if a == TRUE or a == b:
            return b
        if b == TRUE:
            return a
        return self._gate(("&", a, b) if a < b else ("&", b, a))

    def OR(self, a: int, b: int) -> int:
        return -self.AND(-a, -b)

    def XOR(self, a: int, b: int) -> int:
        if a == FALSE:
            return b
        if b == FALSE:
            return a
        if a == TRUE:
            return -b
        if b == TRUE:
            return -a
        if a == b:
            return FALSE
        if a == -b:
            return TRUE
        neg = (a < 0) != (b < 0)
        a, b = abs(a), abs(b)
        lit = self._gate(("^", a, b) if a < b else ("^", b, a))
        return -lit if neg else lit

    def ITE(self, c: int, t: int, e: int) -> int:
        if c == TRUE or t == e:
            return t
        if c == FALSE:
            return e
        if c < 0:
            c, t, e = -c, e, t
        if t == -e:
            return -self.XOR(c, t)
        if t == TRUE or t == c:
            return self.OR(c, e)
        if t == FALSE or t == -c:
            return self.AND(-c, e)
        if e == FALSE or e == c:
            return self.AND(c, t)
        if e == TRUE or e == -c:
            return self.OR(-c, t)
        return self._gate(("?", c, t, e))

    def AND_all(self, lits) -> int:
        out = TRUE
        for lit in lits:
            out = self.AND(out, lit)
            if out == FALSE:
                return FALSE
        return out

    def OR_all(self, lits) -> int:
        return -self.AND_all(-lit for lit in lits)

    def support(self, lits, limit: int) -> set | None:
        """The input variables the literals' cone reads, or None past `limit` variables looked
        through."""
        seen, inputs, stack = set(), set(), [abs(x) for x in lits]
        while stack:
            v = stack.pop()
            if v in seen or v <= 1:
                continue
            seen.add(v)
            if len(seen) > limit:
                return None
            d = self.defs[v]
            if d is None:
                inputs.add(v)
            else:
                stack.extend(abs(x) for x in d[1:])
        return inputs

    def cone_clauses(self, lits, emit) -> None:
        """`emit(clause)` for the Tseitin clauses of every gate under `lits` not yet emitted
        (explicit stack), as they are made: a cone of millions of gates is never one list."""
        pending, self.pending = self.pending, []
        for clause in pending:
            emit(clause)
        self._tseitin([abs(x) for x in lits], self._emitted, emit)

    def cone_cnf(self, lits, emitted: set, emit) -> None:
        """For a second solver that records what it has in `emitted`: `emit` the clauses of
        `lits`' cone it lacks, and on the first call every required clause with its cone."""
        if not emitted:
            emitted.add(1)
            for clause in self.required:
                emit(list(clause))
            lits = list(lits) + [x for c in self.required for x in c]
        self._tseitin([abs(x) for x in lits], emitted, emit)

    def _tseitin(self, stack, emitted, emit) -> None:
        defs = self.defs
        while stack:
            v = stack.pop()
            if v in emitted:
                continue
            emitted.add(v)
            d = defs[v]
            if d is None:
                continue
            kind = d[0]
            if kind == "&":
                a, b = d[1], d[2]
                emit([-v, a])
                emit([-v, b])
                emit([v, -a, -b])
                stack += (abs(a), abs(b))
            elif kind == "^":
                a, b = d[1], d[2]
                emit([-v, a, b])
                emit([-v, -a, -b])
                emit([v, -a, b])
                emit([v, a, -b])
                stack += (a, b)
            else:
                c, t, e = d[1], d[2], d[3]
                for clause in ([-v, -c, t], [-v, c, e], [v, -c, -t], [v, c, -e], [-v, t, e],
                               [v, -t, -e]):
                    emit(clause)
                stack += (c, abs(t), abs(e))

    def release(self) -> None:
        """Drop the gates once the function is done: millions of tuples, freed here by counting
        references instead of by a collector pass over the cycles the analysis objects form
        (selectExpander: 1.0 s; NOTE [analysis-gc])."""
        self._gates, self.defs, self._emitted = {}, [], set()
        self.pending, self.required = [], []

    def require(self, clause: list[int]) -> None:
        """A constraint that always holds (e.g. an address is not zero)."""
        self.required.append(list(clause))
        self.pending.append(list(clause))
        pending = []
        self.cone_clauses(clause, pending.append)  # what was pending, and the cone
        self.pending = pending


class BudgetExceeded(Exception):
    """A function went over its formula-size or SAT-conflict budget (NOTE [budgets])."""
