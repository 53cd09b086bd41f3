"""Evaluating IR expressions to values: BitVec for numbers, GLS for pointers (§2.2)."""
from __future__ import annotations

from ..bitvec import ops
from ..bitvec.cast import resize, to_bool
from ..bitvec.compare import eq as bv_eq
from ..bitvec.vec import BitVec, const, fresh, ite as bv_ite, nonzero
from ..ir import nodes as N
from ..ir import types as T
from ..logic.circuit import FALSE, TRUE
from ..memory import gls
from ..memory.gls import GLS
from ..memory.locations import container, member_path
from .environment import width_of
from .meets import may_meet

# Array elements are tracked one by one up to this index; beyond, pointer arithmetic lands on one
# derived object per array (NOTE in Environment.derived_object), and a symbolic index reaches only
# those (NOTE [array-elements]).
MAX_TRACKED_INDEX = 64


class ExprEval:
    """Mixed into the evaluator; needs `c` (Circuit), `env`, `notes` and `locs()`/`load()`."""

    def value(self, e: N.Expr, st):
        return _EXPR[type(e)](self, e, st)

    def pointer_compare(self, op: str, a: GLS, b: GLS):
        """`a op b` for two pointers (a callee's result: NOTE [result-summaries])."""
        return _pointer_compare(self, op, a, b)

    def truth(self, v) -> int:
        if isinstance(v, GLS):
            return gls.non_null(self.c, v)
        return nonzero(self.c, v)

    def ite(self, cond: int, a, b):
        if isinstance(a, GLS) or isinstance(b, GLS):
            return gls.ite(self.c, cond, self.as_gls(a), self.as_gls(b))
        if a.width != b.width:
            b = resize(self.c, b, a.width, a.signed)
        return bv_ite(self.c, cond, a, b)

    def select(self, choices):
        """ITE(g0, v0, ITE(g1, v1, ... v_last)) over (guard, value) choices (the last guard is
        not looked at): one pass for pointers (gls.select), a chain of ites otherwise."""
        if len(choices) > 2 and any(isinstance(v, GLS) for _, v in choices):
            return gls.select(self.c, [(g, self.as_gls(v)) for g, v in choices])
        value = choices[-1][1]
        for g, v in reversed(choices[:-1]):
            value = self.ite(g, v, value)
        return value

    def as_gls(self, v) -> GLS:
        if isinstance(v, GLS):
            return v
        return self.int_to_ptr(v)

    def as_int(self, v, t) -> BitVec:
        w, s = width_of(t)
        if isinstance(v, GLS):
            v = self.ptr_to_int(v)
        return resize(self.c, v, w, s) if v.width != w or v.signed != s else v

    def ptr_to_int(self, p: GLS) -> BitVec:
        out = const(0, 64, False)
        for loc, g in p.entries:
            if loc is not None:
                out = bv_ite(self.c, g, self.env.address_bits(loc), out)
        return out

    def int_to_ptr(self, v: BitVec) -> GLS:
        k = v.constant()
        if k == 0:
            return gls.NULL
        v64 = resize(self.c, v, 64, False)
        known = self.env.by_bits.get(v64.bits)
        if known is not None:  # an integer that came from a pointer goes back to its location
            return gls.single(known)
        got = self.int_objects.get(v64.bits)
        if got is None:
            got = self.int_objects[v64.bits] = self._pointer_from_int(v64)
        return got

    def _pointer_from_int(self, v64: BitVec) -> GLS:
        source = self.env.address_source(v64.bits)
        if source is not None:
            # Address arithmetic on one object (alignment, tagging): still that object's memory
            # (and not null), as §2.6.7 treats such macros as the identity.
            return gls.single(self.env.derived_object(source))
        # A constant that is not null (an error pointer, a poison value) points to no object.
        origin = "int" if v64.constant() is not None else "fresh"
        new = self.env.fresh_object(T.VOID, "*int", "*(pointer from int)", origin)
        # It keeps its integer, so `IS_ERR(ERR_PTR(-ENOMEM))` holds (NOTE [error-pointers]).
        new.addr.bits = v64
        self.env.by_bits[v64.bits] = new
        is_null = -nonzero(self.c, v64)
        return gls.make(self.c, [(None, is_null), (new, -is_null)])

    def fresh_value(self, t, label="unknown"):
        if isinstance(t, T.PtrT):
            return self.env.default(t, None, label)
        w, s = width_of(t)
        return fresh(self.c, w, s)


def _const(self, e, st):
    if isinstance(e.type, T.PtrT):
        return gls.NULL if e.value == 0 else self.int_to_ptr(const(e.value, 64, False))
    w, s = width_of(e.type)
    return const(e.value, w, s)


def _unknown(self, e, st):
    if e.reason:
        self.note(e.reason)
    if isinstance(e.type, T.VoidT):
        return const(0, 32, True)
    return self.fresh_value(e.type)


