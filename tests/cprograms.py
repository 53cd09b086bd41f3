"""The inline-expectation convention for tests/c (docs/DESIGN.md "Tests").

`// expect: KIND` on a line: a report of KIND must be issued on that line (several kinds may be
listed, comma-separated). A report on a line without it fails the test. `// expect-also: KIND`:
a place of a block already reported earlier in the function, shown as a note (`and here: ...`)
of that report, not as a report of its own. `// expect-summary: F: TEXT` must appear in F's
plain-words summary. A file whose first lines say `// saturn-xfail: REASON` is a
known miss and runs as an expected failure.
"""
from __future__ import annotations

import os
import re

_EXPECT = re.compile(r"//\s*expect:\s*([\w.\-, ]+)")
_ALSO = re.compile(r"//\s*expect-also:\s*([\w.\-, ]+)")
_SUMMARY = re.compile(r"//\s*expect-summary:\s*([^:]+):\s*(.+?)\s*$")
_XFAIL = re.compile(r"//\s*saturn-xfail:\s*(.+)")


def c_programs(area_dir: str) -> list[str]:
    """Files are programs; a folder of .c files is one program of several translation units."""
    out = []
    for name in sorted(os.listdir(area_dir)):
        path = os.path.join(area_dir, name)
        if name.endswith(".c") or (os.path.isdir(path) and any(
                n.endswith(".c") for n in os.listdir(path))):
            out.append(path)
    return out


def sources(program: str) -> list[str]:
    if os.path.isdir(program):
        return sorted(os.path.join(program, n) for n in os.listdir(program) if n.endswith(".c"))
    return [program]


def also_expected(program: str) -> set:
    """The (file, line, kind) places shown as notes of an earlier report (`// expect-also:`)."""
    out = set()
    for src in sources(program):
        with open(src, encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                m = _ALSO.search(line)
                if m:
                    out.update((os.path.basename(src), n, k.strip())
                               for k in m.group(1).split(",") if k.strip())
    return out


def also_shown(reports) -> set:
    """The (file, line, kind) of the `and here: ...` notes, the kind told by the words."""
    return {(os.path.basename(note.file), note.line,
             "memory.double-free" if "already freed" in note.note else "memory.use-after-free")
            for r in reports for note in r.trace if note.note.startswith("and here: ")}


def expectations(program: str):
    expected, summaries, xfail = set(), [], None
    for src in sources(program):
        with open(src, encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, 1):
                m = _EXPECT.search(line)
                if m:
                    for kind in m.group(1).split(","):
                        if kind.strip():
                            expected.add((os.path.basename(src), lineno, kind.strip()))
                m = _SUMMARY.search(line)
                if m:
                    summaries.append((m.group(1).strip(), m.group(2).strip()))
                m = _XFAIL.search(line)
                if m and lineno <= 5:
                    xfail = m.group(1).strip()
    return expected, summaries, xfail
