"""Lowered translation units cached next to the summary database.

NOTE [unit-cache]: each translation unit is lowered on its own into a `Program` of its own (its
functions — header inlines it calls included — globals and annotations) and the run's program
absorbs the units in the files' order (`Program.absorb`: first definition wins, as when lowering
into one program). A unit is cached by a hash of its preprocessed text, its path, the --root and
the front end's own code, so a re-check loads only small pickles of lowered IR: no parsing, no
lowering, no syntax tree (a kernel file's tree is ~50 MB of objects; its IR a few hundred KB).
Units lowered apart have their own symbols for a shared global: the analysis names globals by
key (symex/environment.py).
"""
from __future__ import annotations

import importlib.util
import os
import pickle
import re
import sys

from ..codehash import code_fingerprint
from ..collector import no_gc
from .discover import relative_to
from .fncache import FunctionCache
from .packed import pack as _pack, unpack as _unpack
from .files import deferred, write_later
from .preprocess import text_hash


def _code_fingerprint() -> str:
    """The lowering's own source: a changed front end never reuses old units."""
    return code_fingerprint("saturn/cfront", "saturn/ir", extra=_pycparser_version())


def _pycparser_version() -> str:
    """Read from its source, not imported: importing it is ~10 ms a re-check that lowers
    nothing need not pay (NOTE [startup])."""
    spec = importlib.util.find_spec("pycparser")
    try:
        with open(spec.origin, encoding="utf-8") as f:
            found = re.search(r"""^__version__\s*=\s*['"]([^'"]+)['"]""", f.read(), re.M)
    except (OSError, TypeError, AttributeError):
        found = None
    if found:
        return found[1]
    import pycparser
    return pycparser.__version__


def import_lowering():
    """What lowering a unit imports (pycparser among it), which `lower_text` and `UnitCache.unit`
    import only when they lower (NOTE [startup])."""
    for name in ("..ir.digest", "..ir.lower", "..ir.program", ".bodycache", ".parse"):
        importlib.import_module(name, __package__)


def lower_text(text: str, path: str, root: str, bodies=None, predict: bool = True):
    """Parse (with a BodyCache's definitions, NOTE [body-cache], and the function cache next to
    it, NOTE [function-cache]) and lower one unit into a program of its own."""
    # Imported here: a re-check that lowers nothing never loads pycparser (NOTE [startup]).
    from ..ir.digest import ir_digest
    from ..ir.lower import lower_unit
    from ..ir.program import Program
    from .parse import parse_text
    unit = Program()
    functions = None if bodies is None else \
        FunctionCache(bodies.cache_dir, "\0".join([bodies.salt, path, root]), bodies)
    # One pass of the collector, at the end (~0.8 s on SQLite for each more), and after the
    # syntax tree is gone (it has no cycles: counting references frees it).
    with no_gc():
        if bodies is not None:
            bodies.open_keys(path)
        tu = parse_text(text, path, bodies, functions if predict else None)
        if functions is not None:
            functions.start(tu.pruned or "", tu.decls or [], tu.stubs or set(), tu.spans)
        tags = lower_unit(unit, tu.ast, path, relative_to(root),
                          functions if tu.decls else None)
        if functions is not None and functions.failed:   # rare: predicted wrongly
            del tu, unit
            return lower_text(text, path, root, bodies, predict=False)
        if functions is not None:
            functions.finish()
        if bodies is not None:
            bodies.keep_keys()
        unit.packing = (tags, functions.blobs if functions is not None else {})
        for fn in unit.functions.values():
            ir_digest(fn)   # kept with the unit: a re-check need not walk the IR again
        unit.lines = tu.lines
        del tu
    return unit


class UnitCache:
    def __init__(self, directory: str, root: str = ".", background: bool = False):
        """`background`: units are saved by a background writer (NOTE [background-writes])."""
        self.directory, self.root = directory, os.path.abspath(root)
        self.background = background
        os.makedirs(directory, exist_ok=True)

    def key(self, text: str, path: str) -> str:
        return text_hash("\0".join([text, path, self.root, _code_fingerprint()]))[:40]

    def load(self, key: str):
        """The unit cached under `key`, or None."""
        try:
            with no_gc(), open(os.path.join(self.directory, key + ".pickle"), "rb") as fh:
                return _unpack(pickle.load(fh))
        except Exception:  # missing, or damaged in any way: lowered again and rewritten
            return None

    def unit(self, text: str, path: str):
        """The lowered unit, from the cache or made now (and saved); raises FrontEndError."""
        key = self.key(text, path)
        unit = self.load(key)
        if unit is not None:
            return unit
        file = os.path.join(self.directory, key + ".pickle")
        from .bodycache import BodyCache   # NOTE [startup]: only when a unit is lowered
        with deferred(self.background):   # NOTE [background-writes]
            unit = lower_text(text, path, self.root,
                              BodyCache(self.directory, _code_fingerprint()))
            packing = unit.__dict__.pop("packing", ({}, {}))
            write_later(file, lambda: _packed(unit, packing))
        return unit


def _packed(unit, packing) -> bytes | None:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 50000))
    try:
        with no_gc():   # pickling SQLite's unit: 3.6 s with the collector on, 1.5 s off
            return _pack(unit, packing)
    except (RecursionError, pickle.PickleError):
        return None   # not cached: lowered again next time
