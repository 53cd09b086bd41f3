"""Flag words kept in struct fields: the bits a function masks a field with (`txn->flags &
TXN_RDONLY`, `obj->state |= DONE`), directly or through a local copy (`flags = txn->flags;
if ((flags &= TXN_RDONLY) != 0)`). Lock summaries take them as propositions, and summaries say
which of them a callee keeps or sets (NOTE [kept-bits] in symex/copies.py)."""
from __future__ import annotations

from . import nodes as N

MAX_BITS = 3        # of one field, in one function
MAX_UNIT_BITS = 8   # of one field, in the functions of one file


def condition_parts(fn):
    """Every expression inside the function's branch conditions, casts included."""
    yield from _walk([getattr(block.term, "cond", None) for block in fn.blocks.values()])


def _all_parts(fn):
    """Every expression of the function's assignments and branch conditions."""
    roots = [st.value for block in fn.blocks.values() for st in block.stmts
             if isinstance(st, N.Assign)]
    yield from _walk(roots + [getattr(block.term, "cond", None) for block in fn.blocks.values()])


def _walk(stack):
    while stack:
        e = stack.pop()
        if isinstance(e, N.Expr):
            yield e
            stack.extend((getattr(e, "a", None), getattr(e, "b", None)))


def single_bit(e, inverted: bool = True) -> int | None:
    """The bit of a one-bit constant mask, also inverted (`x & ~DONE`) if `inverted`."""
    e = N.uncast(e)
    if inverted and isinstance(e, N.Unary) and e.op == "bnot":
        e = N.uncast(e.a)
    if isinstance(e, N.Const) and e.value > 0 and e.value & (e.value - 1) == 0:
        return e.value.bit_length() - 1
    return None


def field_bits(fn) -> tuple[set, dict]:
    """The field names the function's branches test, and field name -> the bits (at most
    MAX_BITS) it masks the field with."""
    copies = {}
    for block in fn.blocks.values():
        for st in block.stmts:
            if isinstance(st, N.Assign) and isinstance(st.lv, N.VarLv):
                v = N.uncast(st.value)
                if isinstance(v, N.Read) and isinstance(v.lv, N.FieldLv):
                    copies[st.lv.sym.uid] = v.lv.name

    def field_of(e):
        e = N.uncast(e)
        if isinstance(e, N.Read) and isinstance(e.lv, N.FieldLv):
            return e.lv.name
        return copies.get(e.lv.sym.uid) if isinstance(e, N.Read) and \
            isinstance(e.lv, N.VarLv) else None
    tested = {name for name in map(field_of, condition_parts(fn)) if name}
    masks: dict = {}
    for e in _all_parts(fn):
        if isinstance(e, N.Binary) and e.op in ("and", "or"):
            for x, y in ((e.a, e.b), (e.b, e.a)):
                bit, name = single_bit(y), field_of(x)
                if name and bit is not None:
                    masks.setdefault(name, set()).add(bit)
    return tested | set(masks), {name: sorted(bits)[:MAX_BITS] for name, bits in masks.items()}


def unit_field_bits(program, file: str) -> dict:
    """Field name -> the bits (at most MAX_UNIT_BITS) the functions of one file mask it with."""
    got = program.field_bits.get(file)
    if got is None:
        merged: dict = {}
        for fn in program.functions.values():
            if fn.file == file:
                for name, bits in field_bits(fn)[1].items():
                    merged.setdefault(name, set()).update(bits)
        got = program.field_bits[file] = {n: sorted(b)[:MAX_UNIT_BITS] for n, b in merged.items()}
    return got
