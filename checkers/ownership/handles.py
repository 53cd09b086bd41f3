"""Descriptors: owned things that are integers (file descriptors), for the ownership machinery.

NOTE [descriptors]: a descriptor is a value, not a place: `open` returns a fresh integer that the
function copies, stores and passes on. Each descriptor a function makes is a new location (an
object of its own, which carries its `#escaped` attribute) with its value; a value *holds* it
where the two are equal on their common low bits. So `close(fd)` releases each descriptor under
`fd == value`, whatever the joins made of `fd` (`int fd = -1; if (c) fd = open(..); ... if (fd
>= 0) close(fd);`), and a descriptor escapes where a global, what a parameter reaches, the result
or an escaping new location holds a value equal to it (escape.py). It is owned (valid) where its
value is above 2: negative is failure, and 0, 1 and 2 are the standard streams, never a leak.
The C library's opens return -1 or an owned one (the standard streams are open), so a helper
that hands out a stream over the descriptor it returns says so: `ret>=0 and ret!=0`.
The function's own integer inputs (a parameter, a field of what one points to) may be
descriptors its callers own: each gets a stand-in object, with the input's entry value, when a
release or an unknown call may take it, so the summary can say that it escapes (`values`). An
input is a candidate only where the value shares a literal with its entry value: a copy of it,
not every integer that an equality could make equal.
"""
from __future__ import annotations

from saturn.plugin.checker import FALSE, fresh_int, less_than, same_int

STANDARD = 2          # descriptors 0..2 are stdin, stdout and stderr: owned only above
INPUT_WIDTH = 32      # an integer input narrower than `int` is no descriptor


class Handles:
    """One function's descriptors: new ones and stand-ins for inputs, with their values."""

    def __init__(self):
        self.values: dict = {}     # object -> value (new descriptors, then stand-ins)
        self.made: dict = {}       # object -> value of the new descriptors alone
        self.stand_ins: dict = {}  # input object -> stand-in object
        self.taken: set = set()    # stand-ins something released or kept (escape)
        self.index: dict = {}      # variable -> input objects whose entry value uses it
        self.indexed = 0           # how many of ctx.inputs_read() the index holds

    def new(self):
        return list(self.made.items())


def allocate(checker, ctx, st, coord, what, text, valid=None):
    """A new descriptor: its object and value, owned where the value is above 2 (and `valid`).
    An owned one differs from every other descriptor the function knows (those it opened, and
    its integer parameters): the process has them open, so the number is another."""
    data, c = checker.state(ctx), ctx.c
    value = fresh_int(c)
    owned = -less_than(c, value, STANDARD + 1)
    others = list(data.handles.values.values())
    for p in ctx.fn.params:   # the integer parameters are open descriptors too, or no such
        v = ctx.param_value(p)
        if v is not None and is_input_int(ctx.param_object(p), v):
            others.append(v)
    obj, _ = checker.allocate(ctx, st, coord, what, text,
                              owned if valid is None else c.AND(valid, owned))
    if others:
        ctx.restrict(st, c.OR(-owned, c.AND_all(-same_int(c, value, v) for v in others)))
    data.handles.values[obj] = data.handles.made[obj] = value
    return obj, value


def holders(checker, ctx, value):
    """(descriptor object, literal) for each descriptor an integer value may hold."""
    value = ctx.force(value)
    if not hasattr(value, "bits"):
        return []
    data = checker.state(ctx)
    hs, c = data.handles, ctx.c
    out = [(h, same_int(c, value, v)) for h, v in hs.new()]
    for obj in candidates(ctx, hs, value):
        out.append((stand_in(ctx, hs, obj), same_int(c, value, ctx.input_value(obj))))
    return [(h, lit) for h, lit in out if lit != FALSE]


def held_by_globals(checker, ctx, st):
    """(descriptor, literal) for the new descriptors integer globals may hold."""
    data = checker.state(ctx)
    new = data.handles.new()
    if not new:
        return []
    out = []
    for obj, value in ctx.int_slots(st):
        sym = obj.root.sym
        if sym is not None and sym.kind == "global":
            value = ctx.force(value)
            out += [(h, lit) for h, v in new if (lit := same_int(ctx.c, value, v)) != FALSE]
    return out


def stand_in(ctx, hs, obj):
    """The stand-in of an integer input object (made once)."""
    got = hs.stand_ins.get(obj)
    if got is None:
        got = hs.stand_ins[obj] = ctx.new_object(f"<input {obj.display}>", origin="env")
        hs.values[got] = ctx.input_value(obj)
    return got


def is_input_int(obj, value) -> bool:
    return hasattr(value, "bits") and value.width >= INPUT_WIDTH and \
        obj.root.origin == "env" and obj.type is not None and not hasattr(value, "entries")


def candidates(ctx, hs, value):
    """The integer inputs whose entry value shares a literal with `value`."""
    read = ctx.inputs_read(hs.indexed)
    for obj, v in read:
        if is_input_int(obj, v):
            for b in v.bits:
                hs.index.setdefault(abs(b), []).append(obj)
    hs.indexed += len(read)
    found: dict = {}
    for b in value.bits:
        for obj in hs.index.get(abs(b), ()) if abs(b) != 1 else ():   # 1: the constants
            found.setdefault(obj, None)
    return list(found)
