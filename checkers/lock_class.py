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
know, reached from its inputs (two blocks that calls returned are two blocks), never the same
object, a global, a local or new memory. Trylocks cannot deadlock and are left out; so are read locks, which nest.
Without lockdep (CONFIG_DEBUG_LOCK_ALLOC) the kernel's macros erase the annotations
(`mutex_lock_nested(l, n)` is `mutex_lock(l)`): check a kernel configured with it.
"""
from __future__ import annotations

import itertools

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


LOCK_INITS = ("__raw_spin_lock_init", "__spin_lock_init", "spin_lock_init", "raw_spin_lock_init",
              "__mutex_init", "mutex_init", "__init_rwsem", "init_rwsem", "__rwlock_init",
              "rwlock_init")


LOCK_TYPES = ("spinlock", "mutex", "rwlock", "semaphore", "rw_semaphore", "lockdep_map")


def _lock_type(key: str) -> bool:
    """A lock's own type, or an anonymous member of one (spinlock_t's union)."""
    return any(word in key for word in LOCK_TYPES) or "<anonymous" in key


def _lock_itself(obj):
    """The lock an object is or is inside (`&l->rlock` of a spinlock_t is l)."""
    cur = obj
    while cur.parent is not None and cur.parent.parent is not None and \
            cur.parent.type is not None and _lock_type(cur.parent.type.key()):
        cur = cur.parent
    return cur


def slot_of(obj) -> tuple | None:
    """(struct type, field) or ("var", global) of the lock itself."""
    cur = _lock_itself(obj)
    if cur.parent is not None and cur.parent.type is not None and isinstance(cur.step, str):
        return (cur.parent.type.key(), cur.step)
    sym = cur.sym
    return ("var", sym.key) if sym is not None and sym.kind == "global" else None


def _site_slot(chain: tuple) -> tuple:
    """The level of an init site's field chain (ir/indirect.py) that is the lock itself."""
    for level in chain:
        if level[0] == "var" or not _lock_type(level[0]):
            return level
    return chain[-1]


def _sites(program, names, obj) -> list:
    slot = slot_of(obj)
    return [(key, k, line) for (name, chain), found in program.init_sites.items()
            if name in names and _site_slot(chain) == slot for key, k, line in found]


CLASS_SETTERS = ("lockdep_init_map", "lockdep_init_map_type", "lockdep_init_map_wait",
                 "lockdep_init_map_waits")


def split_class(program, obj) -> bool:
    """Initialised at more than one place (NOTE [init-sites] in saturn/ir/program.py):
    lockdep gives each place its own class, and which one an object has is not known. So
    with a class or subclass set somewhere (`lockdep_set_subclass(&o_tty->termios_rwsem,
    TTY_LOCK_SLAVE)`: the two ends of a pty pair are two classes)."""
    return len({(key, line) for key, _, line in _sites(program, LOCK_INITS, obj)}) > 1 or \
        bool(_sites(program, CLASS_SETTERS, obj))


def counting(program, obj) -> bool:
    """A semaphore made with a count other than 1 somewhere (or one not known to be 1, as
    `2 * NBULKS` is not to the lowering): it counts or signals."""
    return any(k != 1 for _, k, _ in _sites(program, ("sema_init", "sem_init"), obj))


def class_of(obj, origins=("env",)):
    """(type of the object the path starts from, steps down to the lock), or None when the
    lock's identity is known to the function (a global, a local, new memory)."""
    cur = _lock_itself(obj)
    steps = []
    while cur.parent is not None:
        steps.append(str(cur.step))
        cur = cur.parent
    if cur.origin not in origins or cur.sym is not None or cur.type is None or \
            not steps:   # a lock by itself (`spinlock_t *l`) has no class to speak of
        return None
    return cur.type.key(), tuple(reversed(steps))


def held_alike(ctx, data, st, obj, c, fs, origins=("env",)):
    """(other lock, literal: this function holds it from its own acquire, and its state is
    not vague: NOTE [vague-callees]) for each lock of obj's class other than obj."""
    cls = class_of(obj, origins)
    if cls is None:
        return []
    out = []
    for uid, other in sorted(_of_class(data, cls).items()):
        if other is obj or other.addr is obj.addr or other.root is obj.root:
            continue
        mine = fs.is_(ctx.get_attr(st, other, "#mine"), 1)
        held = fs.is_(ctx.get_attr(st, other, "#lock"), 1)
        vague = fs.is_(ctx.get_attr(st, other, "#lockvague"), 1)
        out.append((other, c.AND_all([mine, held, -vague])))
    return out


def _of_class(data, cls) -> dict:
    """The function's locks of class `cls` by uid: an index kept up with `data.locks`, which
    only grows (a call through a table of operations brings hundreds of locks)."""
    index = data.class_index
    for uid, obj in itertools.islice(data.locks.items(), data.indexed, None):
        index.setdefault(class_of(obj), {})[uid] = obj
    data.indexed = len(data.locks)
    return index.get(cls, {})


def released(ctx, checker, st, obj, releasing: int) -> None:
    """A release through a pointer an unknown call made up (`swap(&a, &b)` with no body) may
    release a lock of its class this function holds: that one's state becomes vague (NOTE
    [vague-callees] in lock_apply.py), neither an ambiguous exit nor a double unlock later."""
    if obj.root.origin != "fresh" or obj.root.deref_of is not None:
        return
    data, c, fs = checker.state(ctx), ctx.c, checker.state(ctx).fs
    for other, held in held_alike(ctx, data, st, obj, c, fs, ("fresh",)):
        ctx.set_attr(st, other, "#lockvague", fs.const(1), c.AND(releasing, held))


def check(ctx, checker, st, obj, taking: int, call, path) -> None:
    """Report a lock of `obj`'s class held here while `obj` is taken (where `taking` holds)."""
    data, c = checker.state(ctx), ctx.c
    if split_class(ctx.program, obj):
        return
    alike = held_alike(ctx, data, st, obj, c, data.fs)
    if not alike or not ctx.can(path, taking, c.OR_all(held for _, held in alike)):
        return   # one question for the usual answer, none held (a loop meets many alike)
    for other, held in alike:
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
