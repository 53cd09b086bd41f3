"""One lowering of one file's preprocessed text, with the function, declaration and skeleton
caches (NOTE [function-cache], NOTE [declaration-cache], NOTE [unit-skeleton]); units.py keeps
what it makes."""
from __future__ import annotations

import pickle

from pycparser import c_ast

from ..cfront.discover import SourceFile, relative_to
from ..cfront.markers import Names, own_names, shown, unescape
from ..cfront.parse import Declarations, parse_text
from ..cfront.prune import declarations, names_in, needed, needed_by
from ..process.collector import no_gc
from ..ir.loops import analysis_weight
from ..ir.lower import lower_unit
from ..ir.program import Program, function_uses, mark_uses
from . import entries
from .declarations import DeclarationCache, keep_prototype, parse_one
from .digest import ir_digest
from .functions import IMPURE, column, function_keys, prototype
from .lines import Markers, decl_spans, line_literals
from .last import Last
from .scans import ScanCache
from .skeleton import Shift, layout_key, remark, stays, strip


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


class _Unparsable(Exception):
    """A declaration that does not parse alone: the whole text is parsed instead."""


class Lowering:
    """One lowering of one unit, with the function and declaration caches (cachedir None: none)."""

    def __init__(self, src: SourceFile, text: str, root: str, cachedir, old: Last):
        self.src, self.text, self.cachedir, self.old, self.root = src, text, cachedir, old, root
        self.relpath = _report_paths(src.directory, root)
        self.markers = Markers(text)
        self.raw_own = own_names(text, self.markers.found) or {src.path}
        self.own = {self.relpath(n) for n in self.raw_own}
        self.tags: dict = {}
        self.entries: dict[str, bytes] = {}   # the unit's function-cache entries, by key
        self.packed: dict[str, tuple] = {}    # function key -> (its entry's key, first line,
        #                                       the entry's fields)
        self.statics: dict = {}               # own definition's key -> its static locals
        self.layout = None                    # NOTE [unit-skeleton]
        self.lowered: list[str] = []          # the functions lowered now, not read from a cache
        self.scan: ScanCache | None = None

    def unit(self) -> Program:
        # One pass of the collector, at the end, after the syntax trees are gone (they have no
        # cycles: counting references frees them).
        with no_gc():
            scan = self.scan = self.old.scan or ScanCache(self.cachedir, self.src.path) \
                if self.cachedir else None
            every = scan.declarations(self.text, self.raw_own) if scan is not None \
                else declarations(self.text, self.raw_own)
            unit = self._by_declarations(needed(every)) if every is not None else None
            if unit is None:
                unit, out = self._lowered(parse_text(self.text, self.src.path).ext)
                self.tags, self.entries, self.packed = out.tags, {}, {}
                self.lowered = list(unit.functions)
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
        spans = decl_spans(self.text, every, self.markers)
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
        text, salt = self.text, self.cachedir.salt if self.cachedir is not None else ""
        spans = decl_spans(text, decls, self.markers)
        cache = DeclarationCache(self.cachedir, self.src.path) if self.cachedir is not None else None
        guess: dict[int, bool] = {}

        def predicted(i, keys):
            guess[i] = not any(self.old.entries.get(k) == IMPURE for k in keys)
            return guess[i]
        salt += "\0" + self.root   # (the lowered IR names files relative to it)
        keys, context = function_keys(salt, text, decls, spans, predicted, self.markers) \
            if self.cachedir else ({}, "")
        hits = self._hits(decls, spans, keys)
        if self.cachedir is not None:
            pure = {i for i, p in guess.items() if p}
            unit = self._reused(decls, spans, keys, hits, pure, context, cache)
            if unit is not None:
                return unit
        for attempt in range(2):
            got = self._parsed_and_lowered(decls, spans, hits, cache)
            if got is None:
                return None
            unit, out, fresh = got
            impure = {i for i, fn in fresh.items() if fn.key in out.impure}
            if not self.cachedir or all(guess.get(i, True) == (i not in impure) for i in fresh):
                break
            keys, context = function_keys(salt, text, decls, spans,
                                          lambda i, keys: i not in impure, self.markers)
            if attempt or all(key in keys[i] for i, (key, _) in hits.items()):
                break
            hits, guess = {}, {i: i not in impure for i in keys}   # lowered anew, no hits
        if cache is not None:
            cache.flush()
        self.tags = out.tags
        reused = {parts[0]["key"] for _, parts in hits.values()}
        self.lowered = [k for k in unit.functions if k not in reused]
        self._keep(unit, out, decls, spans, keys, hits, fresh, impure)
        if self.cachedir is not None:
            self._lay_out(layout_key(context, text, decls, spans,
                                     {i for i in keys if i not in impure}), spans)
        return unit

    def _lay_out(self, layout: str, spans) -> None:
        """What the next lowering needs to reuse this one's skeleton (NOTE [unit-skeleton])."""
        self.layout = (layout, [(file, first) for file, first, _ in spans],
                       dict(sorted(self.statics.items())))

    def _reused(self, decls, spans, keys, hits, pure, context, cache) -> Program | None:
        """The last lowering's skeleton with the file's own definitions put in (NOTE
        [unit-skeleton]); None when its layout changed or anything is in doubt."""
        last = self.old.layout
        layout = layout_key(context, self.text, decls, spans, pure)
        if not last or last[0] != layout or len(last[1]) != len(spans) or \
                not isinstance(last[2], dict):
            return None
        shift = Shift(last[1], spans, self.relpath)
        if shift.moved and shift.ambiguous:
            return None
        try:
            unit, tags, packed = self.old.parts()
            bodies = self._header_bodies(unit, tags, packed)
        except Exception:   # damaged: lowered whole
            return None
        if unit.warnings or unit.lowering_errors or not stays(unit, self.own, shift):
            return None
        roots = sorted(i for i in keys if i not in hits)
        got = self._scratch(decls, spans, set(hits), roots, cache)
        if got is None:
            return None
        scratch, out, fresh = got
        if sorted(fresh) != roots or any((fn.key in out.impure) == (i in pure)
                                         for i, fn in fresh.items()) or \
                scratch.warnings or scratch.lowering_errors or \
                any(k not in unit.functions for k, fn in scratch.functions.items()
                    if fn.file not in self.own):
            return None
        strip(unit, self.own, last[2], shift)
        uses: list = []
        if not self._put_fresh(unit, tags, fresh, keys, pure, (out, scratch), decls, spans,
                               uses):
            return None
        for i, (key, parts) in sorted(hits.items()):
            self._put(unit, self.old.entries[key], parts, tags, spans[i][1], uses)
        remark(unit, self.own, uses, bodies)
        for key in set(bodies) & set(unit.functions):
            self.entries[bodies[key][0]] = self.old.entries[bodies[key][0]]
            self.packed[key] = packed[key]
        cache.flush(keep_all=True)
        self.tags = tags
        self.lowered = [fn.key for _, fn in sorted(fresh.items())]
        self._keep(unit, out, decls, spans, keys, hits, {}, set())
        self._lay_out(layout, spans)
        return unit

    def _put_fresh(self, unit, tags, fresh, keys, pure, lowered, decls, spans, uses) -> bool:
        """The definitions lowered apart (`lowered`: the lowering's output and program) moved
        onto the skeleton's structs and globals (NOTE [function-entries]) and kept; False,
        with nothing kept, if one cannot be (a struct or global the skeleton lacks)."""
        out, scratch = lowered
        try:
            for i, fn in fresh.items():
                its = keys[i] if i in pure else ()
                key, entry = self._entry(fn, i, its, out, out.tags, scratch.globals, decls, spans)
                self._put(unit, entry, entries.parts(entry), tags, spans[i][1], uses)
                if key is not None:
                    self.entries[key] = entry
                    self.packed[fn.key] = (key, spans[i][1], entries.parts(entry)[0])
                elif keys[i]:
                    self.entries[keys[i][-1]] = IMPURE
        except Exception:   # lowered whole instead
            self.entries, self.packed, self.statics = {}, {}, {}
            return False
        return True

    def _scratch(self, decls, spans, others: set, roots, cache):
        """(program, lowering's output, {index: function}) of the definitions at `roots`
        lowered with only the declarations they need, the definitions at `others` as their
        prototypes; None if one does not parse alone."""
        protos = {i: names_in(prototype(self.text[decls[i].start:decls[i].end]))
                  for i in others}
        at = sorted(needed_by(decls, roots, protos))
        names: dict = {}
        try:
            unit, out = self._lowered(self._parsed(
                [decls[i] for i in at], [spans[i] for i in at],
                {k for k, i in enumerate(at) if i in others}, cache, names))
        except _Unparsable:
            return None
        return unit, out, {at[k]: fn for k, fn in self._fresh(unit, names).items()}

    def _header_bodies(self, unit, tags, packed: dict) -> dict:
        """The skeleton's header bodies stored as entries, put in `unit` unread: {key: (their
        entry's key, the globals' uses they make)} (their static locals are the skeleton's)."""
        bodies = {}
        for key, (entry_key, first, meta) in packed.items():
            if meta["file"] not in self.own:
                entry = self.old.entries[entry_key]
                fn, _, uses = entries.install(entry, entries.parts(entry), tags, unit.globals,
                                              first)
                unit.functions[key], bodies[key] = fn, (entry_key, uses)
        return bodies

    def _put(self, unit, entry: bytes, parts, tags, first: int, uses: list) -> None:
        """A definition's entry installed in `unit`, its statics and uses with it."""
        fn, statics, its_uses = entries.install(entry, parts, tags, unit.globals, first)
        for g in statics:
            unit.add_global(g)
        self.statics[fn.key] = [g.sym.key for g in statics]
        unit.add_function(fn)
        uses.append(its_uses)

    def _hits(self, decls, spans, keys) -> dict:
        """{index: (key, entry's parts)} of the definitions the function cache has."""
        hits = {}
        for i, its in keys.items():
            key, entry = next(((k, self.old.entries[k]) for k in its
                               if self.old.entries.get(k)), (None, None))
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
        uses: list = []
        for i, (key, parts) in sorted(hits.items()):
            self._put(unit, self.old.entries[key], parts, out.tags, spans[i][1], uses)
        for written, taken in uses:
            mark_uses(unit, written, taken)
        return unit, out, self._fresh(unit, names)

    def _fresh(self, unit, names: dict) -> dict:
        """{index: function} of the file's own definitions lowered whole (`names`: _parsed's)."""
        return {names[fn.name]: fn for fn in unit.functions.values()
                if fn.file in self.own and names.get(fn.name) is not None}

    def _parsed(self, decls, spans, hits, cache, names: dict):
        """The declarations' nodes, one declaration at a time, the definitions at `hits` as
        their prototypes; the definitions parsed whole go into `names` (their name ->
        index)."""
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
            got = parse_one(parser, None if whole else cache, chunk, file, first, col, types)
            if got is None:
                raise _Unparsable()
            if whole and proto and cache is not None:   # its prototype, for when it is a hit
                keep_prototype(parser, cache, got, proto + ";", file, first, col, types)
            yield from got

    def _keep(self, unit, out, decls, spans, keys, hits, fresh, impure) -> None:
        """The unit's function-cache entries: the hits' and the fresh pure definitions'."""
        if self.cachedir is None:
            return
        for i, (key, parts) in hits.items():
            self.entries[key] = self.old.entries[key]
            self.packed[parts[0]["key"]] = (key, spans[i][1], parts[0])
        for i, fn in fresh.items():
            self.statics[fn.key] = [g.sym.key for g in out.statics.get(fn.key, [])]
            its = keys.get(i)
            if not its:
                continue
            if i in impure:
                self.entries[its[-1]] = IMPURE
                continue
            try:
                key, entry = self._entry(fn, i, its, out, out.tags, unit.globals, decls, spans)
            except (RecursionError, pickle.PickleError, TypeError):
                continue
            self.entries[key] = entry
            self.packed[fn.key] = (key, spans[i][1], entries.parts(entry)[0])
        for fn in list(unit.functions.values()):
            if fn.file not in self.own and fn.key not in self.packed:
                self._keep_body(unit, out.statics.get(fn.key, []), fn)

    def _keep_body(self, unit, statics: list, fn) -> None:
        """A header body kept as an entry (under its own key in the unit's entries), so that
        loading the unit reads it only when the analysis does (NOTE [function-entries])."""
        ir_digest(fn)
        analysis_weight(fn)
        uses = function_uses(fn)
        try:
            entry = entries.dump(fn, statics, uses, self.tags, unit.globals, fn.line)
        except (RecursionError, pickle.PickleError, TypeError):
            return
        self.entries["body\0" + fn.key] = entry
        self.packed[fn.key] = ("body\0" + fn.key, fn.line, entries.parts(entry)[0])

    def _entry(self, fn, i, its, out, tags, globs, decls, spans) -> tuple:
        """(its key, or None when `its` is empty; the entry) of a definition lowered now with
        `tags` and `globs`; raises when it cannot be pickled."""
        first = spans[i][1]
        ir_digest(fn)
        analysis_weight(fn)
        moving = None
        if len(its) > 1:   # it has line literals (NOTE [line-literals])
            d = decls[i]
            _, own, every = line_literals(self.text[d.start:d.end], first)
            moving = entries.moving_part(fn, out.line_literals.get(fn.key, {}), own, every,
                                         first)
        uses = function_uses(fn)
        entry = entries.dump(fn, out.statics.get(fn.key, []), uses, tags, globs, first, moving)
        return (its[0] if moving is not None else its[-1]) if its else None, entry

    def keep(self, key: str, unit: Program, replaces: str | None = None) -> None:
        """What the next lowering of the file reads, stored: the scan, and the unit under
        `key` (NOTE [unit-cache]), in place of the file's last unit `replaces` (its entries
        are the new one's, or changed: each edit would leave a copy of a large file's unit)."""
        if self.scan is not None:
            self.scan.keep()
        if self.cachedir.put(key, self.record(unit)) and replaces and replaces != key:
            self.cachedir.delete(replaces)   # (not the unit just made: `key` may be the last's)

    def record(self, unit: Program) -> bytes:
        """The unit as stored: its own definitions as their entries (NOTE [function-entries]),
        and its layout (NOTE [unit-skeleton])."""
        functions = unit.functions
        unit.functions = {k: (None if k in self.packed else fn) for k, fn in functions.items()}
        try:
            skeleton = pickle.dumps((unit, self.tags, self.packed),
                                    protocol=pickle.HIGHEST_PROTOCOL)
        finally:
            unit.functions = functions
        return pickle.dumps((skeleton, self.entries, self.layout),
                            protocol=pickle.HIGHEST_PROTOCOL)
