"""The checker plug-in interface.

A checker is one module under `checkers/` with a `CHECKER` object implementing these hooks, and one
line in `saturn/registry.py`. It sees the analysis only through `ctx` (a FunctionContext):

- `ctx.fn` (the IR function), `ctx.program`, `ctx.options`;
- `ctx.value(expr, state)`, `ctx.truth(value) -> Lit`, `ctx.locations(pointer) -> [(obj, lit)]`;
- `ctx.lit(state.guard)` turns a path guard into a Lit; `ctx.may(*lits)` asks the function's one
  incremental solver for a model (None: unsatisfiable) — the query API of §2.5.4; `ctx.can(*lits)`
  asks only whether they can hold (cheaper: no model);
- `ctx.ev.get_attr/set_attr(state, obj, name, ...)`: attributes on locations (§2.2.5), merged at
  joins by the engine; `ctx.ev.attr_defaults[name]` gives an attribute's entry value;
- `ctx.restrict(state, lit)`, `ctx.end_path(state)`;
- `ctx.report(checker, kind, coord, message, notes)` and `ctx.witness(lit)` for path notes;
- `ctx.summaries[callee_key][checker_name]`: callees' summaries (JSON-able), bottom-up.
"""
from __future__ import annotations

from .bitvec.compare import eq as _eq
from .bitvec.vec import BitVec, const as _const, fresh as _fresh, ite as _ite
from .logic.circuit import FALSE, TRUE  # noqa: F401  (re-exported for checkers)


class Checker:
    name = "checker"
    kinds: tuple[str, ...] = ()
    enabled_by_default = True
    summary_version = 1
    shared_effects: dict | None = None   # set by the registry: every checker's library_effects

    def begin(self, ctx) -> None:
        """Before the function's first statement: register call hooks and attributes."""

    def finish(self, ctx, exit_state) -> None:
        """At the function's exit (`exit_state` is None when no path returns): infer the
        summary (store it with `set_summary`) and issue reports."""

    def library_effects(self) -> dict[str, str]:
        """Bodiless library functions the checker's specs know, and what they may change:
        "none" (allocators, frees) or "args" (what their pointer arguments reach, no globals).
        The engine's default for other bodiless calls also changes every visible global."""
        return {}

    def specs_fingerprint(self) -> str:
        """A string that changes whenever the checker's specs change (cache keys)."""
        return f"{self.name}:{self.summary_version}"


class CallHook:
    """What a checker does at a call (NOTE [call-protocol] in saturn/symex/evaluator.py):
    `before(call, args, state) -> token` runs before the call's effects, `after(call, args, ret,
    state, token)` after them; `args` are the argument values, `ret` the result's value."""

    def __init__(self, before=None, after=None):
        self._before, self._after = before, after

    def before(self, call, args, state):
        return self._before(call, args, state) if self._before else None

    def after(self, call, args, ret, state, token):
        if self._after:
            self._after(call, args, ret, state, token)


def set_summary(ctx, checker_name: str, summary) -> None:
    ctx.data.setdefault("<summaries>", {})[checker_name] = summary


def callee_summary(ctx, callee_key: str | None, checker_name: str):
    if callee_key is None:
        return None
    return ctx.summaries.get(callee_key, {}).get(checker_name)


def equals_const(circuit, value, k: int) -> int:
    """The literal for `value == k` (an integer value of the analysis)."""
    if not isinstance(value, BitVec):
        return circuit.new_var()
    return _eq(circuit, value, _const(k, value.width, value.signed))


class FiniteState:
    """A small state machine's state as a vector of literals (an attribute value, §2.5)."""

    def __init__(self, circuit, width: int = 2):
        self.c, self.width = circuit, width

    def const(self, k: int) -> BitVec:
        return _const(k, self.width, False)

    def fresh(self) -> BitVec:
        return _fresh(self.c, self.width, False)

    def is_(self, v: BitVec, k: int) -> int:
        return _eq(self.c, v, self.const(k))

    def ite(self, cond: int, a: BitVec, b: BitVec) -> BitVec:
        return _ite(self.c, cond, a, b)

    def select(self, v: BitVec, table: dict[int, int]) -> BitVec:
        """The state `table[s]` when v == s (states missing from the table stay as they are)."""
        out = v
        for s, t in sorted(table.items()):
            out = self.ite(self.is_(v, s), self.const(t), out)
        return out
