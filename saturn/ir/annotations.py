"""Sparse's lock annotations on function declarations, as the lowering sees them.

With `__CHECKER__` defined, the kernel's `__acquires(x)`, `__releases(x)` and `__must_hold(x)`
become `__attribute__((context(x, in, out)))`. Each names a lock through the function's
parameters (`lock`, `&p->lock`, `p->lock`); we keep those as interface paths relative to the
parameter, with the operation the context change means: (0, 1) acquire, (1, 0) release,
(1, 1) held (a precondition). Contexts naming no parameter (`RCU`, a global) are ignored.
The lock checker uses them as specs for functions without a body (NOTE [call-protocol]).
"""
from __future__ import annotations

from pycparser import c_ast

_OPS = {(0, 1): "acquire", (1, 0): "release", (1, 1): "held"}


def context_specs(decl: c_ast.Decl, param_names: list[str]) -> list[tuple[str, list]]:
    """[(operation, steps)] where steps start with ["param", i]."""
    out = []
    for attr in _attributes(decl):
        if not (isinstance(attr, c_ast.FuncCall) and isinstance(attr.name, c_ast.ID)
                and attr.name.name.strip("_") == "context" and attr.args is not None
                and len(attr.args.exprs) == 3):
            continue
        target, before, after = attr.args.exprs
        op = _OPS.get((_int(before), _int(after)))
        steps = _steps(target, param_names)
        if op is not None and steps is not None:
            out.append((op, steps))
    return out


def cleanup_function(decl: c_ast.Decl) -> str | None:
    """`__attribute__((cleanup(f)))` on a local: f runs on the variable's address when it goes
    out of scope (the kernel's guard()/scoped_guard() lock guards)."""
    for attr in _attributes(decl):
        if isinstance(attr, c_ast.FuncCall) and isinstance(attr.name, c_ast.ID) and \
                attr.name.name.strip("_") == "cleanup" and attr.args is not None and \
                len(attr.args.exprs) == 1 and isinstance(attr.args.exprs[0], c_ast.ID):
            return attr.args.exprs[0].name
    return None


def param_names(decl: c_ast.Decl) -> list[str]:
    node = decl.type
    while node is not None and not isinstance(node, str) and \
            not isinstance(getattr(node, "args", None), c_ast.ParamList):
        node = getattr(node, "type", None)
    params = getattr(getattr(node, "args", None), "params", None) or []
    return [getattr(p, "name", None) or "" for p in params]


def _attributes(decl):
    for spec in getattr(decl, "funcspec", None) or []:
        exprs = getattr(getattr(spec, "exprlist", None), "exprs", None)
        yield from exprs or []
    node = decl.type
    while node is not None and not isinstance(node, str):
        yield from getattr(getattr(node, "attributes", None), "exprs", None) or []
        node = getattr(node, "type", None)


def _int(node):
    try:
        return int(node.value, 0) if isinstance(node, c_ast.Constant) else None
    except ValueError:
        return None


def _steps(node, params: list[str]):
    """`lock` → [param i, deref]; `&p->a.b` or `p->a.b` → [param i, deref, field a, field b]."""
    if isinstance(node, c_ast.UnaryOp) and node.op == "&":
        node = node.expr
    fields = []
    while isinstance(node, c_ast.StructRef):
        fields.append(["field", node.field.name])
        if node.type == "->":
            fields.append(["deref"])
        node = node.name
    if not isinstance(node, c_ast.ID) or node.name not in params:
        return None
    if not fields:
        fields = [["deref"]]
    return [["param", params.index(node.name)]] + fields[::-1]
