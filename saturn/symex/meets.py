"""Pointers the model keeps apart that may still be one address: a havocked pointer and any
other, input pointers of one struct, a back-link and its owner, a sentinel node, a constant
address (each pair one free literal, the same at every comparison; used by expr.py)."""
from __future__ import annotations

from ..ir import types as T
from ..logic.circuit import FALSE
from ..memory.gls import GLS


# NOTE [havoc-pointers]: a pointer the havoc pass (§2.6.6) made unknown points to a fresh
# object, which no other pointer names; so a loop that walks until it is back at its start
# (`skb != (struct sk_buff *)&queue`, a list whose nodes are not pure links) could never end,
# and code after it would be dead. Such an object's address may equal any other non-null one's: one
# free literal per pair, the same each time the pair is compared. So may a function's and that
# of what an unknown pointer points to (a callback read from a struct may be that function).
def may_meet(self, a: GLS, b: GLS) -> int:
    """Where objects of `a` and `b` that the model keeps apart may still be one address."""
    out = FALSE
    for la, ga in a.entries:
        for lb, gb in b.entries:
            if la is None or lb is None or la.addr is lb.addr or not _unknown_pair(self, la, lb):
                continue
            key = (min(la.addr.uid, lb.addr.uid), max(la.addr.uid, lb.addr.uid))
            lit = self.unknown_equal.get(key)
            if lit is None:
                lit = self.unknown_equal[key] = self.c.new_var()
            out = self.c.OR(out, self.c.AND(self.c.AND(ga, gb), lit))
    return out


def _unknown_pair(self, la, lb) -> bool:
    """A havocked pointer's object and any other; a function, or a global table of functions,
    and an object an unknown pointer points to (NOTE [indirect-calls] in ir/indirect.py:
    `ops->cb == my_cb` may hold; NOTE [table-calls] in ir/tables.py: so may `ops == &table`)."""
    if la.root.uid in self.anywhere or lb.root.uid in self.anywhere:
        return True
    pa, pb = _input_block(la), _input_block(lb)
    if (_siblings(pa, pb) or _owner_link(pa, pb) or _owner_link(pb, pa)) and \
            la.type is not None and lb.type is not None and la.type.key() == lb.type.key():
        return True   # NOTE [input-pointers-meet]
    fa, fb = la.origin == "function", lb.origin == "function"
    if fa != fb:
        return (lb if fa else la).origin in ("env", "fresh")
    if _sentinel(la, lb) or _sentinel(lb, la) or _constant_and_read(la, lb):
        return True   # NOTE [sentinels]
    tables = self.program.tables
    ta, tb = la.path in tables, lb.path in tables
    return ta != tb and _pointed_to(lb if ta else la)


# NOTE [input-pointers-meet]: two pointers the function was given in fields of one struct,
# to blocks of one type, may be one address (a stack's `start` and `top`: `while (s->start !=
# s->top) --s->top;`): their objects' addresses may be equal, one free literal per pair as for
# havocked pointers. Without it the loop could leave only where both are null, and what
# follows it would never see the blocks. So may a parameter and a field of another
# parameter's block pointing to a struct of the parameter's type (a back-link to an owner:
# `assert(buf->owner == broker)`, which otherwise failed on every path and left the function
# no exit). Pointers from unrelated places stay apart: the paths where they would be equal
# but their blocks distinct make callees' summaries vaguer.
def _input_block(loc):
    """The pointer object whose target `loc` is, where it is an input's block."""
    base = loc.root
    while base.origin == "derived" and base.derived_from is not None:
        base = base.derived_from.root
    ok = base.origin == "env" and base.sym is None and not isinstance(loc.type, T.VoidT)
    return base.deref_of if ok else None


def _owner_link(param, field) -> bool:
    """`param` is a parameter to a struct, `field` a member of the block another parameter
    points to."""
    if param is None or field is None or param.parent is not None or param.sym is None or \
            param.sym.kind != "param" or field.parent is None:
        return False
    holder = field.parent
    while holder.parent is not None:
        holder = holder.parent
    base = holder.deref_of
    return isinstance(param.type, T.PtrT) and isinstance(param.type.target, T.StructT) and \
        base is not None and base.parent is None and base.sym is not None and \
        base.sym.kind == "param" and base is not param


def _siblings(pa, pb) -> bool:
    return pa is not None and pb is not None and pa is not pb and \
        pa.parent is not None and pa.parent is pb.parent


# NOTE [sentinels]: a global node (a struct with a link to its own type) and a block of the
# same type that a pointer the function was given or read points to may be one address: a
# tree whose leaves point to one global sentinel node (`for (n = first(t); n != &null_node;
# n = next(n))`) has such a pointer equal to the sentinel's address at the walk's end. One
# free literal per pair, as for the pairs above; without it the walk never ended, and a
# function returning with a lock it took before the walk was not seen to release it on its
# normal exit. Other globals stay apart from what the function is given (a table of hooks).
# So may a constant address (`MAP_FAILED`, `(void *)-1`) and what a pointer the function
# read points to: `if (c->map == MAP_FAILED)` is taken both ways.
def _sentinel(g, loc) -> bool:
    sym, t = g.sym, g.type
    return g.parent is None and sym is not None and sym.kind == "global" and \
        isinstance(t, T.StructT) and any(T.points_to(ft, t) for _, ft in t.fields) and \
        _pointed_to(loc) and loc.type is not None and loc.type.key() == t.key()


def _constant_and_read(la, lb) -> bool:
    return (la.origin == "int" and _pointed_to(lb)) or (lb.origin == "int" and _pointed_to(la))


def _pointed_to(loc) -> bool:
    """What a pointer the function was given, or read, points to: no variable of its own."""
    return loc.root.sym is None and loc.root.origin in ("env", "fresh")
