"""Bottom-up scheduling: units (one per strongly connected component, members in sorted order)
run when the units they call are done — in this process, or in a pool of worker processes.

NOTE [determinism]: a unit's result depends only on the program and its callees' summaries, which
are the same whatever the number of workers; the members of one SCC see each other as if run one
after another, in sorted order (NOTE [scc-steps] in _Plan below).
Local workers are forked after the program is lowered, so tasks carry only keys and summaries;
a Dask cluster gets the program once (scattered to every worker).
"""
from __future__ import annotations

import functools
import heapq

from ..ir.graphs import lexicographic_order, strongly_connected_components
from ..ir.loops import analysis_weight


HITS_BEFORE_TASKS = 32


def units(program) -> tuple[list[tuple[str, ...]], dict[int, set[int]]]:
    """SCCs as sorted tuples in a deterministic bottom-up order (callees first; among the
    units ready, the one whose first member's key is smallest), and each unit's callee units."""
    fns = program.functions
    succ = {k: sorted(c for c in fns[k].callees if c in fns) for k in sorted(fns)}
    members = [tuple(sorted(c)) for c in strongly_connected_components(list(succ), succ)]
    unit_of = {k: i for i, ms in enumerate(members) for k in ms}
    callees = {i: {unit_of[c] for k in ms for c in succ[k]} - {i} for i, ms in enumerate(members)}
    callers: dict[int, list[int]] = {i: [] for i in callees}
    for i, cs in callees.items():
        for c in cs:
            callers[c].append(i)
    order = lexicographic_order(list(callees), callers, key=lambda i: members[i][0])
    index = {i: n for n, i in enumerate(order)}
    return [members[i] for i in order], {index[i]: {index[c] for c in callees[i]}
                                         for i in order}


def run(program, runner, jobs: int, on_done, cached=None, pool=None, changed=()) -> None:
    """Run `runner(keys, callee_summaries) -> [results]` over every function, callees first.
    `cached(keys, summaries)` may return results without running; `on_done(results)` takes each
    function's results (in this process) and returns the summaries they contribute. Tasks go to
    `pool` (pools.LocalPool/DaskPool) when given, else run here. `changed`: the functions
    likely to miss the cache (NOTE [changed-first])."""
    plan = _Plan(program, on_done, cached, changed)
    running = {}
    while True:
        for key, job in plan.take():
            if pool is None:
                plan.record(key, runner(*job))
            else:
                running[pool.submit(*job, priority=plan.priority[key])] = key
        if not running:
            if plan.idle():
                return
            continue   # (run here: what it recorded may have made more ready)
        for fut in sorted(pool.wait_any(running), key=lambda f: running[f]):
            plan.record(running.pop(fut), fut.result())


