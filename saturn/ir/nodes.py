"""IR nodes: side-effect-free typed expressions, lvalues, statements and block terminators.

Every node is a frozen dataclass; the symbolic evaluator dispatches on the class through a table
(NOTE [dispatch-tables]: one function per node kind, no if/elif ladders over kinds).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass

from .types import CType


@dataclass(frozen=True, slots=True)
class Coord:
    file: str
    line: int
    col: int = 1

    def __str__(self):
        return f"{self.file}:{self.line}:{self.col}"


NO_COORD = Coord("<unknown>", 0, 0)


@dataclass(frozen=True, eq=False, slots=True)
class Symbol:
    """A variable. kind: local, param, global, static (file-scope or function-static), temp, rv."""
    name: str
    type: CType
    kind: str
    uid: int
    index: int = -1        # parameter position
    key: str = ""          # globals: the program-wide key (name, or file:name for statics)

    def __repr__(self):
        return f"Symbol({self.name}#{self.uid})"


# ---- expressions -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Expr:
    type: CType


@dataclass(frozen=True, slots=True)
class Const(Expr):
    value: int


@dataclass(frozen=True, slots=True)
class Unknown(Expr):
    reason: str = ""       # non-empty: an unsupported construct, recorded as a note


@dataclass(frozen=True, slots=True)
class Read(Expr):
    lv: "Lvalue"


@dataclass(frozen=True, slots=True)
class AddrOf(Expr):
    lv: "Lvalue"


@dataclass(frozen=True, slots=True)
class Unary(Expr):
    op: str                # neg, bnot, lnot
    a: Expr


@dataclass(frozen=True, slots=True)
class Binary(Expr):
    op: str                # add sub mul div mod and or xor shl shr eq ne lt le gt ge land lor
    a: Expr
    b: Expr


@dataclass(frozen=True, slots=True)
class Cast(Expr):
    a: Expr


@dataclass(frozen=True, slots=True)
class PtrAdd(Expr):
    p: Expr
    offset: Expr           # in elements of the pointee


@dataclass(frozen=True, slots=True)
class PtrDiff(Expr):
    a: Expr
    b: Expr


@dataclass(frozen=True, slots=True)
class Select(Expr):
    c: Expr
    a: Expr
    b: Expr


@dataclass(frozen=True, slots=True)
class FuncAddr(Expr):
    name: str              # the function's key


@dataclass(frozen=True, slots=True)
class StrLit(Expr):
    text: str


# ---- lvalues -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Lvalue:
    type: CType


@dataclass(frozen=True, slots=True)
class VarLv(Lvalue):
    sym: Symbol


@dataclass(frozen=True, slots=True)
class DerefLv(Lvalue):
    ptr: Expr


@dataclass(frozen=True, slots=True)
class FieldLv(Lvalue):
    base: Lvalue
    name: str


@dataclass(frozen=True, slots=True)
class IndexLv(Lvalue):
    base: Lvalue           # an array-typed lvalue
    index: Expr


def uncast(e):
    """`e` with the casts around it taken off (None stays None)."""
    while isinstance(e, Cast):
        e = e.a
    return e


def equality_branches(fn):
    """The two sides, casts off, of each branch condition `a == b` or `a != b` (a `switch` is
    lowered to such tests)."""
    for block in fn.blocks.values():
        cond = uncast(getattr(block.term, "cond", None))
        if isinstance(cond, Binary) and cond.op in ("eq", "ne"):
            yield uncast(cond.a), uncast(cond.b)


def equality_tests(fn, zero: bool = False):
    """(other side, constant) of each branch condition `x == K` or `x != K`, K non-zero unless
    `zero`."""
    for a, b in equality_branches(fn):
        for x, y in ((a, b), (b, a)):
            if isinstance(y, Const) and (y.value or zero):
                yield x, y.value


def through_pointer(lv: Lvalue) -> bool:
    """Whether the lvalue dereferences a pointer (`*p`, `p->f`, `p[i]` of a pointer `p`)."""
    while not isinstance(lv, VarLv):
        if isinstance(lv, DerefLv):
            return True
        lv = lv.base
    return False


# ---- statements --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Stmt:
    coord: Coord


@dataclass(frozen=True, slots=True)
class Assign(Stmt):
    lv: Lvalue
    value: Expr


@dataclass(frozen=True, slots=True)
class Call(Stmt):
    lv: Lvalue | None
    func: Expr
    args: tuple[Expr, ...]
    callee: str | None     # the key of a directly called function
    ret: CType = None      # the call's result type
    text: str = ""         # the call as written (for notes and fingerprints)
    # A call through a pointer made direct (ir/indirect.dispatch): every target it may be,
    # "" for the calls to functions not found (NOTE [alternative-targets]).
    among: tuple[str, ...] = ()


# The callee of the call made of inline assembly's pointer inputs (lower_stmt._s_Asm): it
# changes no memory (symex/calls.py), and a checker may take it as keeping what it is given.
ASM_CALL = "__asm__"


@dataclass(frozen=True, slots=True)
class Note(Stmt):
    """An unsupported construct met here; evaluation records it and goes on."""
    text: str


# ---- terminators -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Goto:
    target: int
    ret: Coord | None = None   # set on the jump of a `return` statement


@dataclass(frozen=True, slots=True)
class Branch:
    cond: Expr
    true: int
    false: int
    coord: Coord
    text: str = ""


@dataclass(frozen=True, slots=True)
class Stop:
    """The path ends here (a call that never returns)."""


@dataclass(slots=True)
class Block:
    id: int
    stmts: list = field(default_factory=list)
    term: object = None
    loop_exit_of: int = -1   # set on havoc entries by loops.py


@dataclass
class Function:
    key: str
    name: str
    file: str
    line: int
    end_line: int
    params: list[Symbol]
    ret: CType
    rv: Symbol | None
    blocks: dict[int, Block]
    entry: int
    exit: int
    static: bool = False
    notes: list[str] = field(default_factory=list)
    callees: set[str] = field(default_factory=set)
    fn_pointer_calls: int = 0
    text: str = ""          # normalised source text of the body (for hashing)
    digest: str = ""        # incremental/digest.py, once computed
    line_values: tuple = ()  # NOTE [line-constants] in incremental/lines.py
    weight: int = 0         # estimated analysis cost, loops.py's analysis_weight
    # NOTE [indirect-calls] in ir/indirect.py: the slots indirect calls read their pointer from,
    # and (slot, function key) for each function address this body stores in a slot
    indirect: tuple = ()
    fn_stores: tuple = ()
    stand_ins: tuple = ()   # (global slot, library function) called with the same arguments
    spawns: tuple = ()      # functions this body starts threads with (NOTE [entry-points])
    inits: tuple = ()       # (name, slot, constant arg, line) of its `x_init(&slot, k)` calls
    # (type key, parameter kinds) for calls through pointers (ir/indirect.py), read without
    # the body: a re-run links them without loading the bodies of every address-taken function
    signature: tuple = ()
    # Non-empty: a construct the model cannot express (a GNU nested function), and why; the
    # function is not analysed and is incomplete with this reason.
    unmodelled: str = ""


def successors(block: Block) -> list[int]:
    """The blocks a block's terminator goes to."""
    term = block.term
    if isinstance(term, Goto):
        return [term.target]
    if isinstance(term, Branch):
        return [term.true, term.false] if term.true != term.false else [term.true]
    return []


def _by_names(cls) -> None:
    """Pickle a frozen node's state as its fields' values in order. Dataclasses' own
    __getstate__/__setstate__ look the fields up for every node, and a stored unit or body
    holds hundreds of thousands of them (incremental/entries.py)."""
    names = tuple(f.name for f in fields(cls))
    setter = object.__setattr__

    def getstate(self):
        return [getattr(self, n) for n in names]

    def setstate(self, state):
        for name, value in zip(names, state):
            setter(self, name, value)
    cls.__getstate__, cls.__setstate__ = getstate, setstate


for _cls in [c for c in list(globals().values()) if isinstance(c, type) and
             is_dataclass(c) and c.__module__ == __name__ and c.__dataclass_params__.frozen]:
    _by_names(_cls)
