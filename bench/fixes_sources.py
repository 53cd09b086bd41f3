"""What the C sources of an extracted tree define and call, read as text (universal-ctags and
a regular expression): the definitions of names, the calls in a function's lines, the line
ranges of the commit's functions (for the peers' reports), for bench/fixes_inputs.py.
"""
from __future__ import annotations

import json
import os
import re
import subprocess

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)
_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def ctags(paths: list[str], cwd: str, kinds: str = "f") -> list[dict]:
    """Universal-ctags' definitions (name, path, line, end) in `paths`: functions (f), and
    global variables too with kinds="fv"."""
    if not paths:
        return []
    proc = subprocess.run(["ctags", "--languages=C", f"--kinds-C={kinds}", "--fields=+ne",
                           "--output-format=json", "-o", "-", "-L", "-"], cwd=cwd,
                          input="\n".join(paths), capture_output=True, text=True,
                          errors="replace")
    out = []
    for line in proc.stdout.splitlines():
        try:
            tag = json.loads(line)
        except ValueError:
            continue
        if tag.get("_type") == "tag" and "line" in tag:
            out.append(tag)
    return out


def calls_in(text: str, lines: tuple[int, int] | None = None) -> set[str]:
    """Names called in `text` (comments and literals removed), or in its lines a..b only."""
    if lines:
        text = "\n".join(text.split("\n")[lines[0] - 1:lines[1]])
    return set(_CALL.findall(_COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)))


def nearest(paths: list[str], to: str) -> str:
    """Of several definitions, the one nearest `to` in the tree (as a linker would most
    likely pick: its own directory first)."""
    def shared(p):
        return len(os.path.commonpath([os.path.dirname(p) or ".", os.path.dirname(to) or "."]))
    return sorted(paths, key=lambda p: (-shared(p), p))[0]


_FUNC_MACRO = re.compile(r"[A-Z_]+_FUNC")


def function_ranges(tree: str, rel: str, functions: list[str]) -> dict[str, list]:
    """Line ranges of the commit's functions in one file: universal-ctags' definitions
    (lighttpd's `URIHANDLER_FUNC(name)` headers named by their argument, as commits.json
    names them), else a column-0 header and the next column-0 `}` (ctags loses track in
    some #ifdef'd code)."""
    path = os.path.join(tree, rel)
    lines = open(path, errors="replace").read().split("\n")
    out: dict[str, list] = {}
    for t in ctags([rel], tree):
        name = t["name"]
        if _FUNC_MACRO.fullmatch(name) and t["line"] - 1 < len(lines):
            m = re.search(r"_FUNC\s*\(\s*([A-Za-z_]\w*)", lines[t["line"] - 1])
            name = m.group(1) if m else name
        if name in functions:
            out.setdefault(name, []).append([t["line"], t.get("end", t["line"])])
    for fn in functions:
        if fn not in out and (found := _header_ranges(lines, fn)):
            out[fn] = found
    return out


def _header_ranges(lines: list[str], fn: str) -> list:
    head = re.compile(r"^(?:[A-Za-z_][\w\s\*,()]*?[\s\*])?" + re.escape(fn) + r"\s*\(")
    out = []
    for i, line in enumerate(lines):
        if line[:1].isspace() or line.startswith("#") or line.rstrip().endswith(";"):
            continue
        if head.match(line):
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("}")), None)
            if end is not None:
                out.append([i + 1, end + 1])
    return out
