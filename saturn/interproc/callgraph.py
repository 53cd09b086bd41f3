"""The call graph over all translation units, and the bottom-up analysis order."""
from __future__ import annotations

import networkx as nx


def call_graph(program) -> nx.DiGraph:
    g = nx.DiGraph()
    for key in sorted(program.functions):
        g.add_node(key)
    for key in sorted(program.functions):
        for callee in sorted(program.functions[key].callees):
            if callee in program.functions:
                g.add_edge(key, callee)
    return g


def bottom_up(program) -> list[str]:
    """Callees before callers; a strongly connected component's members in sorted order."""
    g = call_graph(program)
    cond = nx.condensation(g)
    order: list[str] = []
    # Reverse topological order of the condensation = callees first; ties broken by name.
    rank = {n: min(cond.nodes[n]["members"]) for n in cond.nodes}
    topo = list(nx.lexicographical_topological_sort(cond.reverse(copy=True), key=lambda n: rank[n]))
    for comp in topo:
        order.extend(sorted(cond.nodes[comp]["members"]))
    return order
