"""Symbolic evaluation (§2.2–2.3). In: the IR, `saturn.memory`, `saturn.bitvec`, `saturn.logic`.
Out: `engine.analyze_function` — runs a function's unrolled CFG under BDD guards, with calls handed
to checkers' specs and summaries (or the default), and gives checkers a `FunctionContext`."""
