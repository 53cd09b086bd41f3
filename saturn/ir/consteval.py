"""Integer constant expressions of C (array sizes, enum values, case labels, bit-field widths)."""
from __future__ import annotations

from pycparser import c_ast

from . import types as T

_BIN = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: int(a / b) if b else None, "%": lambda a, b: a - int(a / b) * b if b else None,
    "<<": lambda a, b: a << b if 0 <= b < 128 else None, ">>": lambda a, b: a >> b if b >= 0 else None,
    "&": lambda a, b: a & b, "|": lambda a, b: a | b, "^": lambda a, b: a ^ b,
    "<": lambda a, b: int(a < b), ">": lambda a, b: int(a > b), "<=": lambda a, b: int(a <= b),
    ">=": lambda a, b: int(a >= b), "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b),
    "&&": lambda a, b: int(bool(a) and bool(b)), "||": lambda a, b: int(bool(a) or bool(b)),
}


def parse_int_literal(text: str) -> tuple[int, T.IntT]:
    """The value and C type of an integer literal (suffixes and the C11 rule for unsuffixed)."""
    body = text.rstrip("uUlL")
    suffix = text[len(body):].lower()
    if body.lower().startswith("0x"):
        value = int(body, 16)
    elif body.lower().startswith("0b"):
        value = int(body[2:], 2)
    elif len(body) > 1 and body.startswith("0"):
        value = int(body, 8)
    else:
        value = int(body)
    unsigned = "u" in suffix
    decimal = not body.startswith("0") or body == "0"
    if "l" in suffix:
        return value, (T.ULONG if unsigned or value >= 2**63 else T.LONG)
    if unsigned:
        return value, (T.UINT if value < 2**32 else T.ULONG)
    if value < 2**31:
        return value, T.INT
    if not decimal and value < 2**32:
        return value, T.UINT
    return value, (T.LONG if value < 2**63 else T.ULONG)


def parse_char_literal(text: str) -> int:
    body = text[text.index("'") + 1:-1]
    if body.startswith("\\"):
        esc = body[1:]
        simple = {"n": 10, "t": 9, "r": 13, "0": 0, "\\": 92, "'": 39, '"': 34, "a": 7, "b": 8,
                  "f": 12, "v": 11, "e": 27, "?": 63}
        if esc.startswith("x"):
            value = int(esc[1:], 16)
        elif esc[:1].isdigit():
            value = int(esc, 8)
        else:
            value = simple.get(esc, ord(esc[:1] or "\0"))
    else:
        value = ord(body[:1]) if body else 0
    value &= 0xFF
    return value - 256 if value >= 128 and not text.startswith(("L", "u", "U")) else value


class ConstEval:
    def __init__(self, resolver):
        self.resolver = resolver

    def eval(self, node, scope) -> int | None:
        fn = getattr(self, "_c_" + type(node).__name__, None)
        try:
            return fn(node, scope) if fn else None
        except (ValueError, TypeError, ZeroDivisionError, RecursionError):
            return None

    def _c_Constant(self, node, scope):
        if node.type == "char" or node.value.endswith("'"):
            return parse_char_literal(node.value)
        if node.type in ("float", "double"):
            return None
        return parse_int_literal(node.value)[0]

    def _c_ID(self, node, scope):
        entry = scope.lookup(node.name)
        if entry is None and node.name in ("true", "false"):   # C23 keywords
            return int(node.name == "true")
        return entry[1] if isinstance(entry, tuple) and entry[0] == "enum" else None

    def _c_UnaryOp(self, node, scope):
        if node.op in ("sizeof", "_Alignof", "__alignof__", "alignof", "__alignof"):
            t = self._operand_type(node.expr, scope)
            if t is None:
                return None
            return t.size if node.op == "sizeof" else t.align
        v = self.eval(node.expr, scope)
        if v is None:
            return None
        return {"-": -v, "+": v, "~": ~v, "!": int(not v)}.get(node.op)

    def _operand_type(self, node, scope):
        if isinstance(node, c_ast.Typename):
            return self.resolver.resolve(node, scope)
        return self.resolver.expr_type(node, scope) if self.resolver.expr_type else None

    def _c_BinaryOp(self, node, scope):
        a, b = self.eval(node.left, scope), self.eval(node.right, scope)
        if a is None or b is None or node.op not in _BIN:
            return None
        return _BIN[node.op](a, b)

    def _c_TernaryOp(self, node, scope):
        c = self.eval(node.cond, scope)
        if c is None:
            return None
        return self.eval(node.iftrue if c and node.iftrue is not None else
                         (node.cond if c else node.iffalse), scope)

    def _c_Cast(self, node, scope):
        v = self.eval(node.expr, scope)
        t = self.resolver.resolve(node.to_type, scope)
        if v is None or not isinstance(t, T.IntT):
            return v
        v &= (1 << t.bits) - 1
        return v - (1 << t.bits) if t.signed and v >> (t.bits - 1) else v

    def _c_FuncCall(self, node, scope):
        name = node.name.name if isinstance(node.name, c_ast.ID) else None
        args = list(getattr(node.args, "exprs", None) or getattr(node.args, "types", None) or [])
        if name == "__builtin_types_compatible_p" and len(args) == 2:
            a, b = (self.resolver.resolve(t, scope) for t in args)
            return int(a.key() == b.key())
        if name == "offsetof" and len(args) == 2:
            return self.offsetof(self.resolver.resolve(args[0], scope), args[1], scope)
        if name in ("__builtin_expect", "__builtin_expect_with_probability") and args:
            return self.eval(args[0], scope)
        if name == "__builtin_constant_p":
            return 1 if args and self.eval(args[0], scope) is not None else 0
        return None

    def offsetof(self, t, designator, scope) -> int | None:
        """The byte offset of a member designator (`a.b[2].c`) in type t."""
        if isinstance(designator, c_ast.ID):
            return t.offsets.get(designator.name) if isinstance(t, T.StructT) else None
        if isinstance(designator, c_ast.StructRef):
            base = self.offsetof(t, designator.name, scope)
            bt = self.member_type(t, designator.name)
            if base is None or not isinstance(bt, T.StructT):
                return None
            inner = bt.offsets.get(designator.field.name)
            return None if inner is None else base + inner
        if isinstance(designator, c_ast.ArrayRef):
            base = self.offsetof(t, designator.name, scope)
            at = self.member_type(t, designator.name)
            idx = self.eval(designator.subscript, scope)
            if base is None or idx is None or not isinstance(at, T.ArrT):
                return None
            return base + idx * at.elem.size
        return None

    def member_type(self, t, designator):
        if isinstance(designator, c_ast.ID):
            return t.field_type(designator.name) if isinstance(t, T.StructT) else None
        if isinstance(designator, c_ast.StructRef):
            inner = self.member_type(t, designator.name)
            return inner.field_type(designator.field.name) if isinstance(inner, T.StructT) else None
        if isinstance(designator, c_ast.ArrayRef):
            inner = self.member_type(t, designator.name)
            return inner.elem if isinstance(inner, T.ArrT) else None
        return None
