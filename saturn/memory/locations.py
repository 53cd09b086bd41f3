"""Locations: objects of a known type, addresses shared by objects that start at the same memory."""
from __future__ import annotations

import itertools
import re

from ..ir import types as T

_uids = itertools.count(1)


class Address:
    """AddrOf(o) (§2.2.4.2); `bits` (the integer value of a pointer to it) is made on demand;
    `zeroed`: a block whose bytes are zero until written (calloc's)."""
    __slots__ = ("uid", "views", "bits", "root", "zeroed")

    def __init__(self, root: "Obj | None" = None):
        self.uid = next(_uids)
        self.views: dict[str, Obj] = {}
        self.bits = None
        self.root = root
        self.zeroed = False


class Obj:
    """A memory object. `path` names it for summaries (`*param0`, `(*param0).lock`, `global_g`);
    `display` names it for people (`*p`, `p->lock`); `origin` is env, local, heap, global, string,
    function or derived (pointer arithmetic)."""
    __slots__ = ("uid", "type", "addr", "parent", "step", "path", "display", "origin", "root",
                 "children", "sym", "site", "deref_of", "container_of", "derived_from",
                 "offset", "linked_from", "__weakref__")

    def __init__(self, ctype, addr, parent, step, path, display, origin, sym=None):
        self.uid = next(_uids)
        self.type = ctype
        self.addr = addr if addr is not None else Address()
        if self.addr.root is None:
            self.addr.root = self
        self.parent = parent
        self.step = step                    # field name or element index under `parent`
        self.path, self.display, self.origin = path, display, origin
        self.root = parent.root if parent is not None else self
        self.children: dict = {}
        self.sym = sym
        self.site = None                    # allocation site (checkers)
        self.deref_of = None                # the pointer object whose DefVal made this one
        self.container_of = None            # (inner, member names): NOTE [container-of]
        self.derived_from = None            # the base of unmodelled pointer arithmetic
        self.offset = None                  # ... k elements past it, when k is a constant
        self.linked_from = None             # the list link an unknown write put it in
        if ctype is not None:
            self.addr.views.setdefault(ctype.key(), self)

    def __repr__(self):
        return f"Obj({self.path}#{self.uid})"

    def __lt__(self, other):
        return self.uid < other.uid


def blurred(obj: Obj) -> bool:
    """Whether `obj` is, or is part of, an object pointer arithmetic reaches at an unknown
    offset: one object for many elements (NOTE [blurred-writes] in symex/evaluator.py)."""
    cur = obj
    while cur is not None:
        if cur.derived_from is not None:   # k past an object somewhere past its base, too
            return cur.offset is None or blurred(cur.derived_from)
        cur = cur.parent
    return False


def unzero(obj: Obj) -> None:
    """NOTE [zeroed-blocks]: a write the analysis does not follow object by object (at an
    unknown offset, a whole copy, a library function's, an unknown callee's) leaves the rest
    of the block unknown, not zero: the blocks `obj` is part of, or past, are zeroed no more."""
    cur = obj
    for _ in range(8):
        cur = cur.root
        cur.addr.zeroed = False
        cur = cur.derived_from or (cur.container_of[0] if cur.container_of else None)
        if cur is None:
            return


def field_path(base: str, name: str) -> str:
    if base.startswith("*"):
        return f"({base}).{name}"
    return f"{base}.{name}"


def display_field(base: str, name: str) -> str:
    if base.startswith("*") and not base.startswith("*("):
        return f"{base[1:]}->{name}"
    return f"{base}.{name}"


def child(obj: Obj, step, ctype) -> Obj:
    """The sub-object for a field name or a constant element index (memoised: one object)."""
    got = obj.children.get(step)
    if got is not None:
        return got
    if isinstance(step, str):
        st = obj.type if isinstance(obj.type, T.StructT) else None
        offset = st.offsets.get(step, -1) if st is not None else -1
        path, disp = field_path(obj.path, step), display_field(obj.display, step)
    else:
        offset = step * max(1, ctype.size) if ctype is not None else -1
        path, disp = f"{obj.path}[{step}]", f"{obj.display}[{step}]"
    addr = obj.addr if offset == 0 else None
    got = Obj(ctype, addr, obj, step, path, disp, obj.origin)
    obj.children[step] = got
    return got


def first_member_chain(obj: Obj, key: str) -> Obj | None:
    """The object of type `key` that starts where `obj` starts (first fields, element 0)."""
    cur = obj
    for _ in range(8):
        t = cur.type
        if isinstance(t, T.StructT) and t.fields:
            name, ft = t.fields[0]
            cur = child(cur, name, ft)
        elif isinstance(t, T.ArrT):
            cur = child(cur, 0, t.elem)
        else:
            return None
        if cur.type is not None and cur.type.key() == key:
            return cur
    return None


def view(obj: Obj, ctype) -> Obj:
    """The object of type `ctype` at obj's address: obj itself, a first member, or a new view."""
    if ctype is None or isinstance(ctype, T.VoidT):
        return obj
    if obj.type is not None and obj.type.key() == ctype.key():
        return obj
    key = ctype.key()
    got = obj.addr.views.get(key)
    if got is not None:
        return got
    root = obj.addr.root or obj
    got = first_member_chain(root, key) or _first_member_of(obj, ctype)
    if got is None:
        path = obj.path if isinstance(obj.type, T.VoidT) or obj.type is None else obj.path
        got = Obj(ctype, obj.addr, None, None, path, obj.display, obj.origin)
        got.root = obj.root
        got.site = obj.site
        got.deref_of = root.deref_of if obj.parent is None else None
    obj.addr.views[key] = got
    return got


