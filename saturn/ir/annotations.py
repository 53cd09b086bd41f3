"""Attributes on function declarations, as the lowering sees them, for checkers to interpret.

`__attribute__((name(args)))` becomes (name, args) with the underscores around the name dropped.
An argument is an integer constant, the interface path of the memory a parameter names (`lock`:
[param i, deref]; `&p->a.b` or `p->a.b`: [param i, deref, field a, field b]), an identifier's
name, or None. With `__CHECKER__` defined, the kernel's sparse annotations `__acquires(x)`,
`__releases(x)` and `__must_hold(x)` are such attributes: `context(x, in, out)`, which the lock
checker reads as specs for functions without a body.
"""
from __future__ import annotations

from pycparser import c_ast


def declaration_attributes(decl: c_ast.Decl, param_names: list[str]) -> tuple:
    """((name, (arg, ...)), ...) in the order written, each attribute once."""
    out = []
    for attr in _attributes(decl):
        if isinstance(attr, c_ast.ID):
            item = (attr.name.strip("_"), ())
        elif isinstance(attr, c_ast.FuncCall) and isinstance(attr.name, c_ast.ID):
            exprs = attr.args.exprs if attr.args is not None else []
            item = (attr.name.name.strip("_"), tuple(_argument(e, param_names) for e in exprs))
        else:
            continue
        if item not in out:
            out.append(item)
    return tuple(out)


def _argument(node, params: list[str]):
    value = _int(node)
    if value is not None:
        return value
    steps = _steps(node, params)
    if steps is not None:
        return steps
    return node.name if isinstance(node, c_ast.ID) else None


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
    return (("param", params.index(node.name)),) + tuple(tuple(f) for f in fields[::-1])
