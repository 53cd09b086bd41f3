"""Casts between widths: truncate, zero-extend (unsigned source) or sign-extend (signed source)."""
from __future__ import annotations

from ..logic.circuit import Circuit, FALSE
from .vec import BitVec


def resize(c: Circuit, a: BitVec, width: int, signed: bool) -> BitVec:
    n = a.width
    if width <= n:
        return BitVec(a.bits[:width], signed)
    fill = a.bits[-1] if a.signed else FALSE
    return BitVec(a.bits + (fill,) * (width - n), signed)


def to_bool(c: Circuit, a: BitVec, width: int = 8) -> BitVec:
    """Conversion to _Bool: 1 when any bit is set."""
    return BitVec((c.OR_all(a.bits),) + (FALSE,) * (width - 1), False)
