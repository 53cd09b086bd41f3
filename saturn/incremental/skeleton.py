"""A file's last lowering, reused around the definitions an edit changed.

NOTE [unit-skeleton]: an edit inside one function's body must not lower the file's other
declarations again (an amalgamation's thousands of prototypes, structs and tables). A unit's
*skeleton* is what its lowering made besides its own definitions: globals and their
initialisers, struct types, attributes, warnings, and the header bodies its functions call
(NOTE [lazy-headers]). Everything it depends on is in its *layout key*: the function cache's
last context (every declaration, the pure definitions by their prototypes: NOTE
[function-cache]), each declaration's column, the header bodies whole, and the line markers
inside a declaration relative to its first line. When the layout key is the last lowering's,
the unit is that skeleton with its lines moved as their declarations moved, the header bodies
no function of the file calls any more left out, and the file's own definitions put in: the
function cache's, and the others (the edited ones, the impure ones, in their order, so that
what an impure body declares is seen by those after it) lowered with only the declarations
they need (cfront/prune.py `needed_by`), moved onto the skeleton's structs and globals as a
cached definition is (NOTE [function-entries]). Pure definitions write nothing
the skeleton holds (NOTE [scope-effects]), so the unit is the one a whole lowering makes; any
doubt (a header body moved or newly called, a definition found impure or not lowered, a
warning, a file whose line numbers come twice) lowers the whole file instead.
"""
from __future__ import annotations

import bisect
import dataclasses
import hashlib

from ..ir import nodes as N
from ..ir.program import function_uses, mark_uses
from .functions import column
from .lines import moved_place, relative_markers

def layout_key(context: str, text: str, decls: list, spans: list, pure: set) -> str:
    """The layout key of a unit whose function-cache context ended as `context`, its own
    definitions at the indexes `pure` being pure."""
    h = hashlib.sha256(context.encode())
    for i, d in enumerate(decls):
        part = str(column(text, d.start))
        if not (d.main and i in pure) and (
                (d.body and not d.main) or text.find("\n#", d.start, d.end) >= 0):
            chunk, (file, first, _) = text[d.start:d.end], spans[i]
            part += "\0" + (relative_markers(chunk, file, first) or chunk)
        h.update(f"\3{part}".encode("utf-8", "surrogateescape"))
    return h.hexdigest()[:40]


class Shift:
    """Where a line of the last lowering's text is now: each declaration's lines moved as its
    first line did. `old`, `new`: (file, first line[, last line]) of each declaration;
    `shown`: a marker's name as coordinates give it."""

    def __init__(self, old: list, new: list, shown):
        steps: dict = {}
        for (file, was), (_, now, *_) in zip(old, new):
            steps.setdefault(shown(file), []).append((was, now - was))
        # A file whose lines come again in the text (`#line`) tells no line where it went.
        self.ambiguous = any(s != sorted(s) for s in steps.values())
        self.steps = {f: ([w for w, _ in s], [d for _, d in s])
                      for f, s in ((f, sorted(s)) for f, s in steps.items())}
        self.moved = any(a[1] != b[1] for a, b in zip(old, new))

    def line(self, file: str, line: int) -> int:
        firsts, by = self.steps.get(file, ((), ()))
        k = bisect.bisect_right(firsts, line) - 1
        return line + by[k] if k >= 0 else line

    def coord(self, c: N.Coord) -> N.Coord:
        line = self.line(c.file, c.line)
        return c if line == c.line else N.Coord(c.file, line, c.col)

    def text(self, message: str) -> str:
        return moved_place(message, self.line)


def stays(unit, own: set, shift: Shift) -> bool:
    """Whether the skeleton's header bodies are where they were."""
    return not shift.moved or all(
        fn is None or fn.file in own or shift.line(fn.file, fn.line) == fn.line
        for fn in unit.functions.values())


def strip(unit, own: set, statics: dict, shift: Shift) -> None:
    """The skeleton of a stored unit: its own definitions and their static locals
    (`statics`: by definition) out, its lines moved."""
    unit.functions = {k: fn for k, fn in unit.functions.items()
                      if fn is not None and fn.file not in own}
    for keys in statics.values():
        for key in keys:
            unit.globals.pop(key, None)
    for g in unit.globals.values():
        if shift.moved and g.inits:
            g.inits = [dataclasses.replace(st, coord=shift.coord(st.coord))
                       if isinstance(st, N.Stmt) else st for st in g.inits]
    if shift.moved:
        unit.warnings = [shift.text(w) for w in unit.warnings]


def remark(unit, own: set, uses: list, bodies: dict) -> None:
    """The skeleton made whole again once the file's own definitions are in (`uses`: the
    globals' uses theirs make; `bodies`: the header bodies stored as entries, with theirs):
    only the header bodies they call, the globals' uses marked anew."""
    unit.prune_to(own)
    for g in unit.globals.values():
        g.written = g.address_taken = False
    for key, fn in unit.functions.items():
        if key in bodies:
            uses.append(bodies[key][1])
        elif type(fn) is N.Function:   # a header body not kept as an entry
            uses.append(function_uses(fn))
    for written, taken in uses:
        mark_uses(unit, written, taken)
