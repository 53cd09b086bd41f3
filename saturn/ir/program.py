"""The lowered program: functions and globals of all translation units of a run."""
from __future__ import annotations

from dataclasses import dataclass, field

from . import linking
from . import nodes as N


@dataclass
class GlobalVar:
    sym: N.Symbol
    file: str
    static: bool
    const: bool = False
    inits: list = field(default_factory=list)   # Assign statements of its initializer
    has_init: bool = False
    written: bool = False
    address_taken: bool = False
    defined: bool = False        # a definition (not only `extern`) is among the files checked
    whole: bool = False          # NOTE [whole-program]

    @property
    def keeps_initializer(self) -> bool:
        """A static (or const) that nothing else can change keeps its initial value (or zero).
        An extern const defined in a file not checked has a value we do not know."""
        return (self.const and (self.static or self.has_init)) or \
            ((self.static or (self.whole and self.defined)) and not self.written and
             not self.address_taken)


# NOTE [whole-program]: a file-scope static that no function of its file writes, and whose
# address is never taken, keeps its initializer: nothing else can change it. A global with
# external linkage could be written by code that was not checked, so it keeps its initializer
# only when the files checked are taken as the whole program, and then only if one of them
# defines it: `int global_true = 1;` that nothing writes stays 1. That is the default: a
# global a tree defines and never writes is a setting in nearly all code, and taking it as
# unknown reports both sides of every test of it; `--no-whole-program` is for a library whose
# users write its globals.


@dataclass
class Program:
    functions: dict[str, N.Function] = field(default_factory=dict)
    globals: dict[str, GlobalVar] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    lowering_errors: int = 0        # declarations skipped after an internal error
    attributes: dict = field(default_factory=dict)   # function key → ((name, args), ...)
    attributes_added: int = 0                        # how many add_attributes added
    dispatch: dict = field(default_factory=dict)   # function key → {slot: targets} (ir/indirect.py)
    tables: set = field(default_factory=set)   # the tables calls dispatch on (ir/tables.py)
    entries: set = field(default_factory=set)      # entry_points(), once the program is whole
    init_sites: dict = field(default_factory=dict)  # (name, slot) -> [(fn key, k, line)]
    lines: int = 0
    files: set = field(default_factory=set)   # the units' own files, as reports name them
    links: dict = field(default_factory=dict)  # fn key → {name: definition}: NOTE [linking]
    field_bits: dict = field(default_factory=dict)   # file -> ir/flags.unit_field_bits

    def add_function(self, fn: N.Function) -> None:
        twin = linking.keep_duplicate(self.functions, fn)   # NOTE [linking]
        if twin is not None:
            fn = twin
        self.functions.setdefault(fn.key, fn)

    def prune_to(self, sources: set[str]) -> int:
        """Keep the functions defined in `sources` and every function they call, directly or
        not; drop the rest (static inlines of headers nothing here calls — thousands per kernel
        file). Returns how many were dropped."""
        keep = [k for k, fn in self.functions.items() if fn.file in sources]
        seen = set(keep)
        while keep:
            for callee in self.functions[keep.pop()].callees:
                if callee in self.functions and callee not in seen:
                    seen.add(callee)
                    keep.append(callee)
        dropped = len(self.functions) - len(seen)
        self.functions = {k: fn for k, fn in self.functions.items() if k in seen}
        return dropped

    def absorb(self, unit: "Program") -> None:
        """Add one translation unit lowered on its own (NOTE [unit-cache] in
        incremental/units.py): as if it had been lowered after the units already here — the
        first definition of a function wins, a global's uses are the union of its units'."""
        for fn in unit.functions.values():
            self.add_function(fn)
        for g in unit.globals.values():
            old = self.add_global(g)
            if old is not g:
                old.written |= g.written
                old.address_taken |= g.address_taken
                old.defined |= g.defined
        for key, attrs in unit.attributes.items():
            self.add_attributes(key, attrs)
        self.warnings += unit.warnings
        self.lowering_errors += unit.lowering_errors
        self.lines += unit.lines
        self.files |= unit.files

    def entry_points(self) -> set[str]:
        """NOTE [entry-points]: the start routines handed to pthread_create, thrd_create,
        kthread_run: nothing returns to them, so a lock such a function leaves held, nobody
        releases, while the other threads wait for it. `main` is not one: its return ends the
        process, which releases everything (a lock held there blocks no one)."""
        out = set()
        for fn in self.functions.values():
            out.update(getattr(fn, "spawns", ()))
        return out

    def gather_init_sites(self) -> None:
        """NOTE [init-sites]: every `x_init(&slot, k, ...)` call of the program, by name and slot
        (a struct field by its struct's type, or a global): how many places initialise a
        kind of lock (lockdep gives each its own class) and with what count a semaphore is
        made (one that starts above 1, or at 0, counts or signals: not a lock). The slot may
        reach the initialiser through a one-argument wrapper (`spinlock_check(&q->lock)`)."""
        sites: dict = {}
        for fn in self.functions.values():
            for name, slot, k, line in getattr(fn, "inits", ()):
                sites.setdefault((name, slot), []).append((fn.key, k, line))
        self.init_sites = sites

    def add_attributes(self, key: str, attrs) -> None:
        """A declaration's attributes (saturn/ir/annotations.py), added to those of the
        function's earlier declarations, as GCC merges them."""
        if not attrs:
            return
        old = self.attributes.get(key, ())
        new = [a for a in attrs if a not in old]
        if new:   # in one order whatever the order of the declarations met (cache keys)
            self.attributes[key] = tuple(sorted(old + tuple(new), key=repr))
            self.attributes_added += len(new)

    def assume_whole(self, whole: bool) -> None:
        """NOTE [whole-program]: the files checked are the whole program (or not)."""
        for g in self.globals.values():
            g.whole = whole

    def add_global(self, g: GlobalVar) -> GlobalVar:
        old = self.globals.get(g.sym.key)
        if old is None:
            self.globals[g.sym.key] = g
            return g
        if g.has_init and not old.has_init:
            old.inits, old.has_init = g.inits, True
        return old


