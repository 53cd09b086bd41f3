"""The lazily built initial environment (§2.3.2, DefVal): inputs appear when first read."""
from __future__ import annotations

import re
import weakref

from ..bitvec.vec import BitVec, const, fresh
from ..ir import nodes as N
from ..ir import types as T
from ..logic.circuit import FALSE, Circuit
from ..memory import gls
from ..memory.locations import Obj, child, view


def width_of(t) -> tuple[int, bool]:
    if isinstance(t, T.IntT):
        return t.bits, t.signed
    if isinstance(t, T.FloatT):
        return t.bits if t.bits != 80 else 128, True
    return 64, False


class Environment:
    """Objects of the function, their initial values, and the inputs read (for witnesses)."""

    def __init__(self, circuit: Circuit, program, fn: N.Function):
        self.c, self.program, self.fn = circuit, program, fn
        self.vars: dict[int, Obj] = {}
        self.initial_values: dict[Obj, object] = {}
        self.inputs: list[tuple[Obj, object]] = []   # (object, initial value) of read inputs
        self.derived: dict = {}
        self.overlay: dict[Obj, object] = {}
        self.inited: set[str] = set()
        self.init_runner = None                       # set by the engine: runs initializers
        self.by_bits: dict[tuple, Obj] = {}
        self.by_addr_var: dict[int, Obj] = {}
        # NOTE [list-back-links]: the nodes reached from an anchor by one link, and literals
        self.chains: dict[tuple, list] = {}   # (anchor uid, link) -> [anchor, nodes in order]
        self.closes: dict[tuple, int] = {}    # (anchor uid, node uid, link) -> literal

    # -- objects ------------------------------------------------------------------------------
    def var_obj(self, sym: N.Symbol) -> Obj:
        # Globals by key: units lowered apart (NOTE [unit-cache]) have their own symbols for one
        # global, and their uids may meet a local's.
        vkey = ("g", sym.key) if sym.kind == "global" else sym.uid
        obj = self.vars.get(vkey)
        if obj is not None:
            return obj
        if sym.kind == "param":
            obj = Obj(sym.type, None, None, None, f"param{sym.index}", sym.name, "env", sym)
        elif sym.kind == "global":
            g = self.program.globals.get(sym.key)
            origin = "static" if g is not None and g.keeps_initializer else "env"
            obj = Obj(sym.type, None, None, None, sym.key, sym.name, origin, sym)
        elif sym.kind == "rv":
            obj = Obj(sym.type, None, None, None, "return", "return value", "local", sym)
        else:
            obj = Obj(sym.type, None, None, None, sym.name, sym.name, "local", sym)
        self.vars[vkey] = obj
        if obj.origin == "static" and sym.key not in self.inited:
            self.inited.add(sym.key)
            self.init_runner(self.program.globals[sym.key], obj)
        return obj

    def fresh_object(self, ctype, path: str, display: str, origin: str) -> Obj:
        return Obj(ctype if ctype is not None else T.VOID, None, None, None, path, display, origin)

    # -- values -------------------------------------------------------------------------------
    # NOTE [zeroed-blocks]: a block whose Address is `zeroed` (calloc's, kzalloc's: the
    # ownership checkers mark what a `zeroed = true` spec returns) holds zero in every pointer
    # and integer its function has not written, through every view of it: a field of a
    # calloc'ed struct is null, so a callee that fills it only where it was null does fill it
    # there. A write the analysis follows only for the objects it met (at an unknown offset, a
    # whole copy, a library function's or an unknown callee's) makes the block unknown again
    # (locations.unzero), on every path: as other blocks' unwritten contents are.
    def initial(self, obj: Obj):
        """The value an object holds before the function writes it (memoised: one per object)."""
        got = self.initial_values.get(obj)
        if got is not None:
            return got
        root = obj.root
        if root.origin == "static":
            value = self.overlay.get(obj) or self.zero(obj.type)
        elif root.addr.zeroed and isinstance(obj.type, (T.PtrT, T.IntT)):
            value = self.zero(obj.type)   # NOTE [zeroed-blocks]
        elif (back := back_link(obj)) is not None:
            value = gls.single(back)
        elif (head := list_anchor(obj)) is not None:
            value = self.list_link(obj, head)
            self.inputs.append((obj, value))
        else:
            value = self.default(obj.type, obj)
            if root.origin == "env":
                self.inputs.append((obj, value))
        self.initial_values[obj] = value
        return value

    def list_link(self, obj: Obj, head: Obj):
        """A list link's initial value (NOTE [list-back-links]): the walk's anchor `head`, null
        or a fresh node. `y->next == head` iff `head->prev == y`, one literal for both
        (`_closes`), so a link of `head` itself may lead to each node already reached from it
        the other way."""
        y, step = obj.parent, obj.step
        if y is head:
            back = _opposite_step(obj)
            chain = self.chains.setdefault((head.uid, back), [head])
            choices = [(z, self._closes(head, z, back)) for z in chain]
        else:
            choices = [(head, self._closes(head, y, step))]
        value = self.default(obj.type, obj, choices=choices)
        new = value.entries[-1][0]   # the fresh node: the next one reached from head this way
        self.chains.setdefault((head.uid, step), [head]).append(new)
        return value

    def starts_empty(self, head: Obj):
        """The literal of `head`'s links leading back to itself (its list empty, or it alone in
        a ring) where one of them was read, else None."""
        return self.closes.get((head.uid, head.uid, ""))

    def _closes(self, head: Obj, node: Obj, step: str) -> int:
        """The literal of `node.step == head` (and of `head.opposite == node`)."""
        key = (head.uid, node.uid, step if node is not head else "")
        got = self.closes.get(key)
        if got is None:
            got = self.closes[key] = self.c.new_var()
        return got

    def zero(self, t):
        if isinstance(t, T.PtrT):
            return gls.NULL
        w, s = width_of(t)
        return const(0, w, s)

    def default(self, t, obj: Obj | None = None, label: str | None = None, choices=()):
        """DefVal: fresh bits for numbers; {(g, null), (¬g, fresh object)} for pointers, after
        `choices`, (location, when) pairs taken in order where their `when` holds."""
        if isinstance(t, T.PtrT):
            path = f"*{obj.path}" if obj is not None else (label or "*unknown")
            disp = f"*{obj.display}" if obj is not None else (label or "*unknown")
            origin = "env" if obj is not None and obj.root.origin == "env" else "fresh"
            target = t.target if not isinstance(t.target, T.FuncT) else T.VOID
            new = self.fresh_object(target, path, disp, origin)
            new.deref_of = obj
            g = self.c.new_var()
            if not choices:
                return gls.GLS(((None, g), (new, -g)))
            pairs, taken = [], FALSE
            for loc, when in choices:
                pairs.append((loc, self.c.AND(when, -taken)))
                taken = self.c.OR(taken, when)
            return gls.make(self.c, pairs + [(None, self.c.AND(-taken, g)),
                                             (new, self.c.AND(-taken, -g))])
        w, s = width_of(t)
        return fresh(self.c, w, s)

    def address_bits(self, obj: Obj) -> BitVec:
        """A pointer's integer value: fresh non-zero bits per address (null is 0), or the integer
        a pointer made from an integer came from."""
        addr = obj.addr
        if addr.bits is None:
            addr.bits = fresh(self.c, 64, False)
            self.c.require(list(addr.bits.bits))
            # NOTE [error-pointers]: no object lives in the top 4 KiB of the address space, where
            # the kernel's ERR_PTR(-errno) values are; so IS_ERR() of a real object is false.
            self.c.require([-b for b in addr.bits.bits[12:]])
            self.by_bits[addr.bits.bits] = obj
            for var in addr.bits.bits:
                self.by_addr_var[var] = obj
        return addr.bits

    def address_source(self, bits, limit: int = 200000):
        """The one object whose address an integer was computed from (`(uintptr_t)p + k`), found
        in the integer's circuit cone, or None (several, none, or too big to look)."""
        if not self.by_addr_var:
            return None
        seen, stack, found = set(), [abs(b) for b in bits], set()
        defs = self.c.defs
        while stack:
            v = stack.pop()
            if v in seen:
                continue
            seen.add(v)
            if len(seen) > limit:
                return None
            obj = self.by_addr_var.get(v)
            if obj is not None:
                found.add(obj)
                if len(found) > 1:
                    return None
                continue
            d = defs[v]
            if d is not None:
                stack.extend(abs(x) for x in d[1:])
        return next(iter(found)) if found else None

    def derived_object(self, base: Obj, key=None, ctype=None, offset=None) -> Obj:
        """Pointer arithmetic we do not model (§2.2.4.4) lands on a fresh object: one per base
        location and type, whatever the offset, and arithmetic on it stays on it — so loops that
        walk a pointer do not grow the location sets. NOTE [constant-offsets]: a constant
        offset (below MAX_TRACKED_INDEX) has an object of its own, past a base or past the
        object somewhere past it."""
        if offset is None and base.origin == "derived" and (ctype is None or base.type is ctype):
            if base.offset is None or base.derived_from is None:
                return base
            base = base.derived_from   # `(h + 4) + i`: somewhere past h
            if base.origin == "derived" and base.offset is None:
                return base            # `((h + i) + 4) + j`: still somewhere past h
        k = (base.uid, ctype.key() if ctype is not None else None, offset)
        got = self.derived.get(k)
        if got is None:
            mark = "?" if offset is None else str(offset)
            got = Obj(ctype if ctype is not None else base.type, None, None, None,
                      f"{base.path}+{mark}", f"{base.display}+{mark}", "derived")
            got.root, got.derived_from, got.offset = base.root, base, offset
            self.derived[k] = got
        return got

    def element(self, obj: Obj, index: int):
        return child(obj, index, obj.type.elem if isinstance(obj.type, T.ArrT) else obj.type)

    def view(self, obj: Obj, t):
        return view(obj, t)


