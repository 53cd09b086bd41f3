"""Where tasks run: worker processes forked from this one, or a Dask distributed cluster. A task is one function's key (a tuple of keys) and
the callee summaries it sees; its value is the list of its functions' results.

NOTE [hard-deadline]: --timeout is enforced inside a worker by SIGALRM, which Python only
handles between bytecodes — a SAT call in C (pysat interrupts only some solvers) can run on for
hours. So the local pool also keeps a hard deadline per task (twice the timeout per function,
plus a margin): past it, the worker running the task is killed and the task's value is a
`Lost` stopped (its functions become `incomplete`, timed out); the other tasks in flight go on
(NOTE [own-workers] in process/workers.py).

NOTE [lost-tasks]: a worker that dies (`kill -9`, the OOM killer, a C-level abort in the SAT
solver) loses only the task it held: its value is a `Lost` with the reason (the driver makes
its functions `incomplete`) and the run goes on with a new worker. So even one job runs its
functions in a worker process: an abort there cannot end the run.
"""
from __future__ import annotations

import heapq
import itertools
import time
from concurrent.futures import Future

from ..process.workers import Cause, Lost, Workers

HARD_MARGIN = 10.0  # seconds beyond twice the per-function timeout


def _remote_task(bundle, keys, summaries):
    """A Dask task: the scattered (program, runner) bundle, one task's keys and summaries."""
    program, runner = bundle
    return runner(program, keys, summaries)


class LocalPool:
    """Worker processes forked from this one (they share the lowered program, and `run`).
    A task whose worker dies or is stopped gives a `Lost` (NOTE [lost-tasks]); `timeout`
    (seconds per function) arms the hard deadline."""

    def __init__(self, jobs, run, timeout=None):
        self.jobs, self.timeout = jobs, timeout
        self.workers = Workers(jobs, run)
        self.running: dict[Future, tuple] = {}   # ours -> (keys, start)
        # waiting for a worker, a heap: (-priority, arrival, ours, keys, sums)
        self.queue: list[tuple] = []
        self.arrivals = itertools.count()
        self.killed = 0

    def submit(self, keys, summaries, priority=0):
        """Tasks wait here until a worker is free, so a task's clock starts when it runs; the
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
                self.running.pop(outer)
                outer.set_result(value)
                out.add(outer)
            for outer in self._stuck():
                self.running.pop(outer)
                self.workers.kill(outer)
                self.killed += 1
                outer.set_result(Lost("timed out (stopped inside the SAT solver)", Cause.STOPPED))
                out.add(outer)
            if out:
                self._fill()
                return out

    def _limit(self, keys) -> float:
        return 2 * self.timeout * len(keys) + HARD_MARGIN

    def _armed(self) -> bool:
        return bool(self.timeout)

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
    task's keys and its callees' summaries and returns results; only the driver writes the DB."""

    def __init__(self, address, program, remote_runner):
        from distributed import Client
        self.client = Client(address, timeout=10)
        # hash=False: a content key would make Dask walk the whole program to hash it, which
        # took longer than analysing a small program; the bundle is sent once anyway.
        self.bundle = self.client.scatter((program, remote_runner), broadcast=True, hash=False)

    def submit(self, keys, summaries, priority=0):
        return self.client.submit(_remote_task, self.bundle, keys, summaries, pure=False,
                                  priority=priority)

    def wait_any(self, futures):
        from distributed import wait as dask_wait
        return dask_wait(list(futures), return_when="FIRST_COMPLETED").done

    def close(self):
        self.client.close()