def _read(self, e, st):
    if self.load_hooks and N.through_pointer(e.lv):
        entries = self.locs(e.lv, st)
        self.loaded(e.lv, entries, st)
        return self.load_from(entries, e.lv, st)
    return self.load(e.lv, st)


def _addr_of(self, e, st):
    return gls.make(self.c, self.locs(e.lv, st))


def _unary(self, e, st):
    a = self.value(e.a, st)
    if e.op == "lnot":
        return ops.bool_vec(-self.truth(a))
    a = self.as_int(a, e.type)
    return ops.UNARY[e.op](self.c, a)


def _binary(self, e, st):
    if e.op in ("land", "lor"):
        a, b = self.truth(self.value(e.a, st)), self.truth(self.value(e.b, st))
        return ops.bool_vec(self.c.AND(a, b) if e.op == "land" else self.c.OR(a, b))
    a, b = self.value(e.a, st), self.value(e.b, st)
    if isinstance(a, GLS) or isinstance(b, GLS):
        return _pointer_compare(self, e.op, self.as_gls(a), self.as_gls(b))
    if e.op in ops.COMPARE:
        t = e.a.type
        return ops.COMPARE[e.op](self.c, self.as_int(a, t), self.as_int(b, t))
    if isinstance(e.type, T.FloatT):
        return self.fresh_value(e.type)
    if e.op in ("shl", "shr"):
        return ops.ARITH[e.op](self.c, self.as_int(a, e.type), self.as_int(b, e.b.type))
    return ops.ARITH[e.op](self.c, self.as_int(a, e.type), self.as_int(b, e.type))


def _pointer_compare(self, op, a: GLS, b: GLS):
    if op in ("eq", "ne"):
        same = self.c.OR(gls.equal(self.c, a, b), may_meet(self, a, b))
        return ops.bool_vec(same if op == "eq" else -same)
    if op in ops.COMPARE:  # relational comparison of pointers: unknown, but not of null with itself
        return ops.bool_vec(self.c.new_var())
    return self.fresh_value(T.LONG)


def _cast(self, e, st):
    t, src = e.type, e.a.type
    if isinstance(t, T.PtrT) and isinstance(t.target, T.StructT):
        got = _container_of(self, e, st)
        if got is not None:
            return got
    v = self.value(e.a, st)
    if isinstance(t, T.PtrT):
        return v if isinstance(v, GLS) else self.int_to_ptr(v)
    if isinstance(t, T.FloatT) or isinstance(src, T.FloatT):
        return self.fresh_value(t)
    if isinstance(t, T.IntT):
        if t.is_bool:
            return to_bool(self.c, self.as_int(v, src) if not isinstance(v, GLS) else
                           ops.bool_vec(self.truth(v)), 8)
        if isinstance(v, GLS):
            v = self.ptr_to_int(v)
        return resize(self.c, v, t.bits, t.signed)
    return v


def _container_of(self, e, st):
    """`(struct S *)(p - k)` with k a member's offset in S: NOTE [container-of]."""
    inner = e.a
    while isinstance(inner, N.Cast) and isinstance(inner.type, T.PtrT):
        inner = inner.a
    if not isinstance(inner, N.PtrAdd) or not isinstance(inner.type, T.PtrT):
        return None
    off = self.as_int(self.value(inner.offset, st), T.LONG).constant()
    elem = inner.type.target
    k = None if off is None else -off * (1 if isinstance(elem, T.VoidT) else max(1, elem.size))
    target = e.type.target
    if k is None or k <= 0 or k >= max(1, target.size):
        return None
    p = self.as_gls(self.value(inner.p, st))
    pairs = []
    for loc, g in p.entries:
        if loc is None:
            pairs.append((None, g))
            continue
        inner_key = loc.type.key() if loc.type is not None and \
            not isinstance(loc.type, T.VoidT) else None
        names = member_path(target, k, inner_key) or member_path(target, k, None)
        if names is None:
            return None
        got = container(loc, target, names)
        if got.container_of is None and st is not None and hasattr(st, "guard"):
            _not_own_neighbour(self, loc, g, st)
        pairs.append((got, g))
    return gls.make(self.c, pairs)


# NOTE [own-neighbour]
# `container_of(x->link.next, S, link)` takes a neighbour of x for an entry. Where that link
# reads back x's own member, as it does while x's list is empty or x alone in it (the
# literal that closes x's link on itself: NOTE [list-back-links]), the entry would be x itself:
# code that reads a neighbour as an entry knows its list holds more than the one node (it
# compared the link with the list's head, or the list has one), so the path goes on only where
# the link leads elsewhere. Only for that literal alone: a link that may lead back to x by some
# other way (a walk, a write) is left as it is.
def _not_own_neighbour(self, link, g, st) -> None:
    alone = self.env.starts_empty(link)
    if alone is not None and g == alone:
        st.guard = st.guard & self.guards.of_lit(-alone)