# NOTE [list-back-links]
# The paper's "slightly smarter" DefVal (§2.3.2, footnote 4): in a doubly linked list, the node
# reached by x.next has x as its prev (and the one reached by x.prev has x as its next). So
# `x->next->prev` is x, not a fresh object: list_del's `entry->prev->next = ...` on a node
# reached from x writes x.next, a walk over a list does not grow a new path at every step, and
# summaries carry no `next->prev->next` chains. And the list is circular: a link followed in
# one direction from a node may lead back to the node the walk started from (its anchor: the
# first node of the chain of links that reached it), so `list_empty(h)` (h->next == h) can hold
# and `list_for_each(p, h)` can end (else a walk would never end, nor would a function with
# one). One literal says both `y->next == h` and `h->prev == y` (so an empty list
# has h->prev == h too); a node first reached after h->prev was read is not among h->prev's
# choices. Only for structs whose `next` and `prev` fields both point to the struct itself
# (struct list_head and its kind; circular only when they are its only fields, as in
# list_head: a node with a payload may end in null), only for the function's inputs and the
# nodes unknown calls return (a list that exists; not a new block's garbage), only for initial
# values: what was written stays written. The two links are known by their words, the rest
# of their names the same (`ln_next` and `ln_prev`, `fwd_link` and `bwd_link`, `pNext` and
# `pPrev`): projects name them their own way.
_WORDS = {"next": "prev", "prev": "next", "previous": "next", "nxt": "prv", "prv": "nxt",
          "fwd": "bwd", "bwd": "fwd", "forw": "back", "back": "forw", "flink": "blink",
          "blink": "flink", "succ": "pred", "pred": "succ"}
