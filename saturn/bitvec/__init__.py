"""Bit vectors of SAT literals with exact C semantics. In: `saturn.logic.Circuit`.
Out: `BitVec` (lits least significant first + signedness) and one small function per operator;
`ops.BINARY` / `ops.UNARY` map IR operator names to them."""
from .vec import BitVec, const, fresh  # noqa: F401
