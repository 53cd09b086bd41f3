"""Calls through function pointers, resolved to the functions the program stores there.

NOTE [indirect-calls]: a call through a pointer, as an unknown call, would keep everything and
take no lock: a lock wrapper behind an operations table or a callback stored in a struct
(`wm8994->mic_id_cb = wm8958_mic_id`) would be invisible to its callers. The lowering records, for
each function, the slot each of its indirect calls reads the pointer from (a struct field by
the struct's type, a global, a local or a parameter of that function) with the call's type, and
the functions it stores in slots or passes as arguments; a global's initialiser (a static table
of operations) stores too. `link` gathers the stores of the whole program and gives each
indirect call the functions with a body its slot may hold (at most MAX_TARGETS); where nothing
is stored in the slot, the address-taken functions of the call's type, if there are at most
MAX_FALLBACK, for a parameter, a local or a pointer read from elsewhere (a field or global
with nothing stored in it is set in code not checked: another file of the program supplies
it). They become callees, so they are analysed first, and `dispatch` turns such a call,
for the analysis, into a chain of branches: `p == &f1` calls f1, `p == &f2` calls f2, ..., and
otherwise the unknown call as before. Whether an unknown pointer equals a function is an unknown
of its own (symex: NOTE [havoc-pointers]), so each target is one alternative. The otherwise-branch
is left out only where the targets are all the slot can hold: a static function's parameter
that every call passes a known function, its own address never taken.
"""
from __future__ import annotations

import dataclasses

from . import nodes as N
from . import tables as TB
from . import types as T

MAX_TARGETS = 8
MAX_FALLBACK = 4   # address-taken functions of the call's type, when no slot says more


def call_slot(func) -> tuple:
    """The slot an indirect call's pointer is read from; where none is known, its type's (the
    fallback: the address-taken functions of that type)."""
    return slot_of(func) or ("type", type_key(func.type))


def type_key(t) -> str:
    """A function pointer type's key, its variadic flag left out (a function's own is not kept)."""
    if isinstance(t, T.PtrT):
        t = t.target
    return _fn_key(t.params, t.ret) if isinstance(t, T.FuncT) else "?"


def _fn_key(params, ret) -> str:
    return f"fn({','.join(p.key() for p in params)})->{ret.key()}"


def shape(params, variadic: bool) -> str:
    """The kinds of a function's parameters, `p` pointer or `v` value (`...` if variadic): a
    target whose shape differs from the call's is not what the pointer holds there (SQLite's
    aSyscall[i].pCurrent is cast to each system call's own type)."""
    return "".join("p" if isinstance(t, T.PtrT) else "v" for t in params) + \
        ("..." if variadic else "")


def call_shape(t) -> str | None:
    if isinstance(t, T.PtrT):
        t = t.target
    return shape(t.params, t.variadic) if isinstance(t, T.FuncT) else None


def passed_functions(callee: str, args) -> list:
    """(("arg", callee, i), function key or None) for each argument of a direct call that is a
    function pointer: the functions a parameter slot may hold (None: not a known function)."""
    out = []
    for i, a in enumerate(args):
        a = N.uncast(a)
        if isinstance(a, N.FuncAddr):
            out.append((("arg", callee, i), a.name))
        elif isinstance(a.type, T.PtrT) and isinstance(a.type.target, T.FuncT):
            out.append((("arg", callee, i), None))
    return out


def slot_of(e) -> tuple | None:
    """Where a function pointer expression reads its value from, or None."""
    e = N.uncast(e)
    if not isinstance(e, N.Read):
        return None
    lv = e.lv
    if isinstance(lv, N.FieldLv) and isinstance(lv.base.type, T.StructT):
        if isinstance(lv.base, N.IndexLv):
            return None   # a table's rows each hold their own function (SQLite's aSyscall)
        return ("field", lv.base.type.key(), lv.name)
    if isinstance(lv, N.VarLv):
        sym = lv.sym
        if sym.kind == "global":
            return ("var", sym.key)
        if sym.kind in ("local", "temp"):
            return ("local", sym.uid)
        if sym.kind == "param":
            return ("param", sym.index)
    return None


