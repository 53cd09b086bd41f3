"""Bottom-up scheduling: units (one per strongly connected component, members in sorted order)
run when the units they call are done — in this process, or in a pool of worker processes.

NOTE [determinism]: a unit's result depends only on the program and its callees' summaries, which
are the same whatever the number of workers; the members of one SCC run one after another, in
sorted order (NOTE [scc-steps] in _Plan below).
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
    `pool` (pools.LocalPool/DaskPool) when given, else run here."""
    plan = _Plan(program, on_done, cached)
    running = {}
    while plan.ready or running:
        while plan.ready:
            i = plan.start(plan.ready.pop(0))
            while (job := plan.advance(i)) is not None:
                if pool is not None:
                    running[pool.submit(*job)] = i
                    break
                plan.record(i, runner(*job))
        if running:
            for fut in sorted(pool.wait_any(running), key=lambda f: running[f]):
                i = running.pop(fut)
                plan.record(i, fut.result())
                job = plan.advance(i)
                if job is not None:
                    running[pool.submit(*job)] = i


class _Plan:
    """Which units are ready and how far each has got.

    NOTE [scc-steps]: the members of a cycle run one task at a time, in sorted order, each
    seeing the summaries of the cycle's members before it (as one task running them all would):
    so each member is looked up in the cache on its own, and editing one function of SQLite's
    79-function cycle no longer runs all 79 again."""

    def __init__(self, program, on_done, cached):
        self.program, self.on_done, self.cached = program, on_done, cached
        self.members, deps = units(program)
        self.summaries: dict[str, dict] = {}
        self.waiting = {i: set(d) for i, d in deps.items()}
        self.users: dict[int, set[int]] = {i: set() for i in self.waiting}
        for i, d in deps.items():
            for j in d:
                self.users[j].add(i)
        self.ready = sorted(i for i, d in self.waiting.items() if not d)
        self.visible: dict[int, dict] = {}   # unit -> summaries its next member may use
        self.cursor: dict[int, int] = {}

    def start(self, i: int) -> int:
        fns = self.program.functions
        wanted = {c for k in self.members[i] for c in fns[k].callees}
        self.visible[i] = {c: self.summaries[c] for c in wanted if c in self.summaries}
        self.cursor[i] = 0
        return i

    def advance(self, i: int):
        """Members found in the cache are taken; the first one that is not is returned as a
        task (keys, summaries); None once the unit is done."""
        while self.cursor[i] < len(self.members[i]):
            key = self.members[i][self.cursor[i]]
            sums = {c: self.visible[i][c] for c in sorted(self.program.functions[key].callees)
                    if c in self.visible[i]}
            got = self.cached((key,), sums) if self.cached else None
            if got is None:
                return (key,), sums
            self.record(i, got)
        for u in sorted(self.users[i]):
            self.waiting[u].discard(i)
            if not self.waiting[u]:
                self.ready.append(u)
        self.ready.sort()
        return None

    def record(self, i: int, results) -> None:
        got = self.on_done(results)
        self.visible[i].update(got)
        self.summaries.update(got)
        self.cursor[i] += 1
