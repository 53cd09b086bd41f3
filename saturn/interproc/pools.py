"""Where units run: worker processes forked from this one, or a Dask distributed cluster.

NOTE [hard-deadline]: --timeout is enforced inside a worker by SIGALRM, which Python only
handles between bytecodes — a SAT call in C (pysat interrupts only some solvers) can run on for
hours. So the local pool also keeps a hard deadline per unit (twice the timeout per function,
plus a margin): past it, the worker running the unit is killed and the unit's functions become
`incomplete` (timed out); the other units in flight go on (NOTE [own-workers] in workers.py).

NOTE [lost-units]: a worker that dies (`kill -9`, the OOM killer, a C-level abort in the SAT
solver) loses only the unit it held: `on_lost(keys, why)` gives its functions' results (the
driver makes them `incomplete` with the reason) and the run goes on with a new worker. So even
one job runs its functions in a worker process: an abort there cannot end the run.
"""
from __future__ import annotations

import heapq
import itertools
import time
from concurrent.futures import Future

from ..workers import Lost, Workers

_STATE: dict = {}   # set in the parent before the workers fork: the unit runner
HARD_MARGIN = 10.0  # seconds beyond twice the per-function timeout


def _run_unit(keys, summaries):
    return _STATE["runner"](keys, summaries)


def _remote_unit(bundle, keys, summaries):
    """A Dask task: the scattered (program, unit runner) bundle, one task's keys and summaries."""
    program, runner = bundle
    return runner(program, keys, summaries)


class LocalPool:
    """Worker processes forked from this one (they share the lowered program).
    `on_lost(keys, why) -> results` stands in for a unit whose worker died or was stopped
    (NOTE [lost-units]); `timeout` (seconds per function) arms the hard deadline, after which
    `why` starts with "timed out"."""

    def __init__(self, jobs, runner, timeout=None, on_lost=None):
        _STATE["runner"] = runner
        self.jobs, self.timeout, self.on_lost = jobs, timeout, on_lost
        self.workers = Workers(jobs, _run_unit)
        self.running: dict[Future, tuple] = {}   # ours -> (keys, start)
        # waiting for a worker, a heap: (-priority, arrival, ours, keys, sums)
        self.queue: list[tuple] = []
        self.arrivals = itertools.count()
        self.killed = 0

    def submit(self, keys, summaries, priority=0):
        """Units wait here until a worker is free, so a unit's clock starts when it runs; the
        highest `priority` first (NOTE [critical-path] in schedule.py), then the earliest."""
        outer = Future()
        heapq.heappush(self.queue, (-priority, next(self.arrivals), outer, keys, summaries))
        self._fill()
        return outer

    def _fill(self):
        while self.queue and self.workers.free():
            _, _, outer, keys, summaries = heapq.heappop(self.queue)
            self.workers.start(outer, (keys, summaries))
            self.running[outer] = (keys, time.monotonic())

    def wait_any(self, futures):
        while True:
            out = set()
            for outer, value in self.workers.wait(self._next_deadline()):
                keys, _ = self.running.pop(outer)
                outer.set_result(self._lost(keys, value.why) if isinstance(value, Lost)
                                 else value)
                out.add(outer)
            for outer in self._stuck():
                keys, _ = self.running.pop(outer)
                self.workers.kill(outer)
                self.killed += 1
                outer.set_result(self._lost(keys, "timed out (stopped inside the SAT solver)"))
                out.add(outer)
            if out:
                self._fill()
                return out

    def _lost(self, keys, why):
        if self.on_lost is None:
            raise RuntimeError(why)
        return self.on_lost(keys, why)

    def _limit(self, keys) -> float:
        return 2 * self.timeout * len(keys) + HARD_MARGIN

    def _armed(self) -> bool:
        return bool(self.timeout) and self.on_lost is not None

    def _next_deadline(self):
        if not self._armed() or not self.running:
            return None
        now = time.monotonic()
        return max(0.0, min(start + self._limit(keys) - now
                            for keys, start in self.running.values()))

    def _stuck(self):
        if not self._armed():
            return []
        now = time.monotonic()
        return [f for f, (keys, start) in self.running.items()
                if now - start > self._limit(keys)]

    def close(self):
        self.workers.close()


class DaskPool:
    """A Dask distributed cluster: the program goes to every worker once; a task carries one
    unit's keys and its callees' summaries and returns results; only the driver writes the DB."""

    def __init__(self, address, program, remote_runner):
        from distributed import Client
        self.client = Client(address, timeout=10)
        self.bundle = self.client.scatter((program, remote_runner), broadcast=True)

    def submit(self, keys, summaries, priority=0):
        return self.client.submit(_remote_unit, self.bundle, keys, summaries, pure=False,
                                  priority=priority)

    def wait_any(self, futures):
        from distributed import wait as dask_wait
        return dask_wait(list(futures), return_when="FIRST_COMPLETED").done

    def close(self):
        self.client.close()
