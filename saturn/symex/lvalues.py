"""Lvalues: the guarded objects an lvalue names, loads, stores and struct assignment (§2.2.3-4)."""
from __future__ import annotations

from ..bitvec.compare import eq as bv_eq
from ..plugin.checker import Access
from ..bitvec.vec import const
from ..ir import nodes as N
from ..ir import types as T
from ..logic.circuit import FALSE, TRUE
from ..memory.locations import Obj, blurred, child, unzero
from .expr import MAX_TRACKED_INDEX
from .lazy import Mux, force

through_pointer = N.through_pointer

# NOTE [array-elements]: a symbolic index `a[i]` names each element of `a` seen so far under
# `i == k`, and one fresh element otherwise (arrays are not modelled in the paper, §2.2.4.4) —
# but only elements below MAX_TRACKED_INDEX, the bound pointer arithmetic has (expr.py). Elements
# beyond, written by constant indices, keep their values through `a[i] = ...` (a known miss,
# tests/c/assert/far_elements.c): a table written at large constant indices and then read
# through many symbolic ones would make each access a multiplexer over all of them.

# Struct assignment copies at most this many leaf objects (huge structs stay unknown beyond).
COPY_LIMIT = 256
UNION_DEPTH = 3   # struct levels between a union and a member's field (NOTE [union-members])


class LvalueEval:
    def locs(self, lv: N.Lvalue, st) -> list[tuple[Obj, int]]:
        return _LOCS[type(lv)](self, lv, st)

    def read_obj(self, obj: Obj, st):
        v = st.memory.get(obj)
        if type(v) is Mux:   # NOTE [lazy-values]
            v = st.memory[obj] = force(self, v)
        return v if v is not None else self.env.initial(obj)

    def load(self, lv: N.Lvalue, st):
        return self.load_from(self.locs(lv, st), lv, st)

    def load_from(self, entries, lv: N.Lvalue, st):
        """The value of `lv`, whose objects are `entries`."""
        if not entries:
            return self.fresh_value(lv.type)
        value = self.select([(g, self.read_obj(obj, st)) for obj, g in entries])
        return self.coerce(value, lv.type)

    def loaded(self, lv: N.Lvalue, entries, st) -> None:
        """The checkers' load event: `lv`, read through a pointer, reaches `entries`."""
        access = Access(lv, self.where, True, lambda: entries)
        for hook in self.load_hooks:
            hook(access, st)

    def coerce(self, value, t):
        if isinstance(t, T.PtrT):
            return self.as_gls(value)
        if isinstance(t, (T.IntT, T.FloatT)):
            return self.as_int(value, t)
        return value

    def store(self, lv: N.Lvalue, value, st) -> None:
        for obj, g in self.locs(lv, st):
            self.store_obj(obj, value, g, st)

    def store_obj(self, obj: Obj, value, g: int, st) -> None:
        if blurred(obj):
            self.written_past.add(obj)   # NOTE [somewhere-past]
        if blurred(obj) or blurred(obj.addr.root or obj):   # (a view of one, too)
            unzero(obj)
        for target in union_members(obj):
            stored = self.coerce(value, target.type)
            if g == TRUE:
                st.memory[target] = stored
            elif g != FALSE:
                st.memory[target] = self.ite(g, stored, self.read_obj(target, st))

    def assign(self, lv: N.Lvalue, e: N.Expr, st) -> None:
        if isinstance(lv.type, (T.StructT, T.ArrT)):
            if isinstance(e, N.Read):
                self.copy_aggregate(lv, e.lv, st)
            return
        self.store(lv, self.value(e, st), st)

    def copy_aggregate(self, dst: N.Lvalue, src: N.Lvalue, st) -> None:
        """RecAssign: copy every scalar leaf (fields, materialised or small array elements)."""
        dsts, srcs = self.locs(dst, st), self.locs(src, st)
        if self.load_hooks and through_pointer(src):
            self.loaded(src, srcs, st)
        if not dsts or not srcs:
            return
        budget = [COPY_LIMIT]
        for d, _ in dsts:
            unzero(d)   # the leaves not copied one by one
        for d, gd in dsts:
            for s, gs in srcs:
                self._copy(d, s, self.c.AND(gd, gs), st, budget)

    def _copy(self, d: Obj, s: Obj, g: int, st, budget) -> None:
        t = d.type
        if budget[0] <= 0 or g == FALSE:
            return
        if isinstance(t, T.StructT):
            for name, ft in t.fields:
                self._copy(child(d, name, ft), child(s, name, ft), g, st, budget)
        elif isinstance(t, T.ArrT):
            steps = sorted(k for k in set(d.children) | set(s.children) if isinstance(k, int))
            for k in steps:
                self._copy(child(d, k, t.elem), child(s, k, t.elem), g, st, budget)
        else:
            budget[0] -= 1
            self.store_obj(d, self.read_obj(s, st), g, st)


