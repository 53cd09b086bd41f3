"""Every bit-vector operator, exhaustively at width 4, signed and unsigned, against Python ints."""
import itertools

import pytest

from saturn.bitvec import ops
from saturn.bitvec.cast import resize
from saturn.bitvec.vec import BitVec, const
from saturn.logic.circuit import Circuit
from saturn.logic.solver import Session

W = 4


def wrap(v, signed, w=W):
    v &= (1 << w) - 1
    return v - (1 << w) if signed and v >> (w - 1) else v


def c_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def expected(op, a, b, signed):
    if op in ("div", "mod") and b == 0:
        return None  # unconstrained
    if op in ("shl", "shr") and not (0 <= b < W):
        return None
    fn = {
        "add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b,
        "div": lambda: c_div(a, b), "mod": lambda: a - c_div(a, b) * b,
        "and": lambda: a & b, "or": lambda: a | b, "xor": lambda: a ^ b,
        "shl": lambda: a << b, "shr": lambda: a >> b,
        "eq": lambda: int(a == b), "ne": lambda: int(a != b), "lt": lambda: int(a < b),
        "le": lambda: int(a <= b), "gt": lambda: int(a > b), "ge": lambda: int(a >= b),
    }[op]
    return fn()


def values(signed):
    return range(-(1 << (W - 1)), 1 << (W - 1)) if signed else range(1 << W)


@pytest.mark.parametrize("signed", [True, False])
@pytest.mark.parametrize("op", sorted(ops.ARITH) + sorted(ops.COMPARE))
def test_binary_exhaustive(op, signed):
    c = Circuit()
    fn = ops.ARITH.get(op) or ops.COMPARE[op]
    for a, b in itertools.product(values(signed), values(signed)):
        out = fn(c, const(a, W, signed), const(b, W, signed))
        want = expected(op, a, b, signed)
        got = out.constant()
        if want is None:
            continue
        if op in ops.COMPARE:
            assert got == want, (op, a, b)
        else:
            assert got == wrap(want, signed), (op, a, b, got)


@pytest.mark.parametrize("signed", [True, False])
@pytest.mark.parametrize("op", ["div", "mod", "shl", "shr"])
def test_undefined_cases_are_unconstrained(op, signed):
    """Division by zero and out-of-range shift counts give bits the solver may choose."""
    c = Circuit()
    s = Session(c)
    a = const(3, W, signed)
    bad = 0 if op in ("div", "mod") else (W if not signed else -1)
    out = ops.ARITH[op](c, a, const(bad, W, signed))
    seen = set()
    for v in values(signed):
        lits = [b if (v >> i) & 1 else -b for i, b in enumerate(out.bits)]
        if s.may(*lits) is not None:
            seen.add(v)
    assert len(seen) == 1 << W


@pytest.mark.parametrize("signed", [True, False])
def test_symbolic_matches_constant(signed):
    """The same circuits on fresh inputs agree with Python under every model."""
    c = Circuit()
    s = Session(c)
    x = BitVec(c.fresh(W), signed)
    y = BitVec(c.fresh(W), signed)
    prod = ops.ARITH["mul"](c, x, y)
    quot = ops.ARITH["div"](c, x, y)
    for a, b in itertools.product(values(signed), repeat=2):
        assume = [bit if (a >> i) & 1 else -bit for i, bit in enumerate(x.bits)]
        assume += [bit if (b >> i) & 1 else -bit for i, bit in enumerate(y.bits)]
        m = s.may(*assume, observe=prod.bits + quot.bits)
        assert wrap(m.bits(prod.bits), signed) == wrap(a * b, signed)
        if b:
            assert wrap(m.bits(quot.bits), signed) == wrap(c_div(a, b), signed)


@pytest.mark.parametrize("signed", [True, False])
def test_division_by_a_constant_power_of_two(signed):
    """The shift that replaces the divider (`i / sizeof(word)`) rounds as C does."""
    c = Circuit()
    s = Session(c)
    x = BitVec(c.fresh(W), signed)
    for b in (v for v in values(signed) if v > 0 and v & (v - 1) == 0):
        quot = ops.ARITH["div"](c, x, const(b, W, signed))
        rem = ops.ARITH["mod"](c, x, const(b, W, signed))
        for a in values(signed):
            assume = [bit if (a >> i) & 1 else -bit for i, bit in enumerate(x.bits)]
            m = s.may(*assume, observe=quot.bits + rem.bits)
            assert wrap(m.bits(quot.bits), signed) == wrap(c_div(a, b), signed), (a, b)
            assert wrap(m.bits(rem.bits), signed) == wrap(a - c_div(a, b) * b, signed), (a, b)


@pytest.mark.parametrize("signed", [True, False])
def test_unary_exhaustive(signed):
    c = Circuit()
    for a in values(signed):
        assert ops.UNARY["neg"](c, const(a, W, signed)).constant() == wrap(-a, signed)
        assert ops.UNARY["bnot"](c, const(a, W, signed)).constant() == wrap(~a, signed)


@pytest.mark.parametrize("src_signed", [True, False])
@pytest.mark.parametrize("dst_signed", [True, False])
@pytest.mark.parametrize("width", [2, 4, 6])
def test_casts(src_signed, dst_signed, width):
    c = Circuit()
    for a in values(src_signed):
        out = resize(c, const(a, W, src_signed), width, dst_signed)
        assert out.constant() == wrap(a, dst_signed, width)
