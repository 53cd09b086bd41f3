"""One file's front end with its caches: preprocessed text → lowered unit.

NOTE [unit-cache]: each translation unit is lowered on its own into a `Program` of its own (its
functions — header inlines it calls included — globals and annotations) and the run's program
absorbs the units in the files' order (`Program.absorb`: first definition wins, as when lowering
into one program). A unit is kept under a hash of its preprocessed text, its path and the
--root, so a re-check that finds it (by direct mode without even preprocessing: NOTE
[direct-mode] in direct.py) loads a small pickle of lowered IR: no parsing, no lowering. Its
functions of the file's own text are stored as their function-cache entries (NOTE
[function-entries]), which the next lowering of the file after an edit reuses (NOTE
[function-cache]). Units lowered apart have their own symbols for a shared global: the
analysis names globals by key (symex/environment.py).
"""
from __future__ import annotations

import os
import pickle
import time

from pycparser import c_ast

from ..cfront.discover import SourceFile, relative_to
from ..cfront.markers import Names, own_names, shown, unescape
from ..cfront.parse import Declarations, parse_text
from ..cfront.preprocess import FrontEndError, preprocess
from ..cfront.prune import declarations, needed
from .. import limits
from ..collector import no_gc
from ..ir.loops import analysis_weight
from ..ir.lower import lower_unit
from ..ir.program import Program, global_uses, mark_uses
from . import entries
from .declarations import DeclarationCache
from .digest import ir_digest
from .direct import Manifests
from .functions import IMPURE, column, function_keys, prototype
from .lines import decl_spans, line_literals
from .scans import ScanCache


class FrontEnd:
    """Files to lowered units for one run; `store` None: no caches. `deadline`: seconds for
    one file's front end (NOTE [front-end-deadline] in saturn/limits.py)."""

    def __init__(self, store, root: str = ".", std: str | None = None,
                 deadline: float = 300.0):
        self.store, self.root, self.std = store, os.path.abspath(root), std
        self.deadline = deadline
        self.manifests = Manifests(store, std) if store is not None else None
        self.last_key: str | None = None   # the key of the unit `unit` made last

    def known(self, src: SourceFile) -> str | None:
        """The unit key of a file whose preprocessing inputs are unchanged (NOTE
        [direct-mode])."""
        return self.manifests.lookup(src) if self.manifests is not None else None

    def load(self, key: str) -> Program | None:
        """The unit kept under `key`, or None."""
        data = self.store.get(key) if self.store is not None else None
        try:
            return _unpacked(pickle.loads(data)) if data else None
        except Exception:   # damaged in any way: lowered again and rewritten
            return None

    def unit(self, src: SourceFile) -> Program:
        """The unit of `src`, from the cache or made now (and kept); FrontEndError."""
        started = time.time()
        text = preprocess(src, self.std, self.deadline)
        if self.store is None:
            return self._within(src, started,
                                lambda: _Lowering(src, text, self.root, None, {}).unit())
        key = self.last_key = self.store.key("unit", text, src.path, self.root)
        unit = self.load(key)
        if unit is None:
            last = self.manifests.last_unit(src)
            old = _entries(self.store.get(last)) if last else {}

            def lowered():
                lowering = _Lowering(src, text, self.root, self.store, old)
                unit = lowering.unit()
                self.store.put(key, lowering.record(unit))
                return unit
            unit = self._within(src, started, lowered)
        self.manifests.record(src, text, key, started)
        return unit

    def _within(self, src: SourceFile, started: float, work):
        """`work()` on a deep stack, within what is left of the deadline (saturn/limits.py)."""
        left = None if self.deadline is None else max(0.0, self.deadline - (time.time() -
                                                                           started))
        try:
            return limits.run(work, left)
        except limits.Overtime:
            raise FrontEndError(f"{src.path}:1:1: error: preprocessing, parsing and lowering "
                                f"took over {self.deadline:g}s (--front-end-timeout)") from None


def _entries(data: bytes | None) -> dict:
    """The function-cache entries of a stored unit."""
    try:
        got = pickle.loads(data)[1] if data else {}
    except Exception:
        return {}
    return got if isinstance(got, dict) else {}


def _report_paths(directory: str, root: str):
    """A line marker's name -> the path reports give it (NOTE [own-files]), memoised: the
    lowering asks once per statement."""
    names, rel, memo = Names(directory), relative_to(root), {}

    def path(name: str) -> str:
        got = memo.get(name)
        if got is None:
            got = memo[name] = shown(rel(names.path(name)))
        return got
    return path


def _unpacked(record) -> Program:
    skeleton, stored = record
    unit, tags, packed = pickle.loads(skeleton)
    for key, (entry_key, first, meta) in packed.items():
        unit.functions[key] = entries.lazy(meta, stored[entry_key], tags, unit.globals, first)
    return unit


class _Unparsable(Exception):
    """A declaration that does not parse alone: the whole text is parsed instead."""


