"""Locks of one class held together (the kernel's lockdep rule), for the lock checker.

NOTE [lock-classes]: the analysis gives two inputs of one type two objects, so a function that
holds `a->lock` and takes `b->lock` never sees a double lock, though a and b may be one object
(`double_spin_lock(&rioc->lock, &nioc->lock, ...)` with rioc == nioc; a tasklet holding its
engine's lock while a callee reaches the engine through a descriptor's channel). The kernel's
lockdep names this "possible recursive locking": a lock of the class of one the task holds,
taken without a nesting annotation (`spin_lock_nested(l, n)` with n != 0, `*_nest_lock`), is a
bug whether or not the two are the same lock, and kernel code that means it says so. So for
the kernel's own locks (`tracked`), taking a lock while this function holds another of its
class, from its own acquire on that path, is a double lock. A class is the lock's place below
the object its path starts from: that object's type and the steps down to the lock
("struct io_context" . lock); both objects must be ones whose identity the function does not
know (inputs, or what an unknown function returned), never the same object, a global, a local
or new memory. Trylocks cannot deadlock and are left out; so are read locks, which nest.
"""
from __future__ import annotations

TRACKED_PREFIXES = tuple(f"{raw}{kind}_lock" for raw in ("", "_raw_", "raw_", "_", "__raw_")
                         for kind in ("spin", "write")) + ("mutex_lock", "down_write")


def tracked(name: str) -> bool:
    """A kernel acquire lockdep follows (not a trylock, not pthread's, not a semaphore)."""
    return name.startswith(TRACKED_PREFIXES) and "trylock" not in name


def nested(name: str, args, ctx) -> bool:
    """`spin_lock_nested(l, n)`, `mutex_lock_nested(l, n)` with a subclass n other than 0
    (mutex_lock is mutex_lock_nested(l, 0) with lockdep configured in), `*_nest_lock`."""
    if "nest_lock" in name:
        return True
    if "_nested" not in name or len(args) < 2:
        return False
    value = args[1]
    k = value.constant() if hasattr(value, "constant") else None
    return k != 0


def class_of(obj):
    """(type of the object the path starts from, steps down to the lock), or None when the
    lock's identity is known to the function (a global, a local, new memory)."""
    cur = obj
    while cur.parent is not None and cur.parent.parent is not None and \
            cur.parent.addr is cur.addr:
        cur = cur.parent   # `&l->raw_lock`, at the lock's own address, is the lock
    steps = []
    while cur.parent is not None:
        steps.append(str(cur.step))
        cur = cur.parent
    if cur.origin not in ("env", "fresh") or cur.sym is not None or cur.type is None or \
            not steps:   # a lock by itself (`spinlock_t *l`) has no class to speak of
        return None
    return cur.type.key(), tuple(reversed(steps))


def held_alike(ctx, data, st, obj, c, fs):
    """(other lock, literal: this function holds it from its own acquire) for each lock of
    obj's class other than obj."""
    cls = class_of(obj)
    if cls is None:
        return []
    out = []
    for uid, other in sorted(data.locks.items()):
        if other is obj or other.addr is obj.addr or other.root is obj.root or \
                class_of(other) != cls:
            continue
        mine = fs.is_(ctx.get_attr(st, other, "#mine"), 1)
        held = fs.is_(ctx.get_attr(st, other, "#lock"), 1)
        out.append((other, c.AND(mine, held)))
    return out


def released(ctx, checker, st, obj, releasing: int) -> None:
    """A release through a pointer an unknown call made up (`swap(&a, &b)` with no body) may
    release a lock of its class this function holds: that one's state becomes vague (NOTE
    [vague-callees] in lock_apply.py), neither an ambiguous exit nor a double unlock later."""
    if obj.root.origin != "fresh" or obj.root.deref_of is not None:
        return
    data, c, fs = ctx.data[checker.name], ctx.c, ctx.data[checker.name].fs
    for other, held in held_alike(ctx, data, st, obj, c, fs):
        ctx.set_attr(st, other, "#lockvague", fs.const(1), c.AND(releasing, held))


def check(ctx, checker, st, obj, taking: int, call, path) -> None:
    """Report a lock of `obj`'s class held here while `obj` is taken (where `taking` holds)."""
    data, c = ctx.data[checker.name], ctx.c
    for other, held in held_alike(ctx, data, st, obj, c, data.fs):
        lit = c.AND_all([path, taking, held])
        if not ctx.can(lit):
            continue
        if any(r.kind == "lock.double-lock" and r.line == call.coord.line and
               r.file == call.coord.file for r in ctx.reports):
            return
        notes = ctx.witness(lit, events=[(lt, cd, tx) for u, lt, cd, tx in data.ops
                                         if u in (obj.addr.uid, other.addr.uid)])
        ctx.report(checker.name, "lock.double-lock", call.coord,
                   f"{obj.display} may be acquired twice in '{ctx.fn.name}': it may be "
                   f"{other.display}, a lock of its class held here (lockdep: possible "
                   f"recursive locking)", notes, statement=f"'{call.text}' {obj.display}")
        return
