"""Declarations parsed by an earlier run, reused while their text is unchanged.

NOTE [body-cache]: the unit cache (NOTE [unit-cache]) is keyed by a file's whole text, so a
one-function edit parsed the whole file again: 12 s of SQLite's 22 s re-check. Each function
definition (prune's scan finds them, NOTE [lazy-headers]), each other declaration past
MIN_DECLARATION characters (a kernel header's structs: half of an fs/ext2 file's parse), and
each run of smaller ones (NOTE [declaration-runs]) is kept parsed under a hash of its text, its
file and column, and the typedef names it mentions that are declared before it — all its parse
depends on (pycparser tells a type name from another name by the typedefs in scope). Parsing a
text that holds it again, the unit becomes a one-line stub declaration (its lines kept as
newlines; consecutive stubs one declaration), the rest is parsed, and the kept nodes take the
stub's place with their lines moved to where it is now: they are stored relative to its first
line (and so are those of gcc's line markers inside it, in the key). A unit is saved with the
top-level nodes whose lines are its own (none when another unit shares one of them); one with
a marker of another file inside, or more text after it on its last line, is parsed every
time; so is everything when a stub goes missing.
"""
from __future__ import annotations

import copyreg
import hashlib
import io
import os
import pickle
from collections import Counter

from pycparser import c_ast
from pycparser.c_parser import Coord

from ..ir.digest import NUMBER, NUMBER_OR_LITERAL, number_as
from .declruns import SEQ, STUB, by_declaration, cacheable, splice, units
from .files import write_atomically, write_later
from .gnu_parser import SaturnParser
from .prune import LINE_MARKER, blank_span, decl_states, decls_from, fewer_markers, headers_end



def _relative(file, line, column):
    """What a stored coordinate is made by; loading puts `_Loader`'s shift in its place."""
    return Coord(file, line, column)


class _Loader(pickle.Unpickler):
    def __init__(self, fh, base: int):
        super().__init__(fh)
        self.base = base

    def find_class(self, module, name):
        if module == __name__ and name == "_relative":
            base = self.base
            return lambda file, line, column: Coord(file, line + base, column)
        return super().find_class(module, name)


