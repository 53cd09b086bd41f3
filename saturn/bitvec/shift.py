"""<< and >> (arithmetic for signed left operands); a count that is negative or at least the
width gives unconstrained bits."""
from __future__ import annotations

from ..logic.circuit import Circuit, FALSE
from .compare import ult
from .vec import BitVec, const, fresh, ite


def _barrel(c: Circuit, a: BitVec, count: BitVec, left: bool, fill: int) -> BitVec:
    bits = list(a.bits)
    n = len(bits)
    stage = 0
    while (1 << stage) < n and stage < count.width:
        k, sel = 1 << stage, count.bits[stage]
        if left:
            moved = [FALSE] * k + bits[: n - k]
        else:
            moved = bits[k:] + [fill] * k
        bits = [c.ITE(sel, m, b) for m, b in zip(moved, bits)]
        stage += 1
    return BitVec(tuple(bits), a.signed)


def _in_range(c: Circuit, a: BitVec, count: BitVec) -> int:
    """0 <= count < width: a negative count read as unsigned is huge, so one compare does."""
    if (1 << count.width) <= a.width:
        return 1
    return ult(c, BitVec(count.bits, False), const(a.width, count.width, False))


def shl(c: Circuit, a: BitVec, count: BitVec) -> BitVec:
    shifted = _barrel(c, a, count, True, FALSE)
    return ite(c, _in_range(c, a, count), shifted, fresh(c, a.width, a.signed))


def shr(c: Circuit, a: BitVec, count: BitVec) -> BitVec:
    fill = a.bits[-1] if a.signed else FALSE
    shifted = _barrel(c, a, count, False, fill)
    return ite(c, _in_range(c, a, count), shifted, fresh(c, a.width, a.signed))
