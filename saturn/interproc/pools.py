"""Where units run: worker processes forked from this one, or a Dask distributed cluster.

NOTE [hard-deadline]: --timeout is enforced inside a worker by SIGALRM, which Python only
handles between bytecodes — a SAT call in C (pysat interrupts only some solvers) can run on for
hours. So the local pool also keeps a hard deadline per unit (twice the timeout per function,
plus a margin): past it, the pool's processes are killed, the stuck unit's functions become
`incomplete` (timed out) and the other units in flight are submitted again to a new pool, with
the same inputs, so their results are unchanged (NOTE [determinism] in schedule.py).
"""
from __future__ import annotations

import heapq
import itertools
import math
import multiprocessing
import os
import signal
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

_STATE: dict = {}   # set in the parent before the pool forks: the unit runner
HARD_MARGIN = 10.0  # seconds beyond twice the per-function timeout


def _run_unit(keys, summaries):
    return _STATE["runner"](keys, summaries)


def _remote_unit(bundle, keys, summaries):
    """A Dask task: the scattered (program, unit runner) bundle, one task's keys and summaries."""
    program, runner = bundle
    return runner(program, keys, summaries)


class LocalPool:
    """Worker processes forked from this one (they share the lowered program). `timeout`
    (seconds per function) and `on_stuck(keys) -> results` arm the hard deadline."""

    def __init__(self, jobs, runner, timeout=None, on_stuck=None):
        _STATE["runner"] = runner
        self.jobs, self.timeout, self.on_stuck = jobs, timeout, on_stuck
        self.inner: dict[Future, tuple] = {}   # running: ours -> (executor's, keys, sums, start)
        # waiting for a worker, a heap: (-priority, arrival, ours, keys, sums)
        self.queue: list[tuple] = []
        self.arrivals = itertools.count()
        self.killed = 0
        self._start()

    def _start(self):
        self.pool = ProcessPoolExecutor(max_workers=self.jobs,
                                        mp_context=multiprocessing.get_context("fork"))

    def submit(self, keys, summaries, priority=0):
        """Units wait here until a worker is free, so a unit's clock starts when it runs; the
        highest `priority` first (NOTE [critical-path] in schedule.py), then the earliest."""
        outer = Future()
        heapq.heappush(self.queue, (-priority, next(self.arrivals), outer, keys, summaries))
        self._fill()
        return outer

    def _fill(self):
        while self.queue and len(self.inner) < self.jobs:
            _, _, outer, keys, summaries = heapq.heappop(self.queue)
            self.inner[outer] = (self.pool.submit(_run_unit, keys, summaries), keys, summaries,
                                 time.monotonic())

    def wait_any(self, futures):
        while True:
            running = list(self.inner)
            by_inner = {self.inner[f][0]: f for f in running}
            done = wait(list(by_inner), timeout=self._next_deadline(running),
                        return_when=FIRST_COMPLETED)[0]
            out = set()
            for fut in done:
                outer = by_inner[fut]
                outer.set_result(fut.result())
                del self.inner[outer]
                out.add(outer)
            stuck = [] if out else self._stuck(running)
            if stuck:
                out = self._restart(running, stuck)
            if out:
                self._fill()
                return out

    def _limit(self, keys) -> float:
        return 2 * self.timeout * len(keys) + HARD_MARGIN

    def _armed(self) -> bool:
        return bool(self.timeout) and self.on_stuck is not None

    def _next_deadline(self, running):
        if not self._armed() or not running:
            return None
        now = time.monotonic()
        return max(0.0, min(self.inner[f][3] + self._limit(self.inner[f][1]) - now
                            for f in running))

    def _stuck(self, running):
        if not self._armed():
            return []
        now = time.monotonic()
        return [f for f in running if now - self.inner[f][3] > self._limit(self.inner[f][1])]

    def _restart(self, running, stuck):
        """Kill every worker; the stuck units are timed out, the others run again."""
        for proc in list(getattr(self.pool, "_processes", {}).values()):
            try:
                os.kill(proc.pid, signal.SIGKILL)
            except OSError:
                pass
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.killed += 1
        self._start()
        done = set()
        for outer in running:
            _, keys, summaries, _ = self.inner.pop(outer)
            if outer in stuck:
                outer.set_result(self.on_stuck(keys))
                done.add(outer)
            else:
                heapq.heappush(self.queue, (-math.inf, next(self.arrivals), outer, keys,
                                            summaries))   # before any other
        return done

    def close(self):
        self.pool.shutdown()


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