class BodyCache:
    def __init__(self, directory: str, salt: str):
        self.directory, self.salt = os.path.join(directory, "bodies"), salt
        self.cache_dir = directory
        self.memo = None   # a KeyMemo while a unit is lowered
        os.makedirs(self.directory, exist_ok=True)

    def parse(self, text: str, decls, path: str, stubs=frozenset(),
              spans=None) -> c_ast.FileAST | None:
        """The text's AST with the cached declarations put in, the others saved; None when the
        stubbed text does not parse or a stub went missing (the caller parses it all). Raises
        as the parser does when nothing was cached. `stubs`: the indices of the definitions
        whose lowered IR is cached (NOTE [function-cache]), stubs like the cached units;
        `spans`: decl_spans(text, decls), if the caller has them."""
        spans = spans or decl_spans(text, decls)
        cut = _head_end(text, decls, path)
        head = self._head(text[:cut], path) if cut else None
        keys, hits, seqs, head_pre = {}, {}, {}, []
        in_head, after = list(units(text, decls, spans, 0, cut)), \
            list(units(text, decls, spans, cut, len(text)))
        names = head[1] if head is not None else frozenset()
        try:
            if cut and head is None:   # NOTE [head-cache]: the head parsed on its own, and kept
                parser = SaturnParser()
                head_pre = parser.parse(
                    self._stubbed(text, decls, spans, (0, cut), in_head, stubs, keys, hits, seqs),
                    path).ext
                names = frozenset(n for n, is_type in parser._scope_stack[0].items()
                                  if is_type and not n.startswith(STUB))
            marker = text[text.rfind("\n", 0, cut - 1) + 1:cut] if cut else ""
            ast = SaturnParser().parse(
                marker + self._stubbed(text, decls, spans, (cut, len(text)), after, stubs, keys,
                                       hits, seqs),
                path, initial_type_symbols=names)
        except Exception:
            if not hits and not stubs and not cut:
                raise   # the pruned text itself does not parse: no second try of it
            return None
        first = {i: n for i, n in hits.items() if decls[i].start < cut}
        head_seqs = {i: m for i, m in seqs.items() if decls[i].start < cut}
        head_nodes = head[0] if head is not None else splice(head_pre, first, head_seqs)
        ext = splice(ast.ext, {i: n for i, n in hits.items() if i not in first},
                     {i: m for i, m in seqs.items() if i not in head_seqs})
        if head_nodes is None or ext is None:
            return None
        if cut and head is None:
            self._save_head(text[:cut], path, head_nodes, names)
        for i, nodes in by_declaration(head_pre + ast.ext, spans, in_head + after,
                                       keys.keys() - hits.keys()):
            self._save(*keys[i], nodes)
        ast.ext = head_nodes + ext
        return ast

    def _stubbed(self, text, decls, spans, span, its_units, stubs, keys: dict, hits: dict,
                 seqs: dict) -> str:
        """text[span] with its cached units (NOTE [declaration-runs]; their nodes and
        typedef names into `hits`, the keys of the others into `keys`, by first index) and the
        definitions in `stubs` made stubs; a sequence of stubs declaring no typedef name is
        one, `int SEQ<i>;` (its units into `seqs[i]`)."""
        lo, hi = span
        pieces, last, seq = [], lo, None
        for i, j in its_units:
            d, end = decls[i], decls[j - 1].end
            stubbed = i in stubs
            key = self.key(text, decls[i:j], *spans[i][:2]) \
                if not stubbed and cacheable(decls[i:j]) else None
            if key is not None:
                keys[i] = (key, spans[i][1])
                got = self._load(key, spans[i][1], decls[i:j])
                if got is not None:   # a stub on its first line; its markers stay, as pruned
                    hits[i], stubbed = got, True
            types = hits[i][1] if i in hits else ()
            if seq is not None and (not stubbed or types):
                pieces.append(";")
                seq = None
            if not stubbed:
                continue
            if types:
                head = f"typedef int {', '.join((f'{STUB}{i}',) + types)};"
            elif seq is None:
                head, seq = f"int {SEQ}{i}", seqs.setdefault(i, [])
            else:
                head = ""
            if seq is not None:
                seq.append(i)
            pieces += [text[last:d.start], head + blank_span(text[d.start:end], False)]
            last = end
        pieces += [";"] if seq is not None else []
        pieces.append(text[last:hi])
        return fewer_markers("".join(pieces))

    # NOTE [head-cache]: a kernel file's pruned headers were ~90 % of its parse (acl.c: 0.50 of
    # 0.57 s), the same from one edit of its own code to the next. The text up to where the
    # main file resumes after its last #include (prune.py's headers_end), when none of
    # the main file's own declarations is in it, is parsed on its own and its nodes kept by its
    # text, with the typedef names it leaves in scope; the rest is parsed knowing those names,
    # after the line marker that starts it.
    def _head(self, head: str, path: str):
        try:
            with open(self._head_file(head, path, "heads"), "rb") as fh:
                nodes, names = pickle.load(fh)
        except Exception:   # missing or damaged: parsed again and rewritten
            return None
        return (nodes, names) if isinstance(nodes, list) else None

    def _save_head(self, head: str, path: str, nodes: list, names: frozenset) -> None:
        try:
            data = pickle.dumps((nodes, names), protocol=pickle.HIGHEST_PROTOCOL)
        except (RecursionError, pickle.PickleError):
            return
        _write(self._head_file(head, path, "heads"), data)

    # A file's last scan (NOTE [incremental-scan] in prune.py): one entry a file, replaced.
    def last_scan(self, main_file: str):
        try:
            with open(self._scan_file(main_file), "rb") as fh:
                text, decls, ends = pickle.load(fh)
        except Exception:   # missing or damaged: scanned in full and rewritten
            return None
        return (text, decls, ends) if isinstance(text, str) and len(decls) == len(ends) \
            else None

    def keep_scan(self, main_file: str, scan: tuple) -> None:
        """Kept by the background writer when there is one (NOTE [background-writes]; a
        kernel file's scan: ~40 ms to pickle), from the declarations as they are now."""
        text, decls, ends = scan
        states = decl_states(decls)

        def pickled():
            try:
                return pickle.dumps((text, decls_from(states), ends), pickle.HIGHEST_PROTOCOL)
            except (RecursionError, pickle.PickleError):
                return None
        path = self._scan_file(main_file)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_later(path, pickled)

    def _scan_file(self, main_file: str) -> str:
        return os.path.join(self.directory, "scans", self._hash(main_file) + ".pickle")

    def _head_file(self, head: str, main_file: str, kind: str = "headers") -> str:
        key = self._hash(main_file, head)
        return os.path.join(self.directory, kind, key + ".pickle")

    def _hash(self, *parts: str) -> str:
        return hashlib.sha256("\0".join((self.salt,) + parts).encode()).hexdigest()[:40]

    def open_keys(self, main_file: str) -> None:
        """Look keys up in, and add them to, the file's memo (NOTE [key-memo]) until
        `keep_keys`."""
        from .keymemo import KeyMemo
        os.makedirs(os.path.join(self.directory, "keys"), exist_ok=True)
        self.memo = KeyMemo(os.path.join(self.directory, "keys", self._hash(main_file) + ".pickle"))

    def keep_keys(self) -> None:
        if self.memo is not None:
            self.memo.save()
        self.memo = None

    def key(self, text: str, ds, file: str, base: int) -> str | None:
        """The key of a declaration, or of a run of them (NOTE [declaration-runs]); its line
        constants as `__LINE__` (NOTE [moved-line-constants])."""
        got = self.keys(text, ds, file, base)
        return got[0] if got else None

    def keys(self, text: str, ds, file: str, base: int, stubbed: bool = True) -> tuple:
        """Its key with its line constants as `__LINE__` and, when it has some, the key of its
        exact text (with which numbers are line constants: what the IR's digest depends on,
        NOTE [line-constants] in ir/digest.py); none when it cannot be keyed: when it is to be
        `stubbed` and more text follows on its last line (a stub would move that text)."""
        ds = ds if isinstance(ds, list) else [ds]
        start, end = ds[0].start, ds[-1].end
        if stubbed and text[end:end + 1] not in ("\n", ""):
            return ()
        exact = text[start:end]
        column = start - text.rfind("\n", 0, start)
        types = " ".join(sorted(frozenset().union(*(d.types for d in ds))))
        if self.memo is None:
            return self._keys(exact, file, base, column, types)
        return self.memo.keys(exact, file, base, column, types, self._keys)

    def _keys(self, exact: str, file: str, base: int, column: int, types: str) -> tuple:
        moving = _line_constants(exact, base)
        out = []
        for chunk in [moving] + ([moving + "\0" + exact] if exact != moving else []):
            if "\n#" in chunk:   # gcc's markers for runs of blank lines: lines made relative
                marks = list(LINE_MARKER.finditer(chunk))
                if len(marks) != chunk.count("\n#") or any(m[2] != file for m in marks):
                    return ()
                chunk = LINE_MARKER.sub(lambda m: f"# +{int(m[1]) - base} \"\"", chunk)
            out.append(self._hash(file, str(column), chunk, types))
        return tuple(out)

    def _file(self, key: str) -> str:
        return os.path.join(self.directory, key[:2], key + ".pickle")

    def _load(self, key: str, base: int, ds: list):
        """(nodes, the typedef names they declare), or None."""
        try:
            with open(self._file(key), "rb") as fh:
                nodes, names = _Loader(fh, base).load()
        except Exception:   # missing or damaged: parsed again and rewritten
            return None
        declared = set().union(*(d.declared for d in ds)) | {None}
        ok = isinstance(nodes, list) and nodes and isinstance(names, tuple) and all(
            isinstance(n, c_ast.Node) and getattr(n, "name", None) in declared
            for n in (n.decl if isinstance(n, c_ast.FuncDef) else n for n in nodes))
        return (nodes, names) if ok else None

    def _save(self, key: str, base: int, nodes: list) -> None:
        file, foreign = nodes[0].coord.file, []

        def relative(c):
            if c.file != file:
                foreign.append(c)
            return _relative, (c.file, c.line - base, c.column)
        buf = io.BytesIO()
        pickler = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = copyreg.dispatch_table.copy()
        pickler.dispatch_table[Coord] = relative
        pickler.dispatch_table[c_ast.Constant] = _constant_reducer(file)
        names = tuple(sorted({n.name for n in nodes if isinstance(n, c_ast.Typedef)}))
        try:
            pickler.dump((nodes, names))
        except (RecursionError, pickle.PickleError):
            return
        if not foreign:
            _write(self._file(key), buf.getvalue())


