"""The bit-vector value (§2.2.1): a tuple of Lits, least significant first, plus signedness."""
from __future__ import annotations

from dataclasses import dataclass

from ..logic.circuit import Circuit, FALSE, TRUE


@dataclass(frozen=True)
class BitVec:
    bits: tuple[int, ...]
    signed: bool

    @property
    def width(self) -> int:
        return len(self.bits)

    def constant(self) -> int | None:
        """The value when every bit is constant (two's complement for signed), else None."""
        value = 0
        for i, b in enumerate(self.bits):
            if b == TRUE:
                value |= 1 << i
            elif b != FALSE:
                return None
        if self.signed and self.bits and self.bits[-1] == TRUE:
            value -= 1 << self.width
        return value


def const(value: int, width: int, signed: bool) -> BitVec:
    value &= (1 << width) - 1
    return BitVec(tuple(TRUE if (value >> i) & 1 else FALSE for i in range(width)), signed)


def fresh(c: Circuit, width: int, signed: bool) -> BitVec:
    return BitVec(c.fresh(width), signed)


def ite(c: Circuit, cond: int, a: BitVec, b: BitVec) -> BitVec:
    if cond == TRUE or a is b:
        return a
    if cond == FALSE:
        return b
    ite_ = c.ITE   # equal bits skip the call: ITE(c, x, x) = x
    return BitVec(tuple(x if x == y else ite_(cond, x, y) for x, y in zip(a.bits, b.bits)),
                  a.signed)


def nonzero(c: Circuit, a: BitVec) -> int:
    return c.OR_all(a.bits)
