"""The list-head assumption at a branch that unlinks a node (NOTE [list-heads] in ir/lists.py)."""
from __future__ import annotations

from ..logic.circuit import FALSE
from .state import State


def assume_head(ev, test, lit: int, st: State) -> None:
    """Where `test.node` points into the block `test.head` points to, its link is null: the
    path goes on only where that holds. `lit` is the branch's condition."""
    c = ev.c
    scratch = State(st.guard, st.memory, st.attrs)   # reading the head assumes nothing
    hooks, ev.load_hooks = ev.load_hooks, []         # and is no read of the program's
    try:
        head = ev.as_gls(ev.load(test.head, scratch))
        node = ev.as_gls(ev.value(test.node, scratch))
    finally:
        ev.load_hooks = hooks
    same = FALSE
    for lh, gh in head.locations():
        for ln, gn in node.locations():
            if _inside(ln, lh):
                same = c.OR(same, c.AND(gh, gn))
    if same != FALSE:
        null = lit if test.null_side else -lit
        st.guard = st.guard & ev.guards.of_lit(c.OR(-same, null))


def _inside(obj, block) -> bool:
    """Whether `obj` is `block` or a member of it (a handle embedded in the node)."""
    for _ in range(8):
        if obj is None:
            return False
        if obj is block or obj.addr is block.addr:
            return True
        obj = obj.parent
    return False
