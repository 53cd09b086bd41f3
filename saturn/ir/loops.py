"""Loop unrolling (§2.2.2, §2.6.6): the CFG becomes a DAG of block instances.

NOTE [unrolling]: a block instance is (block, context), the context giving the iteration of every
loop around the block. A back edge from iteration i goes to iteration i+1; from iteration k-1 it
goes to the *havoc* iteration "H", which the engine enables only in its second pass, for loops whose
exit was unreachable in k iterations: there the objects the loop changed get unknown values and one
more iteration runs; the back edge out of "H" is cut. Loops are natural loops found from back edges
(targets that dominate their source); other retreating edges (irreducible flow) are cut.

NOTE [lazy-unrolling]: instances are made only when a live state reaches them (loops nested
deep have far more instances than paths reach: their number multiplies with each level). The
engine takes them from a heap by `Unroller.sort_key`, which increases along every
edge, so a block runs after all its predecessors: the key lists (rank of header, iteration) for
each enclosing loop, outermost first, then the block's rank, ranks being a topological order of
the CFG without retreating edges. A forward edge raises the last rank; entering a loop adds a
level under the header's rank, which exceeds the entering block's; leaving loops drops levels
at a header whose rank is below the exit target's; a back edge raises the iteration.
"""
from __future__ import annotations

from . import nodes as N
from .nodes import successors
from .graphs import depth_first, immediate_dominators, lexicographic_order

HAVOC = "H"


def analysis_weight(fn: N.Function) -> int:
    """NOTE [critical-path] in interproc/schedule.py: a function's analysis cost, estimated as
    its statements times one plus its loops (unrolled, each runs its body again): among the
    estimates tried on five corpora's measured times, the one never worse than none. Kept in
    `fn.weight`, so a function whose body is not loaded has it."""
    if not fn.weight:
        size = sum(len(b.stmts) + 1 for b in fn.blocks.values())
        fn.weight = size * (1 + len(natural_loops(fn)[1]))
    return fn.weight


def natural_loops(fn: N.Function):
    """(successor map, {header: body}, back edges and cut edges) of `fn`'s CFG."""
    succ = {b.id: list(dict.fromkeys(successors(b))) for b in fn.blocks.values()}
    preds: dict[int, list[int]] = {}
    for u, ss in succ.items():
        for v in ss:
            preds.setdefault(v, []).append(u)
    walk = depth_first(succ, fn.entry)
    idom = immediate_dominators(succ, fn.entry, walk)

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
    retreating = walk[2]
    for u, v in ((u, v) for u, ss in succ.items() for v in ss):
        if dominates(v, u):
            back.add((u, v))
            body = loops.setdefault(v, {v})
            stack = [u]
            while stack:
                x = stack.pop()
                if x not in body:
                    body.add(x)
                    stack.extend(preds.get(x, ()))
    irreducible = retreating - back
    return succ, loops, back | {(u, v, "cut") for u, v in irreducible}


class Unroller:
    """The DAG of block instances, built lazily (NOTE [lazy-unrolling])."""

    def __init__(self, fn: N.Function, k: int):
        _, self.loops, self.back = natural_loops(fn)
        # Loops are ordered outermost first: a larger body encloses a smaller one.
        self.order_key = {h: (-len(body), h) for h, body in self.loops.items()}
        self.fn, self.k = fn, k
        self.rank = _forward_rank(fn, self.back)
        self.start = (fn.entry, ())

    def sort_key(self, key: tuple) -> tuple:
        """Increases along every edge of the DAG: see NOTE [lazy-unrolling]."""
        bid, ctx = key
        out: list[int] = []
        for h, i in ctx:
            out += (self.rank[h], self.k + 1 if i == HAVOC else i)
        out.append(self.rank[bid])
        return tuple(out)

    def successors(self, key: tuple) -> list[tuple[object, tuple]]:
        """(edge label, successor instance) for every edge out of instance `key`."""
        bid, ctx = key
        out = []
        for label, succ in _labelled_successors(self.fn.blocks[bid]):
            nxt = _next_context(bid, succ, ctx, self.loops, self.back, self.order_key, self.k)
            if nxt is not None:
                out.append((label, (succ, nxt)))
        return out


def havoc_header(key: tuple) -> int:
    """The header whose havoc iteration instance `key` starts, or -1."""
    bid, ctx = key
    return bid if ctx and ctx[-1] == (bid, HAVOC) else -1


def _forward_rank(fn: N.Function, back) -> dict[int, int]:
    """A topological order of the CFG without its retreating edges (all of them are in
    `back`, unrolled or cut). Among the ready blocks, the one a depth-first walk (false
    branch first) meets first: the order of the eager unrolling this replaced, so most
    summaries came out the same (which paths materialise an object first still matters)."""
    fwd: dict[int, dict[int, None]] = {b: {} for b in fn.blocks}
    found: dict[int, int] = {}
    todo = [fn.entry]
    while todo:
        u = todo.pop()
        if u in found:
            continue
        found[u] = len(found)
        for _, v in _labelled_successors(fn.blocks[u]):
            if (u, v) not in back and (u, v, "cut") not in back:
                fwd[u][v] = None
                todo.append(v)
    order = lexicographic_order(fwd, fwd, lambda b: (found.get(b, len(found)), b))
    return {b: i for i, b in enumerate(order)}


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
