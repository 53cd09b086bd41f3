"""The heads of doubly linked lists, as the code that unlinks a node shows them.

NOTE [list-heads]: code that unlinks a node from a list whose first node has no predecessor
moves the head exactly where the node has none: `if (n->prev) n->prev->next = n->next; else
head = n->next;` (uthash's HASH_DELETE, most hand-written lists). The test is the code's own
statement that the node the head points to has no predecessor. At such a branch the analysis
assumes it of the values it has (symex/engine.py): where `n` is in the block `head` points to,
`n->prev` is null. Without it a path that frees the head after the unlink kept it there (the
head's `prev` taken as anything) read the freed node on the next round, a report no real
list can reach. Only the test itself and the block the null side runs first (through plain
jumps) are read, so the store must be the branch's own.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import nodes as N
from . import types as T

MAX_JUMPS = 4   # plain jumps followed from the null side to the store (a `do { } while (0)`)


@dataclass(frozen=True)
class HeadTest:
    """At a branch testing `node->link` against null: `head` is moved to another link of `node`
    on the side where `link` is null (`null_side`: True for the branch's true successor)."""
    head: N.Lvalue
    node: N.Expr
    null_side: bool


def head_tests(fn: N.Function) -> dict[int, HeadTest]:
    """Block id -> the head test its branch makes (see the NOTE above)."""
    preds = _predecessor_counts(fn)
    out = {}
    for bid, block in fn.blocks.items():
        test = _null_test(getattr(block.term, "cond", None))
        if test is None:
            continue
        node, link, null_on_true = test
        succ = block.term.true if null_on_true else block.term.false
        head = _head_moved(fn, preds, succ, node, link)
        if head is not None:
            out[bid] = HeadTest(head, node, null_on_true)
    return out


def _null_test(cond):
    """(node, link field, whether the true side is the null one) of `node->link`,
    `node->link == 0` or `node->link != 0`, else None."""
    cond = N.uncast(cond)
    null_on_true = False
    if isinstance(cond, N.Binary) and cond.op in ("eq", "ne"):
        a, b = N.uncast(cond.a), N.uncast(cond.b)
        if isinstance(a, N.Const):
            a, b = b, a
        if not (isinstance(b, N.Const) and b.value == 0):
            return None
        cond, null_on_true = a, cond.op == "eq"
    link = _link_of(cond)
    return None if link is None else (link[0], link[1], null_on_true)


def _link_of(e):
    """(node, field) of a pointer read `node->field`, else None."""
    if not (isinstance(e, N.Read) and isinstance(e.type, T.PtrT)):
        return None
    lv = e.lv
    if isinstance(lv, N.FieldLv) and isinstance(lv.base, N.DerefLv):
        return N.uncast(lv.base.ptr), lv.name
    return None


def _head_moved(fn, preds, bid, node, link):
    """The lvalue the blocks from `bid` (through plain jumps, while nothing else joins them)
    store another link of `node` in, if any."""
    for _ in range(MAX_JUMPS + 1):
        block = fn.blocks.get(bid)
        if block is None or preds.get(bid, 0) != 1:
            return None
        for st in block.stmts:
            if not isinstance(st, N.Assign) or not isinstance(st.lv.type, T.PtrT):
                continue
            moved = _link_of(N.uncast(st.value))
            if moved is not None and moved[0] == node and moved[1] != link and \
                    not _reads(st.lv, node):
                return st.lv
        if not isinstance(block.term, N.Goto):
            return None
        bid = block.term.target
    return None


def _reads(lv, node) -> bool:
    """Whether `lv` is reached through `node` (`node->next`: a link, not a head)."""
    while not isinstance(lv, N.VarLv):
        if isinstance(lv, N.DerefLv):
            if N.uncast(lv.ptr) == node:
                return True
            lv = getattr(N.uncast(lv.ptr), "lv", None)
            if lv is None:
                return False
        else:
            lv = lv.base
    return False


def _predecessor_counts(fn) -> dict[int, int]:
    """How many blocks may jump to each block (a `do { } while (0)` does not jump back)."""
    counts: dict[int, int] = {}
    for block in fn.blocks.values():
        term, succs = block.term, N.successors(block)
        cond = N.uncast(getattr(term, "cond", None))
        if isinstance(cond, N.Const):
            succs = [term.true if cond.value else term.false]
        for succ in succs:
            counts[succ] = counts.get(succ, 0) + 1
    return counts
