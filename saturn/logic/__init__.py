"""Propositional layer. In: nothing above it. Out: `Circuit` (Lit = int, hash-consed gates,
Tseitin clauses emitted lazily), `Guards` (BDD path guards bound to Lits), `Session` (one
incremental SAT solver per function, queried under assumptions)."""
