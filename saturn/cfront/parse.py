"""Parsing preprocessed text into a pycparser AST."""
from __future__ import annotations

import re
from dataclasses import dataclass

from pycparser import c_ast

from ..collector import no_gc
from .bodycache import decl_spans
from .gnu_parser import SaturnParser
from .preprocess import FrontEndError, text_hash
from .prune import fewer_markers, prune_decls

_COORD = re.compile(r"^(?P<file>.*?):(?P<line>\d+)(?::(?P<col>\d+))?:?\s*(?P<msg>.*)$")


@dataclass
class TranslationUnit:
    path: str
    ast: c_ast.FileAST
    text_hash: str
    lines: int
    pruned: str | None = None   # the text the AST was parsed from, split into `decls` (None:
    decls: list | None = None   # the whole text was parsed), and the definitions parsed as
    stubs: set | None = None    # stubs: NOTE [function-cache]
    spans: list | None = None   # decl_spans(pruned, decls)


def parse_text(text: str, path: str, bodies=None, functions=None) -> TranslationUnit:
    """Parse preprocessed text, with the declarations and header scan `bodies` (a BodyCache)
    has (NOTE [body-cache], NOTE [incremental-scan]) and, for the definitions `functions` (a
    FunctionCache) has lowered, stubs; raise FrontEndError with
    `file:line:col: error: ...`."""
    with no_gc():
        pruned, decls = prune_decls(text, path, bodies)
        spans = decl_spans(pruned, decls) if bodies is not None and decls else None
        stubs = functions.predict(pruned, decls, spans) if functions is not None and decls \
            else set()
        try:
            ast = bodies.parse(pruned, decls, path, stubs, spans) \
                if bodies is not None and decls else None
            if ast is None:   # (NOTE [fewer-markers] in prune.py)
                ast, stubs = SaturnParser().parse(fewer_markers(pruned), path), set()
        except Exception:  # NOTE [lazy-headers]: a wrong guess costs time, not the file
            try:
                ast, decls = SaturnParser().parse(fewer_markers(text), path), None
            except Exception as exc:  # pycparser raises ParseError, and sometimes plain errors
                raise FrontEndError(_compiler_style(str(exc), path)) from None
    return TranslationUnit(path, ast, text_hash(text), text.count("\n"),
                           pruned if decls else None, decls or None, stubs if decls else set(),
                           spans if decls else None)


def _compiler_style(message: str, path: str) -> str:
    m = _COORD.match(message)
    if m and m.group("file"):
        col = m.group("col") or "1"
        return f"{m.group('file')}:{m.group('line')}:{col}: error: {m.group('msg') or 'syntax error'}"
    return f"{path}:1:1: error: {message or 'syntax error'}"
