"""Bottom-up scheduling: a component (the functions of one strongly connected component of the
call graph, callees first: `callees_first`) runs when the components it calls are done; `run` gives each
function to a pool of workers, or takes its results from the cache, and yields them back.

NOTE [determinism]: a function's result depends only on the program and its callees' summaries,
which are the same whatever the number of workers; the members of one component see each other
as if run one after another, in a fixed order (NOTE [scc-steps] in Schedule below).
Local workers are forked after the program is lowered, so tasks carry only keys and summaries;
a Dask cluster gets the program once (scattered to every worker).
"""
from __future__ import annotations

import functools
import heapq
from typing import NamedTuple

from ..ir.graphs import lexicographic_order, strongly_connected_components
from ..ir.loops import analysis_weight
from ..process.workers import Lost


HITS_BEFORE_TASKS = 32


class Task(NamedTuple):
    """One function to run, with the callee summaries it sees; `changed`: of the group looked
    up first (NOTE [changed-first])."""
    key: str
    summaries: dict
    changed: bool


def components(program) -> tuple[list[tuple[str, ...]], dict[int, set[int]]]:
    """Components as tuples in the order their members run (callees_first), in a
    deterministic bottom-up order (callees first; among those ready, the one whose smallest
    member key is smallest), and each one's callee components."""
    fns = program.functions
    succ = {k: sorted(c for c in fns[k].callees if c in fns) for k in sorted(fns)}
    members = [tuple(c) if len(c) == 1 else
               callees_first(c, succ, lambda k: analysis_weight(fns[k]))
               for c in strongly_connected_components(list(succ), succ)]
    comp_of = {k: i for i, ms in enumerate(members) for k in ms}
    callees = {i: {comp_of[c] for k in ms for c in succ[k]} - {i} for i, ms in enumerate(members)}
    callers: dict[int, list[int]] = {i: [] for i in callees}
    for i, cs in callees.items():
        for c in cs:
            callers[c].append(i)
    order = lexicographic_order(list(callees), callers, key=lambda i: min(members[i]))
    index = {i: n for n, i in enumerate(order)}
    return [members[i] for i in order], {index[i]: {index[c] for c in callees[i]}
                                         for i in order}


def callees_first(component, succ, weight) -> tuple[str, ...]:
    """A cycle's members in the order they run (NOTE [scc-steps]): next the member with the
    fewest members left to run among its callees, then the one whose callees left are the
    heaviest (a call left unseen is best one into an error handler or a dispatcher, not into
    the small allocator a wrapper wraps), then by key. Sorted order ran nano's
    `mallocstrncpy` before `nmalloc`, the allocator it wraps, in one cycle through `die`,
    which saves the file, which copies its name: it saw an unknown callee and was no
    allocator, and none of its callers' leaks was seen."""
    inside = set(component)
    waits = {k: {c for c in succ[k] if c in inside and c != k} for k in component}
    callers: dict[str, list[str]] = {k: [] for k in component}
    for k in sorted(component):
        for c in sorted(waits[k]):
            callers[c].append(k)

    def rank(k):
        return (len(waits[k]), -min((weight(c) for c in waits[k]), default=0), k)

    heap = [rank(k) for k in component]
    heapq.heapify(heap)
    done: list[str] = []
    while heap:
        entry = heapq.heappop(heap)
        k = entry[-1]
        if k in waits and entry == rank(k):
            done.append(k)
            del waits[k]
            for caller in callers[k]:
                if caller in waits:
                    waits[caller].discard(k)
                    heapq.heappush(heap, rank(caller))
    return tuple(done)


def run(program, pool, cache=None, changed=()):
    """Every function of `program`, callees first: yields (keys, results) as each task is
    done, `results` a list of function results (`.key`, `.ok`, `.summaries`) or a `Lost`
    whose functions give no summaries. `cache.lookup(keys, summaries)` may give results
    without running them; the rest go to `pool` (pools.py), the most urgent first. `changed`:
    the functions likely to miss the cache (NOTE [changed-first])."""
    sched, running = Schedule(program, changed), {}
    while True:
        yield from _look_up(sched, pool, cache, running)
        if not running:
            if sched.finished():
                return
            continue
        for fut in sorted(pool.wait_any(running), key=lambda f: running[f]):
            key = running.pop(fut)
            yield _done(sched, (key,), fut.result())


def _look_up(sched, pool, cache, running):
    """Take every function free to run: a cache hit is done at once, the others go to the
    pool together, but when HITS_BEFORE_TASKS hits follow the first of them or when the
    changed functions' lookups are done (NOTE [changed-first]): a re-check after an edit
    starts the edited function while it looks the rest of the program up."""
    misses, hits = [], 0
    while (task := sched.next()) is not None:
        got = cache.lookup((task.key,), task.summaries) if cache is not None else None
        if got is None:
            hits = hits if misses else 0
            misses.append(task)
        else:
            yield _done(sched, (task.key,), got)
            hits += 1
        first_done = task.changed and not sched.changed_left()
        if misses and (hits >= HITS_BEFORE_TASKS or first_done):
            _submit(sched, pool, misses, running)
            misses, hits = [], 0
    _submit(sched, pool, misses, running)


def _submit(sched, pool, tasks, running) -> None:
    for t in tasks:
        running[pool.submit((t.key,), t.summaries, priority=sched.priority[t.key])] = t.key


def _done(sched, keys, results):
    sums = {} if isinstance(results, Lost) else {r.key: r.summaries for r in results if r.ok}
    for key in keys:
        sched.done(key, sums)
    return keys, results


class Schedule:
    """Hands out the functions that may run (a component's members, once the components it
    calls are done) and takes their summaries back.

    NOTE [scc-steps]: the members of a cycle run in a fixed order (callees_first: each after the
    members it calls, but for the calls cut to break the cycle) as far as what they see goes:
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

    def __init__(self, program, changed=()):
        self.program = program
        self.members, deps = components(program)
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
        """NOTE [critical-path]; made when the first task goes to the pool."""
        return _priorities(self.program, self.members, self.users)

    def finished(self) -> bool:
        """Nothing free to run now, nor waiting to be made free (with no task in flight: done)."""
        self._start_ready()
        return not self.free

    def next(self) -> Task | None:
        """The next function free to run with the summaries it sees, or None."""
        self._start_ready()
        if not self.free:
            return None
        rank, key = heapq.heappop(self.free)
        return Task(key, self._visible(key), rank == 0)

    def changed_left(self) -> bool:
        """Whether a changed function or a callee of one is free to run now (NOTE
        [changed-first])."""
        self._start_ready()
        return bool(self.free) and self.free[0][0] == 0

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
            comp, at = self.place.get(c, (None, 0))
            if c in self.summaries and (comp != i or at < p):   # not a later member's
                out[c] = self.summaries[c]
        return out

    def done(self, key: str, summaries: dict) -> None:
        """`key` has run; `summaries` are those its results give (none when it failed)."""
        self.summaries.update(summaries)
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
