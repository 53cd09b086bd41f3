"""Lowering initializers: brace lists with designators, string literals, zero-filling."""
from __future__ import annotations

from pycparser import c_ast

from . import nodes as N
from . import types as T
from .lower_expr import const

# Arrays are filled element by element only up to this many elements; later ones stay unknown
# (reading them gives fresh bits), which keeps `char buf[4096] = {0}` cheap.
ZERO_FILL_LIMIT = 16


class InitLowering:
    def initialize(self, target: N.Lvalue, init, node, zero_rest: bool = True) -> None:
        coord = self.coord(node)
        t = target.type
        if isinstance(init, c_ast.InitList):
            if zero_rest:
                self.zero_fill(target, coord)
            if isinstance(t, T.StructT):
                self.init_struct(target, init, node)
            elif isinstance(t, T.ArrT):
                self.init_array(target, init, node)
            elif init.exprs:
                self.initialize(target, init.exprs[0], node, zero_rest=False)
            return
        if isinstance(t, T.ArrT) and isinstance(init, c_ast.Constant) and init.type == "string":
            self.init_string(target, init.value, coord)
            return
        value = self.rv(init)
        if isinstance(t, (T.StructT, T.ArrT)) and not isinstance(value, N.Read):
            return  # e.g. an unknown aggregate: the object stays unknown
        self.assign(target, value, node)

    def zero_fill(self, target: N.Lvalue, coord) -> None:
        t = target.type
        if isinstance(t, T.StructT):
            for name, ftype in (t.fields if not t.union else t.fields[:1]):
                self.zero_fill(N.FieldLv(ftype, target, name), coord)
        elif isinstance(t, T.ArrT):
            for i in range(min(t.count or 0, ZERO_FILL_LIMIT)):
                self.zero_fill(N.IndexLv(t.elem, target, const(i, T.LONG)), coord)
        elif isinstance(t, (T.IntT, T.PtrT)):
            self.b.emit(N.Assign(coord, target, self.convert(const(0), t)))

    def init_struct(self, target, init, node) -> None:
        fields = target.type.fields
        pos = 0
        for item in init.exprs:
            if isinstance(item, c_ast.NamedInitializer):
                sub, first = self.designated(target, item.name, node)
                if sub is None:
                    continue
                names = [f for f, _ in fields]
                pos = names.index(first) + 1 if first in names else pos
                self.initialize(sub, item.expr, node, zero_rest=False)
                continue
            if pos >= len(fields):
                break
            name, ftype = fields[pos]
            pos += 1
            self.initialize(N.FieldLv(ftype, target, name), item, node, zero_rest=False)

    def init_array(self, target, init, node) -> None:
        elem, pos = target.type.elem, 0
        for item in init.exprs:
            if isinstance(item, c_ast.NamedInitializer):
                designator = item.name[0]
                if type(designator).__name__ == "RangeExpression":
                    lo = self.types.consts.eval(designator.first, self.scope)
                    hi = self.types.consts.eval(designator.last, self.scope)
                    for i in range(lo or 0, min((hi or 0) + 1, (lo or 0) + ZERO_FILL_LIMIT)):
                        self.initialize(N.IndexLv(elem, target, const(i, T.LONG)), item.expr, node,
                                        zero_rest=False)
                    pos = (hi or 0) + 1
                    continue
                sub, first = self.designated(target, item.name, node)
                pos = (first if isinstance(first, int) else pos) + 1
                if sub is not None:
                    self.initialize(sub, item.expr, node, zero_rest=False)
                continue
            if pos < ZERO_FILL_LIMIT * 4:
                self.initialize(N.IndexLv(elem, target, const(pos, T.LONG)), item, node,
                                zero_rest=False)
            pos += 1

    def designated(self, target, designators, node):
        """The sub-object a designator list (`.a.b[2]`) names, and its first step."""
        first = None
        for d in designators:
            t = target.type
            if isinstance(d, c_ast.ID) and isinstance(t, T.StructT):
                ft = t.field_type(d.name)
                if ft is None:
                    return None, None
                target = N.FieldLv(ft, target, d.name)
                step = d.name
            elif isinstance(t, T.ArrT):
                idx = self.types.consts.eval(d, self.scope)
                if idx is None:
                    return None, None
                target = N.IndexLv(t.elem, target, const(idx, T.LONG))
                step = idx
            else:
                return None, None
            first = step if first is None else first
        return target, first

    def init_string(self, target, literal: str, coord) -> None:
        body = literal[literal.index('"') + 1:-1].encode().decode("unicode_escape", "ignore")
        chars = [ord(c) & 0xFF for c in body[:ZERO_FILL_LIMIT * 4]] + [0]
        count = target.type.count
        for i, ch in enumerate(chars):
            if count is not None and i >= count:
                break
            self.b.emit(N.Assign(coord, N.IndexLv(target.type.elem, target, const(i, T.LONG)),
                                 self.convert(const(ch), target.type.elem)))
