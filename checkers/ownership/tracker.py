"""Owned things (§2.6): what a function makes and must hand on or give back — new memory for the
leak checker, open files and descriptors for the resource checker — by path-sensitive escape
analysis.

Every acquisition makes a new location with a validity condition (acquiring may fail: both
outcomes are modelled). Releases and escapees set the `#escaped` attribute. At the exit, a new
location whose valid condition can hold while no route lets it escape (Fig. 2.14) is lost,
reported once per site (report.py). Summaries (Fig. 2.15–2.16 and beyond): allocator, returns
a parameter, hands new things out through an out-parameter, fields an allocator's result comes
with, escapees (summary.py). Descriptors, owned things that are integers, are handles.py's.
A subclass gives the specs: the `acquires`, `releases`, `out_acquires`, `consumes` and
`non_capturing` tables, and its kind and words.
"""
from __future__ import annotations

from saturn.plugin.checker import (TRUE, Checker, FiniteState, block, equals_const, set_summary,
                                   short_name)
from saturn.ir import types as T

from . import apply, conditions, handles, render, report, summary as summaries
from .escape import ESCAPED, STORED
from .memory import CHECKS_ONLY, READS_ONLY, WRITES_ONLY, released, spec_member


class OwnData:
    def __init__(self, fs, arrays_escape):
        self.fs, self.arrays_escape = fs, arrays_escape
        self.new_locs: dict = {}   # object -> (valid lit, coord, what, text)
        self.events: list = []     # (object, lit, coord, text) for path notes
        self.handles = handles.Handles()


