"""Forked worker processes, each with a pipe of its own, run from this process's main thread.

NOTE [own-workers]: concurrent.futures' process pool (like loky's and pebble's) deals tasks
through one queue that every worker reads. A worker that dies — `kill -9`, the OOM killer, a
C-level abort such as the SAT solver's `std::bad_alloc` — breaks the whole pool there: every
task in flight fails with BrokenProcessPool and which task the dead worker held is unknown
(pebble knows it, but stops the pool when a worker dies idle or holding the queue's lock).
Here each worker has its own pipe, so the parent knows which task each one holds: a dead
worker loses only its own task (`Lost`), a stuck one is stopped alone (`kill`), and a
replacement is forked when the next task comes.

NOTE [parent-death]: a worker must not outlive the run (after `kill -9` of the parent, it would
sleep on its pipe forever, holding the database open). Each asks the kernel for SIGKILL when
its parent dies (prctl PR_SET_PDEATHSIG; Linux sends it when the *thread* that forked the child
ends, so workers are forked from the main thread only) and, where there is no prctl, ends at
the end-of-file of its pipe: every worker closes the other workers' pipes it inherited, so the
parent's end is open in the parent alone.
"""
from __future__ import annotations

import os
import signal
from enum import Enum

PR_SET_PDEATHSIG = 1   # <linux/prctl.h>


class Cause(Enum):
    """Why a task gave no value."""
    DIED = "died"          # its worker process ended
    FAILED = "failed"      # it raised (an internal error), or its value could not be sent
    STOPPED = "stopped"    # its worker was killed past the task's deadline (interproc/pools.py)


class Lost:
    """The value of a task whose worker died, failed or was stopped: `why`, in words."""

    def __init__(self, why: str, cause: Cause = Cause.DIED):
        self.why, self.cause = why, cause

    def __repr__(self):
        return f"Lost({self.why!r}, {self.cause})"


def die_with_parent(parent: int) -> None:
    """NOTE [parent-death]: SIGKILL this process when `parent` (its parent) ends."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass   # not Linux: the end-of-file of the worker's pipe ends it when idle
    if os.getppid() != parent:   # it died before prctl took effect
        os._exit(0)


def exit_reason(code: int | None) -> str:
    """How a process ended, in words (`code` as multiprocessing gives it: -N for signal N)."""
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = {"SIGKILL": ", e.g. by the OOM killer", "SIGABRT": ", e.g. out of memory",
                "SIGSEGV": ""}.get(name, "")
        return f"killed by {name}{hint}"
    return f"exited with status {code}"


def _serve(conn, run, others, parent) -> None:
    die_with_parent(parent)
    for other in others:   # NOTE [parent-death]: only the parent keeps the ends it reads
        other.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # ^C is the parent's to handle
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return   # the parent closed the pipe, or is gone
        try:
            reply = (True, run(*task))
        except BaseException as exc:   # a task's error is its own, not the worker's end
            reply = (False, f"internal error: {type(exc).__name__}: {exc}")
        try:
            conn.send(reply)
        except (TypeError, ValueError, AttributeError, RecursionError) as exc:  # unpicklable
            conn.send((False, f"internal error: result not sent: {exc}"))


class Workers:
    """At most `size` workers running `run(*task)`; a task is given with a tag, and `wait`
    returns (tag, value) pairs, the value a `Lost` when its worker died or the task raised."""

    def __init__(self, size: int, run):
        self.size, self.run = size, run
        self.idle: list[tuple] = []          # (process, connection)
        self.busy: dict[object, tuple] = {}  # tag -> (process, connection)

    def free(self) -> int:
        return self.size - len(self.busy)

    def start(self, tag, task: tuple) -> None:
        """Give `task` to an idle worker (a new one if none is idle); needs `free()` > 0."""
        while True:
            proc, conn = self.idle.pop() if self.idle else self._fork()
            try:
                conn.send(task)
            except (BrokenPipeError, ConnectionResetError, EOFError):
                self._retire(proc, conn)   # died while idle: a fresh one takes the task
                continue
            self.busy[tag] = (proc, conn)
            return

    def _fork(self):
        import multiprocessing   # (here: a re-check that analyses nothing needs none)
        fork = multiprocessing.get_context("fork")
        mine, theirs = fork.Pipe()
        others = [mine] + [c for _, c in self.idle] + [c for _, c in self.busy.values()]
        proc = fork.Process(target=_serve, args=(theirs, self.run, others, os.getpid()),
                             daemon=True, name="saturn-worker")
        proc.start()
        theirs.close()
        return proc, mine

    def wait(self, timeout: float | None = None) -> list[tuple]:
        """(tag, value) of the tasks that finished within `timeout` seconds (None: until one
        does), in no particular order."""
        if not self.busy:
            return []
        from multiprocessing.connection import wait
        by_handle = {}
        for tag, (proc, conn) in self.busy.items():
            by_handle[conn] = by_handle[proc.sentinel] = tag
        out = []
        for tag in dict.fromkeys(by_handle[h] for h in wait(list(by_handle), timeout)):
            proc, conn = self.busy.pop(tag)
            try:
                ok, value = conn.recv() if conn.poll() else (False, None)
            except (EOFError, OSError):
                ok, value = False, None
            if ok:
                self.idle.append((proc, conn))
            elif value is not None:   # the task raised: the worker goes on
                self.idle.append((proc, conn))
                value = Lost(value, Cause.FAILED)
            else:
                proc.join(5)
                value = Lost(f"the worker process {exit_reason(proc.exitcode)}")
                self._retire(proc, conn)
            out.append((tag, value))
        return out

    def kill(self, tag) -> None:
        """Stop the worker running `tag` (its task is dropped)."""
        proc, conn = self.busy.pop(tag)
        self._retire(proc, conn)

    def _retire(self, proc, conn) -> None:
        if proc.is_alive():
            try:
                os.kill(proc.pid, signal.SIGKILL)
            except OSError:
                pass
        proc.join()
        conn.close()

    def close(self) -> None:
        """Idle workers end at the end-of-file of their pipes; busy ones are killed."""
        for tag in list(self.busy):
            self.kill(tag)
        for proc, conn in self.idle:
            conn.close()
        for proc, _ in self.idle:
            proc.join(5)
            if proc.is_alive():
                self._retire(proc, _)
        self.idle = []


def in_order(size: int, run, tasks):
    """`run(*task)` for each of `tasks` in at most `size` workers, started now; an iterator of
    the values in the tasks' order, a `Lost` for a task whose worker died."""
    tasks = list(tasks)
    workers = Workers(min(size, len(tasks)) or 1, run)
    started = _start_more(workers, tasks, 0)
    return _in_order(workers, tasks, started)


def _start_more(workers, tasks, started: int) -> int:
    while started < len(tasks) and workers.free():
        workers.start(started, tasks[started])
        started += 1
    return started


def _in_order(workers, tasks, started):
    done: dict = {}
    try:
        for i in range(len(tasks)):
            while i not in done:
                done.update(workers.wait())
                started = _start_more(workers, tasks, started)
            yield done.pop(i)
    finally:
        workers.close()
