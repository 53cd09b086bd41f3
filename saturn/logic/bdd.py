"""Path guards as BDDs over named branch conditions (§2.3.3), each name bound to a Lit.

Joins happen in the BDD (so `c ∨ ¬c` is true); a guard becomes a Lit only when a formula needs
it, by a per-node encoding memoised on the node (`BDD.to_expr` is exponential on shared graphs).
"""
from __future__ import annotations

import sys

# dd imports networkx for graph exports Saturn does not use: it is hidden while dd is imported,
# so a run never imports it (NOTE [startup] in ir/graphs.py).
_hidden = "networkx" not in sys.modules
if _hidden:
    sys.modules["networkx"] = None   # `import networkx` raises ImportError; dd goes without
try:  # CUDD is ~20x faster; reordering stays off (on, it cost ~40x here)
    from dd import cudd as _dd
except ImportError:  # pragma: no cover - wheels without CUDD
    from dd import autoref as _dd
finally:
    if _hidden:
        del sys.modules["networkx"]

from .circuit import Circuit, FALSE, TRUE


# NOTE [guard-compaction]: with reordering off, the BDD of a path guard can grow exponentially
# along long chains of correlated branches. A merged guard over COMPACT_NODES nodes is replaced by one fresh variable
# bound to its literal: still exact (the SAT formula says what the variable means), only the
# BDD's own simplification across that point is lost.
COMPACT_NODES = 1500


# CUDD's defaults (a 2^18-slot cache, a 1 GiB memory estimate) took ~19 ms to set up a manager,
# a third of the time of SQLite's 2,000 smallest functions; the cache still grows on demand.
MANAGER = {"memory_estimate": 64 << 20, "initial_cache_size": 1 << 14} \
    if _dd.__name__.endswith("cudd") else {}


class Guards:
    def __init__(self, circuit: Circuit):
        self.circuit = circuit
        self.bdd = _dd.BDD(**MANAGER)
        try:
            self.bdd.configure(reordering=False)
        except Exception:  # autoref has no such option on some versions
            pass
        self.true, self.false = self.bdd.true, self.bdd.false
        self._var_of_lit: dict[int, object] = {}
        self._lit_of_var: dict[str, int] = {}
        self._lit_memo: dict[object, int] = {}

    def of_lit(self, lit: int):
        """The guard that holds exactly when `lit` does (one BDD variable per literal)."""
        if lit == TRUE:
            return self.true
        if lit == FALSE:
            return self.false
        if lit < 0:
            return ~self.of_lit(-lit)
        node = self._var_of_lit.get(lit)
        if node is None:
            name = f"c{lit}"
            self.bdd.declare(name)
            self._lit_of_var[name] = lit
            node = self.bdd.var(name)
            self._var_of_lit[lit] = node
        return node

    def compact(self, guard):
        """`guard`, or one variable standing for it when its BDD is big (NOTE [guard-compaction])."""
        if guard.dag_size <= COMPACT_NODES:
            return guard
        return self.of_lit(self.to_lit(guard))

    def to_lit(self, guard) -> int:
        if guard == self.true:
            return TRUE
        if guard == self.false:
            return FALSE
        memo, bdd, circ = self._lit_memo, self.bdd, self.circuit
        stack = [guard]
        while stack:
            u = stack[-1]
            if u in memo:
                stack.pop()
                continue
            if u == self.true or u == self.false:
                memo[u] = TRUE if u == self.true else FALSE
                stack.pop()
                continue
            level, lo, hi = bdd.succ(u)
            if u.negated:
                lo, hi = ~lo, ~hi
            missing = [x for x in (lo, hi) if x not in memo]
            if missing:
                stack.extend(missing)
                continue
            var_lit = self._lit_of_var[bdd.var_at_level(level)]
            memo[u] = circ.ITE(var_lit, memo[hi], memo[lo])
            stack.pop()
        return memo[guard]

    def select_lits(self, guards) -> list[int]:
        """Literals that tell mutually exclusive guards apart, for a multiplexer
        ITE(l0, v0, ITE(l1, v1, ... v_last)): l_i only has to be right where no earlier guard
        holds, so it is guard i restricted to that care set (CUDD's generalised cofactor),
        which is usually one branch variable instead of the whole path condition."""
        lits = []
        care = self.false
        for g in reversed(guards):
            care = self.compact(care | g)   # still a correct care set (NOTE [guard-compaction])
            lits.append(self.to_lit(_dd.restrict(g, care)) if hasattr(_dd, "restrict")
                        else self.to_lit(g))
        lits.reverse()
        return lits

    def dispose(self) -> None:
        """Drop every node reference so CUDD's manager can shut down cleanly."""
        self._var_of_lit.clear()
        self._lit_memo.clear()
        self.true = self.false = None

    def lit_of_var(self, name: str) -> int:
        return self._lit_of_var[name]

    def support(self, guard) -> set[str]:
        return set(self.bdd.support(guard))