# NOTE [moved-line-constants]: `assert` passes __LINE__, and after an edit every function below
# it with one was parsed again (zstd's divsufsort: 10 functions, SQLite's CORRUPT_BKPT: hundreds).
# A decimal number equal to its own line (as the line markers count) is keyed as `__LINE__`, and
# kept as a constant of its node's line, which moves with the unit. pycparser makes one
# Constant node of each number token, with the token's line: the key and the node agree. (The
# lowered IR, NOTE [function-cache], is keyed by the exact text: a folded constant could not
# be moved.)


def _line_constants(chunk: str, line: int) -> str:
    """The chunk (its first line `line`) with every number equal to its line as __LINE__."""
    marks = [int(m[1]) for m in LINE_MARKER.finditer(chunk)] if "\n#" in chunk else []
    lo, hi = min([line] + marks), max([line] + marks) + chunk.count("\n")
    # Most have none, and the function cache keys zstd's 1,300 at each re-check: a number in
    # [lo, hi] holds their common leading digits, and one `in` rules most chunks out.
    lead = os.path.commonprefix([str(lo), str(hi)]) if len(str(lo)) == len(str(hi)) else ""
    if lead and lead not in chunk or \
            not any(lo <= int(n) <= hi for n in NUMBER.findall(chunk)):
        return chunk
    out = chunk.split("\n")
    for k, here, ln in _numbered(out, line):
        if here in ln:
            out[k] = number_as(ln, here, "__LINE__", NUMBER_OR_LITERAL)
    return "\n".join(out)


