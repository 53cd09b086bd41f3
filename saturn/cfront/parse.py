"""Parsing preprocessed text into pycparser ASTs: the whole text, or one top-level declaration
at a time.

NOTE [declaration-parse]: a declaration's parse depends only on its text, where it stands (its
file, first line and column) and which names in it are typedef names there; the parser's file
scope is the only state one declaration leaves for the next. `Declarations` parses the
declarations prune.py kept one by one, each with the file scope the ones before it left, so
that a caller may take some declarations' nodes from elsewhere (the declaration cache,
incremental/declarations.py) and replay the names they declared instead of parsing them.
"""
from __future__ import annotations

import re

from pycparser import c_ast

from .gnu_parser import SaturnParser
from .preprocess import FrontEndError

_COORD = re.compile(r"^(?P<file>.*?):(?P<line>\d+)(?::(?P<col>\d+))?:?\s*(?P<msg>.*)$")


def parse_text(text: str, path: str) -> c_ast.FileAST:
    """The AST of a whole preprocessed text; raise FrontEndError with `file:line:col: error:`."""
    try:
        return SaturnParser().parse(text, path)
    except Exception as exc:  # pycparser raises ParseError, and sometimes plain errors
        raise FrontEndError(_compiler_style(str(exc), path)) from None


class Declarations:
    """The file scope of a text parsed one declaration at a time (NOTE [declaration-parse])."""

    def __init__(self, path: str):
        self.path, self.parser = path, SaturnParser()
        self.scope: dict[str, bool] = dict.fromkeys(SaturnParser.initial_type_symbols, True)
        self.last: list = []   # the names the last declaration parsed declared

    def parse(self, text: str, file: str, line: int, column: int) -> tuple[list, list]:
        """(the nodes of `text`, a declaration starting at `line`:`column` of `file` as a line
        marker names it, the names it declared); raise FrontEndError."""
        placed = f'# {line} "{file}"\n' + " " * (column - 1) + text
        try:
            nodes, self.last = self.parser.parse_in_scope(placed, self.path, self.scope)
            return nodes, self.last
        except Exception as exc:
            raise FrontEndError(_compiler_style(str(exc), self.path)) from None

    def declare(self, names) -> None:
        """What parsing a declaration that declared `names` would have left in the scope."""
        self.scope.update(names)

    def types_among(self, names) -> list[str]:
        """The typedef names among `names` here (what parsing a text with them depends on)."""
        scope = self.scope
        return sorted(n for n in names if scope.get(n))


def _compiler_style(message: str, path: str) -> str:
    m = _COORD.match(message)
    if m and m.group("file"):
        col = m.group("col") or "1"
        return f"{m.group('file')}:{m.group('line')}:{col}: error: {m.group('msg') or 'syntax error'}"
    return f"{path}:1:1: error: {message or 'syntax error'}"
