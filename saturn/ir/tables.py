"""Static tables of operations: calls through a pointer to one choose their targets together.

NOTE [table-calls]: `ops->do_action(s)` and, later, `ops->post_action(s)` read two fields of
one table, so they call the two functions of the same table; resolved function by function
(NOTE [indirect-calls] in ir/indirect.py), each call would choose among every table's function
on its own, and a path could pair one table's `do_action` with another's `post_action` (a lock
one takes and the other's caller holds). Where every function stored in a field comes from the
initialisers of global structs (the tables) and the call reads the field through a pointer,
`dispatch` branches on which table the pointer points to: `ops == &table1` calls table1's
function, `ops == &table2` table2's, in one fixed order for every call, so one path takes one
table for every call through the same pointer; where the pointer is none of the tables, or a
table whose field is null, the call is the unknown call. Whether a pointer the
function was given points to a given table is a free literal, the same at every comparison
(symex: NOTE [havoc-pointers]); only these tables are such objects (`Program.tables`), so a
comparison in the program's own code with another global is what it was. A field also written
by code with a function keeps the resolution by function.
"""
from __future__ import annotations

import dataclasses

from . import nodes as N
from . import types as T

MAX_TABLES = 24


def table_store(stmt) -> tuple | None:
    """(struct type key, field, table name, table lvalue) when an initialiser's statement sets
    a field of a global struct (`static const struct ops t = { .f = g }` sets `t.f`)."""
    lv = stmt.lv if isinstance(stmt, N.Assign) else None
    if not isinstance(lv, N.FieldLv) or not isinstance(lv.base.type, T.StructT):
        return None
    name = _table_name(lv.base)
    return None if name is None else (lv.base.type.key(), lv.name, name, lv.base)


def _table_name(lv) -> str | None:
    """`t` or `t.ops`: a global reached by fields only (a row of an array is not one table)."""
    steps = []
    while isinstance(lv, N.FieldLv):
        steps.append(lv.name)
        lv = lv.base
    if not isinstance(lv, N.VarLv) or lv.sym.kind != "global":
        return None
    return ".".join([lv.sym.key, *reversed(steps)])


def program_tables(program) -> dict:
    """struct type key -> {table name: (lvalue, {field: function key or None})}: what each
    global of that struct type (or member of one) stores in its fields."""
    out: dict = {}
    for g in program.globals.values():
        for stmt in g.inits:
            got = table_store(stmt)
            if got is None:
                continue
            skey, fname, name, lv = got
            value = N.uncast(stmt.value)
            fields = out.setdefault(skey, {}).setdefault(name, (lv, {}))[1]
            fields[fname] = value.name if isinstance(value, N.FuncAddr) else None
    return out


def for_slot(tables: dict, slot: tuple, stored: set, usable) -> tuple:
    """((table name, lvalue, target), ...) for a field slot whose every stored function is a
    table's: target is the function (None: the table has none there, "": one not analysed)."""
    if slot[0] != "field" or not stored or None in stored:
        return ()
    rows = tables.get(slot[1], {})
    if not rows or len(rows) > MAX_TABLES:
        return ()
    out = []
    for name in sorted(rows):
        lv, fields = rows[name]
        target = fields.get(slot[2])
        out.append((name, lv, target if target is None or usable(target) else ""))
    in_tables = {f.get(slot[2]) for _, f in rows.values()} - {None}
    return tuple(out) if in_tables == stored else ()


def through(func) -> N.Expr | None:
    """The pointer a call through a table reads its function with (`ops` in `ops->f(..)`)."""
    func = N.uncast(func)
    if isinstance(func, N.Read) and isinstance(func.lv, N.FieldLv) and \
            isinstance(func.lv.base, N.DerefLv):
        return func.lv.base.ptr
    return None


def chain(call, tables, among, rest: int, new_block) -> tuple[N.Branch, N.Block]:
    """The branch that picks `call`'s table, and the block where the pointer is none of
    them: `new_block(stmts, term)` adds a block and returns it."""
    ptr = through(call.func)
    calls: dict[str, int] = {}
    first = cur = None
    for name, lv, target in tables:
        if not target:
            continue    # not analysed, or null (a call through null is no path): unknown call
        if target in calls:
            dest = calls[target]
        else:
            dest = calls[target] = new_block([direct(call, target, among)], N.Goto(rest)).id
        other = new_block([], None)
        branch = N.Branch(N.Binary(T.INT, "eq", ptr, N.AddrOf(T.PtrT(lv.type), lv)), dest,
                          other.id, call.coord, f"{call.text} through {name}")
        if cur is None:
            first = branch
        else:
            cur.term = branch
        cur = other
    return first, cur


def direct(call, target, among):
    """The call made a direct call of `target`, one of `among`."""
    return dataclasses.replace(call, func=N.FuncAddr(call.func.type, target), callee=target,
                               among=among)
