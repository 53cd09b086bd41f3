"""Parsed declarations kept from one run to the next.

NOTE [declaration-cache]: an edit of one function must not parse the declarations around it
again (a kernel file's few thousand header declarations, an amalgamation's prototypes,
typedefs and tables). A top-level declaration's nodes
(cfront/parse.py parses them one at a time: NOTE [declaration-parse]) are kept under a hash of
what its parse depends on — its text with gcc's markers relative to its first line, its file
and column, and which names it mentions are typedef names before it — with its coordinates in
its own file relative to its first line and the names it declares. A file's entries are one
pack, written again with the entries its last lowering used. Function definitions of the
file's own text are not kept here: the function cache keeps them lowered (functions.py), and
an edited one is parsed again anyway.
"""
from __future__ import annotations

import copyreg
import io
import pickle

from pycparser import c_ast
from pycparser.c_parser import Coord

from ..cfront.preprocess import FrontEndError
from .lines import relative_markers


def _relative(file, line, column):
    """What a stored coordinate is made by; loading puts `_Loader`'s shift in its place."""
    return Coord(file, line, column)


class _Loader(pickle.Unpickler):
    def __init__(self, fh, first: int):
        super().__init__(fh)
        self.first = first

    def find_class(self, module, name):
        if module == __name__ and name == "_relative":
            first = self.first
            return lambda file, line, column: Coord(file, line + first, column)
        return super().find_class(module, name)


class DeclarationCache:
    def __init__(self, cachedir, path: str):
        self.cachedir, self.name = cachedir, cachedir.key("declarations", path)
        try:
            old = pickle.loads(cachedir.get(self.name) or b"")
        except Exception:   # none yet, or damaged: parsed again
            old = {}
        self.old = old if isinstance(old, dict) else {}
        self.new: dict[str, bytes] = {}

    def key(self, chunk: str, file: str, first: int, column: int, types: list) -> str | None:
        own = relative_markers(chunk, file, first)
        return None if own is None else \
            self.cachedir.key(file, str(column), own, " ".join(types))

    def load(self, key: str, first: int):
        """(nodes, the names they declare) kept under `key`, at a declaration starting on line
        `first`; None if there are none."""
        data = self.old.get(key)
        if data is None:
            return None
        try:
            nodes, names = _Loader(io.BytesIO(data), first).load()
        except Exception:   # damaged: parsed again
            return None
        self.new[key] = data
        return nodes, names

    def save(self, key: str, file: str, first: int, nodes: list, names: list) -> None:
        def relative(c):
            return (_relative, (c.file, c.line - first, c.column)) if c.file == file else \
                (Coord, (c.file, c.line, c.column))
        buf = io.BytesIO()
        pickler = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = copyreg.dispatch_table.copy()
        pickler.dispatch_table[Coord] = relative
        try:
            pickler.dump((nodes, names))
        except (RecursionError, pickle.PickleError):
            return
        self.new[key] = buf.getvalue()

    def flush(self, keep_all: bool = False) -> None:
        """Keep the entries this lowering used or made, and only those (`keep_all`: the old
        ones too, after a lowering of a few declarations: NOTE [unit-skeleton])."""
        if keep_all:
            self.new = {**self.old, **self.new}
        if self.new.keys() != self.old.keys():
            self.cachedir.put(self.name, pickle.dumps(self.new, protocol=pickle.HIGHEST_PROTOCOL))


def is_node_list(nodes) -> bool:
    return isinstance(nodes, list) and all(isinstance(n, c_ast.Node) for n in nodes)


def keep_prototype(parser, cache, nodes, proto, file, first, col, types) -> None:
    """A definition's declaration, kept as its prototype's parse: what a later lowering
    that has its IR parses instead (NOTE [declaration-cache])."""
    if len(nodes) == 1 and isinstance(nodes[0], c_ast.FuncDef) and parser.last:
        key = cache.key(proto, file, first, col, types)
        if key is not None:
            cache.save(key, file, first, [nodes[0].decl], parser.last)

def parse_one(parser, cache, chunk, file, first, col, types):
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
