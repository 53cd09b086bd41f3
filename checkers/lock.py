"""The lock checker (§2.5): Unlocked/Locked/Error per lock, as the `#lock` attribute of the lock's
address, so that locks in structs reached through pointers, and their aliases, are one object.

Specs (lock_specs.py) and callees' summaries act at calls (NOTE [call-protocol]); at the exit the
summary ⟨P_in, P_out, M, R⟩ is inferred by SAT queries (Fig. 2.10; lock_summary.py) and the
reports of docs/DESIGN.md are issued (lock_reports.py).
"""
from __future__ import annotations

import itertools

from saturn.plugin.checker import (FALSE, TRUE, Checker, FiniteState, Kind, equals_const, set_summary,
                            short_name)

from . import lock_apply, lock_class, lock_render, lock_reports, lock_summary
from .lock_specs import CONFIG_KEYS, NONZERO, SEMAPHORE_OPS, SPECS, annotation_specs, load_user_specs
from .lock_states import ACQ, REL, E, L, R, U
from .lock_rows import LockError

RECURSIVE_KIND = 1                          # glibc's PTHREAD_MUTEX_RECURSIVE
_ACQUIRE = {"w": {U: L, L: E, R: E}, "r": {U: R, R: R, L: E}}
_RELEASE = {L: U, R: U, U: E}
# A lock its holder may take again is released as many times as taken: the depth is not
# kept, so a release of one not held is no error (stdio's stream locks).
_RELEASE_NESTED = {L: U, R: U, U: U}


class LockData:
    """Per-function scratch: the locks met, their entry states, and the events along paths."""

    def __init__(self, fs: FiniteState):
        self.fs = fs
        self.entry: dict = {}      # (addr uid, attr) -> entry value
        self.locks: dict = {}      # addr uid -> representative object
        self.known: dict = {}      # addr uid -> where it was initialised here (init or constructor)
        self.ops: list = []        # (addr uid, lit, coord, text)
        self.errors: list[LockError] = []
        self.acquires: list = []   # (addr uid, lit, coord)
        self.releases: list = []   # (addr uid, lit): its own releases and certain callees'
                                   # (NOTE [held-on-error])
        self.read_before_op: dict = {}  # addr uid -> how many inputs were read before its first op
        self.read_before_any = None   # how many inputs were read before the first lock operation
        self.inherited: dict = {}     # callees' flags that are entry values here (lock_refine)
        self.prop_lits: list = []   # the summary's proposition literals (lock_summary.infer)
        self.read_again: list = []  # (addr uid, lit, coord, first, text): NOTE [read-again]
        self.tracked: set = set()   # addr uids taken by lockdep-tracked calls: NOTE [lock-classes]
        self.direct: set = set()    # addr uids of its own lock operations: NOTE [vague-callees]
        self.certain: set = set()   # ... and of locks callees change with certain summaries
        self.uncertain: set = set()  # ... and with summaries that are not
        self.class_index: dict = {}  # lock class -> {uid: lock} (lock_class._of_class)
        self.indexed = 0            # how many of `locks` are in class_index

    def first_op(self, ctx, uids) -> None:
        if self.read_before_any is None:
            self.read_before_any = len(ctx.inputs)
        for uid in uids:   # ctx.inputs only grows, in reading order
            self.read_before_op.setdefault(uid, len(ctx.inputs))

    def read_before(self, ctx, uid=None) -> set:
        """The inputs read before the first operation on the lock (on any lock: uid None)."""
        count = (self.read_before_any or 0) if uid is None else self.read_before_op.get(uid, 0)
        return set(itertools.islice(ctx.inputs, count))


