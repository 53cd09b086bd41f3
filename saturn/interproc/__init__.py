"""Interprocedural order. In: the lowered `Program`. Out: the call graph (networkx) and the
bottom-up order of functions (callees first; the members of a cycle once, in a fixed order)."""