_LINKS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()   # type -> (fields, links)


def list_links(t) -> dict:
    """{link field: its opposite} of a struct's pairs of forward and backward links to
    itself, else {}. Kept per type object (not per tag: programs may give one tag two
    definitions)."""
    if not isinstance(t, T.StructT):
        return {}
    got = _LINKS.get(t)
    if got is not None and got[0] == len(t.fields):
        return got[1]
    own = [name for name, ft in t.fields if T.points_to(ft, t)]
    links: dict = {}
    for a in own:
        b = next((b for b in own if b != a and a not in links and b not in links and
                  (_opposite(a, b) or _opposite(b, a))), None)
        if b is not None:
            links[a], links[b] = b, a
    _LINKS[t] = (len(t.fields), links)
    return links


def _opposite(a: str, b: str) -> bool:
    """Names of the same words but one, which is a link's word in `a` and its opposite's
    in `b` (`lru_next`, `lru_prev`)."""
    wa, wb = _name_words(a), _name_words(b)
    if len(wa) != len(wb):
        return False
    differ = [(x, y) for x, y in zip(wa, wb) if x != y]
    return len(differ) == 1 and _WORDS.get(differ[0][0]) == differ[0][1]


def _name_words(name: str) -> list:
    return [w.lower() for w in re.findall(r"[a-z]+|[A-Z][a-z]*|[0-9]+", name)]


