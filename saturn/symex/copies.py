"""What a callee leaves in the pointers it changes, when it is one of its inputs' entry values
or null: `line->prev->next = line->next` (a list unlink), `d->err = NULL` (free and clear).

NOTE [copied-pointers]: a modified pointer (M, §2.5.2) becomes a fresh unknown at a call, and a
fresh node knows nothing of the list it came from: a caller that unlinks `line->next` in a loop
would read the freed node again through `line->next`. So the summary also says, for each
modified pointer, the interface pointer whose entry value it holds on every exit path where it
exists (`copies`: [target steps, source steps]), or that it holds null (source "null"). The
caller resolves every target and source before the call changes anything (the callee's reads are
of its entry state) and stores the source's value instead of a fresh one. Only pointers whose
exit value points where an input pointer pointed on entry are tried (its locations' `deref_of`),
one bounded solver question each, and only in functions of a modest size (the helpers that
relink and clear are small): a question left open gives no copy (the fresh unknown).

A pointer the callee writes only where two of its input pointers are equal (`prev->next = n`
with `prev = h->prev` writes `h->next` only where the list is empty, `h->prev == h`) keeps its
entry value elsewhere: `[target, "if-equal", a, b, source]`. Without it a caller's list head
became a fresh node after its second `list_add_tail`, a list of its own that a clean-up loop
walked past the nodes it had freed. Only a pointer parameter against a pointer field of what it
points to (a head linking to itself): deeper pairs, a back-link among them, are equal wherever
the callee looked and would keep the pointer in callers where the callee never did.

An out-parameter (`*param_i`, a pointer, or a pointer field of it) that is no copy on every
exit may still be one where the result says the call failed: `expand(in, &name)` writes a
new string in `name` where it returns 0, and leaves what was there (or null) where it does
not (`[target, "kept", "ret!=0"]`, with "exactly" after it where it is never null there
unless it was, "null" where it is null; one entry for each result condition that says one:
`ret<0` and `ret==0` may say different).
The caller's `name` then still holds the block it freed in the loop's last iteration, and a
second free of it on the error path is the double free it is. Only these slots, and only the
result's own conditions, are asked: a question or two each.

NOTE [kept-bits]: a modified integer becomes a fresh unknown at a call too, so a flag word a
callee only adds a bit to, or copies a bit of (`txn->flags |= FINISHED`, `flags = txn->flags &
RDONLY; ... txn->flags = flags`), forgets the bits its callers test next (lmdb's
`mdb_txn_renew0` keeps the read-only bit that `mdb_txn_end` decides its unlock by). So the
summary also says, for the bits that the functions of its file mask a modified field with,
which ones it keeps, clears or sets: on every exit, or apart where it returns zero and
non-zero (`[target, "bits", [[bit, where ret == 0, where ret != 0], ...]]`, each "kept", 0, 1,
"set" or "cleared" when it only goes one way, or None). Five bounded questions a bit at most,
for at most MAX_BIT_FIELDS fields.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..bitvec.vec import BitVec
from ..logic.circuit import FALSE, TRUE
from ..plugin.checker import result_lit
from ..ir import flags, types as T
from ..memory import gls
from ..memory.gls import GLS
from .interface import steps_of, value_at
from .lazy import force, same

BUDGET = 2_000       # conflicts per question
MAX_TRIED = 32       # modified pointers tried per function
COPY_MAX_VARS = 20_000   # variables of the function's formula past which no copy is asked
MAX_BIT_FIELDS = 8
MAX_INPUTS = 6       # input pointers whose equality may decide a pointer's exit value
MAX_PAIRS = 12
BITS_MAX_VARS = 30_000   # the same for kept bits: flag setters are small, a cursor's walk is not


def infer(ctx, exit_state) -> list:
    """[[target steps, source steps or "null"], ...] for the function's modified pointers."""
    if exit_state is None or ctx.c.nvars > COPY_MAX_VARS or not ctx.affordable():
        return []   # the helpers that relink and clear are small; building big values is not
    ev, out, tried = ctx.ev, [], 0
    here = ctx.lit(exit_state.guard)
    for obj, value in exit_state.memory.items():
        if not isinstance(obj.type, T.PtrT) or same(ev, value, ev.env.initial_values.get(obj)):
            continue
        target = steps_of(obj)
        if not _precise(target) or tried >= MAX_TRIED:
            continue
        tried += 1
        source = _source(ctx, obj, ctx.force(value), here)
        kept = [] if source is not None or not _out_param(target) else \
            _kept_when(ctx, obj, ctx.force(value), here, exit_state)
        aliased = None if source is not None or kept else \
            _kept_unless(ctx, obj, ctx.force(value), here)
        if source is not None:
            out.append([target, source])
        elif kept:
            out += [[target, "kept", when] + ([how] if how else []) for when, how in kept]
        elif aliased is not None:
            out.append([target, "if-equal", *aliased])
    return sorted(out, key=str)


