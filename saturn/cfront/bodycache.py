"""Declarations parsed by an earlier run, reused while their text is unchanged.

NOTE [body-cache]: the unit cache (NOTE [unit-cache]) is keyed by a file's whole text, so a
one-function edit parsed the whole file again: 12 s of SQLite's 22 s re-check. Each function
definition (prune's scan finds them, NOTE [lazy-headers]), and each other declaration but a
typedef past MIN_DECLARATION characters (a kernel header's structs: half of an fs/ext2 file's
parse), is kept parsed under a hash of its text, its file and column, and the typedef names it
mentions that are declared before it — all its parse depends on (pycparser tells a type name
from another name by the typedefs in scope). Parsing a text that holds it again, the
declaration becomes a one-line stub declaration (its lines kept as newlines), the rest is
parsed, and the kept nodes take the stub's place with their lines moved to where it is now:
they are stored relative to its first line (and so are those of gcc's line markers inside it,
in the key). A declaration is saved with the top-level nodes whose lines are its own (none
when another declaration shares one of them); one with a marker of another file inside, or
more text after it on its last line, is parsed every time; so is everything when a stub goes
missing.
"""
from __future__ import annotations

import copyreg
import hashlib
import io
import os
import pickle

from pycparser import c_ast
from pycparser.c_parser import Coord

from .files import write_atomically
from .fncache import FN_STUB   # a definition whose lowered IR is cached: NOTE [function-cache]
from .gnu_parser import SaturnParser
from .prune import LINE_MARKER, blank_span, headers_end

_STUB = "__saturn_body_"


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
        os.makedirs(self.directory, exist_ok=True)

    def parse(self, text: str, decls, path: str, stubs=frozenset(),
              spans=None) -> c_ast.FileAST | None:
        """The text's AST with the cached declarations put in, the others saved; None when the
        stubbed text does not parse or a stub went missing (the caller parses it all). Raises
        as the parser does when nothing was cached. `stubs`: the indices of the definitions
        whose lowered IR is cached (NOTE [function-cache]), parsed as `int FN_STUB<i>;`;
        `spans`: decl_spans(text, decls), if the caller has them."""
        spans = spans or decl_spans(text, decls)
        cut = _head_end(text, decls, path)
        head = self._head(text[:cut], path) if cut else None
        keys, hits, head_pre, names = {}, {}, [], head[1] if head is not None else frozenset()
        try:
            if cut and head is None:   # NOTE [head-cache]: the head parsed on its own, and kept
                parser = SaturnParser()
                head_pre = parser.parse(
                    self._stubbed(text, decls, spans, (0, cut), stubs, keys, hits), path).ext
                names = frozenset(n for n, is_type in parser._scope_stack[0].items() if is_type)
            marker = text[text.rfind("\n", 0, cut - 1) + 1:cut] if cut else ""
            ast = SaturnParser().parse(
                marker + self._stubbed(text, decls, spans, (cut, len(text)), stubs, keys, hits),
                path, initial_type_symbols=names)
        except Exception:
            if not hits and not stubs and not cut:
                raise   # the pruned text itself does not parse: no second try of it
            return None
        first = {i: n for i, n in hits.items() if decls[i].start < cut}
        head_nodes = head[0] if head is not None else _splice(head_pre, first)
        ext = _splice(ast.ext, {i: n for i, n in hits.items() if i not in first})
        if head_nodes is None or ext is None:
            return None
        if cut and head is None:
            self._save_head(text[:cut], path, head_nodes, names)
        for i, nodes in _by_declaration(head_pre + ast.ext, spans, keys.keys() - hits.keys()):
            self._save(*keys[i], nodes)
        ast.ext = head_nodes + ext
        return ast

    def _stubbed(self, text, decls, spans, span, stubs, keys: dict, hits: dict) -> str:
        """text[span] with the cached declarations in it (their nodes into `hits`, the keys of
        the others into `keys`) and the definitions in `stubs` made stubs."""
        lo, hi = span
        pieces, last = [], lo
        for i, (d, (file, base, _)) in enumerate(zip(decls, spans)):
            if not lo <= d.start < hi:
                continue
            stub = FN_STUB if i in stubs else None
            key = self.key(text, d, file, base) if stub is None and _cacheable(d) else None
            if key is not None:
                keys[i] = (key, base)
                nodes = self._load(key, base, d)
                if nodes is not None:   # a stub on its first line; its markers stay, as pruned
                    hits[i], stub = nodes, _STUB
            if stub is not None:
                pieces += [text[last:d.start],
                           f"int {stub}{i};" + blank_span(text[d.start:d.end], False)]
                last = d.end
        pieces.append(text[last:hi])
        return "".join(pieces)

    # NOTE [head-cache]: a kernel file's pruned headers were ~90 % of its parse (acl.c: 0.50 of
    # 0.57 s), the same from one edit of its own code to the next. The text up to where the
    # main file resumes after its last #include (as NOTE [header-scan] cuts it), when none of
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

    # The scan of a file's headers (NOTE [header-scan] in prune.py), by their text.
    def get(self, head: str, main_file: str):
        try:
            with open(self._head_file(head, main_file), "rb") as fh:
                decls = pickle.load(fh)
        except Exception:   # missing or damaged: scanned again and rewritten
            return None
        return decls if isinstance(decls, list) else None

    def put(self, head: str, main_file: str, decls: list) -> None:
        _write(self._head_file(head, main_file),
               pickle.dumps(decls, protocol=pickle.HIGHEST_PROTOCOL))

    def _head_file(self, head: str, main_file: str, kind: str = "headers") -> str:
        key = self._hash(main_file, head)
        return os.path.join(self.directory, kind, key + ".pickle")

    def _hash(self, *parts: str) -> str:
        return hashlib.sha256("\0".join((self.salt,) + parts).encode()).hexdigest()[:40]

    def key(self, text: str, d, file: str, base: int) -> str | None:
        chunk = text[d.start:d.end]
        if text[d.end:d.end + 1] not in ("\n", ""):
            return None
        if "\n#" in chunk:   # gcc's markers for runs of blank lines: lines made relative
            marks = list(LINE_MARKER.finditer(chunk))
            if len(marks) != chunk.count("\n#") or any(m[2] != file for m in marks):
                return None
            chunk = LINE_MARKER.sub(lambda m: f"# +{int(m[1]) - base} \"\"", chunk)
        column = d.start - text.rfind("\n", 0, d.start)
        return self._hash(file, str(column), chunk, " ".join(sorted(d.types)))

    def _file(self, key: str) -> str:
        return os.path.join(self.directory, key[:2], key + ".pickle")

    def _load(self, key: str, base: int, d):
        try:
            with open(self._file(key), "rb") as fh:
                nodes = _Loader(fh, base).load()
        except Exception:   # missing or damaged: parsed again and rewritten
            return None
        ok = isinstance(nodes, list) and nodes and all(
            isinstance(n, c_ast.Node) and getattr(n, "name", None) in d.declared | {None}
            for n in (n.decl if isinstance(n, c_ast.FuncDef) else n for n in nodes))
        return nodes if ok else None

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
        try:
            pickler.dump(nodes)
        except (RecursionError, pickle.PickleError):
            return
        if not foreign:
            _write(self._file(key), buf.getvalue())


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


