"""The propositions of lock summaries (NOTE [lock-propositions] in lock_summary.py): outputs,
the parameters the lock behaviour depends on, flag words' bits, and input fields."""
from __future__ import annotations

from saturn.plugin.checker import equals_const
from saturn.ir import flags, nodes as N
from saturn.ir import types as T

MAX_PIN = 3
MAX_FIELD_TRIES = 6
MAX_FIELD_PROPS = 8   # a field's bits count one each


def _is_int(t) -> bool:
    return isinstance(t, T.IntT)


def output_props(ctx, exit_state):
    """What a caller sees of the exit: the result's truth, whether a pointer result is one of
    the pointer parameters (an entry found, or the one given, each returned locked:
    unbound's `lruhash_insert_or_retrieve`), and the truth of what an out-parameter (an
    integer, or a pointer: an object handed out locked where it is not null) holds."""
    fn, props = ctx.fn, []
    if fn.rv is not None and isinstance(fn.rv.type, (T.IntT, T.PtrT)):
        ret = ctx.exit_value(fn.rv, exit_state)
        props.append(({"kind": "ret", "name": "ret"}, ctx.truth(ret)))
        props += _returned_params(ctx, fn, ret)[:1]
    for p in fn.params:
        if not (isinstance(p.type, T.PtrT) and isinstance(p.type.target, (T.IntT, T.PtrT))):
            continue
        initial = ctx.param_value(p)
        for target, _ in ctx.locations(initial) if initial is not None else []:
            after = ctx.stored(exit_state, target)
            if after is not None and after is not ctx.input_value(target):
                props.append(({"kind": "outparam", "index": p.index, "name": f"*param{p.index}"},
                              ctx.truth(after)))
                break
    return props[:3]


def _returned_params(ctx, fn, ret) -> list:
    """`ret == param_k` for the pointer parameters of the result's type that it may be: one
    of them is where the result points."""
    if not isinstance(fn.rv.type, T.PtrT):
        return []
    out, returned = [], {loc for loc, _ in ctx.locations(ret)}
    for p in fn.params:
        value = ctx.param_value(p) if p.type == fn.rv.type else None
        if value is not None and any(loc in returned for loc, _ in ctx.locations(value)):
            out.append(({"kind": "ret_is", "index": p.index, "name": f"ret == param{p.index}"},
                        ctx.pointers_equal(ret, value)))
    return out


def input_props(ctx):
    """`param != 0` for integer parameters, a flag word's bits one by one (NOTE
    [flag-words]), and `param == K` for a constant the function compares it with (a command
    code, an error code: lmdb's `rc == MDB_OWNERDEAD`, which says the robust mutex it is given
    is held). At most MAX_PIN, those a branch tests first: a count or size no branch reads
    must not crowd out the flags that come after it."""
    out, words, codes = [], flag_words(ctx), command_codes(ctx)
    tested = _tested_params(ctx.fn)
    for p in ctx.fn.params:
        if not _is_int(p.type):
            continue
        value = ctx.initial_value(p)
        for bit in words.get(p.uid, ()):
            out.append((0, {"kind": "param", "index": p.index, "bit": bit,
                            "name": f"param{p.index} & {1 << bit:#x}"}, value.bits[bit]))
        if p.uid not in words:
            out.append((0 if p.uid in tested else 1,
                        {"kind": "param", "index": p.index, "name": f"param{p.index}"},
                        ctx.truth(value)))
        for k in codes.get(p.uid, ())[:1]:
            out.append((0, {"kind": "param", "index": p.index, "eq": k,
                            "name": f"param{p.index} == {k}"}, equals_const(ctx.c, value, k)))
    picked = sorted(range(len(out)), key=lambda i: (out[i][0], i))[:MAX_PIN]
    return [out[i][1:] for i in sorted(picked)]


def _tested_params(fn) -> set:
    """The uids of parameters a branch condition reads."""
    return {e.lv.sym.uid for e in flags.condition_parts(fn)
            if isinstance(e, N.Read) and isinstance(e.lv, N.VarLv) and e.lv.sym.kind == "param"}


def command_codes(ctx) -> dict:
    """Parameter uid -> the non-zero constants a branch compares it with for equality."""
    out: dict = {}
    for x, k in N.equality_tests(ctx.fn):
        if isinstance(x, N.Read) and isinstance(x.lv, N.VarLv) and x.lv.sym.kind == "param":
            out.setdefault(x.lv.sym.uid, set()).add(k)
    return {uid: sorted(ks) for uid, ks in out.items()}