def stored_function(lv, value) -> tuple | None:
    """(slot, function key) when `lv = value` stores a function's address: in a slot, or
    somewhere no slot names (`("taken",)`: an element of an array of pointers); (slot,
    ("param", i)) when it stores the function pointer parameter i (`port->cb = cb`)."""
    value = N.uncast(value)
    if not isinstance(lv.type, T.PtrT):
        return None   # an address kept as an integer (the kernel's symbol tables) calls nothing
    if isinstance(value, N.FuncAddr):
        return slot_of(N.Read(lv.type, lv)) or ("taken",), value.name
    source = slot_of(value)
    slot = slot_of(N.Read(lv.type, lv))
    if source is not None and source[0] == "param" and slot is not None and \
            slot[0] in ("field", "var") and isinstance(lv.type.target, T.FuncT):
        return slot, source
    return None


# The functions that start a thread, and which argument is its start routine.
THREAD_STARTERS = {"pthread_create": 2, "thrd_create": 1, "kthread_create_on_node": 0,
                   "kthread_create": 0, "kthread_run": 0, "kthread_create_on_cpu": 0}


def _slot_chain(lv) -> tuple | None:
    """The fields from the innermost out, ((struct type, field), ...), to a global or to
    what a pointer points to: `&q->free.lock.rlock` is ((spinlock, rlock), (squeue, lock),
    (recv_priv, free)); a checker picks the level it calls the slot."""
    chain = []
    while len(chain) < 4:
        if isinstance(lv, N.DerefLv) and isinstance(lv.ptr, N.AddrOf):
            lv = lv.ptr.lv   # `(&x->lock)->rlock`, as macros write it
        elif isinstance(lv, N.FieldLv) and isinstance(lv.base.type, T.StructT):
            chain.append((lv.base.type.key(), lv.name))
            lv = lv.base
        else:
            break
    if isinstance(lv, N.VarLv) and lv.sym.kind == "global":
        chain.append(("var", lv.sym.key))
    return tuple(chain) or None


def init_site(callee: str, args) -> tuple | None:
    """(name, slot, constant second argument or None) for a call `x_init(&slot, k, ...)`:
    NOTE [init-sites] in ir/program.py."""
    name = callee.rsplit(":", 1)[-1]
    # lockdep_init_map*: `lockdep_set_class`/`_subclass` with lockdep, on `&lock->dep_map`
    if not (name.endswith("_init") or name.startswith("lockdep_init_map")) or not args:
        return None
    arg = args[0]
    arg = N.uncast(arg)
    slot = _slot_chain(arg.lv) if isinstance(arg, N.AddrOf) else None
    if slot is None:
        return None
    at = _COUNT_AT.get(name, 1)
    k = N.uncast(args[at] if len(args) > at else None)
    return name, slot, k.value if isinstance(k, N.Const) else None


# Where an initialiser takes its count, when not second: POSIX's sem_init(sem, pshared, count).
_COUNT_AT = {"sem_init": 2}


def spawned(callee: str, args) -> str | None:
    """The function a call starts a thread with, if it is one."""
    at = THREAD_STARTERS.get(callee.rsplit(":", 1)[-1])
    if at is None or at >= len(args):
        return None
    arg = args[at]
    arg = N.uncast(arg)
    return arg.name if isinstance(arg, N.FuncAddr) else None


