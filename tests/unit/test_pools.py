"""The local pool's hard deadline (NOTE [hard-deadline]): a task stuck where SIGALRM cannot
reach is stopped alone, the tasks in flight with it give their own results; a worker that dies
loses only its own task (NOTE [lost-tasks])."""
import faulthandler
import os
import signal
import time

from saturn.interproc import pools
from saturn.process.workers import Cause, Lost


def runner(keys, summaries):
    if keys == ("killed",):
        os.kill(os.getpid(), signal.SIGKILL)   # kill -9, or the OOM killer
    if keys == ("aborts",):
        faulthandler.disable()                 # (pytest's: its dump is not the point here)
        os.abort()                             # what an uncaught std::bad_alloc ends in
    if keys == ("raises",):
        raise ValueError("boom")
    if keys == ("stuck",):
        time.sleep(3600)           # stands for a SAT call that never returns
    if "slow" in keys:
        time.sleep(2)              # in flight when the stuck one is killed (3 keys: 3.5 s limit)
    return [f"{k}:{summaries}" for k in keys]


def _all(pool, futures):
    """Each task's value; a Lost as (cause, why)."""
    results = {}
    while len(results) < len(futures):
        for fut in pool.wait_any([f for f in futures if futures[f] not in results]):
            value = fut.result()
            results[futures[fut]] = (value.cause, value.why) if isinstance(value, Lost) else value
    return results


def test_stuck_unit_is_stopped_and_others_go_on(monkeypatch):
    monkeypatch.setattr(pools, "HARD_MARGIN", 0.5)   # limit: 2 * 0.5 s per function + 0.5 s
    pool = pools.LocalPool(2, runner, timeout=0.5)
    try:
        t0 = time.monotonic()
        futures = {pool.submit(("stuck",), 1): "stuck", pool.submit(("slow", "x", "y"), 2): "slow",
                   pool.submit(("a", "b"), 3): "ab"}
        results = _all(pool, futures)
        assert results == {"stuck": (Cause.STOPPED, "timed out (stopped inside the SAT solver)"),
                           "slow": ["slow:2", "x:2", "y:2"],
                           "ab": ["a:3", "b:3"]}
        assert pool.killed == 1
        assert time.monotonic() - t0 < 30
    finally:
        pool.close()


def test_a_dead_worker_loses_only_its_task_and_is_replaced():
    pool = pools.LocalPool(2, runner)
    try:
        futures = {pool.submit(("killed",), 0): "killed", pool.submit(("slow",), 1): "slow",
                   pool.submit(("aborts",), 2): "aborts", pool.submit(("raises",), 3): "raises",
                   pool.submit(("a", "b"), 4): "ab"}
        results = _all(pool, futures)
        assert results["slow"] == ["slow:1"] and results["ab"] == ["a:4", "b:4"]
        assert results["killed"] == (Cause.DIED, "the worker process killed by SIGKILL, e.g. "
                                                 "by the OOM killer")
        assert results["aborts"] == (Cause.DIED, "the worker process killed by SIGABRT, e.g. "
                                                 "out of memory")
        assert results["raises"] == (Cause.FAILED, "internal error: ValueError: boom")
    finally:
        pool.close()


def test_no_deadline_without_timeout():
    pool = pools.LocalPool(1, runner)
    try:
        fut = pool.submit(("slow",), 0)
        assert [f.result() for f in pool.wait_any([fut])] == [["slow:0"]]
        assert pool.killed == 0
    finally:
        pool.close()


def stamp(keys, summaries):
    time.sleep(0.05)
    return [(keys[0], time.monotonic())]


def test_waiting_tasks_run_by_priority_then_arrival():
    """NOTE [critical-path]: with one worker busy, the highest priority waiting runs next."""
    pool = pools.LocalPool(1, stamp)
    try:
        futs = [pool.submit(("first",), 0, priority=0), pool.submit(("low",), 0, priority=1),
                pool.submit(("high",), 0, priority=9), pool.submit(("low2",), 0, priority=1)]
        done = {}
        while len(done) < len(futs):
            for fut in pool.wait_any([f for f in futs if f not in done]):
                done[fut] = fut.result()[0]
        order = [k for k, _ in sorted(done.values(), key=lambda r: r[1])]
        assert order == ["first", "high", "low", "low2"]
    finally:
        pool.close()
