"""The call graph over all translation units (schedule.py orders it bottom-up)."""
from __future__ import annotations


def call_graph(program):
    """A networkx DiGraph (imported here: NOTE [startup] in logic/bdd.py)."""
    import networkx as nx
    g = nx.DiGraph()
    for key in sorted(program.functions):
        g.add_node(key)
    for key in sorted(program.functions):
        for callee in sorted(program.functions[key].callees):
            if callee in program.functions:
                g.add_edge(key, callee)
    return g
