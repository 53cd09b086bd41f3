"""The free checker: a block freed twice, and memory used after it was freed.

Each block carries the `#freed` attribute on its address: live (0), freed on this path (1), or
perhaps freed (2: a callee's summary frees it under a condition the caller cannot tell). A free
(`free`, the kernel's `kfree` family, the users' own, `realloc` where it succeeds, a callee whose
summary frees its parameter) of a block whose state is 1 is a double free; a read or write
through a pointer to it, or passing it to a function that reads or writes through it (a library
function, a callee whose summary says so, or a function without a body), is a use after free.
Both are decided at the exit, one SAT query per place, and reported with a path. Summaries
(summary.py) say which blocks the function's parameters and globals reach it frees, and under
which condition, and which it reads or writes through.
"""
from __future__ import annotations

from saturn.plugin.checker import (FALSE, TRUE, Checker, Fact, FiniteState, Kind, block,
                                   set_summary, short_name, summarized)
from saturn.ir.nodes import ASM_CALL
from saturn.report.diagnostic import TraceNote

from ..library import SPEC_KEY
from ..ownership.memory import (ALLOC, CHECKS_ONLY, EXTRA, FREE, FREE_KEY, NON_CAPTURING,
                               load_user_specs, released)
from . import summary as summaries
from .words import access_text, summary_lines

LIVE, FREED, MAYBE = 0, 1, 2
# Blocks a free may be about: made here ("heap"), reached from the inputs ("env") or returned
# by an unknown call ("fresh"); never a local, a string, a function or an integer made a
# pointer (`kfree(ERR_PTR(-ENOMEM))` twice is the same constant, no block).
BLOCKS = frozenset({"heap", "env", "fresh"})
FREED_ATTR = "#freed"
DOUBLE, AFTER = "memory.double-free", "memory.use-after-free"


class FreeData:
    def __init__(self, fs):
        self.fs = fs
        self.marked: dict = {}      # root object -> None: blocks whose #freed this function set
        self.events: list = []      # (root, lit, coord, text): frees, for path notes
        self.found: list = []       # (kind, coord, lit, root, message, statement)
        self.uses: dict = {}        # repr(steps) -> steps: the input blocks it reads or writes
        self.use_lits: dict = {}    # repr(steps) -> where the function uses it (summary.py)
        self.summarized: set = set()   # blocks a summarized location held: NOTE [summarized]
        self.steps: dict = {}       # root -> its interface path, or None (block_steps)