def static_local_key(file: str, fn_name: str, name: str) -> str:
    """The key of a function's `static` local: a global only that function names."""
    return f"{file}:{fn_name}.{name}"


def static_local_of(key: str, fn) -> bool:
    """Whether the global `key` is one of fn's `static` locals (C names hold no dot)."""
    return key.startswith(f"{fn.file}:{fn.name}.")


def lvalue_root(lv) -> N.Symbol | None:
    while isinstance(lv, (N.FieldLv, N.IndexLv)):
        lv = lv.base
    return lv.sym if isinstance(lv, N.VarLv) else None


def global_uses(stmts) -> tuple[set, set]:
    """(keys of the globals written, keys of those whose address is taken) in `stmts`: a
    function's share of `mark_uses`, kept with it in the function cache (NOTE
    [function-entries] in incremental/entries.py)."""
    written, taken = set(), set()

    def visit_expr(e):
        stack = [e]
        while stack:
            x = stack.pop()
            if isinstance(x, N.AddrOf):
                root = lvalue_root(x.lv)
                if root is not None and root.kind == "global":
                    taken.add(root.key)
                stack.append(x.lv)
            elif isinstance(x, (N.Expr, N.Lvalue)):
                stack.extend(v for v in (getattr(x, f) for f in x.__dataclass_fields__)
                             if isinstance(v, (N.Expr, N.Lvalue)))

    for st in stmts:
        targets = []
        if isinstance(st, N.Assign):
            targets, exprs = [st.lv], [st.value, st.lv]
        elif isinstance(st, N.Call):
            targets, exprs = ([st.lv] if st.lv else []), [st.func, *st.args]
        elif isinstance(st, N.Branch):
            exprs = [st.cond]
        else:
            exprs = []
        for t in targets:
            root = lvalue_root(t)
            if root is not None and root.kind == "global":
                written.add(root.key)
        for e in exprs:
            visit_expr(e)
    return written, taken


def function_uses(fn: N.Function) -> tuple[set, set]:
    """global_uses of a function's body."""
    return global_uses([s for blk in fn.blocks.values() for s in blk.stmts])


def mark_uses(program: Program, written, taken) -> None:
    """Record which globals are written and which have their address taken."""
    for key in written:
        g = program.globals.get(key)
        if g is not None:
            g.written = True
    for key in taken:
        g = program.globals.get(key)
        if g is not None:
            g.address_taken = True