class OwnershipChecker(Checker[OwnData]):
    kind = ""            # the report kind (memory.leak, resource.leak)
    thing = "memory"     # how summaries name what is owned ("new memory")
    release_note = "frees the block"         # "'free(p)' frees the block"
    lost_note = "the block is lost"          # "'f' returns here and the block is lost"
    kept_note = "keeps or frees the block"   # "'g(p)' keeps or frees the block" (a summary)
    acquires: dict = {}  # function -> "alloc" | "realloc" (frees argument 0 where it succeeds)
    releases: dict = {}  # function -> the argument it releases (or a tuple of them)
    out_acquires: dict = {}   # function -> (argument, "always" | "ret>=0" | "ret==0"[, count])
    consumes: dict = {}  # function -> the argument it takes over where its result is not null
    extra: dict = {}     # function -> {fails, field, if_null}: checkers/library/__init__.py
    non_capturing: frozenset = frozenset()   # read or write through their arguments, keep none
    arrays_escape = True   # what a local array holds escapes (§2.7); else it is the array's
    writes_returned_param = True   # NOTE [result-writers] in summary.py
    stubs_unknown = True

    def acquired_by(self, what: str) -> str:
        """How reports name a thing made by `what`: "memory allocated by"."""
        return "memory allocated by"

    def specs_fingerprint(self):
        return (f"{self.name}:{self.summary_version}:{sorted(self.acquires.items())}:"
                f"{sorted(self.releases.items())}:{sorted(self.out_acquires.items())}:"
                f"{sorted(self.consumes.items())}:"
                f"{sorted((k, sorted(v.items())) for k, v in self.extra.items())}")

    def overrides(self, name):
        return name in self.releases or name in self.acquires or name in self.out_acquires \
            or name in self.consumes

    def library_effects(self):
        # A released block's pointers no longer hold anything: "release".
        effects = {name: "none" for name in [*self.acquires, *CHECKS_ONLY]}
        effects.update({name: "args" for name in self.out_acquires})
        effects.update({name: "release" for name in self.releases})
        effects.update({name: "none" if name in READS_ONLY else WRITES_ONLY.get(name, "args")
                        for name in self.non_capturing})
        return effects

    def begin(self, ctx):
        data = self.keep_state(ctx, OwnData(FiniteState(ctx.c, 2), self.arrays_escape))
        for attr in (ESCAPED, STORED):
            ctx.declare_attribute(attr, lambda key, d=data: d.fs.const(0), through_havoc=True)

    # -- acquisition and escape -----------------------------------------------------------------
    def allocate(self, ctx, st, coord, what, text, valid=None, zeroed=False):
        """A new location, valid where `valid` holds (fresh: the acquisition may fail); its
        bytes zero where `zeroed` (NOTE [zeroed-blocks])."""
        data = self.state(ctx)
        obj = ctx.new_object(f"<{what}@{coord.line}>")
        obj.addr.zeroed = zeroed
        v = ctx.c.new_var() if valid is None else valid
        lit = ctx.c.AND(ctx.lit(st.guard), v)
        data.new_locs[obj] = (lit, coord, what, text)
        data.events.append((obj, lit, coord, f"{self.acquired_by(what)} '{text}'"))
        return obj, v

    def acquire(self, ctx, st, coord, what, text, ctype, valid=None, zeroed=False):
        """A new thing of C type `ctype` (a descriptor when it is an integer and the checker
        has them, else a pointer to a new location): the value that refers to it, and where it
        was made (the acquisition succeeded)."""
        if self.has_descriptors() and isinstance(ctype, T.IntT):
            obj, value = handles.allocate(self, ctx, st, coord, what, text, valid)
            return value, self.state(ctx).new_locs[obj][0]
        obj, v = self.allocate(ctx, st, coord, what, text, valid, zeroed)
        return ctx.pointer([(obj, v), (None, -v)]), v

    def given(self, ctx, value):
        """What a value refers to: the locations a pointer may point to, or the descriptors
        an integer may hold (NOTE [descriptors])."""
        if self.has_descriptors() and hasattr(ctx.force(value), "bits"):
            return handles.holders(self, ctx, value)
        return ctx.locations(value)

    def may_own(self, ctype) -> bool:
        """Whether memory of C type `ctype` may be one of this checker's things or hold one
        (the escapees of a summary are asked about such memory only)."""
        return True

    def has_descriptors(self) -> bool:
        """Whether this checker's things may be integers (NOTE [descriptors])."""
        return False

    def escape(self, ctx, st, locations, coord=None, text=None, attr=ESCAPED):
        """`locations` escape where their guards hold: #escaped (freed, or given to a function
        that may free them), or with attr=STORED kept by a callee that only stores them."""
        fs, data = self.state(ctx).fs, self.state(ctx)
        # One update per block (a summary's paths reach a block many ways), and only on blocks
        # whose #escaped is read (escape.py): new ones, and the inputs the escapees are
        # made of. Marking every object a call is given (locals, blocks a callee returned) made
        # fs/fat's __fat_readdir merge ~1,800 attributes at each join.
        by_root: dict = {}
        for obj, g in locations:
            root = block(obj)   # a container_of view of a member: the member's block
            if root in data.new_locs or root.origin == "env":
                by_root.setdefault(root, []).append(g)
        for root, gs in by_root.items():   # first-seen order: NOTE [gate-order]
            g = ctx.c.OR_all(gs)
            ctx.set_attr(st, root, attr, fs.const(1), g)
            if root in data.handles.values:
                data.handles.taken.add(root)
            if text and root in data.new_locs:
                data.events.append((root, ctx.c.AND(ctx.lit(st.guard), g), coord, text))

    @staticmethod
    def slots(ctx, st, args, i):
        """The objects argument i points to; the callee writes through it, so it is not null."""
        slots = ctx.locations(args[i]) if i < len(args) else []
        if slots:
            ctx.restrict(st, ctx.c.OR_all(g for _, g in slots))
        return slots

    def give_out(self, ctx, st, call, what, slots, valid, count=1):
        """New things stored through an out-parameter (valid where `valid` holds); `count`
        elements from there (pipe's two descriptors)."""
        for slot, g in slots:
            targets = [slot] + [ctx.element_after(slot, k) for k in range(1, count)]
            for target in targets:
                value, made = self.acquire(ctx, st, call.coord, what, call.text, target.type,
                                           ctx.c.AND(valid, g))
                if isinstance(target.type, T.PtrT):
                    # Where nothing was made the pointer holds what the call left there (NOTE
                    # [copied-pointers]: the caller's old pointer where the callee failed).
                    value = ctx.ite(made, value, ctx.read(target, st))
                ctx.write(target, value, g, st)

    def on_store(self, ctx, access, st):
        """Name the assignment that overwrites a pointer to a new location (for path notes)."""
        if access.old is None:
            return
        data = self.state(ctx)
        for loc, g in ctx.locations(access.old()):
            if loc.root in data.new_locs:
                lit = ctx.c.AND(ctx.lit(st.guard), g)
                data.events.append((loc.root, lit, access.coord,
                                    "the pointer to the block is overwritten here"))

    def on_forget(self, ctx, values, st):
        """What a havocked loop had stored escapes: the analysis no longer knows where it is
        (`for (i = 0; i < 10; i++) { p = malloc(n); ... free(p); }`: the frees of the unrolled
        iterations are forgotten with their pointers, attributes being the loop entry's)."""
        self.escape(ctx, st, [h for v in values for h in self.given(ctx, v)])

    # -- calls ----------------------------------------------------------------------------------
    def pre_call(self, ctx, call, args, st):
        name = short_name(call.callee)
        if self.overrides(name):
            # What an out-parameter held before the call's effects overwrite it (getline's buffer).
            held = _held_through(ctx, st, args, self.out_acquires[name][0]) \
                if name in self.out_acquires else []
            if "field" in self.extra.get(name, {}) and name in self.releases:
                # what a member points to (globfree's), read before the call's effects
                held = released(ctx, st, args, self.releases[name], self.extra[name],
                                lambda a: self.given(ctx, a))
            return ("spec", name, held)
        if name in self.non_capturing or ctx.library_effect(name) is not None:
            return None
        given = [(loc, g) for a in _keepable(call, args) for loc, g in self.given(ctx, a)]
        # An unknown function may change any global, so it may also keep or free what globals
        # point to (`key_maps[map] = new_map;` then `capable()`): those blocks escape too.
        kept = [(loc, g) for obj, value in ctx.pointer_slots(st)
                if obj.root.sym is not None and obj.root.sym.kind == "global"
                for loc, g in ctx.locations(value)]
        if self.has_descriptors():   # and the descriptors made here integer globals hold
            kept += handles.held_by_globals(self, ctx, st)
        # Collected before the call's effects: the call may overwrite what the arguments hold.
        return ("unknown", given + kept + apply.held_by(ctx, self, st, given))

    def post_call(self, ctx, call, args, ret, st, token):
        if token is None:
            return
        if token[0] == "unknown":
            # A function we know nothing about may keep what it is given (and what that holds).
            self.escape(ctx, st, token[1])
            return
        self.apply_spec(ctx, call, token[1], args, ret, st, token[2])

    def pre_summary(self, ctx, call, summary, args, st):
        return (apply.resolve_escapees(ctx, self, summary, args, st),
                apply.held_out_params(ctx, summary, args, st),
                apply.resolve_kept_if(ctx, self, summary, args, st))

    def post_summary(self, ctx, call, summary, args, ret, st, token):
        apply.apply(ctx, self, call, summary, token[0], args, ret, st, token[1], token[2])

    def apply_spec(self, ctx, call, name, args, ret, st, held=()):
        text, extra = call.text, self.extra.get(name, {})
        if name in self.releases:
            if "field" not in extra:
                held = released(ctx, st, args, self.releases[name], extra,
                                lambda a: self.given(ctx, a))
            self.escape(ctx, st, held, call.coord, f"'{text}' {self.release_note}")
            return
        if name in self.out_acquires:
            i, when, *count = self.out_acquires[name]
            valid = conditions.lit(ctx, when, conditions.CallView(ctx, ret, args, st))
            if when == "always":  # getline reallocates the buffer it is given
                self.escape(ctx, st, held, call.coord, f"'{text}' reallocates the block")
            slots = self.slots(ctx, st, args, i)
            if "field" in extra:   # glob's gl_pathv
                slots = [(m, g) for obj, g in slots
                         for m in [spec_member(ctx, obj, extra["field"])] if m is not None]
            self.give_out(ctx, st, call, name, slots, valid, *count)
            return
        value, made = self._acquired(ctx, st, call, name, args, extra)
        if call.lv is not None:
            ctx.store(call.lv, value, st)
        if name in self.consumes and self.consumes[name] < len(args):
            # fdopen takes the descriptor over where it succeeds.
            taken = [(h, ctx.c.AND(g, made)) for h, g in self.given(ctx, args[self.consumes[name]])]
            self.escape(ctx, st, taken, call.coord, f"'{text}' takes it over")
        if self.acquires.get(name) == "realloc" and args:
            old = [(loc, ctx.c.AND(g, made)) for loc, g in ctx.locations(args[0])]
            self.escape(ctx, st, old, call.coord, f"'{text}' frees the old block when it succeeds")

    def _acquired(self, ctx, st, call, name, args, extra):
        """(the value an acquiring spec's call returns, where it made something): a new thing,
        or on failure null, a negative descriptor or (`fails = "minus-one"`, mmap's MAP_FAILED)
        the address -1; with `if_null = k` (realpath), something new only where argument k is
        null, argument k itself elsewhere."""
        k = extra.get("if_null")
        asked = -ctx.truth(args[k]) if k is not None and k < len(args) else None
        valid = None if asked is None else ctx.c.AND(asked, ctx.c.new_var())
        value, made = self.acquire(ctx, st, call.coord, name, call.text, call.ret, valid,
                                   bool(extra.get("zeroed")))
        if self.has_descriptors() and isinstance(call.ret, T.IntT):
            # POSIX: -1 on failure, else a descriptor the process did not have open (the
            # standard streams are: NOTE [descriptors]).
            ctx.restrict(st, ctx.c.OR(equals_const(ctx.c, value, -1), made))
        if extra.get("fails") == "minus-one" and not isinstance(call.ret, T.IntT):
            value = ctx.ite(made, ctx.pointer(ctx.locations(value)), ctx.integer_pointer(-1))
        if asked is not None:   # (with a buffer: the buffer, or null on failure)
            value = ctx.ite(asked, value,
                            ctx.ite(ctx.c.new_var(), args[k], ctx.pointer([(None, TRUE)])))
        return value, made

    # -- exit -----------------------------------------------------------------------------------
    def finish(self, ctx, exit_state):
        summary = summaries.infer(ctx, self, exit_state)
        set_summary(ctx, self.name, summary)
        if exit_state is not None:
            report.report(ctx, self, exit_state)

    def render_summary(self, summary):
        return render.summary_lines(self.name, self.thing, summary)


