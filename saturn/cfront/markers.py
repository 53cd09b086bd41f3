"""What the line markers of a preprocessed text say: which file each line comes from, and which
of those files are the translation unit's own text.

NOTE [own-files]: a function is the file's own — analysed, and reported in — when its text is
not inside an `#include`: at include depth 0, as gcc's markers count it (flag 1 enters an
included file, flag 2 returns from one), whatever name the markers give that text. So a
preprocessed input (`# 1 "drivers/x.c"`, as a `.i` or gcc -E's output saved under any name)
has its functions in the file its markers name first, and a generated `.c` whose `#line 2
"gen.c"` names itself, or its grammar file, keeps its functions under that name.

A marker's name is matched as gcc wrote it: its escapes undone (`\\"`, `\\\\`, and `\\ooo` for
a byte), and, when relative, taken relative to the directory the compiler ran in (the compile
command's `directory`; for a file given on the command line, the file's own directory). Names
are compared as the file system gives them: bytes that are not UTF-8 are read as
`surrogateescape` does (os.fsdecode's convention).
"""
from __future__ import annotations

import os
import re

# gcc's line markers, `# 12 "path" flags` (a quote or backslash in the path escaped): line, path,
# flags. Written as a `#` at the start of a line (not `^`, re.M: a search tried that at every
# line, this jumps from `#` to `#`).
LINE_MARKER = re.compile(r'#(?<![^\n]#)[ \t]*(\d+)[ \t]+"((?:[^"\\\n]|\\.)*)"([ \t\d]*)')
_ESCAPE = re.compile(r"\\([0-7]{1,3}|.)")
_FIRST = re.compile(r'[ \t]*#[ \t]*\d+[ \t]+"')   # a text whose first line is a marker


def unescape(name: str) -> str:
    """A marker's name as the file system knows it."""
    if "\\" not in name:
        return name

    def one(m):
        c = m[1]
        return os.fsdecode(bytes([int(c, 8) & 0xFF])) if c[0] in "01234567" else c
    return _ESCAPE.sub(one, name)


def is_preprocessed(head: str) -> bool:
    """Whether a file's first line is a line marker as gcc -E writes them (`# 1 "x.c"`): its
    text is preprocessed already, as a `.i` is (`#line 2 "x.c"`, which flex and bison write at
    the top of their unpreprocessed output, does not count)."""
    return _FIRST.match(head) is not None


def own_names(text: str, found=None) -> set[str]:
    """The names (as written) the markers give the text at include depth 0 (NOTE
    [own-files]), but for gcc's `<built-in>` and `<command-line>`. `found`: the text's
    markers (matches of LINE_MARKER), if found already."""
    own, depth = set(), 0
    for m in LINE_MARKER.finditer(text) if found is None else found:
        flags = m[3].split()
        if "1" in flags:
            depth += 1
        elif "2" in flags and depth:
            depth -= 1
        if depth == 0 and not m[2].startswith("<"):
            own.add(m[2])
    return own


class Names:
    """Markers' names resolved to paths, once each, relative to the directory the compiler ran
    in (NOTE [own-files])."""

    def __init__(self, directory: str):
        self.directory, self.paths = directory or os.getcwd(), {}

    def path(self, name: str) -> str:
        got = self.paths.get(name)
        if got is None:
            plain = unescape(name)
            got = plain if plain.startswith("<") else \
                os.path.normpath(os.path.join(self.directory, plain))
            self.paths[name] = got
        return got


def shown(path: str) -> str:
    """A path as reports show it: a byte that is not UTF-8 as `\\xNN` (NOTE [own-files])."""
    if path.isascii():
        return path
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
