"""Which functions of a unit the function cache has: their keys.

NOTE [function-cache]: an edit of one function must not lower every function of its file
again. A definition of the file's own text
is kept lowered (entries.py) under a hash of its own text — file, column, and lines with gcc's
markers made relative to its first line (NOTE [line-shift] in lines.py; its line literals
too, NOTE [line-literals]) — and of its
*context*: every declaration kept before it (prune.py), markers without their numbers, the
other function definitions by their prototypes only. Lowering a body reads the declarations
before it and, unless it is impure (NOTE [scope-effects] in ir/lower.py), writes nothing else:
an impure definition's whole text goes into later contexts, and it is not kept (an `IMPURE`
mark under its key says so next time). An edit inside a pure body thus changes no other key.
Purity is known only after lowering: the keys are first computed with each definition taken
as the last run found it (a new one as pure), and computed again if the lowering says
otherwise (units.py).
"""
from __future__ import annotations

import hashlib

from .lines import Markers, line_literals, relative_markers, without_marker_lines

IMPURE = b""   # the entry of an impure definition


def prototype(chunk: str) -> str | None:
    """A definition's text before its body; None when there is none to stand for it (a K&R
    parameter list, a struct defined in its return type)."""
    brace = chunk.find("{")
    head = chunk[:brace]
    if brace < 0 or head.count("(") != head.count(")"):   # a struct in the return type
        depth = 0
        for k, ch in enumerate(chunk):
            depth += (ch == "(") - (ch == ")")
            if ch == "{" and depth == 0:
                head = chunk[:k]
                break
        else:
            return None
        if "{" in head:
            return None
    head = head.rstrip()
    return head if head.endswith(")") else None


def column(text: str, pos: int) -> int:
    return pos - text.rfind("\n", 0, pos)


def function_keys(salt: str, text: str, decls: list, spans: list, is_pure,
                  markers: Markers | None = None) -> tuple:
    """({index: its keys} of each definition of the file's own text among `decls` (with
    `spans`, lines.decl_spans), the context after the last declaration): under its text with
    its line literals as `__LINE__` and, when those differ, as it is (NOTE [line-literals]);
    none when it cannot be kept. `is_pure(index, keys)` says whether a definition is pure
    (NOTE [function-cache]). `markers`: the text's, if found already."""
    markers = markers or Markers(text)
    context, keys = hashlib.sha256(salt.encode()), {}
    for i, d in enumerate(decls):
        file, first, _ = spans[i]
        chunk = text[d.start:d.end]
        fold = chunk
        if d.body and d.main:
            marks = markers.within(d.start, d.end)
            exact = relative_markers(chunk, file, first, marks, d.start)
            literal = line_literals(chunk, first, marks, exact)[0]
            moving = exact if literal is chunk else \
                exact and relative_markers(literal, file, first)
            where = f"\1{file}\0{column(text, d.start)}\0"
            keys[i] = () if exact is None else tuple(
                _hashed(context, where + own) for own in dict.fromkeys((moving, exact)))
            if is_pure(i, keys[i]):
                fold = prototype(chunk) or chunk
        elif d.body:
            fold = prototype(chunk) or chunk
        context.update(f"\2{file}\0{without_marker_lines(fold)}".encode(
            "utf-8", "surrogateescape"))
    return keys, context.hexdigest()


def _hashed(context, own: str) -> str:
    h = context.copy()
    h.update(own.encode("utf-8", "surrogateescape"))
    return h.hexdigest()[:40]