def line_literals(chunk: str, line: int) -> tuple[Counter, Counter]:
    """How many times each number is written in the chunk (its first line `line`) equal to
    its line, and how many times at all (outside string and character literals)."""
    own, every = Counter(), Counter()
    for _, here, ln in _numbered(chunk.split("\n"), line):
        for m in NUMBER_OR_LITERAL.finditer(ln):
            if m[0][0] not in "\"'":
                every[m[0]] += 1
                own[m[0]] += m[0] == here
    return own, every


def _numbered(lines: list, line: int):
    """(index, its line as the markers count, as text, the line) of each line but markers."""
    for k, ln in enumerate(lines):
        if ln.startswith("#"):
            m = LINE_MARKER.match(ln)
            line = int(m[1]) if m else line + 1   # a marker names the line after it
            continue
        yield k, str(line), ln
        line += 1


def _line_constant(ctype, coord):
    return c_ast.Constant(ctype, str(coord.line), coord)


def _constant_reducer(file: str):
    def reduce(node):
        c = node.coord
        if c is not None and c.file == file and node.value == str(c.line):
            return _line_constant, (node.type, c)
        return node.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    return reduce


def _write(path: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    write_atomically(path, data)


def decl_spans(text: str, decls) -> list[tuple[str, int, int]]:
    """(file, first line, last line) of each declaration, as the line markers give them."""
    markers = list(LINE_MARKER.finditer(text))
    at = [0, "", 1, 0]   # the next marker, and the file and line at a position

    def line_at(end: int) -> tuple[str, int]:
        k, file, line, pos = at
        while k < len(markers) and markers[k].start() < end:
            m = markers[k]
            file, line, pos = m.group(2), int(m.group(1)), text.find("\n", m.end()) + 1
            k += 1
        at[:] = k, file, line + text.count("\n", pos, end), end
        return file, at[2]
    out = []
    for d in decls:
        file, first = line_at(d.start)
        out.append((file, first, line_at(d.end)[1]))
    return out


def _head_end(text: str, decls, path: str) -> int:
    """Where the head ends (NOTE [head-cache]), or 0: none, a declaration across it, or one of
    the main file's own before it (SQLite's amalgamation #includes to its last lines: its
    "head" would be the whole file)."""
    cut = headers_end(text, path)
    return cut if cut and all(d.start >= cut or (d.end <= cut and not d.main)
                              for d in decls) else 0