def returns_copy(ctx, exit_state, steps) -> bool:
    """Whether a pointer result whose one target `steps` names (interface.returned) is on every
    exit the entry value of the pointer that target is read through, null included (`p =
    buf->buf; buf->buf = NULL; return p;`): the caller's value of that pointer then, not an
    object that may also be null where that pointer is not. One bounded question."""
    if exit_state is None or not isinstance(steps, list) or steps[-1] != ["deref"] or \
            not _precise(steps) or ctx.c.nvars > COPY_MAX_VARS or not ctx.affordable():
        return False
    value = ctx.force(ctx.exit_value(ctx.fn.rv, exit_state))
    ptrs = _candidates(value) if isinstance(value, GLS) else []
    if len(ptrs) != 1 or steps_of(ptrs[0]) != steps[:-1]:
        return False
    equal = ctx.pointers_equal(value, ctx.env.initial(ptrs[0]))
    return not ctx.can(ctx.lit(exit_state.guard), -equal, budget=BUDGET)


def kept_bits(ctx, exit_state) -> list:
    """NOTE [kept-bits]: [[target steps, "bits", [[bit, value, value], ...]], ...]."""
    if exit_state is None or ctx.c.nvars > BITS_MAX_VARS or not ctx.affordable():
        return []
    masks = flags.unit_field_bits(ctx.ev.program, ctx.fn.file)
    here, ev, out = ctx.lit(exit_state.guard), ctx.ev, []
    classes = _outcomes(ctx, exit_state)
    for obj, value in exit_state.memory.items():
        target = steps_of(obj) if isinstance(obj.type, T.IntT) else None
        if not _precise(target) or target[-1][0] != "field" or \
                same(ev, value, ev.env.initial_values.get(obj)):
            continue
        exit_v, entry = ctx.force(value), ctx.force(ctx.env.initial(obj))
        bits = [b for b in masks.get(target[-1][1], ()) if b < len(getattr(exit_v, "bits", ()))]
        if not bits or not isinstance(entry, BitVec):
            continue
        base = [here, ctx.exists(obj)]
        spec = [[b, *(_bit(ctx, base + [k], exit_v.bits[b], entry.bits[b]) for k in classes)]
                for b in bits]
        spec = [row for row in spec if any(v is not None for v in row[1:])]
        if spec:
            out.append([target, "bits", spec])
        if len(out) == MAX_BIT_FIELDS:
            break
    return sorted(out, key=str)


def _outcomes(ctx, exit_state) -> list:
    """The literals that split the exits: where the result is zero and where it is not, or
    none (one class, TRUE)."""
    rv = ctx.fn.rv
    if rv is None or not isinstance(rv.type, (T.IntT, T.PtrT)):
        return [TRUE]
    zero = result_lit(ctx, "ret==0", ctx.exit_value(rv, exit_state))
    return [zero, -zero]


def _bit(ctx, base, now, entry):
    """What one bit holds on the exits of `base`: "kept", 0, 1, "set" (kept or set: never
    cleared), "cleared" (kept or cleared), or None."""
    if not ctx.can(*base, budget=BUDGET):
        return None
    for answer, lits in (("kept", [ctx.c.XOR(now, entry)]), (0, [now]), (1, [-now]),
                         ("set", [entry, -now]), ("cleared", [-entry, now])):
        if not ctx.can(*base, *lits, budget=BUDGET):
            return answer
    return None


