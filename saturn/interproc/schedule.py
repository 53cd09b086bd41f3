"""Bottom-up scheduling: units (one per strongly connected component, members in sorted order)
run when the units they call are done — in this process, or in a pool of worker processes.

NOTE [determinism]: a unit's result depends only on the program and its callees' summaries, which
are the same whatever the number of workers; units of one SCC run in one task, in sorted order.
Local workers are forked after the program is lowered, so tasks carry only keys and summaries;
a Dask cluster gets the program once (scattered to every worker).
"""
from __future__ import annotations

import networkx as nx

from .callgraph import call_graph


def units(program) -> tuple[list[tuple[str, ...]], dict[int, set[int]]]:
    """SCCs as sorted tuples in a deterministic bottom-up order, and each unit's callee units."""
    g = call_graph(program)
    cond = nx.condensation(g)
    rank = {n: min(cond.nodes[n]["members"]) for n in cond.nodes}
    order = list(nx.lexicographical_topological_sort(cond.reverse(copy=True), key=lambda n: rank[n]))
    index = {n: i for i, n in enumerate(order)}
    members = [tuple(sorted(cond.nodes[n]["members"])) for n in order]
    deps = {index[n]: {index[m] for m in cond.successors(n)} for n in order}
    return members, deps


def run(program, runner, jobs: int, on_done, cached=None, pool=None) -> None:
    """Run `runner(keys, callee_summaries) -> [results]` over every unit, callees first.
    `cached(keys, summaries)` may return results without running; `on_done(results)` takes each
    unit's results (in this process) and returns the summaries they contribute. Units go to
    `pool` (pools.LocalPool/DaskPool) when given, else run here."""
    members, deps = units(program)
    summaries: dict[str, dict] = {}
    waiting = {i: set(d) for i, d in deps.items()}
    users: dict[int, set[int]] = {i: set() for i in waiting}
    for i, d in deps.items():
        for j in d:
            users[j].add(i)
    ready = sorted(i for i, d in waiting.items() if not d)

    def inputs(i):
        wanted = {c for k in members[i] for c in program.functions[k].callees}
        return {c: summaries[c] for c in sorted(wanted) if c in summaries}

    def finish(i, results):
        summaries.update(on_done(results))
        for u in sorted(users[i]):
            waiting[u].discard(i)
            if not waiting[u]:
                ready.append(u)
        ready.sort()

    running = {}
    while ready or running:
        while ready:
            i = ready.pop(0)
            got = cached(members[i], inputs(i)) if cached else None
            if got is not None:
                finish(i, got)
            elif pool is None:
                finish(i, runner(members[i], inputs(i)))
            else:
                running[pool.submit(members[i], inputs(i))] = i
        if running:
            for fut in sorted(pool.wait_any(running), key=lambda f: running[f]):
                finish(running.pop(fut), fut.result())