class FreeChecker(Checker[FreeData]):
    name = "free"
    # Off unless asked for: on the kernel's list code (nodes freed while a list is emptied
    # through helpers, callees that free and clear a field) its reports are still false.
    enabled_by_default = False
    description = ("Blocks freed twice and memory used after it was freed, with summaries of "
                   "what functions free and use across calls.")
    kinds = (
        Kind(DOUBLE, "error",
             "A block of memory may be freed twice: freed (by a free function, by realloc "
             "where it succeeds, or by a callee whose summary frees it) on a path where it was "
             "already freed. A second free corrupts the allocator's state."),
        Kind(AFTER, "error",
             "Memory may be used after it was freed: read or written through a pointer to a "
             "freed block, or the pointer passed to a function that reads or writes through "
             "it (a library function, a callee whose summary says so, or a function Saturn "
             "knows nothing of)."))
    facts = (Fact("destructor", "it frees memory its caller hands it (a parameter or global "
                                "reaches it)"),)
    config_keys = (FREE_KEY, SPEC_KEY)
    summary_version = 1

    def __init__(self, frees=None, extra=None):
        self.frees = dict(FREE, **(frees or {}))
        self.extra = dict(EXTRA, **(extra or {}))
        self.reallocs = frozenset(n for n, kind in ALLOC.items() if kind == "realloc")

    def configured(self, config):
        if not config:
            return self
        _, _, frees, extra = load_user_specs(config)
        return FreeChecker(frees, extra)

    def specs_fingerprint(self):
        return f"free:{self.summary_version}:{sorted(self.frees.items())}"

    def overrides(self, name):
        return name in self.frees or name in self.reallocs

    def library_effects(self):
        return dict({name: "none" for name in CHECKS_ONLY}, **{name: "release" for name in self.frees})

    def begin(self, ctx):
        data = self.keep_state(ctx, FreeData(FiniteState(ctx.c, 2)))
        ctx.declare_attribute(FREED_ATTR, lambda key, d=data: d.fs.const(LIVE))

    # -- the state of blocks --------------------------------------------------------------------
    # NOTE [summarized]: pointer arithmetic the analysis does not follow element by element (an
    # index past the tracked ones, or one of unknown value: `arr[i]` of a parameter `arr`) lands
    # on one derived object for all the elements (Environment.derived_object), so two reads of
    # it may be two pointers, or one. A block known only through such an object — its pointer
    # read from one, or stored into one — is not tracked: `for (i..) free(arr[i]);` would free
    # "it" twice. Blocks reached through precise locations are tracked as before.
    def tracked(self, data, obj) -> bool:
        root = block(obj)
        if root in data.summarized or root.origin not in BLOCKS:
            return False
        cur = root
        for _ in range(16):
            ptr = cur.deref_of
            if ptr is None:
                return True
            if summarized(ptr):
                data.summarized.add(root)
                return False
            cur = ptr.root
        return True

    def freed_state(self, ctx, st, root):
        return ctx.get_attr(st, root, FREED_ATTR)

    def check(self, ctx, st, kind, locations, coord, message, statement, states=(FREED,)):
        """Record `kind` where a block among `locations` is in one of `states` on this path."""
        data = self.state(ctx)
        path = None
        for obj, g in locations:
            root = block(obj)
            if root not in data.marked or root in data.summarized:
                continue
            if path is None:
                path = ctx.lit(st.guard)
            value = self.freed_state(ctx, st, root)
            bad = ctx.c.OR_all(data.fs.is_(value, s) for s in states)
            lit = ctx.c.AND_all([path, g, bad])
            if lit != FALSE:
                data.found.append((kind, coord, lit, root, message, statement))

    def free(self, ctx, st, locations, when, coord, text, how="frees the block", check=True,
             only=TRUE):
        """Free the blocks of `locations` where `when` holds (MAYBE where `when` is None, and
        `only` holds); `check`: a block already freed is a double free. `how` may name the
        block (`{}`) in the path's note."""
        data, fs = self.state(ctx), self.state(ctx).fs
        if check:
            self.check(ctx, st, DOUBLE, [(o, ctx.c.AND(g, only if when is None else when))
                                         for o, g in locations], coord,
                       f"'{text}' may free a block that was already freed", text)
        path = ctx.lit(st.guard)
        for obj, g in locations:
            root = block(obj)
            if not self.tracked(data, obj):
                continue
            data.marked.setdefault(root, None)
            old = self.freed_state(ctx, st, root)
            # Only where the block exists: an input's block reached through a pointer that is
            # null is no block. A callee's writes keep the field's old value where the struct's
            # pointer is null (calls.default_call), and that phantom was not freed.
            g = ctx.c.AND(g, ctx.exists(root))
            if when is None:   # perhaps freed: a block already freed stays freed
                ctx.set_attr(st, root, FREED_ATTR, fs.ite(fs.is_(old, FREED), old,
                                                          fs.const(MAYBE)), ctx.c.AND(g, only))
                continue
            under = ctx.c.AND(g, when)
            ctx.set_attr(st, root, FREED_ATTR, fs.const(FREED), under)
            data.events.append((root, ctx.c.AND(path, under), coord,
                                f"'{text}' {how.format(root.display)}"))

    def use(self, ctx, st, locations, coord, message, statement):
        """A read or write of the blocks of `locations` (recorded for the summary too)."""
        data = self.state(ctx)
        if data.marked:
            self.check(ctx, st, AFTER, locations, coord, message, statement)
        for obj, g in locations:
            steps = summaries.block_steps(ctx, data, block(obj))
            if steps is None:
                continue
            key, here = repr(steps), ctx.c.AND(ctx.lit(st.guard), g)
            # Only where the path can reach it: `*s = malloc(n); **s = 0;` writes the new
            # block, not the one `*s` held on entry (its guard there contradicts the path's).
            if key not in data.uses:
                if not ctx.can(here, budget=summaries.OPTIONAL):
                    continue
                data.uses[key] = steps
            data.use_lits[key] = ctx.c.OR(data.use_lits.get(key, FALSE), here)

    # -- events ---------------------------------------------------------------------------------
    def on_load(self, ctx, access, st):
        self.use(ctx, st, access.objs(), access.coord,
                 f"{access_text(access.lv)} may be read after it was freed", "")

    def on_store(self, ctx, access, st):
        if access.old is not None and any(summarized(obj) for obj, _ in access.objs()):
            data = self.state(ctx)   # NOTE [summarized]
            data.summarized.update(block(loc) for loc, _ in ctx.locations(access.value()))
        if access.through_pointer:
            self.use(ctx, st, access.objs(), access.coord,
                     f"{access_text(access.lv)} may be written after it was freed", "")

    def pre_call(self, ctx, call, args, st):
        name = short_name(call.callee)
        if "field" in self.extra.get(name, {}) and name in self.frees:
            # what a member points to (globfree's), read before the call's effects
            return released(ctx, st, args, self.frees[name], self.extra[name])
        if self.overrides(name) or call.callee == ASM_CALL:
            return None
        # A function without a body or summary, given a pointer to a freed block: it may read
        # or write through it (the library's functions do; an unknown one is assumed to).
        if ctx.library_effect(name) == "none" and name not in NON_CAPTURING:
            return None   # an allocator or lock primitive: reads nothing it is given
        assumed = "" if ctx.library_effect(name) is not None else _assumed(ctx, call, name)
        for i, a in enumerate(args):
            self.use(ctx, st, ctx.locations(a), call.coord,
                     f"'{call.text}' may be given memory that was freed{assumed}", call.text)
        return None

    def post_call(self, ctx, call, args, ret, st, token):
        name = short_name(call.callee)
        if name in self.frees:
            blocks = token if token is not None else \
                released(ctx, st, args, self.frees[name], self.extra.get(name, {}))
            self.free(ctx, st, blocks, TRUE, call.coord, call.text)
        elif name in self.reallocs and args:
            # The old block is freed where realloc succeeds (its result is not null).
            result = ctx.load(call.lv, st) if call.lv is not None else None
            when = ctx.truth(result) if result is not None else None
            self.free(ctx, st, ctx.locations(args[0]), when, call.coord, call.text,
                      "frees the old block (it succeeded)")

    def pre_summary(self, ctx, call, summary, args, st):
        return summaries.prepare(ctx, self, call, summary, args, st)

    def post_summary(self, ctx, call, summary, args, ret, st, token):
        summaries.apply(ctx, self, call, token, args, st)

    def finish(self, ctx, exit_state):
        set_summary(ctx, self.name, summaries.infer(ctx, self, exit_state))
        _report(ctx, self)

    # -- the summary in words and facts ---------------------------------------------------------
    def render_summary(self, summary):
        return summary_lines(summary)

    def search_facts(self, summary):
        return ["destructor"] if summary.get("frees") else []


