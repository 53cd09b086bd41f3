"""Function definitions parsed by an earlier run, reused while their text is unchanged.

NOTE [body-cache]: the unit cache (NOTE [unit-cache]) is keyed by a file's whole text, so a
one-function edit parsed the whole file again: 12 s of SQLite's 22 s re-check. Each function
definition of the main file (prune's scan finds them, NOTE [lazy-headers]) is kept parsed under
a hash of its text, its file and column, and the typedef names it mentions that are declared
before it — all its parse depends on (pycparser tells a type name from another name by the
typedefs in scope). Parsing a text that holds it again, the definition becomes a one-line stub
declaration (its lines kept as newlines), the rest is parsed, and the kept definition takes the
stub's place with its lines moved to where it is now: they are stored relative to its first
line (and so are those of gcc's line markers inside it, in the key). A definition with a
marker of another file inside, or more text after it on its last line, is parsed every time;
so is everything when the stubs and the definitions do not pair up.
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
from .gnu_parser import SaturnParser
from .prune import LINE_MARKER

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
        os.makedirs(self.directory, exist_ok=True)

    def parse(self, text: str, decls, path: str) -> c_ast.FileAST | None:
        """The text's AST with the cached definitions put in, the others saved; None when the
        stubbed text does not parse or does not pair up (the caller parses it all). Raises
        as the parser does when nothing was cached."""
        bodies = [d for d in decls if d.body]
        keys, hits, pieces, last = [], {}, [], 0
        for i, (d, (file, base)) in enumerate(zip(bodies, _places(text, bodies))):
            key = self._key(text, d, file, base)
            keys.append(key and (key, base))
            node = self._load(key, base) if key else None
            if node is not None:
                hits[i] = node
                lines = text[d.start:d.end].split("\n")   # markers stay: they set lines
                pieces += [text[last:d.start], f"int {_STUB}{i};"] + \
                    ["\n" + (ln if ln.startswith("#") else "") for ln in lines[1:]]
                last = d.end
        pieces.append(text[last:])
        try:
            ast = SaturnParser().parse("".join(pieces), path)
        except Exception:
            if not hits:
                raise   # the pruned text itself does not parse: no second try of it
            return None
        slots = [j for j, n in enumerate(ast.ext) if isinstance(n, c_ast.FuncDef) or
                 (isinstance(n, c_ast.Decl) and (n.name or "").startswith(_STUB))]
        if len(slots) != len(bodies):
            return None
        for i, (j, d) in enumerate(zip(slots, bodies)):
            node = ast.ext[j]
            if i in hits:
                if getattr(node, "name", None) != f"{_STUB}{i}":
                    return None
                ast.ext[j] = hits[i]
            elif keys[i] and node.decl.name in d.declared:
                self._save(*keys[i], node)
        return ast

    def _key(self, text: str, d, file: str, base: int) -> str | None:
        chunk = text[d.start:d.end]
        if not d.main or text[d.end:d.end + 1] not in ("\n", ""):
            return None
        if "\n#" in chunk:   # gcc's markers for runs of blank lines: lines made relative
            marks = list(LINE_MARKER.finditer(chunk))
            if len(marks) != chunk.count("\n#") or any(m[2] != file for m in marks):
                return None
            chunk = LINE_MARKER.sub(lambda m: f"# +{int(m[1]) - base} \"\"", chunk)
        column = d.start - text.rfind("\n", 0, d.start)
        return hashlib.sha256("\0".join([self.salt, file, str(column), chunk,
                                         " ".join(sorted(d.types))]).encode()).hexdigest()[:40]

    def _file(self, key: str) -> str:
        return os.path.join(self.directory, key[:2], key + ".pickle")

    def _load(self, key: str, base: int):
        try:
            with open(self._file(key), "rb") as fh:
                node = _Loader(fh, base).load()
        except Exception:   # missing or damaged: parsed again and rewritten
            return None
        return node if isinstance(node, c_ast.FuncDef) else None

    def _save(self, key: str, base: int, node: c_ast.FuncDef) -> None:
        file, foreign = node.coord.file if node.coord else None, []

        def relative(c):
            if c.file != file:
                foreign.append(c)
            return _relative, (c.file, c.line - base, c.column)
        buf = io.BytesIO()
        pickler = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = copyreg.dispatch_table.copy()
        pickler.dispatch_table[Coord] = relative
        try:
            pickler.dump(node)
        except (RecursionError, pickle.PickleError):
            return
        if foreign or file is None:
            return
        path = self._file(key)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_atomically(path, buf.getvalue())


def _places(text: str, decls) -> list[tuple[str, int]]:
    """(file, line) at each declaration's start, as the line markers before it give them."""
    out, markers = [], list(LINE_MARKER.finditer(text))
    k, file, line, pos = 0, "", 1, 0   # `line` is the line at `pos`
    for d in decls:
        while k < len(markers) and markers[k].start() < d.start:
            m = markers[k]
            file, line, pos = m.group(2), int(m.group(1)), text.find("\n", m.end()) + 1
            k += 1
        line, pos = line + text.count("\n", pos, d.start), d.start
        out.append((file, line))
    return out