class LockChecker(Checker[LockData]):
    name = "lock"
    description = ("Double locks and unlocks, and functions that return with a lock held or not by "
                   "the same condition (§2.5), with lock summaries across calls.")
    kinds = (
        Kind("lock.double-lock", "warning",
             "A lock may be acquired while it is already held (a self-deadlock)."),
        Kind("lock.double-unlock", "warning", "A lock may be released while it is not held."),
        Kind("lock.ambiguous-exit", "warning",
             "The function may return with the lock held or not under the same return "
             "condition, so callers cannot know whether to release it."),
        Kind("lock.not-released", "warning",
             "A lock only this function can reach (one it made, or its own static that "
             "no path of it releases again) is still held when it returns."),
        Kind("lock.held-on-error", "warning",
             "The function returns an error (a negative value or null) with a lock it took "
             "still held, while the paths that succeed release it: a caller that sees the "
             "error does not release it."))
    facts = lock_render.FACTS
    config_keys = CONFIG_KEYS
    summary_version = 3

    def __init__(self, specs=None):
        self.specs = dict(SPECS)
        if specs:
            self.specs.update(specs)

    def configured(self, config):
        """The checker with the users' own lock functions from the config file."""
        return LockChecker(load_user_specs(config)) if config else self

    def render_summary(self, summary):
        return lock_render.lock_lines(summary)

    def search_facts(self, summary):
        return lock_render.lock_facts(summary)

    def library_effects(self):
        # Lock primitives change only lock states, which are attributes, not memory.
        return {name: "none" for name in self.specs}

    def specs_fingerprint(self):
        return f"lock:{self.summary_version}:{sorted(self.specs.items())!r}"

    def begin(self, ctx):
        data = self.keep_state(ctx, LockData(FiniteState(ctx.c, 2)))
        for attr in ("#lock", "#lockfirst", "#lockcause", "#lockrec", "#mtype", "#readmine",
                     "#readagain", "#lockvague", "#lockinit", "#relhere",
                     "#mine", "#lockalt"):
            ctx.declare_attribute(attr, lambda key, d=data: self._entry_value(d, key))

    @staticmethod
    def _entry_value(data: LockData, key):
        got = data.entry.get(key)
        if got is None:
            got = data.fs.fresh() if key[1] == "#lock" else data.fs.const(0)
            data.entry[key] = got
        return got

    # -- calls -----------------------------------------------------------------------------------
    def overrides(self, name):
        return name in self.specs

    def pre_call(self, ctx, call, args, st):
        spec = self.specs.get(short_name(call.callee))
        if spec is not None:
            return ("spec", spec, self._locks_of(ctx, args, spec[1]), args)
        notes = annotation_specs(ctx.attributes(call.callee))
        if notes and not ctx.has_body(call.callee):
            # Sparse annotations of a function we have no body for (saturn/ir/annotations.py).
            return ("annotations", [((op, 0, None, "w"), ctx.resolve(steps, args, None, st))
                                    for op, steps in notes], args)
        return None

    def post_call(self, ctx, call, args, ret, st, token):
        if len(call.among) > 1:
            lock_apply.alternatives(ctx, self, call, args, st)
        if token is None:
            return
        if token[0] == "spec":
            if token[1][0] in ("acquire", "release") and call.lv is not None and \
                    hasattr(ret, "bits") and not ctx.has_body(call.callee):
                # The lock is taken (or given back), so the call succeeded: pthread_mutex_lock,
                # mtx_lock, sem_wait and their releases return 0 then (a result read as an
                # error would be a lock not taken, or not held). A program's own definition
                # says what it returns (a C11 threads emulation's thrd_success may be 1).
                ctx.restrict(st, equals_const(ctx.c, ret, 0))
            self.apply_spec(ctx, call, token[1], token[2], ret, st, token[3])
        else:
            for spec, locks in token[1]:
                self.apply_spec(ctx, call, spec, locks, ret, st, token[2])

    def pre_summary(self, ctx, call, summary, args, st):
        if summary.get("locks"):
            return lock_apply.prepare(ctx, self, summary, args, st)
        return None

    def post_summary(self, ctx, call, summary, args, ret, st, token):
        if token is not None:
            lock_apply.apply(ctx, self, call, summary, token, ret, st)
        if len(call.among) > 1:
            lock_apply.alternatives(ctx, self, call, args, st)

    def _locks_of(self, ctx, args, index):
        if index >= len(args):
            return []
        return ctx.locations(args[index])

    def apply_spec(self, ctx, call, spec, locks, ret, st, args=()):
        op = spec[0]
        data, fs = self.state(ctx), self.state(ctx).fs
        if op in ("settype", "attrinit"):
            self._mutex_type(ctx, op, locks, args, st)
            return
        if op == "ignore":
            return
        if op == "held":
            self._assume_held(ctx, locks, st)
            return
        if op not in ("init", "destroy"):
            data.first_op(ctx, [obj.addr.uid for obj, _ in locks])
        if locks:  # the lock operation dereferences its argument: it is not null here
            ctx.restrict(st, ctx.c.OR_all(g for _, g in locks))
        path = ctx.lit(st.guard)
        for obj, g in locks:
            if call.callee and call.callee.rsplit(":", 1)[-1] in SEMAPHORE_OPS and \
                    lock_class.counting(ctx.program, obj):
                continue   # a counting semaphore is no lock (NOTE [init-sites])
            data.locks.setdefault(obj.addr.uid, obj)
            if op == "init":
                ctx.set_attr(st, obj, "#lock", fs.const(U), g)
                ctx.set_attr(st, obj, "#lockrec", self._recursive_attr(ctx, args, st), g)
                ctx.set_attr(st, obj, "#lockvague", fs.const(0), g)
                ctx.set_attr(st, obj, "#lockinit", fs.const(1), g)
                data.known[obj.addr.uid] = ctx.c.OR(data.known.get(obj.addr.uid, -1),
                                                    ctx.c.AND(path, g))
                continue
            if op != "destroy":
                self._operate(ctx, call, spec, obj, g, ret, st, args, path)

    def _operate(self, ctx, call, spec, obj, g, ret, st, args, path) -> None:
        """An acquire, trylock or release of one lock the call's argument may be."""
        op, _, success, mode = spec
        data, fs = self.state(ctx), self.state(ctx).fs
        took = TRUE
        if op == "try":
            took = self._success(ctx, ret, success)
        kind = REL if op == "release" else ACQ
        table = _ACQUIRE["r" if mode == "r" else "w"] if op != "release" else \
            _RELEASE_NESTED if mode == "recursive" else _RELEASE
        under = ctx.c.AND(g, took) if op == "try" else g
        if op == "try" and mode == "s":   # a held semaphore's trylock fails (lock_specs)
            held = fs.is_(ctx.get_attr(st, obj, "#lock"), L)
            ctx.restrict(st, ctx.c.OR(-ctx.c.AND(g, held), -took))
        # A recursive mutex may be taken again by its holder (NOTE [recursive-mutex]); a
        # stdio stream's lock always may (mode "recursive").
        recursive = lambda: TRUE if mode == "recursive" else \
            fs.is_(ctx.get_attr(st, obj, "#lockrec"), 1)   # noqa: E731
        if op == "try" and mode not in ("s", "recursive"):
            # A trylock on a lock already held is an error whatever it returns (Fig. 2.8).
            self.transition(ctx, st, obj, {L: E} if mode != "r" else {}, ACQ,
                            ctx.c.AND(g, -recursive()), call, path, None)
        verb = "releases" if kind == REL else "acquires"
        text = f"'{call.text}' {verb} {obj.display}"
        if kind == ACQ and mode != "r":
            rec = recursive()
            self.transition(ctx, st, obj, {U: L, L: L, R: E}, kind, ctx.c.AND(under, rec),
                            call, path, text)
            under = ctx.c.AND(under, -rec)
        if mode == "r" or kind == REL:
            self._read_again(ctx, st, obj, kind, under, call, path, text)
        self._reacquire(ctx, st, obj, kind, under)
        name = call.callee.rsplit(":", 1)[-1] if call.callee else ""
        if kind == REL:
            lock_class.released(ctx, self, st, obj, under)
        nested = kind == ACQ and lock_class.nested(name, args, ctx)
        if kind == ACQ and mode == "w" and op == "acquire" and lock_class.tracked(name) \
                and not nested:   # annotated, no class for callers to check either
            data.tracked.add(obj.addr.uid)
            lock_class.check(ctx, self, st, obj, under, call, path)
        self.transition(ctx, st, obj, table, kind, under, call, path, text)
        if nested:   # held in a subclass of its own: no lock of the class held here
            ctx.set_attr(st, obj, "#mine", fs.const(0), under)

    # NOTE [read-again]: read locks nest (`read_lock(l); read_lock(l); read_unlock(l);` holds l
    # once), but a function that takes a read lock it already holds from its own acquire on
    # that path, and returns without releasing it after, has written an acquire for a release
    # (`read_lock(l); ...; read_lock(l);` where the second was meant to be read_unlock). The
    # `#readmine` attribute marks a read lock this function's own call took, `#readagain` one
    # it took again since; an exit with `#readagain` set is a double lock at the second acquire
    # (`read_again_errors`, at the exit). The lock's state machine is unchanged.
    def _read_again(self, ctx, st, obj, kind, under, call, path, text) -> None:
        data, fs = self.state(ctx), self.state(ctx).fs
        if kind == REL:
            ctx.set_attr(st, obj, "#readmine", fs.const(0), under)
            ctx.set_attr(st, obj, "#readagain", fs.const(0), under)
            return
        again = ctx.c.AND_all([under, fs.is_(ctx.get_attr(st, obj, "#readmine"), 1),
                               fs.is_(ctx.get_attr(st, obj, "#lock"), R)])
        if again != -TRUE:
            data.read_again.append((obj.addr.uid, ctx.c.AND(path, again), call.coord,
                                    ctx.get_attr(st, obj, "#lockfirst"), call.text))
            ctx.set_attr(st, obj, "#readagain", fs.const(1), again)
        ctx.set_attr(st, obj, "#readmine", fs.const(1), under)

    # NOTE [reacquire]: between a release and the next acquire of the same lock by this
    # function, other threads may take the lock and change what it protects. Which data that
    # is the code does not say, so at such an acquire every global the function has met (and
    # that any function may write) becomes unknown: console_unlock's `con_start != log_end`,
    # false when the loop broke out, may be true when it takes logbuf_lock again. A first
    # acquire forgets nothing (a function's inputs are unknown already), nor does a lock
    # this function never released.
    def _reacquire(self, ctx, st, obj, kind, under) -> None:
        fs = self.state(ctx).fs
        if kind == REL:
            ctx.set_attr(st, obj, "#relhere", fs.const(1), under)
            return
        ctx.forget_shared(st, ctx.c.AND(under, fs.is_(ctx.get_attr(st, obj, "#relhere"), 1)))

    def read_again_errors(self, ctx, exit_state) -> None:
        """Acquires of NOTE [read-again] that reach the exit unreleased, as errors."""
        data = self.state(ctx)
        if exit_state is None:
            return
        out = ctx.lit(exit_state.guard)
        for uid, here, coord, first, text in data.read_again:
            held = data.fs.is_(exit_state.attrs.get((uid, "#readagain"), data.fs.const(0)), 1)
            data.errors.append(LockError(uid, ctx.c.AND_all([here, out, held]), coord, ACQ,
                                         first, False, text, FALSE))

    def _assume_held(self, ctx, locks, st) -> None:
        """`lockdep_assert_held(l)` (with lockdep configured in) and `__must_hold(l)`: paths
        where l is not held are not the function's to take — a precondition, not an error. The
        argument may be the lock's `dep_map` member; lock states live on addresses, so its
        parent (the lock, or a union sharing its address) names the same lock."""
        fs = self.state(ctx).fs
        for obj, g in locks:
            lock = obj.parent if obj.step == "dep_map" and obj.parent is not None else obj
            value = ctx.get_attr(st, lock, "#lock")
            ctx.restrict(st, ctx.c.OR(-g, ctx.c.OR(fs.is_(value, L), fs.is_(value, R))))

    # NOTE [recursive-mutex]: `pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE)` sets the
    # `#mtype` attribute of the attribute object; `pthread_mutex_init(&m, &a)` copies "recursive"
    # into the mutex's `#lockrec`, and an acquire of a held recursive mutex keeps it locked (the
    # depth is not counted: the first unlock releases it). Mutexes of unknown origin are normal.
    def _mutex_type(self, ctx, op, attrs, args, st) -> None:
        fs = self.state(ctx).fs
        if op == "attrinit" or len(args) < 2:
            value = fs.const(0)
        else:
            value = fs.ite(equals_const(ctx.c, args[1], RECURSIVE_KIND), fs.const(1), fs.const(0))
        for obj, g in attrs:
            ctx.set_attr(st, obj, "#mtype", value, g)

    def _recursive_attr(self, ctx, args, st):
        fs = self.state(ctx).fs
        attrs = ctx.locations(args[1]) if len(args) > 1 else []
        rec = ctx.c.OR_all(ctx.c.AND(g, fs.is_(ctx.get_attr(st, a, "#mtype"), 1))
                           for a, g in attrs)
        return fs.ite(rec, fs.const(1), fs.const(0))

    @staticmethod
    def _success(ctx, ret, success) -> int:
        if ret is None:
            return ctx.c.new_var()
        nonzero = ctx.truth(ret)
        return nonzero if success == NONZERO else -nonzero

    def transition(self, ctx, st, obj, table, kind, g, call, path, text, reported=False):
        """Move the lock by `table` where `g` holds; record ops, errors and the first operation."""
        data, fs, c = self.state(ctx), self.state(ctx).fs, ctx.c
        if not table or g == -TRUE:
            return
        ctx.pin_path(obj)   # NOTE [lock-paths]
        old = ctx.get_attr(st, obj, "#lock")
        new = fs.select(old, table)
        first = ctx.get_attr(st, obj, "#lockfirst")
        here = c.AND(path, g)
        vague = fs.is_(ctx.get_attr(st, obj, "#lockvague"), 1)   # NOTE [vague-callees]
        enters = c.AND_all([here, -fs.is_(old, E), fs.is_(new, E), -vague])
        uid = obj.addr.uid
        data.direct.add(uid)
        if text is not None:
            data.ops.append((uid, here, call.coord, text))
        if kind == ACQ and text is not None:
            data.acquires.append((uid, here, call.coord))
        if kind == REL and text is not None:
            data.releases.append((uid, here))
        data.errors.append(LockError(uid, enters, call.coord, kind, first, reported, call.text,
                                     self.inited(ctx, st, obj)))
        ctx.set_attr(st, obj, "#lock", new, g)
        lock_apply.set_mine(ctx, fs, st, obj, old, new, g)
        ctx.set_attr(st, obj, "#lockcause", fs.const(kind), c.AND(g, -fs.is_(old, E)))
        ctx.set_attr(st, obj, "#lockfirst", fs.ite(fs.is_(first, 0), fs.const(kind), first), g)

    @staticmethod
    def inited(ctx, st, obj) -> int:
        """Whether this function set the lock's state (init, constructor) on the path so far."""
        return ctx.states[LockChecker.name].fs.is_(ctx.get_attr(st, obj, "#lockinit"), 1)

    # -- exit --------------------------------------------------------------------------------------
    def finish(self, ctx, exit_state):
        self.read_again_errors(ctx, exit_state)
        summary = lock_summary.infer(ctx, self, exit_state)
        set_summary(ctx, self.name, summary)
        lock_reports.report(ctx, self, exit_state, summary)


CHECKER = LockChecker()
