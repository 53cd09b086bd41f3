"""The leak checker (§2.6): path-sensitive escape analysis of new memory.

Every allocation makes a new location with a validity condition (the allocation may fail: both
outcomes are modelled). `free` and escapees set the `#escaped` attribute. At the exit, a new
location whose valid condition can hold while no route lets it escape (Fig. 2.14) is a leak,
reported once per allocation site. Summaries (Fig. 2.15–2.16 and beyond): allocator, returns a
parameter, hands new memory out through an out-parameter, fields an allocator's result comes
with, escapees (leak_summary.py).
"""
from __future__ import annotations

from saturn.checker import CallHook, Checker, FiniteState, callee_summary, set_summary

from . import leak_report, leak_summary
from .alloc_specs import ALLOC, FREE, NON_CAPTURING, OUT_ALLOC, load_user_specs
from .leak_escape import ESCAPED


class LeakData:
    def __init__(self, fs):
        self.fs = fs
        self.new_locs: dict = {}   # object -> (valid lit, coord, what, text)
        self.events: list = []     # (object, lit, coord, text) for path notes


def _short(key):
    return key.rsplit(":", 1)[-1] if key else None


class LeakChecker(Checker):
    name = "leak"
    kinds = ("memory.leak",)
    summary_version = 3

    def __init__(self, allocs=None, frees=None):
        self.allocs = dict(ALLOC, **(allocs or {}))
        self.frees = dict(FREE, **(frees or {}))

    def specs_fingerprint(self):
        return f"leak:{self.summary_version}:{sorted(self.allocs.items())}:{sorted(self.frees.items())}"

    def begin(self, ctx):
        data = ctx.data[self.name] = LeakData(FiniteState(ctx.c, 2))
        ctx.ev.attr_defaults[ESCAPED] = lambda key, d=data: d.fs.const(0)
        ctx.ev.call_hooks.append(CallHook(
            before=lambda call, args, st: self.before(ctx, call, args, st),
            after=lambda call, args, ret, st, tok: self.after(ctx, call, args, ret, st, tok)))
        ctx.ev.store_hooks.append(lambda stmt, old, st: self.on_store(ctx, stmt, old, st))
        ctx.ev.forget_hooks.append(lambda old, st: self.on_forget(ctx, old, st))

    def on_forget(self, ctx, old, st) -> None:
        """NOTE [forgotten-values] (saturn/symex/evaluator.py): new memory a forgotten pointer
        held is taken to escape; the analysis no longer knows who refers to it."""
        data = ctx.data[self.name]
        for loc, g in ctx.locations(old):
            if loc.root in data.new_locs:
                ctx.ev.set_attr(st, loc.root, ESCAPED, data.fs.const(1), g)

    # -- allocation and escape ------------------------------------------------------------------
    def allocate(self, ctx, st, coord, what, text, valid=None):
        """A new location, valid where `valid` holds (fresh: the allocation may fail)."""
        data = ctx.data[self.name]
        obj = ctx.new_object(f"<{what}@{coord.line}>")
        v = ctx.c.new_var() if valid is None else valid
        lit = ctx.c.AND(ctx.lit(st.guard), v)
        data.new_locs[obj] = (lit, coord, what, text)
        data.events.append((obj, lit, coord, f"memory allocated by '{text}'"))
        return obj, v

    def escape(self, ctx, st, locations, coord=None, text=None):
        fs, data = ctx.data[self.name].fs, ctx.data[self.name]
        # One update per block (a summary's paths reach a block many ways), and only on blocks
        # whose #escaped is read (leak_escape.py): new ones, and the inputs the escapees are
        # made of. Marking every object a call is given (locals, blocks a callee returned) made
        # fs/fat's __fat_readdir merge ~1,800 attributes at each join.
        by_root: dict = {}
        for obj, g in locations:
            if obj.root in data.new_locs or obj.root.origin == "env":
                by_root.setdefault(obj.root, []).append(g)
        for root, gs in by_root.items():   # first-seen order: NOTE [gate-order]
            g = ctx.c.OR_all(gs)
            ctx.ev.set_attr(st, root, ESCAPED, fs.const(1), g)
            if text and root in data.new_locs:
                data.events.append((root, ctx.c.AND(ctx.lit(st.guard), g), coord, text))

    @staticmethod
    def slots(ctx, st, args, i):
        """The objects argument i points to; the callee writes through it, so it is not null."""
        slots = ctx.locations(args[i]) if i < len(args) else []
        if slots:
            ctx.restrict(st, ctx.c.OR_all(g for _, g in slots))
        return slots

    def give_out(self, ctx, st, call, what, slots, valid):
        """New memory stored through an out-parameter (valid where `valid` holds)."""
        for slot, g in slots:
            obj, v = self.allocate(ctx, st, call.coord, what, call.text, ctx.c.AND(valid, g))
            ctx.ev.store_obj(slot, ctx.pointer([(obj, v), (None, -v)]), g, st)

    def on_store(self, ctx, stmt, old, st):
        """Name the assignment that overwrites a pointer to new memory (for the path notes)."""
        data = ctx.data[self.name]
        for loc, g in ctx.locations(old):
            if loc.root in data.new_locs:
                lit = ctx.c.AND(ctx.lit(st.guard), g)
                data.events.append((loc.root, lit, stmt.coord,
                                    "the pointer to the block is overwritten here"))

    # -- calls ----------------------------------------------------------------------------------
    def before(self, ctx, call, args, st):
        name = _short(call.callee)
        if name in self.frees or name in self.allocs or name in OUT_ALLOC:
            # What an out-parameter held before the call's effects overwrite it (getline's buffer).
            held = _held_through(ctx, st, args, OUT_ALLOC[name][0]) if name in OUT_ALLOC else []
            return ("spec", name, held)
        summary = callee_summary(ctx, call.callee, self.name)
        if callee_summary(ctx, call.callee, "<engine>") and \
                callee_summary(ctx, call.callee, "<engine>").get("stub"):
            summary = None   # an empty stand-in body: what the real one does is unknown
        if summary is not None:
            return ("summary", summary, leak_summary.resolve_escapees(ctx, summary, args, st),
                    leak_summary.held_out_params(ctx, summary, args, st))
        if name in NON_CAPTURING or (ctx.ev.library_effects.get(name) in ("none", "args")):
            return None
        given = [(loc, g) for a in args for loc, g in ctx.locations(a)]
        # An unknown function may change any global, so it may also keep or free what globals
        # point to (`key_maps[map] = new_map;` then `capable()`): those blocks escape too.
        kept = [(loc, g) for obj, value in ctx.pointer_slots(st)
                if obj.root.sym is not None and obj.root.sym.kind == "global"
                for loc, g in ctx.locations(value)]
        # Collected before the call's effects: the call may overwrite what the arguments hold.
        return ("unknown", given + kept + leak_summary.held_by(ctx, st, given))

    def after(self, ctx, call, args, ret, st, token):
        if token is None:
            return
        if token[0] == "unknown":
            # A function we know nothing about may keep what it is given (and what that holds).
            self.escape(ctx, st, token[1])
            return
        if token[0] == "summary":
            leak_summary.apply(ctx, self, call, token[1], token[2], args, st, token[3])
            return
        self.apply_spec(ctx, call, token[1], args, ret, st, token[2])

    def library_effects(self):
        # A freed block's contents are gone (its pointers no longer hold anything): "args".
        effects = {name: "none" for name in self.allocs}
        effects.update({name: "args" for name in [*self.frees, *OUT_ALLOC, *NON_CAPTURING]})
        return effects

    def apply_spec(self, ctx, call, name, args, ret, st, held=()):
        text = call.text
        if name in self.frees:
            i = self.frees[name]
            if i < len(args):
                self.escape(ctx, st, ctx.locations(args[i]), call.coord, f"'{text}' frees the block")
            return
        if name in OUT_ALLOC:
            i, when = OUT_ALLOC[name]
            valid = leak_summary.when_lit(ctx, when, ret)
            if when == "always":  # getline reallocates the buffer it is given
                self.escape(ctx, st, held, call.coord, f"'{text}' reallocates the block")
            self.give_out(ctx, st, call, name, self.slots(ctx, st, args, i), valid)
            return
        obj, v = self.allocate(ctx, st, call.coord, name, text)
        if call.lv is not None:
            ctx.store(call.lv, ctx.pointer([(obj, v), (None, -v)]), st)
        if self.allocs[name] == "realloc" and args:
            old = [(loc, ctx.c.AND(g, v)) for loc, g in ctx.locations(args[0])]
            self.escape(ctx, st, old, call.coord, f"'{text}' frees the old block when it succeeds")

    # -- exit -----------------------------------------------------------------------------------
    def finish(self, ctx, exit_state):
        summary = leak_summary.infer(ctx, self, exit_state)
        set_summary(ctx, self.name, summary)
        if exit_state is not None:
            leak_report.report(ctx, self, exit_state)


def _held_through(ctx, st, args, i):
    """What the objects argument i points to hold (pointers), with their guards."""
    if i >= len(args):
        return []
    return [(loc, ctx.c.AND(g, g2)) for slot, g in ctx.locations(args[i])
            for loc, g2 in ctx.locations(ctx.ev.read_obj(slot, st))]


CHECKER = LeakChecker()


def configured(config: dict) -> LeakChecker:
    allocs, frees = load_user_specs(config)
    return LeakChecker(allocs, frees)
