"""Scopes and the resolution of pycparser declarations into IR types (with LP64 layout)."""
from __future__ import annotations

import hashlib

from pycparser import c_ast
from pycparser.c_generator import CGenerator

from . import types as T
from .consteval import ConstEval

MAX_ENUMERATORS = 64   # an enum's enumerators a witness may choose among


class Scope:
    """One lexical scope: ordinary identifiers (symbols, typedefs, enum constants) and tags."""

    def __init__(self, parent: "Scope | None" = None):
        self.parent = parent
        self.names: dict[str, object] = {}   # Symbol | ("typedef", CType) | ("enum", int) | ("func", key)
        self.tags: dict[str, T.CType] = {}

    def _find(self, table: str, name: str):
        s = self
        while s is not None:
            found = getattr(s, table)
            if name in found:
                return found[name]
            s = s.parent
        return None

    def lookup(self, name: str):
        return self._find("names", name)

    def lookup_tag(self, name: str):
        return self._find("tags", name)


def _attr_names(node) -> set[str]:
    """Names of GNU attributes hanging on a pycparserext declarator node."""
    found: set[str] = set()
    attrs = getattr(node, "attributes", None)
    for expr in getattr(attrs, "exprs", None) or []:
        target = expr.name if isinstance(expr, c_ast.FuncCall) else expr
        if isinstance(target, c_ast.ID):
            found.add(target.name.strip("_"))
    return found