# Declarations worth a file of their own: bodies, and others past this size (a prototype parses
# in about the time its file takes to read). Typedefs are parsed every time: their names decide
# how the rest parses.
MIN_DECLARATION = 200


def _cacheable(d) -> bool:
    return d.body or (not d.typedef and d.end - d.start >= MIN_DECLARATION)


def _head_end(text: str, decls, path: str) -> int:
    """Where the head ends (NOTE [head-cache]), or 0: none, a declaration across it, or one of
    the main file's own before it (SQLite's amalgamation #includes to its last lines: its
    "head" would be the whole file)."""
    cut = headers_end(text, path)
    return cut if cut and all(d.start >= cut or (d.end <= cut and not d.main)
                              for d in decls) else 0


def _splice(ext: list, hits: dict) -> list | None:
    """The top-level nodes with each stub replaced by its cached declaration's nodes."""
    stubs = {f"{_STUB}{i}": nodes for i, nodes in hits.items()}
    out = []
    for n in ext:
        got = stubs.pop(n.name, None) if isinstance(n, c_ast.Decl) else None
        if got is not None:
            out += got
        else:
            out.append(n)
    return None if stubs else out


def _by_declaration(ext, spans, wanted):
    """(i, the nodes parsed from declaration i) for each i in `wanted`: a node is declaration
    i's when its line is one of i's lines and no other declaration's."""
    owner, shared = {}, set()
    for i, (file, first, last) in enumerate(spans):
        for line in range(first, last + 1):
            j = owner.setdefault((file, line), i)
            if j != i:
                shared |= {i, j}
    found: dict[int, list] = {}
    for n in ext:
        i = owner.get((n.coord.file, n.coord.line)) if n.coord else None
        if i in wanted and i not in shared:
            found.setdefault(i, []).append(n)
    return sorted(found.items())
