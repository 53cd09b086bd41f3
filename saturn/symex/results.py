"""What callers may assume about a function's result (its `<engine>` summary's "result").

NOTE [result-summaries]: were a callee's result a fresh unknown at every call, `if
(always_true()) p = malloc(..); ...; if (always_true()) free(p);` would leak on the path where
the second call returned 0, and two calls of a pure helper with one argument could disagree. So:
- when the result's bits depend on the integer parameters' entry values alone (their circuit
  cone has no other input: no memory read, no unknown call, no havocked loop), the summary
  keeps that cone (at most MAX_GATES gates) and a caller evaluates it on its own arguments,
  so equal arguments give equal results (a constant is the cone of no parameter);
- when the function returns the comparison of two pointer parameters (`return list ==
  head;`, the kernel's list_is_head, which every list walk of Linux 6.1 calls), or of two
  pointers it read from its inputs (`return head->next == head;`, list_empty), the summary
  says which (`compare`, parameters by index, other pointers by interface path) and a caller
  compares its own, so the walk ends where the list does (parameters are unknowns of their
  own in the callee, never equal unless null);
- otherwise the bits that are the same on every path that returns (`known`), the few
  constants it is one of (`values`: -1, 0 or 1), and for a
  pointer that it is never null (`nonnull`), or null wherever an integer parameter is 0
  (`null_if_zero`: an allocator called with size 0 frees, as realloc(p, 0) and lua's
  allocator do), or null only where one is 0 (`nonnull_unless_zero`: a wrapper that dies
  when realloc fails, unless it was asked for nothing), which a caller assumes of the fresh
  value it gets (the sign, `0 or -errno`, is interface.return_sign's).
"""
from __future__ import annotations

from ..bitvec.cast import resize
from ..bitvec.vec import BitVec
from ..ir import nodes as N
from ..ir import types as T
from ..logic.circuit import FALSE, TRUE
from ..memory.gls import GLS
from .interface import steps_of, value_at

MAX_GATES = 2000
MAX_ZERO_PARAMS = 6
MAX_COMPARED = 6      # input pointers tried as the two sides of a compared result
ZERO_BUDGET = 2_000   # conflicts; an open question keeps the result unknown
KNOWN_BITS_MAX_VARS = 20_000   # a model and a few more per result: cheap only on small formulas
MAX_VALUES = 4        # constants a result may be told to be one of


def result_summary(ctx, exit_state) -> dict | None:
    """{"formula": ...}, {"compare": [op, i, j]}, {"known": [mask, value], "width": w} or
    {"nonnull": True}, or None."""
    rv = ctx.fn.rv
    if exit_state is None or rv is None:
        return None
    value = ctx.exit_value(rv, exit_state)
    compare = _param_compare(ctx.fn)
    if compare is not None:
        return {"compare": compare}
    compare = _input_compare(ctx, exit_state, value)
    if compare is not None:
        return {"compare": compare}
    if isinstance(rv.type, T.IntT) and isinstance(value, BitVec):
        formula = _formula(ctx, value)
        if formula is not None:
            return {"formula": formula}
        return _known_bits(ctx, exit_state, value)
    if isinstance(rv.type, T.PtrT) and isinstance(value, GLS) and ctx.session.affordable():
        null, g = value.null_guard(), ctx.lit(exit_state.guard)
        if value.locations() and (null == FALSE or not ctx.can(g, null)):
            return {"nonnull": True}
        out = {}
        for key, implied in (("null_if_zero", False), ("nonnull_unless_zero", True)):
            k = _null_and_zero(ctx, g, null, implied)
            if k is not None:
                out[key] = k
        return out or None
    return None


def _null_and_zero(ctx, g, null, null_implies_zero) -> int | None:
    """The integer parameter whose value 0 makes the result null (`realloc`-like allocators:
    lua's l_alloc frees and returns NULL for a size of 0), or, `null_implies_zero`, without
    whose value 0 it is never null."""
    for p in ctx.fn.params[:MAX_ZERO_PARAMS]:
        value = ctx.initial_value(p)
        if not isinstance(p.type, T.IntT) or not isinstance(value, BitVec):
            continue
        zero = -ctx.truth(value)
        a, b = (null, zero) if null_implies_zero else (zero, null)
        if ctx.can(g, a, budget=ZERO_BUDGET) and not ctx.can(g, a, -b, budget=ZERO_BUDGET):
            return p.index
    return None