@dataclass
class KeptBits:
    """At a call: the value a field held before it, and what the callee does to its bits."""
    before: object
    spec: list

    def apply(self, ev, fresh, result):
        """The field after the call: `fresh` with the bits the summary knows."""
        fresh, before = force(ev, fresh), force(ev, self.before)
        if not isinstance(fresh, BitVec) or not isinstance(before, BitVec):
            return fresh
        bits = list(fresh.bits)
        nonzero = result_lit(ev, "ret!=0", result) if result is not None else ev.c.new_var()
        for b, *vals in self.spec:
            if b >= len(bits) or b >= len(before.bits):
                continue
            got = [_after(ev.c, v, before.bits[b], bits[b]) for v in vals]
            bits[b] = got[0] if len(got) == 1 else ev.c.ITE(nonzero, got[1], got[0])
        return BitVec(tuple(bits), fresh.signed)


def _after(c, how, before: int, fresh: int) -> int:
    """A bit after the call, by what the summary says of it."""
    if how is None:
        return fresh
    if how == "kept":
        return before
    if how == "set":
        return c.OR(before, fresh)
    if how == "cleared":
        return c.AND(before, fresh)
    return TRUE if how else FALSE


def _out_param(steps) -> bool:
    """`*param_i`, or a field of it (a list head in the struct the caller passes)."""
    return 2 <= len(steps) <= 3 and steps[0][0] == "param" and steps[1] == ["deref"] and \
        (len(steps) == 2 or steps[2][0] == "field")


def _kept_when(ctx, obj, value, here, exit_state) -> list:
    """[(condition on the result, how)]: where the pointer holds its entry value on every exit
    ("exactly"), null ("null"), or one of the two (None). Each condition that says one: kpartx's
    `dm_find_part` leaves `*part_uuid` alone only where it returns 0 and nulls it where it
    fails otherwise, so a caller reads its old pointer only after a 0."""
    rv = ctx.fn.rv
    if not isinstance(value, GLS) or rv is None or not isinstance(rv.type, (T.IntT, T.PtrT)):
        return []
    ret = ctx.exit_value(rv, exit_state)
    equal, null = ctx.pointers_equal(value, ctx.env.initial(obj)), value.null_guard()
    exists, found = ctx.exists(obj), []
    # Integers fail either way: -1 or an error code, or 0 from a function that says whether
    # it succeeded (unbound's `add_open` returns 1 where it linked the new port in).
    for when in ("ret==0",) if isinstance(rv.type, T.PtrT) else ("ret!=0", "ret<0", "ret==0"):
        failed = result_lit(ctx, when, ret)
        if ctx.can(here, exists, failed, -ctx.c.OR(equal, null), budget=BUDGET) or \
                not ctx.can(here, exists, failed, budget=BUDGET):
            continue
        how = "exactly" if not ctx.can(here, exists, failed, -equal, budget=BUDGET) else \
            "null" if not ctx.can(here, exists, failed, -null, budget=BUDGET) else None
        found.append((when, how))
        if when == "ret!=0":
            break   # every failure of the 0-for-success convention: ret<0 adds nothing
    return found


def _source(ctx, obj, value, here):
    if not isinstance(value, GLS):
        return None
    exists = ctx.exists(obj)
    if not ctx.can(here, exists, -value.null_guard(), budget=BUDGET):
        return "null"
    for ptr in _candidates(value):
        source = steps_of(ptr)
        if not _precise(source) or ptr is obj:
            continue
        equal = ctx.pointers_equal(value, ctx.env.initial(ptr))
        if not ctx.can(here, exists, -equal, budget=BUDGET):
            return source
    return None