def may_start(obj: Obj, ctype) -> bool:
    """Whether an object of struct type `ctype` may start where `obj` does. Only a member of
    an input struct is ever ruled out: where `ctype` is none of the types the outermost
    struct there starts with (nested first members), nor one that may hold it first. A list's
    head inside a struct of another type is no entry of the list: a walk that passes its
    anchor takes `container_of(&st->queue)` for one, which cannot start at `st`. Whole
    objects (an opaque handle cast to its implementation) and unions may be anything."""
    if obj.parent is None or not isinstance(ctype, T.StructT) or ctype.union or \
            not ctype.complete:
        return True
    outer = obj.addr.root
    if outer.origin not in ("env", "fresh") or outer.container_of is not None or \
            outer.derived_from is not None:
        return True
    inside, starts = _starting_types(outer.type), _starting_types(ctype)
    if inside is None or starts is None:
        return True
    return ctype.key() in inside or (outer.parent is None and outer.type.key() in starts)


def _starting_types(t) -> set | None:
    """The keys of struct `t` and of the members each first member starts with; None where
    a union, an incomplete struct or no struct is among them (memory of any type)."""
    keys = set()
    for _ in range(8):
        while isinstance(t, T.ArrT):
            t = t.elem
        if not isinstance(t, T.StructT):
            return keys or None
        if t.union or not t.complete:
            return None
        keys.add(t.key())
        if not t.fields:
            return keys
        t = t.fields[0][1]
    return keys


def _first_member_of(obj: Obj, ctype) -> Obj | None:
    """The struct of type `ctype` whose first member (at offset 0, nested or not) is obj: a
    `struct list_head *` cast to the entry it starts (`list` the entry's first field). Its
    member is obj itself, so the entry's links are the list's (NOTE [container-of])."""
    if not isinstance(ctype, T.StructT) or ctype.union or obj.type is None or \
            isinstance(obj.type, T.VoidT):
        return None   # a union's members are views of one another (NOTE [view-steps])
    names = member_path(ctype, 0, obj.type.key())
    return container(obj, ctype, names) if names else None


# NOTE [container-of]
# `container_of(p, struct S, m)` is `(struct S *)((char *)p - offsetof(struct S, m))`. The
# evaluator turns that cast of a constant negative offset into the object of type S whose member
# m *is* p's object: p's parent when p was reached as a member of an S, otherwise a container
# object made once per (object, S, m) whose member m is seeded with p's object. So a lock reached
# through container_of is the same object as through the struct. Its interface path is p's path
# plus a ["container", "struct S", "m"] step (nested members joined by dots, an element of an
# array member as `m[1]`: member_text), which callers resolve the same way
# (interface.resolve), so summaries carry it across calls.

def member_path(st, offset: int, inner_key: str | None) -> list | None:
    """Field names (and element indices, for a member inside an array: `list_node[1]`) from
    struct `st` down to the member at byte `offset` (of type `inner_key` when given; the
    outermost member at that offset otherwise)."""
    best = None
    for name, ftype in st.fields:
        off = st.offsets.get(name, -1)
        if off == offset and (inner_key is None or ftype.key() == inner_key):
            return [name]
        if off <= offset < off + ftype.size:
            sub = _inner_path(ftype, offset - off, inner_key)
            if sub is not None:
                return [name] + sub
        if off == offset and best is None:
            best = [name]
    return best if inner_key is None else None


def _inner_path(t, offset: int, inner_key: str | None) -> list | None:
    if isinstance(t, T.StructT):
        return member_path(t, offset, inner_key)
    if isinstance(t, T.ArrT) and t.elem.size > 0 and inner_key is not None:   # typed only
        index, rest = divmod(offset, t.elem.size)
        if rest == 0 and (inner_key is None or t.elem.key() == inner_key):
            return [index]
        sub = _inner_path(t.elem, rest, inner_key)
        return [index] + sub if sub is not None else None
    return None


def member_text(names) -> str:
    """A member path as an interface step writes it: `list_node[1]`, `link.next`."""
    return "".join(f"[{n}]" if isinstance(n, int) else ("." if i else "") + n
                   for i, n in enumerate(names))


def member_names(text: str) -> list:
    """The member path `member_text` wrote."""
    return [int(m[1]) if m[1] else m[2] for m in re.finditer(r"\[(\d+)\]|([^.\[\]]+)", text)]


def container(inner: Obj, st, names: list[str]) -> Obj:
    """The object of struct type `st` whose member `names` is `inner` (NOTE [container-of])."""
    up, rest = inner, list(names)
    while rest and up.parent is not None and up.step == rest[-1]:
        up, rest = up.parent, rest[:-1]
        if not rest and up.type is not None and up.type.key() == st.key():
            return up
    key = ("container", st.key(), tuple(names))
    got = inner.children.get(key)
    if got is not None:
        return got
    got = Obj(st, None, None, None, f"container({inner.path})", f"container_of({inner.display})",
              inner.origin)
    got.container_of = (inner, tuple(names))
    got.site = inner.site
    cur = got
    for name in names[:-1]:
        cur = child(cur, name, cur.type.elem if isinstance(name, int) else
                    cur.type.field_type(name))
    cur.children[names[-1]] = inner
    inner.children[key] = got
    return got