def _param_compare(fn) -> list | None:
    """[op, i, j] when the only value the function returns is `param_i op param_j`, two
    pointer parameters it never assigns compared with == or !=."""
    stores = [s for b in fn.blocks.values() for s in b.stmts if isinstance(s, N.Assign) and
              isinstance(s.lv, N.VarLv) and (s.lv.sym is fn.rv or s.lv.sym.kind == "param")]
    if len(stores) != 1 or stores[0].lv.sym is not fn.rv:
        return None
    e = N.uncast(stores[0].value)
    if not isinstance(e, N.Binary) or e.op not in ("eq", "ne"):
        return None
    sides = [N.uncast(e.a), N.uncast(e.b)]
    if not all(isinstance(x, N.Read) and isinstance(x.lv, N.VarLv) and x.lv.sym.kind == "param"
               and isinstance(x.lv.sym.type, T.PtrT) for x in sides):
        return None
    return [e.op, sides[0].lv.sym.index, sides[1].lv.sym.index]


def _compared_pointers(fn) -> str | None:
    """The operator when the function's only result is `a == b` or `a != b` of two pointers."""
    stores = [s for b in fn.blocks.values() for s in b.stmts
              if isinstance(s, N.Assign) and isinstance(s.lv, N.VarLv) and s.lv.sym is fn.rv]
    if len(stores) != 1:
        return None
    e = N.uncast(stores[0].value)
    if not isinstance(e, N.Binary) or e.op not in ("eq", "ne") or \
            not all(isinstance(x.type, T.PtrT) for x in (N.uncast(e.a), N.uncast(e.b))):
        return None
    return e.op


def _input_compare(ctx, exit_state, value) -> list | None:
    """[op, a, b]: the result is the comparison of two pointers as the function found them on
    entry, named by interface paths (`return READ_ONCE(head->next) == head;`, the kernel's
    list_empty: a caller compares its own list's pointers, so a loop that empties a list
    ends where the list is empty)."""
    op = _compared_pointers(ctx.fn)
    if op is None or not isinstance(value, BitVec) or not ctx.session.affordable():
        return None
    c, g = ctx.c, ctx.lit(exit_state.guard)
    if ctx.can(g, c.OR_all(value.bits[1:]), budget=ZERO_BUDGET):
        return None   # not 0 or 1
    ptrs = [(steps_of(obj), v) for obj, v in ctx.env.inputs
            if isinstance(obj.type, T.PtrT) and isinstance(v, GLS)][:MAX_COMPARED]
    for i, (a, va) in enumerate(ptrs):
        for b, vb in ptrs[i + 1:]:
            if a is None or b is None or "ret" in (a[0][0], b[0][0]):
                continue
            eq = ctx.pointers_equal(va, vb)
            lit = eq if op == "eq" else -eq
            differs = c.OR(c.AND(value.bits[0], -lit), c.AND(-value.bits[0], lit))
            if not ctx.can(g, differs, budget=ZERO_BUDGET):
                return [op, a, b]
    return None


def _param_bits(ctx) -> dict[int, tuple[int, int]]:
    """Input variable -> (parameter index, bit) for the integer parameters' entry values."""
    out = {}
    for p in ctx.fn.params:
        if not isinstance(p.type, T.IntT):
            continue
        v = ctx.initial_value(p)
        for k, b in enumerate(getattr(v, "bits", ())):
            if abs(b) != TRUE and ctx.c.defs[abs(b)] is None:
                out.setdefault(abs(b), (p.index, k))
    return out


def _formula(ctx, value: BitVec) -> dict | None:
    """The cone of `value` over the parameters' bits, as local gates, or None."""
    leaves, defs = _param_bits(ctx), ctx.c.defs
    ids: dict[int, int] = {TRUE: 1}
    gates, params = [], []
    stack = [abs(b) for b in value.bits]
    while stack:
        v = stack[-1]
        if v in ids:
            stack.pop()
            continue
        d = defs[v]
        if d is None:
            if v not in leaves:
                return None
            ids[v] = len(ids) + 1
            params.append([ids[v], *leaves[v]])
            stack.pop()
            continue
        todo = [abs(x) for x in d[1:] if abs(x) not in ids]
        if todo:
            stack.extend(todo)
            continue
        stack.pop()
        ids[v] = len(ids) + 1
        gates.append([ids[v], d[0], *[_local(ids, x) for x in d[1:]]])
        if len(gates) > MAX_GATES:
            return None
    return {"width": value.width, "signed": value.signed, "params": params, "gates": gates,
            "out": [_local(ids, b) for b in value.bits]}