class _Plan:
    """Which functions may run: a unit's members once the units it calls are done.

    NOTE [scc-steps]: the members of a cycle run in sorted order as far as what they see goes:
    each is given the summaries of the members before it that it calls (and no others, whatever
    has finished), as one task running them all would give — so each member is looked up in the
    cache on its own (an edit of one member of a large cycle runs that member again, not the
    cycle), and a member runs as soon as the earlier members it calls are done, not after the
    whole cycle. The results are those of running them one after another.

    NOTE [changed-first]: a re-check looks most functions up and runs a few, and the few wait
    for their callees' lookups. So the members free to be looked up are taken from a heap: the
    `changed` functions (those lowered in this run, not read from a cache) and their callees,
    directly or not, before the others, each group by key. An edited function thus starts in
    a worker after its callees' lookups, not after half the program's, and the lookups of the
    rest go on beside it. The order is only the order of lookups: results do not depend on it
    (NOTE [determinism])."""

    def __init__(self, program, on_done, cached, changed=()):
        self.program, self.on_done, self.cached = program, on_done, cached
        self.members, deps = units(program)
        self.summaries: dict[str, dict] = {}
        self.waiting = {i: set(d) for i, d in deps.items()}
        self.users: dict[int, set[int]] = {i: set() for i in self.waiting}
        for i, d in deps.items():
            for j in d:
                self.users[j].add(i)
        self.ready = sorted(i for i, d in self.waiting.items() if not d)
        self.place = {k: (i, p) for i, ms in enumerate(self.members) for p, k in enumerate(ms)}
        self.left = {i: len(ms) for i, ms in enumerate(self.members)}
        self.needs: dict[str, set[str]] = {}
        self.first = _callees_of(program, changed)
        self.free: list[tuple] = []    # heap of (rank, key): members whose earlier callees
        #                                are done

    @functools.cached_property
    def priority(self) -> dict[str, int]:
        """Only for a pool (NOTE [critical-path]): run here, the order does not matter."""
        return _priorities(self.program, self.members, self.users)

    def idle(self) -> bool:
        return not self.ready and not self.free

    def take(self):
        """Yield every member that may run now, as (key, task); cache hits are recorded on the
        way. The tasks come together (a pool starts the most urgent first: NOTE
        [critical-path]) but when HITS_BEFORE_TASKS hits follow the first of them, or when the
        changed functions' lookups are done (NOTE [changed-first]): a re-check after an edit
        starts the edited function while it looks the rest of the program up."""
        out, hits = [], 0
        while True:
            self._start_ready()   # (a unit run meanwhile may have made some ready)
            if not self.free:
                break
            rank, key = heapq.heappop(self.free)
            sums = self._visible(key)
            got = self.cached((key,), sums) if self.cached else None
            if got is None:
                hits = hits if out else 0
                out.append((key, ((key,), sums)))
            else:
                self.record(key, got)
                hits += 1
            self._start_ready()
            first_done = rank == 0 and (not self.free or self.free[0][0] > 0)
            if out and (hits >= HITS_BEFORE_TASKS or first_done):
                yield from out
                out, hits = [], 0
        yield from out

    def _start_ready(self) -> None:
        for i in self.ready:
            self._start(i)
        self.ready = []

    def _free(self, key: str) -> None:
        heapq.heappush(self.free, (0 if key in self.first else 1, key))

    def _start(self, i: int) -> None:
        fns = self.program.functions
        for p, key in enumerate(self.members[i]):
            self.needs[key] = set(self.members[i][:p]) & fns[key].callees
            if not self.needs[key]:
                self._free(key)

    def _visible(self, key: str) -> dict:
        i, p = self.place[key]
        out = {}
        for c in sorted(self.program.functions[key].callees):
            unit, at = self.place.get(c, (None, 0))
            if c in self.summaries and (unit != i or at < p):   # not a later member's
                out[c] = self.summaries[c]
        return out

    def record(self, key: str, results) -> None:
        self.summaries.update(self.on_done(results))
        i, _ = self.place[key]
        for later in self.members[i]:
            if key in self.needs.get(later, ()):
                self.needs[later].discard(key)
                if not self.needs[later]:
                    self._free(later)
        self.left[i] -= 1
        if self.left[i] == 0:
            for u in sorted(self.users[i]):
                self.waiting[u].discard(i)
                if not self.waiting[u]:
                    self.ready.append(u)
            self.ready.sort()


def _callees_of(program, keys) -> set[str]:
    """`keys` and every function they call, directly or not."""
    fns = program.functions
    seen = {k for k in keys if k in fns}
    todo = list(seen)
    while todo:
        for c in fns[todo.pop()].callees:
            if c in fns and c not in seen:
                seen.add(c)
                todo.append(c)
    return seen


def _priorities(program, members, users) -> dict[str, int]:
    """NOTE [critical-path]: ready functions wait for a worker by the estimated cost of the
    longest chain of callers above them (their own included), longest first — the longest
    chain is the run's critical path, and a slow function high on it must not wait behind
    cheaper ones. The estimate (ir/loops.py's analysis_weight) only orders the queue: the
    results do not depend on it (NOTE [determinism])."""
    fns = program.functions
    rank: dict[int, int] = {}
    for i in reversed(range(len(members))):   # callers come after their callees
        own = sum(analysis_weight(fns[k]) for k in members[i])
        rank[i] = own + max((rank[u] for u in users[i]), default=0)
    return {k: rank[i] for i, ms in enumerate(members) for k in ms}
