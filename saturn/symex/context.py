"""What a checker sees of one function's analysis (the hooks' argument; see saturn/plugin/checker.py)."""
from __future__ import annotations

from ..bitvec.compare import eq as bv_eq
from ..bitvec.vec import BitVec, const
from ..ir import nodes as N
from ..ir import types as T
from ..logic.circuit import FALSE, TRUE
from ..memory import gls
from ..memory.gls import GLS, make as make_gls
from ..memory.locations import child, may_start
from ..report.diagnostic import Report, TraceNote
from . import interface
from .lazy import Mux, force, same

MAX_WITNESS_BRANCHES = 40
SLICE_BUDGET = 2_000   # SAT conflicts per question of a report's slice (NOTE [witness-slice])
MAX_CONE = 20_000      # circuit variables looked through for the inputs a report reads


class FunctionContext:
    def __init__(self, program, fn: N.Function, ev, session, options):
        self.program, self.fn, self.ev, self.session, self.options = program, fn, ev, session, options
        self.c, self.guards, self.env = ev.c, ev.guards, ev.env
        self.reports: list[Report] = []
        self.branches: list[tuple] = []   # (cond lit, guard before, Branch, instance id)
        self.states: dict[str, object] = {}  # each checker's state, by name (Checker.state)
        self.summaries: dict = {}          # callee key -> {checker: summary}
        self.given: dict[str, object] = {}   # the summaries this function gives, by checker
        # The steps of the object the result points to where the result is, on every exit, the
        # entry value of the pointer read to reach it (copies.returns_copy); set at the exit.
        self.result_copy: list | None = None
        self.returns: list[tuple] = []     # (guard, coord) of each `return` reached
        self.branch_hooks: list = []       # callables (Branch, cond lit, state): on_branch
        self.head_tests: dict = {}         # block id -> ir.lists.HeadTest (NOTE [list-heads])

    # -- interface objects (§2.5.1) ----------------------------------------------------------------
    def interface_steps(self, obj, roots=None):
        return interface.steps_of(obj, roots)

    def exists(self, obj) -> int:
        """The condition under which an object reached from the function's inputs exists: every
        pointer on its access path was non-null on entry (`*(*p).lock` exists only where
        `p->lock != NULL`). TRUE for objects not reached through input pointers."""
        lits, cur = [], obj.root
        for _ in range(16):
            ptr = cur.deref_of
            if ptr is None:
                break
            initial = self.env.initial_values.get(ptr)
            if isinstance(initial, GLS):
                lits.append(self.c.OR_all([g for loc, g in initial.entries
                                           if loc is not None and loc.root is cur] or [FALSE]))
            cur = ptr.root
        return self.c.AND_all(lits) if lits else TRUE

    def handed_out(self, exit_state) -> dict:
        return interface.handed_out(self, exit_state)

    def resolve(self, steps, args, ret, state, memo=None):
        return interface.resolve(self.ev, steps, args, ret, state, memo)

    def render_path(self, steps) -> str:
        return interface.render(steps)

    def new_object(self, label: str, origin: str = "heap"):
        """A fresh memory block (what an allocation returns)."""
        return self.env.fresh_object(None, label, label, origin)

    def may_start(self, obj, ctype) -> bool:
        """Whether an object of `ctype` may start at obj's address (locations.may_start)."""
        return may_start(obj, ctype)

    def view(self, obj, ctype):
        """The object of type `ctype` at obj's address (§2.2.4.2)."""
        return self.env.view(obj, ctype)

    def pointer(self, pairs):
        """A pointer value from (location or None for null, guard Lit) pairs."""
        return make_gls(self.c, pairs)

    def store(self, lvalue, value, state) -> None:
        self.ev.store(lvalue, value, state)

    def load(self, lvalue, state):
        """The value of an lvalue (no load event: this is the checker reading)."""
        return self.ev.load(lvalue, state)

    def read(self, obj, state):
        """The value an object holds in a state (its entry value if never written)."""
        return self.ev.read_obj(obj, state)

    def write(self, obj, value, guard: int, state) -> None:
        """Store `value` into `obj` where `guard` holds."""
        self.ev.store_obj(obj, value, guard, state)

    def ite(self, cond: int, a, b):
        """The value `a` where `cond` holds, else `b` (integers or pointers)."""
        return self.ev.ite(cond, a, b)

    # -- attributes (§2.2.5): values on addresses, merged at joins by the engine --------------------
    def declare_attribute(self, name: str, entry, through_havoc: bool = False) -> None:
        """`entry((address uid, name))` gives the attribute's value where nothing set it. A
        loop's havoc (§2.6.6) sets attributes back to their loop-entry values, unless declared
        `through_havoc` (a flag that, once set on a path, stays true: what escaped stays so)."""
        self.ev.attr_defaults[name] = entry
        if through_havoc:
            self.ev.attr_kept.add(name)

    def get_attr(self, state, obj, name: str):
        return self.ev.get_attr(state, obj, name)

    def set_attr(self, state, obj, name: str, value, guard: int = TRUE) -> None:
        self.ev.set_attr(state, obj, name, value, guard)

    # -- inputs and callees --------------------------------------------------------------------------
    @property
    def inputs(self) -> dict:
        """The objects the function read from its inputs so far, with their entry values."""
        return self.env.initial_values

    def inputs_read(self, start: int = 0) -> list:
        """(object, entry value) of the environment's memory the function read (what parameters
        and globals point to), in the order read, from the `start`th on."""
        return self.env.inputs[start:]

    def input_value(self, obj):
        """An object's entry value if the function read it from its inputs, else None."""
        return self.env.initial_values.get(obj)

    def initial(self, obj):
        """An object's entry value (made now if the function never read it)."""
        return self.env.initial(obj)

    def param_object(self, param):
        """The object of a parameter variable (the function's own copy of the argument)."""
        return self.env.var_obj(param)

    def param_value(self, param):
        """A parameter's entry value if the function read it, else None."""
        return self.env.initial_values.get(self.env.var_obj(param))

    def library_effect(self, name: str | None) -> str | None:
        """What a bodiless library function may change (Checker.library_effects)."""
        return self.ev.library_effects.get(name)

    def has_body(self, callee: str | None) -> bool:
        return callee in self.program.functions

    def attributes(self, callee: str | None) -> tuple:
        """The attributes of a function's declaration: (name, args), an argument an integer,
        the interface path of the parameter it names, or its text (saturn/ir/annotations.py)."""
        return self.program.attributes.get(callee, ()) if callee else ()

    def pointer_slots(self, state, read: bool = False):
        """Every pointer-valued object in a state, with its value — which may be lazy still
        (NOTE [lazy-values]): `locations` and `force` read it. `read`: with the inputs only
        read so far, at their entry values (the links a walk followed to reach a block)."""
        out = [(obj, v) for obj, v in state.memory.items()
               if isinstance(v, GLS) or (type(v) is Mux and v.pointer)]
        if read:
            out += [(obj, v) for obj, v in self.env.initial_values.items()
                    if obj not in state.memory and isinstance(v, GLS)]
        return out

    def written_in(self, state, obj) -> bool:
        """Whether the state holds a write to any part of obj's block, through any view."""
        addr = obj.root.addr
        return any(o.root.addr is addr for o in state.memory)

    def int_slots(self, state):
        """Every integer-valued object in a state, with its value (which may be lazy still)."""
        return [(obj, v) for obj, v in state.memory.items()
                if isinstance(v, BitVec) or (type(v) is Mux and not v.pointer)]

    def element_after(self, obj, k: int):
        """The object k elements after `obj` (the next array element, or the derived object
        pointer arithmetic lands on), as `&obj + k` would point to."""
        parent = obj.parent
        if parent is not None and isinstance(obj.step, int) and isinstance(parent.type, T.ArrT):
            return self.env.element(parent, obj.step + k)
        return self.env.derived_object(obj)

    def member(self, obj, name: str):
        """The member `name` of a struct object, or None when it has none."""
        t = obj.type
        ftype = dict(t.fields).get(name) if isinstance(t, T.StructT) else None
        return None if ftype is None else child(obj, name, ftype)

    def integer_pointer(self, value: int):
        """The pointer value with the integer address `value` (MAP_FAILED is -1): no object
        lives there (NOTE [error-pointers] in ir/lower_call.py)."""
        return self.ev.int_to_ptr(const(value & (1 << 64) - 1, 64, False))

    def force(self, value):
        return force(self.ev, value)

    def same(self, a, b) -> bool:
        return same(self.ev, a, b)

    def pointers_equal(self, a, b) -> int:
        """The literal of `a == b` for two pointer values."""
        return gls.equal(self.c, self.ev.as_gls(self.force(a)), self.ev.as_gls(self.force(b)))

    def stored(self, state, obj):
        """The value a state holds for `obj`, or None where it holds none (NOTE [lazy-values])."""
        return force(self.ev, state.memory.get(obj))

    def exit_value(self, sym, state):
        return self.ev.read_obj(self.env.var_obj(sym), state)

    def initial_value(self, sym):
        return self.env.initial(self.env.var_obj(sym))

    def dispose(self) -> None:
        """Break the reference cycles that hold BDD nodes (see Guards.dispose)."""
        self.session.close()
        self.branches.clear()
        self.returns.clear()
        self.ev.call_hooks.clear()
        self.ev.store_hooks.clear()
        self.ev.load_hooks.clear()
        self.ev.forget_hooks.clear()
        self.branch_hooks.clear()
        self.states.clear()
        self.guards.dispose()
        self.c.release()

    # -- logic ----------------------------------------------------------------------------------
    def lit(self, guard) -> int:
        return self.guards.to_lit(guard)

    def may(self, *lits, observe=(), budget: int | None = None):
        """A model of the lits, or None; with a `budget` of conflicts, UNKNOWN past it."""
        return self.session.may(*lits, observe=observe, budget=budget)

    def can(self, *lits, budget: int | None = None) -> bool:
        """Whether the lits can hold together; with a `budget` of conflicts, a question left
        open counts as possible (for questions with a conservative answer: NOTE [budgets])."""
        return self.session.can(*lits, budget=budget)

    def work(self) -> int:
        """The solver's work so far (deterministic: for budgets of optional questions)."""
        return self.session.work()

    def affordable(self) -> bool:
        """Whether a question with a conservative answer is worth asking (NOTE [budgets])."""
        return self.session.affordable()

    def which_may(self, lits, *under) -> list[bool]:
        return self.session.which_may(list(lits), *under)

    def truth(self, value) -> int:
        return self.ev.truth(value)

    # -- values ---------------------------------------------------------------------------------
    def value(self, expr, state):
        return self.ev.value(expr, state)

    def locations(self, value):
        """The non-null locations of a pointer value with their guards."""
        value = force(self.ev, value)   # NOTE [lazy-values]
        return value.locations() if isinstance(value, GLS) else []

    def pin_path(self, obj) -> None:
        """Keep the pointers `obj` is reached through as they are across calls (NOTE
        [lock-paths] in checkers/lock_apply.py)."""
        self.ev.pinned.update(interface.reached_through(obj))

    def restrict(self, state, lit: int) -> None:
        """Continue the path only where `lit` holds (an assumption)."""
        state.guard = state.guard & self.guards.of_lit(lit)

    def end_path(self, state) -> None:
        state.guard = self.guards.false

    def forget_shared(self, state, lit: int) -> None:
        """Where `lit` holds, other threads may have changed the globals this function has met
        (a lock taken again after this function released it: NOTE [reacquire])."""
        if lit == FALSE:
            return
        objs = [o for o in self.ev.met(state) if _shared(self, o)]
        for obj in sorted(objs, key=lambda o: o.uid):
            if isinstance(obj.type, (T.IntT, T.PtrT)):
                old = self.ev.read_obj(obj, state)
                state.memory[obj] = self.ev.ite(lit, self.ev.fresh_value(obj.type, obj.display), old)

    # -- reports --------------------------------------------------------------------------------
    def report(self, checker: str, kind: str, coord: N.Coord, message: str, notes=(),
               statement: str = "") -> Report:
        r = Report(checker, kind, self.fn.name, self.fn.key, coord.file, coord.line, coord.col,
                   message, list(notes), statement=statement)
        self.reports.append(r)
        return r

    def witness(self, guard_lit: int, *extra: int, events=()) -> list[TraceNote]:
        """A path through the function satisfying `guard_lit`: branches taken, the checker's
        `events` ((lit, coord, text), in execution order) on that path, and input values."""
        branch_guards = [(self.lit(g), cond, term) for cond, g, term in
                         self.branches[:MAX_WITNESS_BRANCHES * 4]]
        observe = [x for gl, cond, _ in branch_guards for x in (gl, cond)]
        inputs = [(obj, v) for obj, v in self.env.inputs if not isinstance(v, GLS)][:12]
        observe += [b for _, v in inputs for b in v.bits]
        observe += [lit for lit, _, _ in events]
        named = self._enumerators(inputs)
        model = (self.may(guard_lit, *extra, *named, observe=observe) if named else None) or \
            self.may(guard_lit, *extra, observe=observe)
        if model is None:
            return []
        self.last_model = model
        seen = dict.fromkeys((c.file, c.line, text) for lit, c, text in events
                             if model.value(lit))   # one call freeing many blocks: once
        notes: list[TraceNote] = [TraceNote(*note) for note in seen]
        needed = []
        for gl, cond, term in branch_guards:
            if len(notes) >= MAX_WITNESS_BRANCHES:
                break
            if model.value(gl) and cond not in (TRUE, FALSE):
                side = cond if model.value(cond) else -cond
                if not self._depends(guard_lit, extra, gl, side):
                    continue
                needed.append(side)
                taken = "true" if side == cond else "false"
                text = f"'{term.text}' is {taken}" if term.text else f"taking the {taken} branch"
                notes.append(TraceNote(term.coord.file, term.coord.line, text))
        cone = self.c.support(needed, MAX_CONE)
        for obj, v in inputs:
            if cone is not None and not any(abs(b) in cone for b in v.bits):
                continue   # no branch the report needs reads it
            raw = model.bits(v.bits)
            if v.signed and raw >> (v.width - 1):
                raw -= 1 << v.width
            name = next((n for n, k in getattr(obj.type, "enum", ()) if k == raw), None)
            notes.append(TraceNote(self.fn.file, self.fn.line,
                                   f"{obj.display} = {name or raw}"))
        notes.sort(key=lambda n: (n.file != self.fn.file, n.line))
        return notes

    # NOTE [enum-witnesses]: a witness gives an enum input one of its enumerators where the
    # report's path allows one (the path is the same: the values are only preferred), and
    # names it. C lets an enum hold any int, but no caller passes `port_type = -2147483643`.
    def _enumerators(self, inputs) -> list[int]:
        """For each enum-typed input: the literal "it holds one of its enumerators"."""
        out = []
        for obj, v in inputs:
            members = getattr(obj.type, "enum", ())
            if members and isinstance(v, BitVec):
                out.append(self.c.OR_all(
                    [bv_eq(self.c, v, const(k, v.width, v.signed)) for _, k in members]))
        return out

    def _depends(self, guard_lit, extra, reached, side) -> bool:
        """NOTE [witness-slice]: whether every path of the report goes through this branch's
        side (the others are left out of its notes): whether the report's condition cannot
        hold where the branch is not reached, nor where it goes the other way. A question
        left open keeps the branch."""
        for lits in ((guard_lit, *extra, -reached), (guard_lit, *extra, reached, -side)):
            if self.session.possible(*lits, budget=SLICE_BUDGET) is True:
                return False
        return True

    def return_coord(self, model):
        """Where the path of `model` leaves the function (its `return`, or the closing brace)."""
        for guard, coord in self.returns:
            if model.value(self.lit(guard)):
                return coord
        return N.Coord(self.fn.file, self.fn.end_line, 1)


def _shared(ctx, obj) -> bool:
    """Part of a global another thread may write (not one that keeps its initializer)."""
    sym = obj.root.sym
    if sym is None or sym.kind != "global":
        return False
    g = ctx.program.globals.get(sym.key)
    return g is not None and not g.keeps_initializer