def _local(ids, lit: int) -> int:
    return ids[abs(lit)] if lit > 0 else -ids[abs(lit)]


def _known_bits(ctx, exit_state, value: BitVec) -> dict | None:
    """The bits equal on every path that returns (a model's value no other path changes);
    asked only of small functions (a pure helper's result needs no model)."""
    if ctx.c.nvars > KNOWN_BITS_MAX_VARS:
        return None
    g = ctx.lit(exit_state.guard)
    model = ctx.may(g, observe=list(value.bits))
    if model is None:
        return None
    flips = [-b if model.value(b) else b for b in value.bits]
    can_flip = ctx.which_may(flips, g)
    mask = val = 0
    for k, (b, flips_too) in enumerate(zip(value.bits, can_flip)):
        if not flips_too:
            mask |= 1 << k
            val |= int(bool(model.value(b))) << k
    out = {"known": [mask, val], "width": value.width} if mask else {}
    values = _few_values(ctx, g, value)
    if values is not None:
        out.update(values=values, width=value.width)
    return out or None


def _few_values(ctx, g, value: BitVec) -> list | None:
    """The values of a result that is one of at most MAX_VALUES constants on every path that
    returns (-1, 0 or 1: a caller's `if (r == -1) continue;` leaves 0 and 1, not every other
    negative number)."""
    found, others = [], []
    for _ in range(MAX_VALUES + 1):
        model = ctx.may(g, *others, observe=list(value.bits))
        if model is None:
            return sorted(found)
        raw = model.bits(value.bits)
        signed = value.signed and raw >> (value.width - 1)
        found.append(raw - (1 << value.width) if signed else raw)
        others.append(-_equals(ctx.c, value.bits, raw))
    return None


def _equals(c, bits, k: int) -> int:
    """The literal of `bits == k` (k signed or not: its low len(bits) bits)."""
    return c.AND_all([b if (k >> i) & 1 else -b for i, b in enumerate(bits)])


# -- at a call ------------------------------------------------------------------------------
def evaluate(c, formula: dict, args: list) -> BitVec | None:
    """The callee's result on these argument values (None if an argument is not an integer)."""
    lits = {1: TRUE}
    for local, index, bit in formula["params"]:
        arg = args[index] if index < len(args) else None
        if not isinstance(arg, BitVec) or bit >= arg.width:
            return None
        lits[local] = arg.bits[bit]
    make = {"&": c.AND, "^": c.XOR, "?": c.ITE}
    for local, kind, *ins in formula["gates"]:
        lits[local] = make[kind](*(_lit(lits, x) for x in ins))
    return BitVec(tuple(_lit(lits, x) for x in formula["out"]), formula["signed"])


def _lit(lits, local: int) -> int:
    return lits[local] if local > 0 else -lits[-local]


def at_call(ev, summary: dict, args: list, lv_type, st) -> BitVec | None:
    """The result a call stores, from the callee's formula, sized to the target's type."""
    formula = summary.get("formula")
    if not isinstance(lv_type, T.IntT):
        return None
    if summary.get("compare"):
        op, a, b = summary["compare"]
        memo: dict = {}
        sides = [value_at(ev, [["param", x]] if isinstance(x, int) else x, args, st, memo)
                 for x in (a, b)]
        if not all(isinstance(x, GLS) for x in sides):
            return None
        value = ev.pointer_compare(op, *sides)
    elif formula is None:
        return None
    else:
        value = evaluate(ev.c, formula, args)
    return resize(ev.c, value, lv_type.bits, lv_type.signed) if value is not None else None


def assume_known(ev, summary: dict, value) -> int:
    """The literal: `value`'s bits the callee always returns as they are (TRUE if none)."""
    known, values = summary.get("known"), summary.get("values")
    if not (known or values) or not isinstance(value, BitVec):
        return TRUE
    bits = value.bits[:summary["width"]]
    lit = TRUE
    if known:
        mask, val = known
        lit = ev.c.AND_all([b if (val >> k) & 1 else -b for k, b in enumerate(bits)
                            if (mask >> k) & 1])
    if values and len(bits) == summary["width"]:
        lit = ev.c.AND(lit, ev.c.OR_all([_equals(ev.c, bits, raw) for raw in values]))
    return lit
