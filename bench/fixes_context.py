"""Which files the history bench (bench/fixes.py) analyses beside a commit's changed files, so
that what the commit's functions call has a summary: the files defining the functions they
reach, read as text (bench/fixes_sources.py).

A callee is found through the project's function-like macros too (multipath-tools' `MALLOC(n)`
is `zalloc(n)`, nng's `NNI_ALLOC_STRUCT(s)` is `nni_zalloc(sizeof(*s))`), and through the
changed files' own functions. Files come nearest first, counted in files crossed from a
commit's function; among files as near, those whose functions call the C library's memory,
handle or lock functions come first: a project's allocator, closer or lock layer is the bottom
of every chain of summaries above it, and without it each of them is an unknown call.
"""
from __future__ import annotations

import heapq
import os
import re
import tomllib

import fixes_sources as sources

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIBC = os.path.join(ROOT, "checkers", "library", "libc.toml")
MAX_HOPS = 8              # calls followed from a commit's function, at most
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)]*\))?((?:[^\n]*\\\n)*[^\n]*)",
                     re.M)


def library_names() -> set[str]:
    """The functions checkers/library/libc.toml gives a memory, handle or lock effect."""
    with open(LIBC, "rb") as fh:
        specs = tomllib.load(fh)["spec"]
    return {n for e in specs for n in e.get("functions", [e.get("function")]) if n}


def macro_calls(tree: str) -> dict[str, set[str]]:
    """Each macro of the tree's .c and .h files → the names its bodies call (a name a macro
    stands for, `#define MALLOC zalloc`, counts as called); every definition is taken, in
    whichever #if branch it is."""
    out: dict[str, set[str]] = {}
    for dirpath, dirnames, names in os.walk(tree):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for n in sorted(names):
            if not n.endswith((".c", ".h")):
                continue
            text = open(os.path.join(dirpath, n), errors="replace").read()
            for m in _DEFINE.finditer(text):
                body = m.group(3).replace("\\\n", " ")
                called = sources.calls_in(body)
                if not m.group(2) and re.fullmatch(r"\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*", body):
                    called = {body.strip(" \t()")}
                out.setdefault(m.group(1), set()).update(called)
    return out


class Graph:
    """Functions (and global variables) of the candidate files, with what each calls."""

    def __init__(self, tree: str, files: list[str], extra: list[str]):
        self.tree, self.texts = tree, {}
        self.defs: dict[str, list[tuple[str, tuple[int, int] | None]]] = {}
        for t in sources.ctags(sorted(set(files) | set(extra)), tree, "fv"):
            span = (t["line"], t.get("end", t["line"])) if t.get("kind") == "function" else None
            self.defs.setdefault(t["name"], []).append((t["path"], span))
        self.macros = macro_calls(tree)

    def text(self, path: str) -> str:
        if path not in self.texts:
            self.texts[path] = open(os.path.join(self.tree, path), errors="replace").read()
        return self.texts[path]

    def calls(self, path: str, span: tuple[int, int] | None) -> set[str]:
        """The names `span` of `path` calls (the whole file's when None), macros expanded."""
        todo, seen, out = list(sources.calls_in(self.text(path), span)), set(), set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            if name in self.defs or name in LIBRARY:
                out.add(name)
            todo += self.macros.get(name, ())
        return out

    def target(self, name: str, caller: str) -> tuple[str, tuple[int, int] | None] | None:
        """Where a call of `name` from `caller`'s file goes: the definition nearest it."""
        if name not in self.defs:
            return None
        path = sources.nearest(sorted({p for p, _ in self.defs[name]}), caller)
        spans = [s for p, s in self.defs[name] if p == path and s is not None]
        return path, (spans[0] if spans else None)


LIBRARY = library_names()


def reached(g: Graph, changed: set[str], starts: list[tuple[str, str]]) -> dict:
    """file → (files crossed, calls followed, names reached there), nearest first, from the
    commit's functions `starts` ((file, name)); a call into a changed file crosses none."""
    best: dict[tuple[str, str], tuple[int, int]] = {}
    heap = []
    for path, name in starts:
        for p, span in g.defs.get(name, []):
            if p == path and span is not None:
                heapq.heappush(heap, (0, 0, p, name, span))
    files: dict[str, list] = {}
    while heap:
        cross, hops, path, name, span = heapq.heappop(heap)
        if (path, name) in best:
            continue
        best[(path, name)] = (cross, hops)
        if path not in changed:
            f = files.setdefault(path, [cross, hops, set()])
            f[2].add(name)
        if hops >= MAX_HOPS or span is None:
            continue
        for callee in sorted(g.calls(path, span)):
            to = g.target(callee, path)
            if to is not None and (to[0], callee) not in best:
                heapq.heappush(heap, (cross + (to[0] not in changed), hops + 1, to[0], callee,
                                      to[1]))
    return files


def wraps_library(g: Graph, path: str, names: set[str]) -> bool:
    """Whether one of `names`, defined in `path`, calls a function libc.toml specifies."""
    for name in names:
        for p, span in g.defs.get(name, []):
            if p == path and span is not None and g.calls(path, span) & LIBRARY:
                return True
    return False


def ranked(tree: str, files: list[str], changed: list[str], functions: list[str]) -> list[str]:
    """The candidate `files` (not the changed ones) by use to the commit: those its functions
    reach, nearest first and the library's wrappers first among the nearest; then those
    defining the most of what the changed files call anywhere."""
    g = Graph(tree, files, changed)
    near = reached(g, set(changed), [(rel, f) for rel in changed for f in functions])
    order = sorted(near, key=lambda p: (near[p][0], not wraps_library(g, p, near[p][2]),
                                        near[p][1], -len(near[p][2]), p))
    count: dict[str, int] = {}
    for rel in changed:
        for name in g.calls(rel, None):
            to = g.target(name, rel)
            if to is not None and to[0] not in changed:
                count[to[0]] = count.get(to[0], 0) + 1
    rest = sorted(count, key=lambda p: (-count[p], p))
    return list(dict.fromkeys(order + rest))