def link(program, library=frozenset()) -> None:
    """Give each function's indirect calls their targets as callees (`program.dispatch`:
    slot -> (targets, complete)). `library`: the functions without a body whose effects the
    checkers know (malloc, free, pthread_mutex_lock, ...): NOTE [library-targets]."""
    stores, by_code = _program_stores(program)
    by_struct = TB.program_tables(program)   # NOTE [table-calls] in ir/tables.py
    addressed = {k for keys in stores.values() for k in keys if k is not None}
    by_type: dict[str, list] = {}
    for k in sorted(addressed):
        fn = program.functions.get(k)
        if fn is not None:
            by_type.setdefault(_function_type(fn), []).append(k)
    for key in sorted(program.functions):
        fn = program.functions[key]
        if not getattr(fn, "indirect", ()):
            continue
        local = {}
        for slot, target in getattr(fn, "fn_stores", ()):
            if slot[0] == "local":
                local.setdefault(slot, set()).add(target)
        table = {}
        for slot, tkey, want in fn.indirect:
            found, complete = _stored(fn, slot, local, stores, addressed)
            limit = MAX_TARGETS
            if slot[0] in ("param", "local", "type") and \
                    not any(k in program.functions for k in found):
                found, complete, limit = by_type.get(tkey, ()), False, MAX_FALLBACK
            def usable(k, key=key, want=want):
                if k not in program.functions:
                    return k in library
                return k != key and _fits(program.functions[k], want) and \
                    not _reaches(program, k, key)
            targets = [k for k in sorted(k for k in found if k is not None) if usable(k)]
            complete = complete or _defaults_only(slot, found, program, library)
            if not targets and set(found) <= {API}:
                stand = [k for s, k in fn.stand_ins if s == slot and k in library]
                if len(stand) == 1:
                    targets, found, complete = stand, set(stand), True
            if targets and len(targets) <= limit:
                rows = () if slot in by_code else TB.for_slot(by_struct, slot, found, usable)
                table[slot] = (targets, complete and len(targets) == len(found - {API}), rows)
                program.tables.update(name for name, _, _ in rows)
        if table:
            program.dispatch[key] = table
            fn.callees = set(fn.callees) | {k for entry in table.values() for k in entry[0]}


# NOTE [library-targets]: a function pointer the program sets only to library functions whose
# effects the checkers know (`allocFns = { .mallocFn = malloc, .freeFn = free }`, a parser's
# memory suite defaulting to malloc) holds those: a call through it is a call of them, and the
# wrapper around it is an allocator or a destructor to its callers. An API that lets a user
# swap in their own copies (a setter storing its parameter, which no caller in the program
# gives a known function: `API` among the slot's stores) is taken to install functions that do
# the same job as the defaults the program stores there itself: library functions, or in a
# global its own (c-ares's `ares_free = default_free`, jansson's `do_free = free`). A field
# keeps the unknown alternative beside the program's own functions: a callback registered in
# an object is as often another job (a codec's `mic_id_cb`). So does a slot where the program
# also stores a value it does not know.
API = "<api>"   # among a slot's stores: what a user passes to a setter


# NOTE [stand-in-hooks]: a global hook the program never sets itself (only a setter stores in
# it what a user passes), called where the same function otherwise calls a library function
# with the same arguments (`if (mm_free_fn_) mm_free_fn_(ptr); else free(ptr);`), stands in
# for that function: what a user installs there does its job.
def stand_ins(calls_by_args: dict) -> tuple:
    """(global slot, direct callee) pairs called with the same argument text."""
    out = set()
    for callees in calls_by_args.values():
        slots = [c for c in callees if isinstance(c, tuple)]
        direct = [c for c in callees if isinstance(c, str)]
        out.update((slot, name) for slot in slots for name in direct)
    return tuple(sorted(out, key=repr))


def _defaults_only(slot, found, program, library) -> bool:
    known = [k for k in found if k != API]
    hook = slot[0] == "var" and API in found   # a global the user may replace
    return slot[0] in ("field", "var") and bool(known) and \
        all(k is not None and (k in library or (hook and k in program.functions))
            for k in known)


def _program_stores(program) -> tuple[dict, set]:
    """slot -> the function keys stored there anywhere in the program (None: something else),
    and the slots code stores in (not only initialisers); a parameter stored in a field or
    global brings what the function's callers pass."""
    stores: dict[tuple, set] = {}
    forwarded = []
    for fn in program.functions.values():
        for slot, key in getattr(fn, "fn_stores", ()):
            if isinstance(key, tuple):
                forwarded.append((slot, ("arg", fn.key, key[1])))
            elif slot[0] not in ("local", "param"):
                stores.setdefault(slot, set()).add(key)
    for slot, arg in forwarded:
        stores.setdefault(slot, set()).update(stores.get(arg) or {API})
    by_code = set(stores)
    for g in program.globals.values():
        for stmt in g.inits:
            got = stored_function(stmt.lv, stmt.value) if isinstance(stmt, N.Assign) else None
            if got is not None:
                stores.setdefault(got[0], set()).add(got[1])
    return stores, by_code


