"""The IR. In: pycparser ASTs (never `saturn.logic`). Out: `Program` with one `Function` per
definition — a CFG of `Block`s holding `Assign`/`Call`/`Note` statements over side-effect-free
expressions, one exit block, `rv` for the result — and `loops.unroll` (the DAG of instances)."""