def _kept_unless(ctx, obj, value, here):
    """[a, b, source]: the pointer keeps its entry value where the entry values of the input
    pointers `a` and `b` differ, and holds `source`'s where they are equal (NOTE
    [copied-pointers]: `prev->next = n` with `prev = h->prev` writes `h->next` only where the
    list is empty, `h->prev == h`)."""
    if not isinstance(value, GLS):
        return None
    sources = [p for p in _candidates(value) if p is not obj and _precise(steps_of(p))]
    if not sources:
        return None
    exists = ctx.exists(obj)
    own = ctx.pointers_equal(value, ctx.env.initial(obj))
    inputs = _pointer_inputs(ctx)
    pairs = [(x, y) for i, x in enumerate(inputs) for y in inputs[i + 1:]][:MAX_PAIRS]
    for (sa, va), (sb, vb) in pairs:
        equal = ctx.pointers_equal(va, vb)
        # Both sides must happen: a pair equal on every exit (`first == first->next->prev`, a
        # back-link) would keep the pointer in callers where the callee never kept it.
        if ctx.can(here, exists, -equal, -own, budget=BUDGET) or \
                not ctx.can(here, exists, equal, budget=BUDGET) or \
                not ctx.can(here, exists, -equal, budget=BUDGET):
            continue
        for src in sources:
            moved = ctx.pointers_equal(value, ctx.env.initial(src))
            if not ctx.can(here, exists, equal, -moved, budget=BUDGET):
                return [sa, sb, steps_of(src)]
    return None


def _pointer_inputs(ctx) -> list:
    """(steps, entry value) of the pointer parameters and the pointer fields of what they
    point to, that the function read: the tests a list head links to itself by (`h->next ==
    h`). Deeper ones (`first->next->prev`, a back-link) are left out: equal wherever the
    callee looked, they would keep a pointer in callers the callee never kept."""
    out = []
    for obj, value in ctx.env.initial_values.items():
        steps = steps_of(obj) if isinstance(obj.type, T.PtrT) else None
        if _precise(steps) and len(steps) <= 3 and isinstance(value, GLS):
            out.append((steps, value))
    out.sort(key=lambda sv: (len(sv[0]), str(sv[0])))
    return out[:MAX_INPUTS]


def _precise(steps) -> bool:
    """An interface path that names one object: not the result, and no step through elements
    summarized as one (NOTE [summarized] in checkers/free)."""
    return steps is not None and steps[0][0] != "ret" and \
        not any(s[0] == "derived" for s in steps)


def _candidates(value) -> list:
    """The input pointers whose entry values the locations of `value` came from."""
    out = []
    for loc, _ in value.entries:
        if loc is None or loc.parent is not None or loc.root.origin != "env":
            continue
        ptr = loc.deref_of
        if ptr is not None and ptr not in out:
            out.append(ptr)
    return out[:4]


def values(ev, copies, args, st, memo) -> dict:
    """At a call, before its effects: repr(target steps) -> the value the target is left with,
    or [(condition on the result, value), ...] for one kept where the call fails."""
    out = {}
    for target, source, *when in copies or ():
        if source == "bits":   # NOTE [kept-bits]
            before = value_at(ev, target, args, st, memo)
            if before is not None:
                out[repr(target)] = KeptBits(before, when[0])
            continue
        if source == "kept":   # [(condition, value)], the surest first
            before = value_at(ev, target, args, st, memo)
            how = when[1] if len(when) > 1 else None
            if before is not None:   # the slot's value now, or null, where the result fails
                value = before if how == "exactly" else gls.NULL if how == "null" else \
                    ev.ite(ev.c.new_var(), before, gls.NULL)
                kept = out.setdefault(repr(target), [])
                kept.insert(len(kept) if how is None else 0, (when[0], value))
            continue
        if source == "null":
            out[repr(target)] = gls.NULL
            continue
        if source == "if-equal":   # [a, b, source]: the source's value where a == b, else kept
            before, a, b, value = (value_at(ev, steps, args, st, memo)
                                   for steps in (target, *when))
            if None not in (before, a, b, value):
                equal = ev.truth(ev.pointer_compare("eq", ev.as_gls(a), ev.as_gls(b)))
                out[repr(target)] = ev.ite(equal, value, before)
            continue
        value = value_at(ev, source, args, st, memo)
        if value is not None:
            out[repr(target)] = value
    return out