def _stored(fn, slot, local, stores, addressed) -> tuple[set, bool]:
    """The functions a slot of `fn` may hold, and whether they are all it may hold: a static
    function's parameter whose every caller passes a known function, the function's own
    address not taken (nothing calls it with other arguments)."""
    if slot[0] == "local":
        return local.get(slot, set()), False
    if slot[0] == "param":
        found = stores.get(("arg", fn.key, slot[1]), set())
        complete = bool(found) and None not in found and fn.static and fn.key not in addressed
        return found, complete
    return stores.get(slot, set()), False


def signature(param_types, ret) -> tuple:
    """A function's (type key, parameter kinds), kept in its IR (`Function.signature`)."""
    return _fn_key(param_types, ret), shape(param_types, False)


def _signature(fn) -> tuple:
    return fn.signature or signature([p.type for p in fn.params], fn.ret)


def _fits(fn, want: str | None) -> bool:
    """The target takes the call's kinds of arguments (a variadic call type accepts any)."""
    if want is None or want.endswith("..."):
        return True
    return _signature(fn)[1] == want


def _function_type(fn) -> str:
    return _signature(fn)[0]


def _reaches(program, start: str, goal: str) -> bool:
    """Whether `start` calls `goal`, directly or not: a target that would call back into its
    caller is left out. A call through a table that reaches itself is another instance's (a
    line discipline writing to the tty below it), and a cycle would cost the callers there
    their callees' summaries."""
    seen, todo = {start}, [start]
    while todo:
        fn = program.functions.get(todo.pop())
        for c in (fn.callees if fn is not None else ()):
            if c == goal:
                return True
            if c not in seen:
                seen.add(c)
                todo.append(c)
    return False


def dispatch(fn: N.Function, table: dict) -> N.Function:
    """A copy of `fn` whose indirect calls with targets branch to direct calls of them."""
    blocks = dict(fn.blocks)
    ids = [max(blocks) + 1]

    def new_block(stmts, term=None):
        block = blocks[ids[0]] = N.Block(ids[0], stmts, term)
        ids[0] += 1
        return block

    for bid in sorted(fn.blocks):
        if bid == fn.exit:
            continue
        block = blocks[bid]
        while True:
            at = next((i for i, s in enumerate(block.stmts) if isinstance(s, N.Call) and
                       s.callee is None and call_slot(s.func) in table), None)
            if at is None:
                break
            call = block.stmts[at]
            rest = new_block(block.stmts[at + 1:], block.term)
            head = blocks[block.id] = N.Block(block.id, block.stmts[:at])
            _branch(head, call, table[call_slot(call.func)], rest.id, new_block)
            block = rest
    fields = {f.name: getattr(fn, f.name) for f in dataclasses.fields(N.Function)}
    return N.Function(**dict(fields, blocks=blocks, digest=""))


def _branch(head, call, entry, rest: int, new_block) -> None:
    """End `head` with the choice of `call`'s target: by the table its pointer points to
    (NOTE [table-calls]) or by the function it reads, then `rest`."""
    targets, complete, rows = entry
    among = tuple(targets) if complete else tuple(targets) + ("",)
    if rows and TB.through(call.func) is not None:
        first, last = TB.chain(call, rows, among, rest, new_block)
        if first is not None:
            head.term = first
            last.stmts, last.term = [dataclasses.replace(call, among=among)], N.Goto(rest)
            return
    cur = head
    for target in targets[:-1] if complete else targets:
        direct = new_block([TB.direct(call, target, among)], N.Goto(rest))
        other = new_block([])
        cur.term = N.Branch(N.Binary(T.INT, "eq", call.func, N.FuncAddr(call.func.type, target)),
                            direct.id, other.id, call.coord, f"{call.text} calls {target}")
        cur = other
    # `cur` is `head` itself when one target is all: keep what came before the call.
    cur.stmts = [*cur.stmts, TB.direct(call, targets[-1], among) if complete else
                 dataclasses.replace(call, among=among)]
    cur.term = N.Goto(rest)


def described(table: dict | None) -> list:
    """A function's dispatch as plain data (for keys of stored results): a change of which
    table holds which function changes the analysis, not only the callees."""
    return [[list(slot), list(targets), complete, [[name, target] for name, _, target in rows]]
            for slot, (targets, complete, rows) in sorted((table or {}).items(),
                                                         key=lambda kv: repr(kv[0]))]
