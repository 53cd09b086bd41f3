"""Ownership, shared by the checkers of things a function must release or hand on (the leak
checker's memory, the resource checker's files and descriptors): acquisition, escape routes,
summaries across calls and leak reports. Not a checker itself (it defines no `CHECKER`)."""
