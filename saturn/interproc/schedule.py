"""Bottom-up scheduling: units (one per strongly connected component, members in sorted order)
run when the units they call are done — in this process, or in a pool of worker processes.

NOTE [determinism]: a unit's result depends only on the program and its callees' summaries, which
are the same whatever the number of workers; the members of one SCC run one after another, in
sorted order (NOTE [scc-steps] below).
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
    order = list(nx.lexicographical_topological_sort(cond.reverse(copy=False),
                                                     key=lambda n: rank[n]))
    index = {n: i for i, n in enumerate(order)}
    members = [tuple(sorted(cond.nodes[n]["members"])) for n in order]
    deps = {index[n]: {index[m] for m in cond.successors(n)} for n in order}
    return members, deps


def run(program, runner, jobs: int, on_done, cached=None, pool=None) -> None:
    """Run `runner(keys, callee_summaries) -> [results]` over every function, callees first.
    `cached(keys, summaries)` may return results without running; `on_done(results)` takes each
    function's results (in this process) and returns the summaries they contribute. Tasks go to
    `pool` (pools.LocalPool/DaskPool) when given, else run here.

    NOTE [scc-steps]: the members of a cycle run one task at a time, in sorted order, each
    seeing the summaries of the cycle's members before it (as one task running them all would):
    so each member is looked up in the cache on its own, and editing one function of SQLite's
    79-function cycle no longer runs all 79 again."""
    members, deps = units(program)
    summaries: dict[str, dict] = {}
    waiting = {i: set(d) for i, d in deps.items()}
    users: dict[int, set[int]] = {i: set() for i in waiting}
    for i, d in deps.items():
        for j in d:
            users[j].add(i)
    ready = sorted(i for i, d in waiting.items() if not d)
    visible: dict[int, dict] = {}   # unit -> summaries its next member may use
    cursor: dict[int, int] = {}

    def task(i):
        key = members[i][cursor[i]]
        return (key,), {c: visible[i][c] for c in sorted(program.functions[key].callees)
                        if c in visible[i]}

    def finish(i):
        for u in sorted(users[i]):
            waiting[u].discard(i)
            if not waiting[u]:
                ready.append(u)
        ready.sort()

    def record(i, results):
        got = on_done(results)
        visible[i].update(got)
        summaries.update(got)
        cursor[i] += 1

    def advance(i):
        """Members found in the cache are taken; the first one that is not is returned."""
        while cursor[i] < len(members[i]):
            keys, sums = task(i)
            got = cached(keys, sums) if cached else None
            if got is None:
                return keys, sums
            record(i, got)
        finish(i)
        return None

    running = {}
    while ready or running:
        while ready:
            i = ready.pop(0)
            wanted = {c for k in members[i] for c in program.functions[k].callees}
            visible[i], cursor[i] = {c: summaries[c] for c in wanted if c in summaries}, 0
            while (job := advance(i)) is not None:
                if pool is not None:
                    running[pool.submit(*job)] = i
                    break
                record(i, runner(*job))
        if running:
            for fut in sorted(pool.wait_any(running), key=lambda f: running[f]):
                i = running.pop(fut)
                record(i, fut.result())
                job = advance(i)
                if job is not None:
                    running[pool.submit(*job)] = i
