"""The graph algorithms a run needs, over a successor map {node: [successors]}: a depth-first
walk (postorder, retreating edges), immediate dominators (loops.py), strongly connected
components and the lexicographic topological order (interproc/schedule.py).

NOTE [startup]: a re-check after a one-function edit takes well under a second, and importing
networkx costs a large part of that; these few algorithms are written here instead, so a run
never imports networkx (logic/bdd.py keeps dd from importing it). tests/unit/test_graphs.py checks
them against networkx on random graphs: their answers are unique, so they must be equal.
"""
from __future__ import annotations

import heapq


def depth_first(succ: dict, entry):
    """A depth-first walk from `entry`, successors in sorted order: (the reachable nodes in
    postorder, their reachable predecessors, the retreating edges — those to a node on the
    walk's stack)."""
    post, preds, seen, on_stack, retreating = [], {entry: []}, {entry}, {entry}, set()
    stack = [(entry, iter(sorted(succ.get(entry, ()))))]
    while stack:
        node, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            stack.pop()
            on_stack.discard(node)
            post.append(node)
            continue
        preds.setdefault(nxt, []).append(node)
        if nxt in on_stack:
            retreating.add((node, nxt))
        elif nxt not in seen:
            seen.add(nxt)
            on_stack.add(nxt)
            stack.append((nxt, iter(sorted(succ.get(nxt, ())))))
    return post, preds, retreating


def immediate_dominators(succ: dict, entry, walk=None) -> dict:
    """{node: its immediate dominator} for the nodes reachable from `entry` (which maps to
    itself), by Cooper, Harvey and Kennedy's iteration over reverse postorder. `walk`:
    depth_first(succ, entry), if the caller has it."""
    post, preds, _ = walk or depth_first(succ, entry)
    number = {n: i for i, n in enumerate(post)}
    idom = {entry: entry}
    changed = True
    while changed:
        changed = False
        for node in reversed(post[:-1]):   # the entry comes last in postorder
            new = None
            for p in preds[node]:
                if p in idom:
                    new = p if new is None else _intersect(p, new, idom, number)
            if idom.get(node) != new:
                idom[node], changed = new, True
    return idom


def _intersect(a, b, idom, number):
    while a != b:
        while number[a] < number[b]:
            a = idom[a]
        while number[b] < number[a]:
            b = idom[b]
    return a


def lexicographic_order(nodes, succ: dict, key) -> list:
    """A topological order of the DAG taking, among the nodes whose predecessors are all
    placed, the one with the smallest `key` (networkx's lexicographical_topological_sort)."""
    indegree = {n: 0 for n in nodes}
    for n in nodes:
        for s in succ.get(n, ()):
            indegree[s] += 1
    heap = [(key(n), n) for n, d in indegree.items() if d == 0]
    heapq.heapify(heap)
    out = []
    while heap:
        _, n = heapq.heappop(heap)
        out.append(n)
        for s in succ.get(n, ()):
            indegree[s] -= 1
            if indegree[s] == 0:
                heapq.heappush(heap, (key(s), s))
    if len(out) != len(indegree):
        raise ValueError("the graph has a cycle")
    return out


def strongly_connected_components(nodes, succ: dict) -> list[set]:
    """The strongly connected components (Tarjan's algorithm, without recursion)."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    for root in nodes:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(succ.get(root, ())))]
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(succ.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = set()
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    members.add(m)
                    if m == node:
                        break
                out.append(members)
    return out
