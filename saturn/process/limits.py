"""Running one file's front end within a deadline, on a stack deep enough for deep C.

NOTE [deep-nesting]: pycparser parses and Saturn lowers by recursive descent, so C nested a few
thousand levels deep (2,000 `if`s, 3,000 parentheses: gcc takes them) recursed past Python's
default limit and past the 8 MB C stack of the main thread. The work runs on a thread of its
own with a STACK-byte stack and the recursion limit raised to RECURSION while it runs (the
calling thread only waits meanwhile).

NOTE [front-end-deadline]: preprocessing, parsing and lowering one file are pure Python (and one
compiler process), so an input that makes them slow could hold up the whole run. The calling
thread waits at most `seconds`; past them the work is stopped by raising `Overtime` in its
thread (CPython's PyThreadState_SetAsyncExc, seen at its next bytecode) and the file is
skipped with an error.
"""
from __future__ import annotations

import ctypes
import sys
import threading

STACK = 512 << 20
RECURSION = 200_000


class Overtime(Exception):
    """The work went past its deadline."""


def run(work, seconds: float | None = None):
    """`work()`'s result (or its exception) on a thread with a big stack; `Overtime` past
    `seconds`."""
    out: dict = {}

    def target():
        try:
            out["value"] = work()
        except BaseException as exc:   # handed to the caller
            out["error"] = exc
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, RECURSION))
    try:
        old = threading.stack_size(STACK)
        try:
            thread = threading.Thread(target=target, name="saturn-front-end", daemon=True)
        finally:
            threading.stack_size(old)
        thread.start()
        thread.join(seconds)
        if thread.is_alive():
            _stop(thread)
            raise Overtime()
    finally:
        sys.setrecursionlimit(limit)
    if "error" in out:
        raise out["error"]
    return out["value"]


def _stop(thread: threading.Thread) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident),
                                               ctypes.py_object(Overtime))
    thread.join(10)   # it stops at its next bytecode; one stuck in C code is left behind
