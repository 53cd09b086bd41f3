"""Lowering C expressions: side effects become statements, `&&`/`||`/`?:` with side effects
become control flow, and what is left is a side-effect-free IR expression."""
from __future__ import annotations

from pycparser import c_ast, c_generator

from . import indirect
from . import nodes as N
from . import types as T
from .consteval import parse_int_literal, parse_char_literal

COMPILER_BUILTINS = ("__builtin_", "__sync_", "__atomic_")   # gcc's prefixes
C23_CONSTANTS = {"true": (1, T.BOOL), "false": (0, T.BOOL), "nullptr": (0, T.VOIDP)}

_ARITH = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod", "&": "and", "|": "or",
          "^": "xor", "<<": "shl", ">>": "shr"}
_COMPARE = {"==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}
_SIDE_EFFECT_NODES = (c_ast.FuncCall, c_ast.Assignment, c_ast.Compound)
_GEN = c_generator.CGenerator()

# NOTE [linear-lowering]: lowering does a bounded amount of work per AST node. An expression's
# type is known only by lowering it, so a value whose type decides what is emitted before it
# (the temporary of `c ? x : y` with side effects) is lowered first and typed afterwards, and
# `type_of` (sizeof, typeof, __auto_type, _Generic) remembers each node's type. Lowering an
# operand again at every level would be exponential in the nesting: the kernel's old `ilog2()`
# nests 64 `?:` ending in a call, and `min(min(a, b), c)` nests `typeof` in statement
# expressions.


def source_text(node) -> str:
    _GEN.indent_level = 0  # a visit that raised leaves it raised: the text would depend on it
    try:
        return _GEN.visit(node)
    except Exception:  # the generator does not know every pycparserext node
        return "<expr>"


def has_side_effects(node, derefs: bool = False) -> bool:
    """Calls, assignments, ++/--; with `derefs`, also dereferences — which assume their pointer
    is not null (§2.2.4.3), so `p && p->x` must evaluate `p->x` only where p holds."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, _SIDE_EFFECT_NODES):
            return True
        if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            return True
        if derefs and (isinstance(n, c_ast.ArrayRef) or (isinstance(n, c_ast.UnaryOp) and n.op == "*")
                       or (isinstance(n, c_ast.StructRef) and n.type == "->")):
            return True
        stack.extend(child for _, child in n.children())
    return False


def const(value: int, t: T.CType = T.INT) -> N.Const:
    return N.Const(t, value)


class ExprLowering:
    """Mixed into the function lowerer; needs `b` (Builder), `scope`, `types`, `coord()`."""

    # -- entry points ------------------------------------------------------------------------
    def expr(self, node):
        fn = getattr(self, "_x_" + type(node).__name__, None)
        if fn is None:
            return self.unknown(T.INT, node, f"expression {type(node).__name__}")
        return fn(node)

    def rv(self, node) -> N.Expr:
        return self.to_rvalue(self.expr(node))

    def lv(self, node) -> N.Lvalue:
        r = self.expr(node)
        if isinstance(r, N.Lvalue):
            return r
        tmp = self.b.temp(r.type)
        self.b.emit(N.Assign(self.coord(node), N.VarLv(r.type, tmp), r))
        return N.VarLv(r.type, tmp)

    def to_rvalue(self, r) -> N.Expr:
        if isinstance(r, N.Expr):
            return r
        if isinstance(r.type, T.ArrT):
            first = N.IndexLv(r.type.elem, r, const(0, T.LONG))
            return N.AddrOf(T.PtrT(r.type.elem), first)
        if isinstance(r.type, T.FuncT):
            return N.AddrOf(T.PtrT(r.type), r)
        return N.Read(r.type, r)

    def unknown(self, t, node, why: str = "") -> N.Unknown:
        if why:
            self.b.note(self.coord(node), why)
        return N.Unknown(t, why)

    def convert(self, e: N.Expr, t: T.CType) -> N.Expr:
        if isinstance(t, T.VoidT) or e.type is t or (e.type.key() == t.key()):
            return e
        return N.Cast(t, e)

    def type_of(self, node) -> T.CType:
        """The type of an expression without evaluating it (sizeof, typeof), found by lowering
        it into scratch blocks once per node (NOTE [linear-lowering])."""
        got = self.expr_types.get(id(node))
        if got is None or got[0] is not node:
            with self.b.scratch():
                got = self.expr_types[id(node)] = (node, self.expr(node).type)
        return got[1]

    # -- leaves -----------------------------------------------------------------------------
    def _x_ID(self, node):
        entry = self.scope.lookup(node.name)
        if isinstance(entry, N.Symbol):
            return N.VarLv(entry.type, entry)
        if isinstance(entry, tuple):
            if entry[0] == "enum":
                return const(entry[1])
            if entry[0] == "func":
                return N.FuncAddr(T.PtrT(entry[2]), entry[1])
        if node.name in ("__func__", "__FUNCTION__", "__PRETTY_FUNCTION__"):
            return N.StrLit(T.PtrT(T.CHAR), getattr(self, "fn_name", ""))
        if node.name.startswith(COMPILER_BUILTINS):   # declared everywhere (lower_call.py)
            return N.FuncAddr(T.PtrT(T.FuncT(T.INT, (), True)), node.name)
        if node.name in C23_CONSTANTS:   # keywords in C23, undeclared names before it
            return const(*C23_CONSTANTS[node.name])
        return self.unknown(T.INT, node, f"undeclared identifier '{node.name}'")

    def _x_Constant(self, node):
        text = node.value
        if node.type == "string":
            return N.StrLit(T.PtrT(T.CHAR), text)
        if text.endswith("'"):
            return const(parse_char_literal(text))
        if node.type in ("float", "double", "long double") or (
                "." in text or ("e" in text.lower() and not text.lower().startswith("0x"))):
            return N.Unknown(T.FloatT(32) if text[-1] in "fF" else T.DOUBLE, "")
        try:
            value, t = parse_int_literal(text)
        except ValueError:
            return N.Unknown(T.DOUBLE, "")
        c = const(value, t)
        if node.coord is not None and text == str(node.coord.line):   # (NOTE [line-literals])
            self.b.line_literals[id(c)] = id(node)
        return c

    # -- operators --------------------------------------------------------------------------
    def _x_UnaryOp(self, node):
        op = node.op
        if op in ("sizeof", "_Alignof", "__alignof__", "alignof", "__alignof"):
            t = (self.types.resolve(node.expr, self.scope) if isinstance(node.expr, c_ast.Typename)
                 else self.type_of(node.expr))
            return const(t.size if op == "sizeof" else t.align, T.ULONG)
        if op == "&":
            target = self.expr(node.expr)
            if isinstance(target, N.FuncAddr):
                return target
            if isinstance(target, N.Lvalue):
                return N.AddrOf(T.PtrT(target.type), target)
            return self.unknown(T.VOIDP, node, "address of an rvalue")
        if op == "*":
            p = self.rv(node.expr)
            if not isinstance(p.type, T.PtrT):
                return self.unknown(T.INT, node, "dereference of a non-pointer")
            if isinstance(p.type.target, T.FuncT):
                return p
            return N.DerefLv(p.type.target, p)
        if op in ("++", "--", "p++", "p--"):
            return self.incdec(node, op)
        if op == "&&":   # which label a computed goto reaches is not modelled (_s_Goto)
            self.b.label_addresses.add(node.expr.name)
            return N.Unknown(T.VOIDP, "")
        a = self.rv(node.expr)
        if op == "!":
            return N.Unary(T.INT, "lnot", a)
        if op in ("__real__", "__imag__", "__real", "__imag"):
            return N.Unknown(a.type, "")
        if isinstance(a.type, T.FloatT):
            return N.Unknown(a.type, "")
        pt = T.promote(a.type)
        a = self.convert(a, pt)
        return {"-": N.Unary(pt, "neg", a), "~": N.Unary(pt, "bnot", a), "+": a}.get(op, a)

    def incdec(self, node, op):
        target = self.lv(node.expr)
        old = N.Read(target.type, target)
        one = const(1)
        if isinstance(target.type, T.PtrT):
            new = N.PtrAdd(target.type, old, const(-1 if "-" in op else 1, T.LONG))
        else:
            wide = T.usual_arith(target.type, T.INT)
            new = self.convert(N.Binary(wide, "sub" if "-" in op else "add",
                                        self.convert(old, wide), self.convert(one, wide)),
                               target.type)
        coord = self.coord(node)
        if op.startswith("p"):
            saved = self.b.temp(target.type)
            self.b.emit(N.Assign(coord, N.VarLv(target.type, saved), old))
            self.b.emit(N.Assign(coord, target, new))
            return N.Read(target.type, N.VarLv(target.type, saved))
        self.b.emit(N.Assign(coord, target, new))
        return N.Read(target.type, target)

    def _x_BinaryOp(self, node):
        op = node.op
        if op in ("&&", "||"):
            if has_side_effects(node.right, derefs=True):
                return self.branch_value(node)
            a, b = self.rv(node.left), self.rv(node.right)
            return N.Binary(T.INT, "land" if op == "&&" else "lor", a, b)
        return self.binary(op, self.rv(node.left), self.rv(node.right), node)

    def binary(self, op, a: N.Expr, b: N.Expr, node) -> N.Expr:
        ta, tb = a.type, b.type
        if op in _COMPARE:
            if isinstance(ta, T.PtrT) or isinstance(tb, T.PtrT):
                pt = ta if isinstance(ta, T.PtrT) else tb
                return N.Binary(T.INT, _COMPARE[op], self.convert(a, pt), self.convert(b, pt))
            ct = T.usual_arith(ta, tb)
            return N.Binary(T.INT, _COMPARE[op], self.convert(a, ct), self.convert(b, ct))
        if op in ("+", "-") and (isinstance(ta, T.PtrT) or isinstance(tb, T.PtrT)):
            return self.pointer_arith(op, a, b)
        if isinstance(ta, T.FloatT) or isinstance(tb, T.FloatT):
            return N.Unknown(T.usual_arith(ta, tb), "")
        if op in ("<<", ">>"):
            pt = T.promote(ta)
            return N.Binary(pt, _ARITH[op], self.convert(a, pt), self.convert(b, T.promote(tb)))
        ct = T.usual_arith(ta, tb)
        if op not in _ARITH:
            return self.unknown(ct, node, f"operator {op}")
        return N.Binary(ct, _ARITH[op], self.convert(a, ct), self.convert(b, ct))

    def pointer_arith(self, op, a, b):
        if isinstance(a.type, T.PtrT) and isinstance(b.type, T.PtrT):
            return N.PtrDiff(T.LONG, a, b)
        if isinstance(b.type, T.PtrT):
            a, b = b, a
        offset = self.convert(b, T.LONG)
        if op == "-":
            offset = N.Unary(T.LONG, "neg", offset)
        return N.PtrAdd(a.type, a, offset)

    def _x_Assignment(self, node):
        target = self.lv(node.lvalue)
        value = self.rv(node.rvalue)
        if node.op != "=":
            value = self.binary(node.op[:-1], N.Read(target.type, target), value, node)
        self.assign(target, value, node)
        return N.Read(target.type, target)

    def assign(self, target: N.Lvalue, value: N.Expr, node) -> None:
        stored = indirect.stored_function(target, value)   # NOTE [indirect-calls]
        if stored is not None:
            self.b.fn_stores.add(stored)
        if isinstance(target.type, (T.StructT, T.ArrT)) and isinstance(value, N.Read):
            self.b.emit(N.Assign(self.coord(node), target, value))
            return
        self.b.emit(N.Assign(self.coord(node), target, self.convert(value, target.type)))

    def _x_TernaryOp(self, node):
        pure = not any(has_side_effects(n, derefs=True) for n in (node.iftrue, node.iffalse)
                       if n is not None)
        if node.iftrue is None or not pure:
            return self.branch_value(node)
        c = self.rv(node.cond)
        a, b = self.rv(node.iftrue), self.rv(node.iffalse)
        t = self.join_type(a.type, b.type)
        return N.Select(t, c, self.convert(a, t), self.convert(b, t))

    def join_type(self, ta, tb):
        if isinstance(ta, T.PtrT):
            return ta if not isinstance(ta.target, T.VoidT) or not isinstance(tb, T.PtrT) else tb
        if isinstance(tb, T.PtrT):
            return tb
        if isinstance(ta, (T.StructT, T.VoidT)):
            return ta
        return T.usual_arith(ta, tb)

    def branch_value(self, node):
        """`a && b`, `a || b`, `c ? x : y` whose operands have side effects: control flow into a
        temporary. `x ?: y` evaluates x once. Each arm is lowered once, before the temporary's
        type is known (NOTE [linear-lowering])."""
        ternary = isinstance(node, c_ast.TernaryOp)
        first = self.lv(node.cond) if ternary and node.iftrue is None else None
        t_blk, f_blk, done = self.b.new_block(), self.b.new_block(), self.b.new_block()
        if first is not None:
            self.b.end(N.Branch(N.Read(first.type, first), t_blk.id, f_blk.id, self.coord(node),
                                source_text(node.cond)))
        else:
            self.cond(node.cond if ternary else node, t_blk, f_blk)
        ends = []   # (the block an arm ends in, its value)
        for blk, sub, fixed in ((t_blk, getattr(node, "iftrue", None), 1),
                                (f_blk, getattr(node, "iffalse", None), 0)):
            self.b.start(blk)
            value = const(fixed) if not ternary else \
                N.Read(first.type, first) if sub is None else self.rv(sub)
            ends.append((self.b.cur or self.b.new_block(), value))
            self.b.cur = None
        rt = self.join_type(ends[0][1].type, ends[1][1].type) if ternary else T.INT
        result = self.b.temp(rt if not isinstance(rt, T.VoidT) else T.INT)
        res_lv = N.VarLv(result.type, result)
        for blk, value in ends:
            self.b.cur = blk
            if not isinstance(rt, T.VoidT):
                self.assign(res_lv, value, node)
            self.b.goto(done)
        self.b.start(done)
        return N.Read(result.type, res_lv)

    def cond(self, node, t_blk, f_blk) -> None:
        """Branch to t_blk when the C condition holds, else to f_blk (short-circuit)."""
        if isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||"):
            mid = self.b.new_block()
            if node.op == "&&":
                self.cond(node.left, mid, f_blk)
            else:
                self.cond(node.left, t_blk, mid)
            self.b.start(mid)
            self.cond(node.right, t_blk, f_blk)
            return
        if isinstance(node, c_ast.UnaryOp) and node.op == "!":
            self.cond(node.expr, f_blk, t_blk)
            return
        e = self.rv(node)
        self.b.end(N.Branch(e, t_blk.id, f_blk.id, self.coord(node), source_text(node)))

    def _x_Cast(self, node):
        t = self.types.resolve(node.to_type, self.scope)
        e = self.rv(node.expr)
        if isinstance(t, T.VoidT):
            return N.Unknown(T.VOID, "")
        return self.convert(e, t)

    def _x_ExprList(self, node):
        result = None
        for e in node.exprs:
            result = self.expr(e)
        return result if result is not None else N.Unknown(T.VOID, "")

    def _x_StructRef(self, node):
        if node.type == "->":
            p = self.rv(node.name)
            base_t = p.type.target if isinstance(p.type, T.PtrT) else None
            base = N.DerefLv(base_t, p) if base_t is not None else None
        else:
            base = self.lv(node.name)
            base_t = base.type
        if not isinstance(base_t, T.StructT) or base is None:
            return self.unknown(T.INT, node, "member of a non-struct")
        ft = base_t.field_type(node.field.name)
        if ft is None:
            return self.unknown(T.INT, node, f"unknown member '{node.field.name}'")
        return N.FieldLv(ft, base, node.field.name)

    def _x_ArrayRef(self, node):
        base, sub = self.expr(node.name), node.subscript
        if not (isinstance(base, N.Lvalue) and isinstance(base.type, T.ArrT)) and \
                not isinstance(self.to_rvalue(base).type, T.PtrT):
            base, sub = self.expr(node.subscript), node.name  # `i[a]`
        idx = self.convert(self.rv(sub), T.LONG)
        if isinstance(base, N.Lvalue) and isinstance(base.type, T.ArrT):
            return N.IndexLv(base.type.elem, base, idx)
        p = self.to_rvalue(base)
        if not isinstance(p.type, T.PtrT):
            return self.unknown(T.INT, node, "subscript of a non-pointer")
        return N.DerefLv(p.type.target, N.PtrAdd(p.type, p, idx))

    def _x_CompoundLiteral(self, node):
        t = self.types.resolve(node.type, self.scope)
        tmp = self.b.temp(t, "literal")
        target = N.VarLv(t, tmp)
        self.initialize(target, node.init, node)
        return target

    def _x_Compound(self, node):
        return self.statement_expression(node)

    def _x_GenericSelection(self, node):
        key = T.decay(self.type_of(node.expr)).key()
        default = None
        for assoc in node.associations:
            if assoc.type is None:
                default = assoc.expr
            elif self.types.resolve(assoc.type, self.scope).key() == key:
                return self.expr(assoc.expr)
        return self.expr(default) if default is not None else self.unknown(T.INT, node, "_Generic")

    def _x_Typename(self, node):
        return N.Unknown(self.types.resolve(node, self.scope), "")

    def _x_Asm(self, node):
        return self.unknown(T.LONG, node, "inline assembly")
