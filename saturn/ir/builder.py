"""Block and symbol bookkeeping while one function (or the file scope) is lowered."""
from __future__ import annotations

import contextlib
import itertools

from . import nodes as N
from . import types as T
from .decls import Scope
from .nodes import successors

_uids = itertools.count(1)


def new_uid() -> int:
    return next(_uids)


class Builder:
    """Owns the blocks of one function; `cur` is the block statements go into (None: dead code)."""

    def __init__(self, file: str):
        self.file = file
        self.blocks: dict[int, N.Block] = {}
        self._ids = itertools.count()
        self.cur: N.Block | None = self.new_block()
        self.notes: list[str] = []
        self.unmodelled = ""          # why the function cannot be modelled (Function.unmodelled)
        self.label_addresses: set[str] = set()   # labels whose address `&&l` is taken
        self.computed_gotos: list[N.Block] = []  # blocks ending in `goto *p`, until the end
        self.callees: set[str] = set()
        self.fn_pointer_calls = 0
        self.indirect: list = []      # NOTE [indirect-calls] in ir/indirect.py
        self.fn_stores: set = set()
        self.calls_by_args: dict = {}   # a call's argument text -> direct callees, hook slots
        self.spawns: set = set()      # start routines handed to threads: NOTE [entry-points]
        self.inits: list = []         # (name, slot, constant, line): NOTE [init-sites]
        self.wrapped: dict = {}       # result temp -> the one argument of the call that made it
        self.temps = 0
        self.locals: list[N.Symbol] = []
        # id(Const) -> id(its AST node), of the numbers equal to their line: NOTE [line-literals]
        self.line_literals: dict[int, int] = {}

    def new_block(self) -> N.Block:
        b = N.Block(next(self._ids))
        self.blocks[b.id] = b
        return b

    def emit(self, stmt) -> None:
        if self.cur is None:
            self.cur = self.new_block()  # unreachable code still gets lowered, then pruned
        self.cur.stmts.append(stmt)

    def end(self, term) -> None:
        if self.cur is None:
            self.cur = self.new_block()
        self.cur.term = term
        self.cur = None

    def goto(self, target: N.Block) -> None:
        self.end(N.Goto(target.id))

    def start(self, block: N.Block) -> None:
        """Continue in `block`, falling through from the current block if it is still open."""
        if self.cur is not None:
            self.goto(block)
        self.cur = block

    def temp(self, t: T.CType, hint: str = "tmp") -> N.Symbol:
        self.temps += 1
        sym = N.Symbol(f"<{hint}{self.temps}>", t, "temp", new_uid())
        self.locals.append(sym)
        return sym

    def note(self, coord: N.Coord, text: str) -> None:
        self.emit(N.Note(coord, text))

    def choose(self, targets: list, coord: N.Coord, text: str) -> None:
        """End the current block going to one of `targets` ((name, block) pairs; at least one),
        which, the model does not know: a computed goto's, an `asm goto`'s."""
        for name, target in targets[:-1]:
            other = self.new_block()
            self.end(N.Branch(N.Unknown(T.INT, ""), target.id, other.id, coord,
                              f"{text} goes to {name}"))
            self.cur = other
        self.goto(targets[-1][1])

    @contextlib.contextmanager
    def scratch(self):
        """Lower something only for its type (sizeof, typeof): every statement is thrown away."""
        saved_cur, saved_ids = self.cur, set(self.blocks)
        saved_notes, saved_callees = list(self.notes), set(self.callees)
        self.cur = N.Block(-1)
        try:
            yield
        finally:
            for bid in set(self.blocks) - saved_ids:
                del self.blocks[bid]
            self.cur, self.notes, self.callees = saved_cur, saved_notes, saved_callees

    def prune(self, entry: int) -> None:
        """Drop blocks unreachable from the entry; give open blocks a terminator."""
        for b in self.blocks.values():
            if b.term is None:
                b.term = N.Stop()
        seen, todo = set(), [entry]
        while todo:
            bid = todo.pop()
            if bid in seen:
                continue
            seen.add(bid)
            todo.extend(successors(self.blocks[bid]))
        for bid in list(self.blocks):
            if bid not in seen:
                del self.blocks[bid]


def new_scope(parent: Scope | None) -> Scope:
    return Scope(parent)