def _held_through(ctx, st, args, i):
    """What the objects argument i points to hold (pointers), with their guards."""
    if i >= len(args):
        return []
    return [(loc, ctx.c.AND(g, g2)) for slot, g in ctx.locations(args[i])
            for loc, g2 in ctx.locations(ctx.read(slot, st))]


def _keepable(call, args) -> list:
    """The arguments an unknown function may keep or free. NOTE [read-only-callees]: one whose
    every pointer parameter points to const and whose result is no pointer (a comparator
    behind `tree->cmp`, a hash or a lookup by key) keeps none of its pointer arguments: it
    writes no memory it is given, and keeping one would take a cast or a global. Its integers
    (a descriptor) and variadic arguments it may still keep."""
    ftype = getattr(call.func, "type", None)
    ftype = ftype.target if isinstance(ftype, T.PtrT) else ftype
    if not isinstance(ftype, T.FuncT) or isinstance(ftype.ret, T.PtrT) or \
            len(ftype.readonly) != len(ftype.params):
        return list(args)
    pointers = [ro for t, ro in zip(ftype.params, ftype.readonly) if isinstance(t, T.PtrT)]
    if not pointers or not all(pointers):
        return list(args)
    return [a for i, a in enumerate(args) if i >= len(ftype.params) or not ftype.readonly[i]]