class TypeResolver:
    """Turns pycparser type trees into IR types; `expr_type` is supplied by the lowering."""

    def __init__(self, expr_type=None):
        self.expr_type = expr_type
        self.consts = ConstEval(self)
        self.outer_completions = 0   # tags completed in an enclosing scope (ir/lower.py)

    def resolve(self, node, scope: Scope) -> T.CType:
        fn = getattr(self, "_t_" + type(node).__name__, None)
        if fn is None:
            return T.INT
        return fn(node, scope)

    # -- declarators ------------------------------------------------------------------------
    def _t_TypeDecl(self, node, scope):
        return self.resolve(node.type, scope)

    _t_TypeDeclExt = _t_TypeDecl

    def _t_Typename(self, node, scope):
        return self.resolve(node.type, scope)

    def _t_Decl(self, node, scope):
        base = self.resolve(node.type, scope)
        if node.bitsize is not None and isinstance(base, T.IntT):
            width = self.consts.eval(node.bitsize, scope)
            if width is not None and 0 < width <= base.bits:
                return T.IntT(width, base.signed and not base.is_bool, base.is_bool)
        return base

    def _t_PtrDecl(self, node, scope):
        return T.PtrT(self.resolve(node.type, scope))

    def _t_ArrayDecl(self, node, scope):
        elem = self.resolve(node.type, scope)
        count = self.consts.eval(node.dim, scope) if node.dim is not None else None
        return T.ArrT(elem, count if count is None or count >= 0 else None)

    _t_ArrayDeclExt = _t_ArrayDecl

    def _t_FuncDecl(self, node, scope):
        ret = self.resolve(node.type, scope)
        params, readonly, variadic = [], [], False
        for p in (node.args.params if node.args else []):
            if isinstance(p, c_ast.EllipsisParam):
                variadic = True
                continue
            decl = p.type if isinstance(p, (c_ast.Decl, c_ast.Typename)) else p
            pt = T.decay(self.resolve(decl, scope))
            if not isinstance(pt, T.VoidT):
                params.append(pt)
                readonly.append(isinstance(pt, T.PtrT) and _points_to_const(decl))
        noreturn = "noreturn" in _attr_names(node)
        return T.FuncT(ret, tuple(params), variadic, noreturn, readonly=tuple(readonly))

    _t_FuncDeclExt = _t_FuncDecl

    # -- specifiers -------------------------------------------------------------------------
    def _t_IdentifierType(self, node, scope):
        entry = scope.lookup(node.names[0]) if len(node.names) == 1 else None
        if isinstance(entry, tuple) and entry[0] == "typedef":
            return entry[1]   # (a program's own `bool` before C23)
        base = T.base_type(node.names)
        if base is not None:
            return base
        for name in node.names:
            entry = scope.lookup(name)
            if isinstance(entry, tuple) and entry[0] == "typedef":
                return entry[1]
        if "__auto_type" in node.names:
            return T.LONG  # replaced by the initializer's type where one is given
        return T.INT

    def _t_TypeOfExpression(self, node, scope):
        # A function's name does not decay here: the kernel's EXPORT_SYMBOL(f) declares
        # `extern typeof(f) f;`, a prototype — as a pointer variable, later calls lost f.
        entry = scope.lookup(node.expr.name) if isinstance(node.expr, c_ast.ID) else None
        if isinstance(entry, tuple) and entry[0] == "func":
            return entry[2]
        return self.expr_type(node.expr, scope) if self.expr_type else T.LONG

    def _t_TypeOfDeclaration(self, node, scope):
        return self.resolve(node.declaration, scope)

    def _t_Enum(self, node, scope):
        """int, with the enumerators (those of the tag's definition, for `enum tag x`)."""
        tag = f"enum {node.name}" if node.name else None
        if node.values is None:
            return (scope.lookup_tag(tag) if tag else None) or T.INT
        value, members = 0, []
        for e in node.values.enumerators:
            if e.value is not None:
                got = self.consts.eval(e.value, scope)
                value = got if got is not None else value
            scope.names[e.name] = ("enum", value)
            members.append((e.name, value))
            value += 1
        t = T.IntT(32, True, enum=tuple(members[:MAX_ENUMERATORS]))
        if tag:
            scope.tags[tag] = t
        return t

    def _t_Struct(self, node, scope, union=False):
        tag = node.name
        if tag is None:
            tag = _anonymous_tag(node)
        st = scope.lookup_tag(tag) if node.name else None
        if st is None or (node.decls is not None and st.complete and scope.tags.get(tag) is not st):
            st = T.StructT(tag, union)
            (scope if node.decls is not None or node.name is None else self._tag_scope(scope, tag)
             ).tags[tag] = st
        if node.decls is not None and not st.complete:
            if scope.tags.get(tag) is not st:   # a tag of an outer scope: NOTE [scope-effects]
                self.outer_completions += 1
            st.complete_with(self._fields(node.decls, scope), packed="packed" in _attr_names(node))
        return st

    def _t_Union(self, node, scope):
        return self._t_Struct(node, scope, union=True)

    def _tag_scope(self, scope, tag):
        s = scope
        while s.parent is not None and tag not in s.tags:
            s = s.parent
        return s if tag in s.tags else scope

    def _fields(self, decls, scope) -> list[tuple[str, T.CType]]:
        fields: list[tuple[str, T.CType]] = []
        for d in decls:
            if not isinstance(d, c_ast.Decl):
                continue
            ftype = self._t_Decl(d, scope)
            if d.name is None:
                if isinstance(ftype, T.StructT):
                    fields.extend(ftype.fields)  # an anonymous struct/union: its fields lift up
                continue
            fields.append((d.name, ftype))
        return fields


def _anonymous_tag(node) -> str:
    """An anonymous struct's tag from its text, not from how many came before it: a function's
    digest must not change when declarations it does not use come or go (NOTE [lazy-headers]).
    Two anonymous structs with one text share a tag; they have one layout."""
    text = CGenerator().visit(node)
    return f"<anonymous:{hashlib.sha1(text.encode()).hexdigest()[:12]}>"


def _points_to_const(decl) -> bool:
    """Whether a parameter's declarator is a pointer to a const-qualified type (`const T *`,
    `const T[]`), as written (a typedef's qualifiers are not looked into)."""
    if isinstance(decl, (c_ast.PtrDecl, c_ast.ArrayDecl)):
        return "const" in (getattr(decl.type, "quals", None) or [])
    return False
