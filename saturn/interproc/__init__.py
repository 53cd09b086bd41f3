"""Interprocedural order. In: the lowered `Program`. Out: the bottom-up order of functions
(callees first; the members of a cycle once, in a fixed order) and the pools that run them."""
