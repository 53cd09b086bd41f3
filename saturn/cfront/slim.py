"""Dropping the bodies of header functions a file never mentions, before parsing.

NOTE [lazy-headers]: a kernel file's preprocessed text is ~55k lines, most of it static inline
functions of headers that the file never calls; parsing them took half the parse time and
lowering them most of the lowering time. A token scan (no parse) finds the top-level function
definitions that come from other files and keeps those whose names the main file mentions,
directly or through kept bodies; the others become prototypes (`{...}` → `;`, newlines kept
so line numbers do not move). Mentioning is a superset of calling, so every body the analysis
can reach stays; the lowering then lowers only bodies something calls (ir/lower.py).
"""
from __future__ import annotations

import re

_TOKEN = re.compile(r"""(?P<marker>^\#[^\n]*$)|(?P<str>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
                    r"""|(?P<id>[A-Za-z_]\w*)|(?P<p>[{}();=])""", re.M)
_MARKER = re.compile(r'^#\s*\d+\s+"([^"]*)"')
_ATTRIBUTE = ("__attribute__", "__attribute")
_NOT_A_NAME = {"sizeof", "typeof", "__typeof__", "__typeof", "asm", "__asm__", "__asm",
               "_Alignof", "__alignof__", "if", "while", "for", "switch", "return"}


def slim(text: str, main_file: str) -> str:
    """The text with unmentioned header function bodies turned into `;`."""
    try:
        bodies, spans, mentioned = _scan(text, main_file)
    except _Unbalanced:
        return text
    keep, work = set(), [n for n in mentioned if n in bodies]
    keep.update(work)
    while work:
        for name in bodies[work.pop()]:
            if name in bodies and name not in keep:
                keep.add(name)
                work.append(name)
    out, last = [], 0
    for name, start, end in spans:
        if name in keep:
            continue
        out += [text[last:start], ";", "\n" * text.count("\n", start, end)]
        last = end
    out.append(text[last:])
    return "".join(out)


class _Unbalanced(Exception):
    pass


def _scan(text, main_file):
    bodies: dict[str, set] = {}
    spans: list[tuple[str, int, int]] = []
    mentioned: set[str] = set()
    depth = parens = 0
    in_main, has_eq, prev = True, False, []  # before any line marker: the file itself
    name = start = ids = None
    for m in _TOKEN.finditer(text):
        kind, v = m.lastgroup, m.group()
        if kind == "marker":
            mm = _MARKER.match(v)
            if mm:
                in_main = mm.group(1) == main_file
            continue
        if kind == "str":
            continue
        if kind == "id":
            if in_main:
                mentioned.add(v)
            if ids is not None:
                ids.add(v)
        if depth > 0:
            depth += (v == "{") - (v == "}")
            if depth == 0:
                if name is not None:
                    spans.append((name, start, m.end()))
                    bodies.setdefault(name, set()).update(ids)
                name = ids = None
                has_eq, prev = False, []
            continue
        if v in "()":
            parens += 1 if v == "(" else -1
            if parens < 0:
                raise _Unbalanced()
        elif parens == 0 and v == "=":
            has_eq = True
        elif parens == 0 and v == ";":
            has_eq, prev = False, []
            continue
        elif parens == 0 and v == "{":
            depth = 1
            fname = None if has_eq or in_main else _function_name(prev)
            name, start, ids = (fname, m.start(), set()) if fname else (None, None, None)
            prev = []
            continue
        elif v == "}":
            raise _Unbalanced()
        prev.append(v)
    if depth or parens:
        raise _Unbalanced()
    return bodies, spans, mentioned


def _function_name(prev):
    """The name of the function whose body follows these tokens, or None (struct bodies,
    initializers): the identifier before the parameter list, past trailing attributes."""
    i = len(prev) - 1
    while i >= 0 and prev[i] == ")":
        depth, j = 0, i
        while j >= 0:
            depth += (prev[j] == ")") - (prev[j] == "(")
            if depth == 0:
                break
            j -= 1
        if j < 1:
            return None
        before = prev[j - 1]
        if before in _ATTRIBUTE:
            i = j - 2
        elif before == "(" and j >= 2 and prev[j - 2] in _ATTRIBUTE:
            i = j - 3
        elif before[0].isalpha() or before[0] == "_":
            return None if before in _NOT_A_NAME else before
        else:
            return None
    return None
