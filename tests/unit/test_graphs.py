"""saturn/ir/graphs.py against networkx on random graphs (the answers are unique, so they must
be equal)."""
import random

import networkx as nx
import pytest

from saturn.ir.graphs import immediate_dominators, lexicographic_order


def _random_graph(rng, n, edges):
    succ = {i: [] for i in range(n)}
    for _ in range(edges):
        u, v = rng.randrange(n), rng.randrange(n)
        if v not in succ[u]:
            succ[u].append(v)
    return succ


def _nx(succ):
    g = nx.DiGraph()
    g.add_nodes_from(succ)
    g.add_edges_from((u, v) for u, ss in succ.items() for v in ss)
    return g


@pytest.mark.parametrize("seed", range(40))
def test_immediate_dominators_are_networkx_s(seed):
    rng = random.Random(seed)
    succ = _random_graph(rng, rng.randrange(1, 30), rng.randrange(0, 60))
    entry = rng.randrange(len(succ))
    mine = immediate_dominators(succ, entry)
    theirs = nx.immediate_dominators(_nx(succ), entry)   # the entry itself: version-dependent
    assert mine.pop(entry) == entry
    assert mine == {n: d for n, d in theirs.items() if n != entry}


@pytest.mark.parametrize("seed", range(40))
def test_lexicographic_order_is_networkx_s(seed):
    rng = random.Random(seed)
    n = rng.randrange(1, 30)
    rank = list(range(n))
    rng.shuffle(rank)
    succ = {i: [] for i in range(n)}
    for _ in range(rng.randrange(0, 60)):
        u, v = sorted(rng.sample(range(n), 2)) if n > 1 else (0, 0)
        if u != v and v not in succ[u]:
            succ[u].append(v)   # u < v: acyclic
    key = rank.__getitem__
    expected = list(nx.lexicographical_topological_sort(_nx(succ), key=key))
    assert lexicographic_order(succ, succ, key) == expected


def test_a_cycle_is_refused():
    with pytest.raises(ValueError):
        lexicographic_order({0: [1], 1: [0]}, {0: [1], 1: [0]}, lambda n: n)
