"""Lowered units as stored in the unit cache.

NOTE [packed-units]: a unit's functions that came from or went into the function cache (NOTE
[function-cache]) are stored as their cache entries' bytes, not pickled again with the rest:
pickling SQLite's whole unit was 2.2 s of a one-function re-check. A loaded unit's functions
are `LazyFunction`s (fncache.py): what the driver, the call graph and the summary cache read (name, place,
callees, digest, notes) is at hand, and the body is unpickled — against the unit's own struct
tags and globals, as the lowering did — only when something reads it: the analysis of the few
functions a re-check runs again. SQLite's unit: 1.0 s to load whole, 0.1-0.3 s this way
(every body read later: 1.1-1.3 s).
"""
from __future__ import annotations

import pickle

from .fnpickle import META as _META, lazy_function

_PACKED = "saturn-unit-4"


def pack(unit, packing) -> bytes:
    """`packing`: what lower_text left in `unit.packing` (taken out of the unit)."""
    tags, blobs = packing
    functions = unit.functions
    packed = {k: (*blobs[k][1:], {f: getattr(fn, f) for f in _META})
              for k, fn in functions.items() if k in blobs and blobs[k][0] is fn}
    unit.functions = {k: (None if k in packed else fn) for k, fn in functions.items()}
    try:
        return pickle.dumps((_PACKED, unit, tags, packed), protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        unit.functions = functions


def unpack(data):
    tag, unit, tags, packed = data
    if tag != _PACKED:
        raise ValueError("not a packed unit")
    for key, fn in unit.functions.items():
        if fn is None:
            line, blob, moving, meta = packed[key]
            unit.functions[key] = lazy_function(meta, (blob, tags, unit.globals, line, moving))
    return unit
