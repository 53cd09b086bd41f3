"""Loop unrolling (§2.2.2, §2.6.6): the CFG becomes a DAG of block instances.

NOTE [unrolling]: a block instance is (block, context), the context giving the iteration of every
loop around the block. A back edge from iteration i goes to iteration i+1; from iteration k-1 it
goes to the *havoc* iteration "H", which the engine enables only in its second pass, for loops whose
exit was unreachable in k iterations: there the objects the loop changed get unknown values and one
more iteration runs; the back edge out of "H" is cut. Loops are natural loops found from back edges
(targets that dominate their source); other retreating edges (irreducible flow) are cut.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from . import nodes as N
from .builder import successors

HAVOC = "H"


@dataclass
class Instance:
    id: int
    block: N.Block
    ctx: tuple            # ((header, iteration), ...) outermost first
    preds: list = field(default_factory=list)   # (instance id, edge label) ; label: True/False/None
    havoc_header: int = -1                      # header whose havoc iteration starts here


@dataclass
class Unrolled:
    order: list[Instance]
    exit_ids: list[int]
    loops: dict[int, set[int]]                  # header -> body blocks


def natural_loops(fn: N.Function):
    g = nx.DiGraph()
    g.add_nodes_from(fn.blocks)
    for b in fn.blocks.values():
        for s in successors(b):
            g.add_edge(b.id, s)
    idom = nx.immediate_dominators(g, fn.entry)

    def dominates(a, b):
        while True:
            if a == b:
                return True
            nb = idom.get(b, b)
            if nb == b:
                return False
            b = nb

    loops: dict[int, set[int]] = {}
    back: set[tuple[int, int]] = set()
    retreating = _retreating_edges(g, fn.entry)
    for u, v in g.edges:
        if dominates(v, u):
            back.add((u, v))
            body = loops.setdefault(v, {v})
            stack = [u]
            while stack:
                x = stack.pop()
                if x not in body:
                    body.add(x)
                    stack.extend(g.predecessors(x))
    irreducible = retreating - back
    return g, loops, back | {(u, v, "cut") for u, v in irreducible}


def _retreating_edges(g, entry) -> set[tuple[int, int]]:
    """Edges to a node on the DFS stack (iterative DFS, successors in sorted order)."""
    out, on_stack, seen = set(), set(), set()
    stack = [(entry, iter(sorted(g.successors(entry))))]
    on_stack.add(entry)
    seen.add(entry)
    while stack:
        node, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            stack.pop()
            on_stack.discard(node)
            continue
        if nxt in on_stack:
            out.add((node, nxt))
        elif nxt not in seen:
            seen.add(nxt)
            on_stack.add(nxt)
            stack.append((nxt, iter(sorted(g.successors(nxt)))))
    return out


def unroll(fn: N.Function, k: int) -> Unrolled:
    g, loops, back = natural_loops(fn)
    # Loops are ordered outermost first: a larger body encloses a smaller one.
    order_key = {h: (-len(body), h) for h, body in loops.items()}
    instances: dict[tuple, Instance] = {}
    edges: list[tuple[tuple, tuple, object]] = []
    start = (fn.entry, ())
    todo = [start]
    while todo:
        key = todo.pop()
        if key in instances:
            continue
        bid, ctx = key
        instances[key] = Instance(len(instances), fn.blocks[bid], ctx)
        for label, succ in _labelled_successors(fn.blocks[bid]):
            nxt = _next_context(bid, succ, ctx, loops, back, order_key, k)
            if nxt is None:
                continue
            edges.append((key, (succ, nxt), label))
            todo.append((succ, nxt))
    dag = nx.DiGraph()
    dag.add_nodes_from(instances)
    for a, b, label in edges:
        dag.add_edge(a, b)
    rank = {key: inst.id for key, inst in instances.items()}
    topo = list(nx.lexicographical_topological_sort(dag, key=lambda key: rank[key]))
    renum = {key: i for i, key in enumerate(topo)}
    ordered = []
    for key in topo:
        inst = instances[key]
        inst.id = renum[key]
        ordered.append(inst)
    for a, b, label in edges:
        instances[b].preds.append((renum[a], label))
        if _is_havoc_entry(a, b):
            instances[b].havoc_header = b[0]
    exits = [inst.id for inst in ordered if inst.block.id == fn.exit]
    return Unrolled(ordered, exits, loops)


def _is_havoc_entry(a, b) -> bool:
    ctx = dict(b[1])
    return ctx.get(b[0]) == HAVOC and dict(a[1]).get(b[0]) != HAVOC


def _labelled_successors(block: N.Block):
    term = block.term
    if isinstance(term, N.Goto):
        return [(None, term.target)]
    if isinstance(term, N.Branch):
        if term.true == term.false:
            return [(None, term.true)]
        return [(True, term.true), (False, term.false)]
    return []


def _next_context(u, v, ctx, loops, back, order_key, k):
    """The context of v when reached from u in context ctx, or None for a cut edge."""
    if (u, v, "cut") in back:
        return None  # a retreating edge of irreducible flow: not unrolled
    kept = [(h, i) for h, i in ctx if v in loops[h]]
    if (u, v) in back:
        if not kept or kept[-1][0] != v:
            return None  # a retreating edge we do not unroll
        h, i = kept[-1]
        if i == HAVOC:
            return None
        nxt = i + 1 if i + 1 <= k else HAVOC  # k bodies, then the exit test once more
        return tuple(kept[:-1]) + ((h, nxt),)
    if v in loops and all(h != v for h, _ in kept):
        kept.append((v, 0))
        kept.sort(key=lambda hi: order_key[hi[0]])
    return tuple(kept)