def _opposite_step(obj: Obj) -> str | None:
    return list_links(obj.parent.type).get(obj.step) if obj.parent is not None else None


def is_list_link(obj: Obj) -> bool:
    """obj is the forward or backward link of an input node of a list type (or of one an
    unknown call returned)."""
    node = obj.parent
    return node is not None and _opposite_step(obj) is not None and \
        T.points_to(obj.type, node.type) and node.root.origin in ("env", "fresh")


def back_link(obj: Obj) -> Obj | None:
    """x when obj is the `prev` field of the node x.next points to (or `next` of *x.prev)."""
    if not is_list_link(obj):
        return None
    link = reached_through(obj.parent)
    if link is None or link.step != _opposite_step(obj) or not is_list_link(link):
        return None
    return link.parent


def _pure_link(t) -> bool:
    """A struct of only the two links (the kernel's list_head): lists of those are circular,
    while a node with a payload of its own may end in null."""
    return isinstance(t, T.StructT) and len(t.fields) == 2 and len(list_links(t)) == 2


def list_anchor(obj: Obj) -> Obj | None:
    """The node a walk that followed links to obj's node started from (NOTE
    [list-back-links]), when obj is a list link."""
    if not is_list_link(obj) or not _pure_link(obj.parent.type):
        return None
    node = obj.parent
    while (link := reached_through(node)) is not None and is_list_link(link):
        node = link.parent
    return node


def reached_through(node: Obj) -> Obj | None:
    """The link whose value on entry points to `node`, or the one a callee's unknown write
    put it in (NOTE [unknown-links])."""
    return node.deref_of if node.deref_of is not None else node.linked_from


# NOTE [unknown-links]: a callee that relinks a list (list_del_init: `prev->next = next`) may
# leave a link whose new value its summary cannot name, and the caller gives it an unknown
# node. That node is still reached through the link: the link's node is its back link (`x->next
# == y` then `y->prev == x`) and the walk's anchor is the link's, not the node itself. As an
# anchor of its own it could be its own next (an empty list's head), and a safe walk that
# frees its current node would find it again as the saved next one.
def link_unknown(link: Obj, value) -> None:
    """Mark the nodes of a fresh unknown `value` written to `link`, where it is a list link
    (a pointer: `is_list_link`)."""
    if is_list_link(link):
        for loc, _ in value.entries:
            if loc is not None and loc.deref_of is None:
                loc.linked_from = link
