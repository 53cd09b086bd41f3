"""IR operator name → bit-vector function (NOTE [dispatch-tables])."""
from __future__ import annotations

from ..logic.circuit import Circuit, FALSE
from . import arith, bitwise, compare, shift
from .vec import BitVec


def _bool_vec(lit: int, width: int = 32) -> BitVec:
    return BitVec((lit,) + (FALSE,) * (width - 1), True)


def _cmp(fn, swap=False, negate=False):
    def op(c: Circuit, a: BitVec, b: BitVec) -> BitVec:
        lit = fn(c, b, a) if swap else fn(c, a, b)
        return _bool_vec(-lit if negate else lit)
    return op


ARITH = {
    "add": arith.add, "sub": arith.sub, "mul": arith.mul, "div": arith.div, "mod": arith.mod,
    "and": bitwise.band, "or": bitwise.bor, "xor": bitwise.bxor,
    "shl": shift.shl, "shr": shift.shr,
}
COMPARE = {
    "eq": _cmp(compare.eq), "ne": _cmp(compare.eq, negate=True),
    "lt": _cmp(compare.lt), "gt": _cmp(compare.lt, swap=True),
    "le": _cmp(compare.lt, swap=True, negate=True), "ge": _cmp(compare.lt, negate=True),
}
UNARY = {"neg": arith.neg, "bnot": bitwise.bnot}


def bool_vec(lit: int, width: int = 32) -> BitVec:
    return _bool_vec(lit, width)