# NOTE [flag-words]: a parameter the function tests against two or more single-bit masks is a
# word of flags (`flags & NO_MUTEX_LOCK`, `flags & NO_MUTEX_UNLOCK`): callers say with it what
# the function is to do, so its bits are propositions of their own when deciding whether an
# error follows both entry states. One mask alone is not (`if (c & 0x80) lock(); if (c >= 0)
# unlock();` stays the paper's double unlock).
def flag_words(ctx) -> dict:
    """Parameter uid -> the bits (at most 4) of each parameter that is a word of flags."""
    masks: dict = {}
    for p, k in _bit_tests(ctx.fn):
        masks.setdefault(p, set()).add(k.bit_length() - 1)
    widths = {p.uid: getattr(p.type, "bits", 0) for p in ctx.fn.params}
    return {p: sorted(b for b in bits if b < widths.get(p, 0))[:4]
            for p, bits in masks.items() if len(bits) >= 2}


def _bit_tests(fn):
    """(parameter uid, single-bit mask) for `param & mask` tested in a branch condition."""
    for e in flags.condition_parts(fn):
        if isinstance(e, N.Binary) and e.op == "and":
            a, b = N.uncast(e.a), N.uncast(e.b)
            for x, y in ((a, b), (b, a)):
                bit = flags.single_bit(y, inverted=False)
                if bit is not None and isinstance(x, N.Read) and isinstance(x.lv, N.VarLv) and \
                        x.lv.sym.kind == "param":
                    yield x.lv.sym.uid, 1 << bit


def field_candidates(ctx, before):
    """Integer and pointer objects reached from the parameters or globals whose entry value the
    function read early (the inputs in `before`: read before its first lock operation, or
    before its first on the locks concerned), as further input propositions (NOTE
    [lock-propositions]): `substream->pcm->nonatomic` choosing the lock, a transaction's
    parent that says it is nested. A field that the function masks bit by bit
    (`txn->flags & TXN_RDONLY`) gives those bits. A value read after taking the lock (`if
    (dev->busy) return;` before the unlock) is not one: that is the forgotten-unlock bug the
    report is for."""
    out = []
    for obj, value in ctx.inputs.items():
        if obj not in before or not isinstance(obj.type, (T.IntT, T.PtrT)):
            continue
        steps = ctx.interface_steps(obj)
        if input_field(steps):
            out.append((steps, value, isinstance(obj.type, T.IntT)))
    tested, masks = flags.field_bits(ctx.fn)
    out.sort(key=lambda sv: (len(sv[0]), ctx.render_path(sv[0])))
    first = [sv for sv in out if sv[0][-1][0] == "field" and sv[0][-1][1] in tested]
    # The fields a branch tests first (a count no branch reads must not crowd out the
    # flags), then `if (sbi->options.nfs == FAT_NFS_NOSTALE_RO) mutex_lock(...)`: a field
    # against a constant the function compares with, then the others.
    props = []
    for steps, value, integer in first:
        bits = masks.get(steps[-1][1], ()) if integer else ()
        props += [field_prop(ctx, steps, value, bit=b) for b in bits
                  if b < len(getattr(value, "bits", ()))] or [_plain(ctx, steps, value, integer)]
    props += [field_prop(ctx, steps, value, k)
              for k in _compared_constants(ctx.fn) for steps, value, integer in out if integer]
    props += [_plain(ctx, *sv) for sv in out if sv not in first]
    return props[:MAX_FIELD_PROPS]


def _plain(ctx, steps, value, integer):
    """`field != 0`; for a pointer, whether it is set says what kind of object it is in."""
    d, lit = field_prop(ctx, steps, value)
    if not integer:
        d["kind_of"] = True
    return d, lit


def inherited_props(ctx, data) -> list:
    """The callees' flags this function passes on (`_inherit` in lock_apply.py), as input
    propositions; kept only where they matter (`_matters`)."""
    return sorted((field_prop(ctx, steps, value, eq, bit)
                   for (_, eq, bit), (steps, value) in data.inherited.items()), key=_prop_order)


def input_field(steps) -> bool:
    """A field reached from a parameter or a global (not the parameter or global itself)."""
    return bool(steps) and len(steps) > 1 and steps[0][0] in ("param", "global")


def kind_of_object(d) -> bool:
    """Whether an input proposition says what kind of object a function is given: a bit of a
    flag word, or whether a pointer in it is set (a transaction's parent). These may take
    several together to settle a release (lock_refine.refined)."""
    return "bit" in d or bool(d.get("kind_of"))


def field_prop(ctx, steps, value, eq=None, bit=None):
    """The input proposition `field != 0`, `field == eq`, or `field & (1 << bit)`, with its
    literal."""
    name = ctx.render_path(steps)
    if bit is not None:
        return ({"kind": "field", "path": steps, "name": f"{name} & {1 << bit:#x}", "bit": bit},
                value.bits[bit])
    if eq is None:
        return {"kind": "field", "path": steps, "name": name}, ctx.truth(value)
    return ({"kind": "field", "path": steps, "name": f"{name} == {eq}", "eq": eq},
            equals_const(ctx.c, value, eq))


def _prop_order(prop):
    return len(prop[0]["path"]), prop[0]["name"]


def _compared_constants(fn) -> list[int]:
    """Non-zero constants the function's branch conditions compare something with."""
    return sorted({k for _, k in N.equality_tests(fn)})[:4]
