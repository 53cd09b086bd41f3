"""The one normalisation of lines and `__LINE__` the caches share.

NOTE [line-shift]: what a cache keeps must not change when lines are added above it. A
function's text is keyed with gcc's line markers inside it made relative to its first line, its
context with the markers' numbers left out (functions.py); its IR is kept with coordinates in
its own file relative to its first line (entries.py), and its digest counts them from there
(digest.py), so a reused result's report and note lines are moved with it (results.py).

NOTE [line-constants]: `assert` and macros such as SQLite's SQLITE_CORRUPT_BKPT pass
`__LINE__`, and a line added above such a function changes a number in it. In the IR's digest
an integer constant equal to its statement's line is `__LINE__` (in the statement's text too),
and the values met are kept in `fn.line_values`; a reused result that mentions one of them
elsewhere than at its own place is analysed again (results.py). The function cache keys the
exact text, unless its line literals move with it (NOTE [line-literals]).

NOTE [line-literals]: a function below an added line that passes `__LINE__` (an `assert`,
SQLite's SQLITE_CORRUPT_BKPT) changes its text, though its IR only moves. Its text is also
keyed with its *line literals* (decimal numbers equal to the line they stand on, outside string
and character literals) written `__LINE__` (`line_literals`), and kept under that key when its
IR moves with its lines exactly: each literal became constants of the IR (the lowering marks
them: ir/lower.py's Lowered), no such number is written in the text otherwise, the digest's
line values are those, and only call and branch texts write them (entries.py `moving_part`).
Those constants and texts are then kept relative to the function's first line. Otherwise it is
kept under its exact text.
"""
from __future__ import annotations

import bisect
import functools
import os
import re
from collections import Counter

from ..cfront.markers import LINE_MARKER

NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")   # a decimal number in C or JSON text
# ... or a C string or character literal (matched whole, so no number inside one is found)
NUMBER_OR_LITERAL = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|""" +
                               NUMBER.pattern)
# A marker's number as gcc and clang write it (one search, no template to expand: a marker
# written otherwise keeps its number, which only makes a key more particular).
_MARKER_NUMBER = re.compile(r"(?:(?<=^#)|(?<=^# ))\d+", re.M)


def number_as(text: str, number: str, by: str, pattern=NUMBER) -> str:
    """`text` with each decimal number `number` (as `pattern` finds numbers) written `by`: a
    line constant as `__LINE__`, or moved (NOTE [line-constants])."""
    return pattern.sub(lambda m: by if m[0] == number else m[0], text)


_WHERE = re.compile(r"^([^:]*):(\d+):")   # a note's or a message's place


def moved_place(text: str, line_of) -> str:
    """`text` (`file:line: ...`) with its line made `line_of(file, line)`."""
    m = _WHERE.match(text)
    if m is None:
        return text
    return f"{m[1]}:{line_of(m[1], int(m[2]))}:{text[m.end():]}"


def without_marker_lines(text: str) -> str:
    """The text with its line markers' numbers left out (NOTE [line-shift])."""
    return _MARKER_NUMBER.sub("", text) if "#" in text else text


class Markers:
    """The line markers of one text (matches of LINE_MARKER), found once: its own files, its
    declarations' lines and its definitions' keys all read them."""

    def __init__(self, text: str):
        self.found = list(LINE_MARKER.finditer(text))
        self.starts = [m.start() for m in self.found]

    def within(self, start: int, end: int) -> list:
        """Those inside text[start:end] (their places counted in the whole text)."""
        return self.found[bisect.bisect_left(self.starts, start):
                          bisect.bisect_left(self.starts, end)]


def markers_in(chunk: str) -> list:
    """The line markers inside a chunk (matches of LINE_MARKER)."""
    return list(LINE_MARKER.finditer(chunk)) if "\n#" in chunk else []


def relative_markers(chunk: str, file: str, first: int, marks=None, base: int = 0) \
        -> str | None:
    """The chunk (its first line `first` of `file`; `marks`: markers_in(chunk), or the
    markers inside it of a text where the chunk starts at `base`) with its line markers'
    numbers relative to that line; None when a marker names another file (the chunk does not
    move as one)."""
    if "\n#" not in chunk:
        return chunk
    marks = markers_in(chunk) if marks is None else marks
    if len(marks) != chunk.count("\n#") or any(m[2] != file for m in marks):
        return None
    parts, at = [], 0
    for m in marks:
        parts += (chunk[at:m.start() - base], f"# +{int(m[1]) - first} \"\"")
        at = m.end() - base
    parts.append(chunk[at:])
    return "".join(parts)


def decl_spans(text: str, decls, markers: Markers | None = None) -> list[tuple[str, int, int]]:
    """(file, first line, last line) of each declaration, as the line markers give them."""
    markers = (markers or Markers(text)).found
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


def line_literals(chunk: str, first: int, marks=None, probe: str | None = None) \
        -> tuple[str, Counter, Counter]:
    """(the chunk, its first line `first`, with its line literals written `__LINE__`; how many
    times each number is written in it as a line literal; how many times at all) (NOTE
    [line-literals]). `marks`: markers_in(chunk); `probe`: the chunk with other numbers in
    its markers (relative_markers), if known."""
    marks = [int(m[1]) for m in (markers_in(chunk) if marks is None else marks)]
    lo, hi = min([first] + marks), max([first] + marks) + chunk.count("\n")
    # Most have none: a number in [lo, hi] has their digits' count and common leading digits,
    # so one `in` and one search for numbers of that many digits (markers' left out) rule
    # most chunks out.
    width = len(str(lo)) if len(str(lo)) == len(str(hi)) else 0
    lead = os.path.commonprefix([str(lo), str(hi)]) if width else ""
    body = chunk if not marks else probe or without_marker_lines(chunk)   # (markers hold
    #                                                                          the lead)
    if lead not in body or not any(lo <= int(n) <= hi for n in
                                   (_numbers_of(width) if width else NUMBER).findall(body)):
        return chunk, Counter(), Counter()
    own, every, out = Counter(), Counter(), chunk.split("\n")
    for k, here, ln in _numbered(out, first):
        for m in NUMBER_OR_LITERAL.finditer(ln):
            if m[0][0] not in "\"'":
                every[m[0]] += 1
                own[m[0]] += m[0] == here
        if here in ln:
            out[k] = number_as(ln, here, "__LINE__", NUMBER_OR_LITERAL)
    return "\n".join(out), +own, every


@functools.lru_cache(maxsize=None)
def _numbers_of(width: int):
    """The decimal numbers (as NUMBER finds them) of `width` digits."""
    return re.compile(r"(?<![\w.])\d{%d}(?![\w.])" % width)


def _numbered(lines: list, line: int):
    """(index, its line as the markers count, as text, the line) of each line but markers."""
    for k, ln in enumerate(lines):
        if ln.startswith("#"):
            m = LINE_MARKER.match(ln)
            line = int(m[1]) if m else line + 1   # a marker names the line after it
            continue
        yield k, str(line), ln
        line += 1