class _Lowering:
    """One lowering of one unit, with the function and declaration caches (store None: none)."""

    def __init__(self, src: SourceFile, text: str, root: str, store, old: dict):
        self.src, self.text, self.store, self.old, self.root = src, text, store, old, root
        self.relpath = _report_paths(src.directory, root)
        self.raw_own = own_names(text) or {src.path}
        self.own = {self.relpath(n) for n in self.raw_own}
        self.tags: dict = {}
        self.entries: dict[str, bytes] = {}   # the unit's function-cache entries, by key
        self.packed: dict[str, tuple] = {}    # function key -> (its entry's key, first line,
        #                                       the entry's fields)

    def unit(self) -> Program:
        # One pass of the collector, at the end, after the syntax trees are gone (they have no
        # cycles: counting references frees them).
        with no_gc():
            every = ScanCache(self.store, self.src.path).declarations(self.text, self.raw_own) \
                if self.store is not None else declarations(self.text, self.raw_own)
            unit = self._by_declarations(needed(every)) if every is not None else None
            if unit is None:
                unit, out = self._lowered(parse_text(self.text, self.src.path).ext)
                self.tags, self.entries, self.packed = out.tags, {}, {}
            for fn in unit.functions.values():
                ir_digest(fn)
                analysis_weight(fn)
            unit.lines = self.text.count("\n")
            unit.files = set(self.own)
            if every and not any(fn.file in self.own for fn in unit.functions.values()):
                unit.warnings += self._none_analysed(every)
        return unit

    def _none_analysed(self, every: list) -> list[str]:
        """NOTE [own-files]: a file whose text defines functions outside headers (an included
        `.c`: a unity build), none of them its own, has none analysed: it says so."""
        spans = decl_spans(self.text, every)
        files = sorted({unescape(spans[i][0]) for i, d in enumerate(every)
                        if d.body and not unescape(spans[i][0]).endswith(".h")})
        if not files:
            return []
        return [f"{self.src.path}:1:1: warning: no function is analysed: its functions are "
                f"defined in {', '.join(files[:3])}{', ...' if len(files) > 3 else ''}, which "
                "it includes (only a file's own text is analysed)"]

    def _lowered(self, nodes: list, roots=()):
        unit = Program()
        out = lower_unit(unit, c_ast.FileAST(nodes), self.src.path, self.relpath, self.own,
                         roots)
        return unit, out

    def _by_declarations(self, decls: list) -> Program | None:
        """Lowered with the caches, or None if a declaration does not parse alone. The keys
        are first taken with each definition as pure as the last run found it, and again
        with what this lowering found (NOTE [function-cache])."""
        text, salt = self.text, self.store.salt if self.store is not None else ""
        spans = decl_spans(text, decls)
        cache = DeclarationCache(self.store, self.src.path) if self.store is not None else None
        guess: dict[int, bool] = {}

        def predicted(i, keys):
            guess[i] = not any(self.old.get(k) == IMPURE for k in keys)
            return guess[i]
        salt += "\0" + self.root   # (the lowered IR names files relative to it)
        keys = function_keys(salt, text, decls, spans, predicted) if self.store else {}
        hits = self._hits(decls, spans, keys)
        for attempt in range(2):
            got = self._parsed_and_lowered(decls, spans, hits, cache)
            if got is None:
                return None
            unit, out, fresh = got
            impure = {i for i, fn in fresh.items() if fn.key in out.impure}
            if not self.store or all(guess.get(i, True) == (i not in impure) for i in fresh):
                break
            keys = function_keys(salt, text, decls, spans, lambda i, keys: i not in impure)
            if attempt or all(key in keys[i] for i, (key, _) in hits.items()):
                break
            hits, guess = {}, {i: i not in impure for i in keys}   # lowered anew, no hits
        if cache is not None:
            cache.flush()
        self.tags = out.tags
        self._keep(unit, out, decls, spans, keys, hits, fresh, impure)
        return unit

    def _hits(self, decls, spans, keys) -> dict:
        """{index: (key, entry's parts)} of the definitions the function cache has."""
        hits = {}
        for i, its in keys.items():
            key, entry = next(((k, self.old[k]) for k in its if self.old.get(k)), (None, None))
            d = decls[i]
            if not entry or not prototype(self.text[d.start:d.end]):
                continue
            try:
                parts = entries.parts(entry)
            except Exception:   # damaged: lowered again
                continue
            if entries.usable(parts, spans[i][1]):
                hits[i] = (key, parts)
        return hits

    def _parsed_and_lowered(self, decls, spans, hits, cache):
        """(unit, lowering's output, {index: function} of the definitions lowered), with the
        hits installed; None if a declaration does not parse alone. Each declaration is parsed
        as the lowering reaches it, so the syntax trees of a file's definitions are never all
        alive at once."""
        names: dict = {}
        roots = {c for _, parts in hits.values() for c in parts[0]["callees"]}
        try:
            unit, out = self._lowered(self._parsed(decls, spans, hits, cache, names), roots)
        except _Unparsable:
            return None
        for i, (key, parts) in sorted(hits.items()):
            fn, statics, uses = entries.install(self.old[key], parts, out.tags, unit.globals,
                                                spans[i][1])
            for g in statics:
                unit.add_global(g)
            unit.add_function(fn)
            mark_uses(unit, *uses)
        fresh = {names[fn.name]: fn for fn in unit.functions.values()
                 if fn.file in self.own and names.get(fn.name) is not None}
        return unit, out, fresh

    def _parsed(self, decls, spans, hits, cache, names: dict):
        """The declarations' nodes, one declaration at a time; the definitions parsed whole
        go into `names` (their name -> index)."""
        text, parser = self.text, Declarations(self.src.path)
        for i, d in enumerate(decls):
            chunk, (file, first, _) = text[d.start:d.end], spans[i]
            col, whole = column(text, d.start), d.body and d.main and i not in hits
            proto = prototype(chunk) if d.body and d.main else None
            if i in hits:
                chunk = proto + ";"
            elif whole and len(d.declared) == 1:
                name = d.declared[0]
                names[name] = None if name in names else i   # (two: told apart by neither)
            types = parser.types_among(d.mentions)
            got = self._parse_one(parser, None if whole else cache, chunk, file, first, col,
                                  types)
            if got is None:
                raise _Unparsable()
            if whole and proto and cache is not None:   # its prototype, for when it is a hit
                self._keep_prototype(parser, cache, got, proto + ";", file, first, col, types)
            yield from got

    @staticmethod
    def _keep_prototype(parser, cache, nodes, proto, file, first, col, types) -> None:
        """A definition's declaration, kept as its prototype's parse: what a later lowering
        that has its IR parses instead (NOTE [declaration-cache])."""
        if len(nodes) == 1 and isinstance(nodes[0], c_ast.FuncDef) and parser.last:
            key = cache.key(proto, file, first, col, types)
            if key is not None:
                cache.save(key, file, first, [nodes[0].decl], parser.last)

    @staticmethod
    def _parse_one(parser, cache, chunk, file, first, col, types):
        """A declaration's nodes, from the declaration cache or parsed (NOTE
        [declaration-cache]); None if it does not parse alone."""
        key = None
        if cache is not None:
            key = cache.key(chunk, file, first, col, types)
            got = cache.load(key, first) if key else None
            if got is not None:
                parser.declare(got[1])
                return got[0]
        try:
            nodes, names = parser.parse(chunk, file, first, col)
        except FrontEndError:
            return None
        if key is not None:
            cache.save(key, file, first, nodes, names)
        return nodes

    def _keep(self, unit, out, decls, spans, keys, hits, fresh, impure) -> None:
        """The unit's function-cache entries: the hits' and the fresh pure definitions'."""
        if self.store is None:
            return
        for i, (key, parts) in hits.items():
            self.entries[key] = self.old[key]
            self.packed[parts[0]["key"]] = (key, spans[i][1], parts[0])
        for i, fn in fresh.items():
            its, first = keys.get(i), spans[i][1]
            if not its:
                continue
            if i in impure:
                self.entries[its[-1]] = IMPURE
                continue
            ir_digest(fn)
            analysis_weight(fn)
            moving = None
            if len(its) > 1:   # it has line literals (NOTE [line-literals])
                d = decls[i]
                _, own, every = line_literals(self.text[d.start:d.end], first)
                moving = entries.moving_part(fn, out.line_literals.get(fn.key, {}), own, every,
                                             first)
            key = its[0] if moving is not None else its[-1]
            uses = global_uses([s for blk in fn.blocks.values() for s in blk.stmts])
            try:
                self.entries[key] = entries.dump(fn, out.statics.get(fn.key, []), uses,
                                                 out.tags, unit.globals, first, moving)
            except (RecursionError, pickle.PickleError, TypeError):
                continue
            self.packed[fn.key] = (key, first, entries.parts(self.entries[key])[0])

    def record(self, unit: Program) -> bytes:
        """The unit as stored: its own definitions as their entries (NOTE [function-entries])."""
        functions = unit.functions
        unit.functions = {k: (None if k in self.packed else fn) for k, fn in functions.items()}
        try:
            skeleton = pickle.dumps((unit, self.tags, self.packed),
                                    protocol=pickle.HIGHEST_PROTOCOL)
        finally:
            unit.functions = functions
        return pickle.dumps((skeleton, self.entries), protocol=pickle.HIGHEST_PROTOCOL)


def lower_text(text: str, path: str, root: str = ".") -> Program:
    """The unit of a preprocessed text, lowered without caches (the file at `path` is its
    main file)."""
    src = SourceFile(os.path.abspath(path), (), os.path.dirname(os.path.abspath(path)))
    return _Lowering(src, text, os.path.abspath(root), None, {}).unit()
