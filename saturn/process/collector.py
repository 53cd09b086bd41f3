"""Python's cyclic collector, off while many long-lived objects are made."""
from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def no_gc():
    """The cyclic collector off while many small objects are made and kept (parsing ~30 %,
    unpickling ~5x, lowering with a kernel file's AST alive ~60 % of the time otherwise; a
    function's analysis: NOTE [analysis-gc] in app/driver.py)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
