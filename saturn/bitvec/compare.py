"""Comparisons: each returns one Lit."""
from __future__ import annotations

from ..logic.circuit import Circuit, TRUE


def eq(c: Circuit, a, b) -> int:
    return c.AND_all(-c.XOR(x, y) for x, y in zip(a.bits, b.bits))


def ult(c: Circuit, a, b) -> int:
    """a < b unsigned: the borrow out of a - b."""
    lt = -TRUE
    for x, y in zip(a.bits, b.bits):
        # From the least significant bit up: a < b iff at the highest differing bit y=1, x=0.
        diff = c.XOR(x, y)
        lt = c.ITE(diff, y, lt)
    return lt


def slt(c: Circuit, a, b) -> int:
    sa, sb = a.bits[-1], b.bits[-1]
    same_sign_lt = ult(c, a, b)
    return c.ITE(c.XOR(sa, sb), sa, same_sign_lt)


def lt(c: Circuit, a, b) -> int:
    return slt(c, a, b) if a.signed else ult(c, a, b)
