"""Several definitions of one external name: a compile database with several programs (each
with its `main`, tools with their own `usage` or `die`).

NOTE [linking]: every definition is kept and analysed. The first one in the files' order keeps
the plain key (the name); each other one is keyed `file:name`, as a static function is. A
direct call of the name resolves as a linker would give that caller: to the definition in its
own file, else to the one whose file is nearest in the tree (the longest common directory: the
same program's directory before a sibling's), else the first. Calls are rewritten only when a
function is analysed (`apply`); the call graph sees the resolved keys at once (`resolve`
updates the callers' callees), so summaries flow along the edges a linker would make.
"""
from __future__ import annotations

import dataclasses
import os

from . import nodes as N


def keep_duplicate(functions: dict, fn: N.Function) -> N.Function | None:
    """`fn` under its own key when an external definition of its name from another file is
    there already (a copy: the unit's own object is left as the lowering made it); None when
    it is not a second definition."""
    old = functions.get(fn.key)
    if old is None or fn.static or old.file == fn.file:
        return None
    twin = fn.__class__.__new__(fn.__class__)
    twin.__dict__.update(fn.__dict__)
    twin.key = f"{fn.file}:{fn.name}"
    return twin


def resolve(program) -> None:
    """For each caller of a name defined more than once, the definition its calls reach
    (`program.links`), and its callees changed to match (NOTE [linking])."""
    defined: dict[str, list] = {}
    for key, fn in program.functions.items():
        if not fn.static and key != fn.name and ":" in key:
            defined.setdefault(fn.name, []).append(fn)
    if not defined:
        return
    for name, others in defined.items():
        if name in program.functions:
            defined[name] = [program.functions[name]] + others
    for key, fn in program.functions.items():
        links = {name: _nearest(defined[name], fn.file).key for name in fn.callees
                 if name in defined}
        links = {name: to for name, to in links.items() if to != name}
        if links:
            program.links[key] = links
            fn.callees = {links.get(c, c) for c in fn.callees}


def _nearest(definitions: list, file: str):
    """The definition a caller in `file` links to: its own file's, else the nearest in the
    tree, else the first."""
    here = os.path.dirname(file)

    def shared(fn) -> int:
        if fn.file == file:
            return 1 << 30
        common = os.path.commonpath([here, os.path.dirname(fn.file)]) \
            if os.path.isabs(here) == os.path.isabs(fn.file) else ""
        return len(common)
    return max(definitions, key=shared)   # (max keeps the first of equals)


def apply(fn: N.Function, links: dict) -> N.Function:
    """A copy of `fn` whose direct calls of (and addresses taken of) the linked names go to
    the definitions `links` gives."""
    def expr(e):
        if isinstance(e, N.FuncAddr):
            return dataclasses.replace(e, name=links[e.name]) if e.name in links else e
        if not isinstance(e, (N.Expr, N.Lvalue)):
            return e
        changed = {f.name: expr(getattr(e, f.name)) for f in dataclasses.fields(e)}
        if all(changed[k] is getattr(e, k) for k in changed):
            return e
        return dataclasses.replace(e, **changed)

    def stmt(s):
        if isinstance(s, N.Call):
            return dataclasses.replace(s, lv=expr(s.lv), func=expr(s.func),
                                       args=tuple(map(expr, s.args)),
                                       callee=links.get(s.callee, s.callee))
        if isinstance(s, N.Assign):
            return dataclasses.replace(s, lv=expr(s.lv), value=expr(s.value))
        return s

    blocks = {bid: N.Block(b.id, [stmt(s) for s in b.stmts],
                           _term(b.term, expr), b.loop_exit_of)
              for bid, b in fn.blocks.items()}
    fields = {f.name: getattr(fn, f.name) for f in dataclasses.fields(N.Function)}
    return N.Function(**dict(fields, blocks=blocks))


def _term(term, expr):
    if isinstance(term, N.Branch):
        return dataclasses.replace(term, cond=expr(term.cond))
    return term
