"""+ - * / % and negation; division truncates toward zero, by zero gives unconstrained bits."""
from __future__ import annotations

from ..logic.circuit import Circuit, FALSE, TRUE
from .vec import BitVec, fresh, ite, nonzero


def _add_bits(c: Circuit, a, b, carry=FALSE):
    out = []
    for x, y in zip(a, b):
        s = c.XOR(x, y)
        out.append(c.XOR(s, carry))
        carry = c.OR(c.AND(x, y), c.AND(s, carry))
    return out, carry


def add(c: Circuit, a: BitVec, b: BitVec) -> BitVec:
    return BitVec(tuple(_add_bits(c, a.bits, b.bits)[0]), a.signed)


def sub(c: Circuit, a: BitVec, b: BitVec) -> BitVec:
    return BitVec(tuple(_add_bits(c, a.bits, [-x for x in b.bits], TRUE)[0]), a.signed)


def neg(c: Circuit, a: BitVec) -> BitVec:
    zero = BitVec((FALSE,) * a.width, a.signed)
    return sub(c, zero, a)


def mul(c: Circuit, a: BitVec, b: BitVec) -> BitVec:
    n = a.width
    acc = [FALSE] * n
    for i, bi in enumerate(b.bits):
        if bi == FALSE:
            continue
        partial = [FALSE] * i + [c.AND(bi, x) for x in a.bits[: n - i]]
        acc = _add_bits(c, acc, partial)[0]
    return BitVec(tuple(acc), a.signed)


def _udivmod(c: Circuit, a, b):
    """Restoring division on unsigned bit lists: (quotient, remainder)."""
    n = len(a)
    if all(x in (TRUE, FALSE) for x in b) and b.count(TRUE) == 1:
        k = b.index(TRUE)   # by 2**k, as `i / sizeof(word)`: a shift, not n subtractions
        return a[k:] + [FALSE] * k, a[:k] + [FALSE] * (n - k)
    rem = [FALSE] * n
    quot = [FALSE] * n
    neg_b = [-x for x in b]
    for i in range(n - 1, -1, -1):
        top = rem[-1]  # the bit shifted out: the shifted remainder is then >= b
        rem = [a[i]] + rem[:-1]
        diff, carry = _add_bits(c, rem, neg_b, TRUE)  # carry set: rem >= b (no borrow)
        take = c.OR(top, carry)
        quot[i] = take
        rem = [c.ITE(take, d, r) for d, r in zip(diff, rem)]
    return quot, rem


def _abs_bits(c: Circuit, v: BitVec):
    sign = v.bits[-1]
    negated = neg(c, v).bits
    return [c.ITE(sign, x, y) for x, y in zip(negated, v.bits)], sign


def _divmod(c: Circuit, a: BitVec, b: BitVec):
    if not a.signed:
        q, r = _udivmod(c, list(a.bits), list(b.bits))
        return BitVec(tuple(q), False), BitVec(tuple(r), False)
    ua, sa = _abs_bits(c, a)
    ub, sb = _abs_bits(c, b)
    q, r = _udivmod(c, ua, ub)
    qv, rv = BitVec(tuple(q), True), BitVec(tuple(r), True)
    return ite(c, c.XOR(sa, sb), neg(c, qv), qv), ite(c, sa, neg(c, rv), rv)


def div(c: Circuit, a: BitVec, b: BitVec) -> BitVec:
    q, _ = _divmod(c, a, b)
    return ite(c, nonzero(c, b), q, fresh(c, a.width, a.signed))


def mod(c: Circuit, a: BitVec, b: BitVec) -> BitVec:
    _, r = _divmod(c, a, b)
    return ite(c, nonzero(c, b), r, fresh(c, a.width, a.signed))
