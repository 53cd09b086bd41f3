"""Cache entries (lowered units, parsed definitions, direct-mode manifests) written whole, now
or by a background writer.

NOTE [background-writes]: pickling what a lowering leaves for the next run — the unit itself
(NOTE [unit-cache]) and the function cache's pack (NOTE [function-cache]) — was ~40 ms of
zstd's 0.8 s re-check after an edit, and seconds of a first run of SQLite, in the process
that goes on to analyse. With a second core (--jobs 2 or more), `deferred` collects them and
a forked child pickles and writes them, from the objects as they were at the fork, while the
analysis goes on; `wait_writers` waits for it before the run ends (the next run must find
what this one made: its reuse counts depend on it). A write that fails is only a slower next
run, so the child's errors are dropped.
"""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager

_pending: list | None = None   # (path, make bytes or None) while `deferred` collects
_writers: list[int] = []       # background writers not yet waited for


def write_atomically(path: str, data: bytes) -> None:
    """Write through a temporary file and a rename: a killed run leaves no half-written entry.
    A cache that cannot be written is only slower, so errors are dropped."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except OSError:
        if os.path.exists(tmp):
            os.remove(tmp)


def write_later(path: str, make) -> None:
    """Write `make()` (bytes, or None: nothing) to `path`, now or in the background writer;
    what `make` reads must not change before `deferred` ends."""
    if _pending is not None:
        _pending.append((path, make))
        return
    data = make()
    if data is not None:
        write_atomically(path, data)


@contextmanager
def deferred(background: bool):
    """Collect `write_later`'s writes and do them at the end: in a forked child when
    `background` (NOTE [background-writes]), else here."""
    global _pending
    if not background or _pending is not None or not hasattr(os, "fork"):
        yield
        return
    _pending = []
    try:
        yield
    finally:
        jobs, _pending = _pending, None
        if jobs:
            _write_in_child(jobs)


def in_child(work) -> int | None:
    """Run `work()` in a forked child that then ends (its errors dropped: nothing it does may
    reach this process's output); the child's pid, or None when no process could be made."""
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        pid = os.fork()
    except OSError:
        return None
    if pid:
        return pid
    try:
        import gc
        gc.disable()
        work()
    finally:
        os._exit(0)


def _write_in_child(jobs: list) -> None:
    def write_all():
        for path, make in jobs:
            try:
                data = make()
                if data is not None:
                    write_atomically(path, data)
            except BaseException:
                pass
    pid = in_child(write_all)
    if pid is None:   # no process to spare: written here
        for path, make in jobs:
            write_later(path, make)
    else:
        _writers.append(pid)


def wait_writers() -> None:
    """Wait for the background writers (NOTE [background-writes])."""
    while _writers:
        try:
            os.waitpid(_writers.pop(), 0)
        except ChildProcessError:
            pass