def union_members(obj: Obj) -> list:
    """NOTE [union-members]: the members of a union share their memory, so a value stored in
    one member is what another member of the same representation reads (`u.first = p; q =
    u.second;` with `unsigned char *` and `char *`: any two pointers, or two integers of one
    width), and so does a field at the same offset in a struct member (`e.data.scalar.anchor`
    and `e.data.alias.anchor`). Members of other types keep their own values (what their
    bytes would read as is not modelled)."""
    member, offset = obj, 0
    for _ in range(UNION_DEPTH):
        parent = member.parent
        if parent is None or not isinstance(parent.type, T.StructT) or obj.type is None:
            return [obj]
        if parent.type.union:
            break
        offset += parent.type.offsets.get(member.step, 0)
        member = parent
    else:
        return [obj]
    out = [obj]
    for name, ft in parent.type.fields:
        if name != member.step and ft is not None:
            same = _at_offset(child(parent, name, ft), offset, obj.type)
            if same is not None:
                out.append(same)
    return out


def _at_offset(obj: Obj, offset: int, want):
    """The field of `obj` (itself included) at `offset` whose values are `want`'s bits."""
    for _ in range(UNION_DEPTH):
        t = obj.type
        if offset == 0 and _same_bits(t, want):
            return obj
        if not isinstance(t, T.StructT) or t.union:
            return None
        for name, ft in t.fields:
            start = t.offsets.get(name, -1)
            if ft is not None and 0 <= start <= offset < start + max(ft.size, 1):
                obj, offset = child(obj, name, ft), offset - start
                break
        else:
            return None
    return None


def _same_bits(a, b) -> bool:
    """Whether values of types `a` and `b` are the same bits (NOTE [union-members])."""
    return a.key() == b.key() or (isinstance(a, T.PtrT) and isinstance(b, T.PtrT)) or \
        (isinstance(a, T.IntT) and isinstance(b, T.IntT) and a.bits == b.bits)


def _var(self, lv, st):
    return [(self.env.var_obj(lv.sym), TRUE)]


def _deref(self, lv, st):
    p = self.as_gls(self.value(lv.ptr, st))
    null = p.null_guard()
    if null != FALSE and st is not None and hasattr(st, "guard"):
        # §2.2.4.3: a dereference assumes the pointer is not null on this path.
        st.guard = st.guard & self.guards.of_lit(-null)
    out = []
    for loc, g in p.entries:
        if loc is None:
            continue  # a store or load through null: that path is not modelled (§2.2.4.3)
        out.append((self.env.view(loc, lv.type), g))
    return out


def _field(self, lv, st):
    out = []
    for obj, g in self.locs(lv.base, st):
        if not isinstance(obj.type, T.StructT) or obj.type.key() != lv.base.type.key():
            obj = self.env.view(obj, lv.base.type)
        out.append((child(obj, lv.name, lv.type), g))
    return out


def _index(self, lv, st):
    idx = self.as_int(self.value(lv.index, st), T.LONG)
    k = idx.constant()
    out = []
    for obj, g in self.locs(lv.base, st):
        if k is not None:
            out.append((child(obj, k, lv.type), g))
            continue
        # A symbolic index: each element seen so far under `index == k`, else a fresh element
        # (NOTE [array-elements]).
        for step in sorted(s for s in obj.children
                           if isinstance(s, int) and 0 <= s < MAX_TRACKED_INDEX):
            hit = bv_eq(self.c, idx, const(step, 64, True))
            out.append((obj.children[step], self.c.AND(g, hit)))
        out.append((self.env.derived_object(obj, None, lv.type), g))
    return out


_LOCS = {N.VarLv: _var, N.DerefLv: _deref, N.FieldLv: _field, N.IndexLv: _index}