def _ptr_add(self, e, st):
    p = self.as_gls(self.value(e.p, st))
    off = self.as_int(self.value(e.offset, st), T.LONG)
    k = off.constant()
    cases = _few_values(self, off) if k is None else None
    if cases:
        return gls.make(self.c, [(loc, self.c.AND(g, when)) for v, when in cases
                                 for loc, g in _moved(self, p, v).entries])
    rest, more = _split_constant(N.uncast(e.offset)) if k is None else (None, 0)
    if rest is not None:   # `p + (i + 1)`: one past wherever `p + i` is (NOTE [constant-offsets])
        return _moved(self, _moved(self, p, None), more)
    return _moved(self, p, k)


OPEN_BITS = 2   # an offset with at most this many bits unknown is taken value by value


def _few_values(self, off: BitVec):
    """(value, guard) for each value of an offset only a few bits of which are open (a loop
    index where the unrolled iterations join: `i` is 0 or 1), else None."""
    open_bits = [i for i, b in enumerate(off.bits) if b != TRUE and b != FALSE]
    if len(open_bits) > OPEN_BITS:
        return None
    out = []
    for m in range(1 << len(open_bits)):
        bits, when = list(off.bits), TRUE
        for j, i in enumerate(open_bits):
            on = (m >> j) & 1
            bits[i] = TRUE if on else FALSE
            when = self.c.AND(when, off.bits[i] if on else -off.bits[i])
        if when != FALSE:
            out.append((BitVec(tuple(bits), off.signed).constant(), when))
    return out


def _split_constant(e):
    """(i, k) for an offset `i + k` or `i - k` with k a constant, else (None, 0)."""
    if isinstance(e, N.Binary) and e.op in ("add", "sub"):
        a, b = N.uncast(e.a), N.uncast(e.b)
        if isinstance(b, N.Const):
            return a, b.value if e.op == "add" else -b.value
        if isinstance(a, N.Const) and e.op == "add":
            return b, a.value
    return None, 0


def _moved(self, p, k):
    """Each location of `p` moved `k` elements on (None: an offset not known)."""
    if k == 0:
        return p
    pairs = []
    for loc, g in p.entries:
        if loc is None:
            pairs.append((None, g))
            continue
        target = None
        parent = loc.parent
        if k is not None and parent is not None and isinstance(loc.step, int) and \
                isinstance(parent.type, T.ArrT) and 0 <= loc.step + k < MAX_TRACKED_INDEX:
            target = self.env.element(parent, loc.step + k)
        elif k is not None:
            target = _at_offset(self, loc, k)
        if target is None:
            target = self.env.derived_object(loc)
        pairs.append((target, g))
    return gls.make(self.c, pairs)


# NOTE [constant-offsets]: `p + k` with k a constant, p pointing to an object that is no array
# element (what a parameter points to, a block), lands k elements past it: one object for each
# k below MAX_TRACKED_INDEX, still derived (checkers do not tell such memory apart element by
# element), and `(p + 4) + 1` is `p + 5`. A packet parser reads `h[4]` and `h[5]` as the two
# bytes of a count: one object for every offset made them one byte, `(h[4] << 8 | h[5]) == 1`
# impossible, and every path past the test dead. A symbolic offset still lands on the one
# object past p whatever the offset, and constant offsets from there have objects of their
# own the same way: a parser's cursor `aptr = abuf + len` reads a record's type from `aptr[0]`
# and `aptr[1]`, an indexed one from `buf[i]` and `buf[i + 1]`. An offset with only a few
# bits open is each of its values under its guard: where a loop's unrolled iterations join (an
# early exit taken from either), `a[i]` is still `a[0]` or `a[1]`, the element each iteration
# locked, not a third one.
def _at_offset(self, loc, k):
    base, at = (loc.derived_from, loc.offset) if loc.origin == "derived" and \
        loc.offset is not None and loc.derived_from is not None else (loc, 0)
    if base.origin == "derived" and base.offset is not None or \
            not 0 <= at + k < MAX_TRACKED_INDEX:
        return None
    return base if at + k == 0 else self.env.derived_object(base, None, None, at + k)


def _ptr_diff(self, e, st):
    return self.fresh_value(T.LONG)


def _select(self, e, st):
    cond = self.truth(self.value(e.c, st))
    if cond == TRUE:
        return self.value(e.a, st)
    if cond == FALSE:
        return self.value(e.b, st)
    return self.ite(cond, self.value(e.a, st), self.value(e.b, st))


def _func_addr(self, e, st):
    return gls.single(self.function_object(e.name, e.type))


def _str_lit(self, e, st):
    return gls.single(self.string_object(e))


_EXPR = {
    N.Const: _const, N.Unknown: _unknown, N.Read: _read, N.AddrOf: _addr_of, N.Unary: _unary,
    N.Binary: _binary, N.Cast: _cast, N.PtrAdd: _ptr_add, N.PtrDiff: _ptr_diff,
    N.Select: _select, N.FuncAddr: _func_addr, N.StrLit: _str_lit,
}


def equal_bits(c, a: BitVec, b: BitVec) -> int:
    return bv_eq(c, a, b)
