"""& | ^ ~ on bit vectors."""
from __future__ import annotations

from ..logic.circuit import Circuit
from .vec import BitVec


def band(c: Circuit, a: BitVec, b: BitVec) -> BitVec:
    return BitVec(tuple(c.AND(x, y) for x, y in zip(a.bits, b.bits)), a.signed)


def bor(c: Circuit, a: BitVec, b: BitVec) -> BitVec:
    return BitVec(tuple(c.OR(x, y) for x, y in zip(a.bits, b.bits)), a.signed)


def bxor(c: Circuit, a: BitVec, b: BitVec) -> BitVec:
    return BitVec(tuple(c.XOR(x, y) for x, y in zip(a.bits, b.bits)), a.signed)


def bnot(c: Circuit, a: BitVec) -> BitVec:
    return BitVec(tuple(-x for x in a.bits), a.signed)