def _assumed(ctx, call, name) -> str:
    """What a use that Saturn only assumed rests on, for the report to say."""
    if call.callee is None:
        why = "a call through a pointer to no known function"
    elif ctx.has_body(call.callee):
        why = f"'{name}' has no summary, being in a cycle with this function or incomplete"
    else:
        why = f"no body of '{name}' here"
    return f" ({why}: taken to read what it is given)"


def _report(ctx, checker) -> None:
    """One report per freed block: at its first place some path reaches (a use at a call that
    also frees the block again is the double free only); the block's later places are notes
    of that report, as a person fixing the first would find them gone with it."""
    data = checker.state(ctx)
    by_place: dict = {}
    for kind, coord, lit, root, message, statement in data.found:
        key = (coord.file, coord.line, coord.col, kind)
        by_place.setdefault(key, []).append((lit, root, coord, message, statement))
    doubles, first = set(), {}
    for key in sorted(by_place, key=lambda k: (k[0], k[1], k[2], k[3] != DOUBLE)):
        file, line, _, kind = key
        if kind == AFTER and (file, line) in doubles:
            continue
        items = by_place[key]
        noted = _note_again(ctx, first, items, file, line)
        shown = _reached(ctx, [x for x in items if x[1] not in first])
        if shown is not None:
            # The path shown is one block's, with that block's frees only: a call using a
            # dozen blocks freed by earlier calls would list every one of their frees.
            events = [(l, cd, t) for r, l, cd, t in data.events if r is shown[1]]
            notes = ctx.witness(shown[0], events=events)
            _, _, coord, message, statement = shown
            first[shown[1]] = ctx.report(checker.name, kind, coord, message, notes,
                                         statement=statement or message)
        if kind == DOUBLE and (noted or shown is not None):
            doubles.add((file, line))


def _note_again(ctx, first, items, file, line) -> bool:
    """A note `and here: ...` on the report of each block already reported that a path
    brings here; whether there was one."""
    noted = False
    for root in dict.fromkeys(x[1] for x in items if x[1] in first):
        again = _reached(ctx, [x for x in items if x[1] is root])
        if again is not None:
            first[root].trace.append(TraceNote(file, line, f"and here: {again[3]}"))
            noted = True
    return noted


def _reached(ctx, items):
    """The item of a block some path reaches this place with, if any."""
    if not items:
        return None
    model = ctx.may(ctx.c.OR_all(x[0] for x in items), observe=[x[0] for x in items])
    return None if model is None else next(x for x in items if model.value(x[0]))


CHECKER = FreeChecker()
