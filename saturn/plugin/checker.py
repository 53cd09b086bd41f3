"""The checker plug-in interface (docs/CHECKERS.md).

A checker is one module, or a package if it is large, directly under `checkers/` that defines
`CHECKER`, an instance of a `Checker` subclass; checkers/registry.py finds it there, and nothing
else in saturn/ or summaries/ names it. It declares:

- `name` (what `--checkers` takes; its tests live in tests/c/<name>/), `kinds` (its reports,
  each a `Kind` with severity and help: SARIF rules, the web page, `saturn checkers`),
  `facts` (the search facts its summaries give the web page), `config_keys` (its keys in
  saturn.toml, validated), and its specs for library functions (`overrides`,
  `library_effects`, `specs_fingerprint`);
- the events it handles, below. The engine calls only the ones a checker overrides.

Events, in the order a function's analysis meets them (clang's analyzer names in brackets):

- `begin(ctx)`: before the function's first statement [BeginFunction]. Declare attributes here.
- `pre_call(ctx, call, args, state) -> token` / `post_call(ctx, call, args, ret, state, token)`:
  a call to a function this checker has no summary of (bodiless, unanalysed, or one its specs
  `overrides`), before and after the call's effects on memory [PreCall / PostCall; a spec
  applied in `post_call` is clang's EvalCall]. `args` are the argument values, `ret` the
  result's value (None when unused); the token carries what `pre_call` saw to `post_call`.
- `pre_summary(ctx, call, summary, args, state) -> token` / `post_summary(ctx, call, summary,
  args, ret, state, token)`: a call to an analysed function: this checker's summary of the
  callee is applied at the call site (no clang counterpart: clang inlines callees).
- `on_load(ctx, access, state)`: a read through a pointer [Location, isLoad].
- `on_store(ctx, access, state)`: an assignment (through a pointer or not) before it
  happens [Bind]. `access` is an `Access`.
- `on_branch(ctx, branch, lit, state)`: a two-way branch, `lit` its condition [BranchCondition].
- `on_forget(ctx, values, state)`: memory the analysis gives unknown values without the
  program writing them: a loop whose exit its unrolled iterations did not reach is havocked
  (§2.6.6), a call without a precise summary may change what it can reach, a store goes to an
  object standing for many elements. `values` are what was held there, so what they point to
  or hold may be anywhere [PointerEscape, on invalidation; NOTE [forgotten-values]].
- `finish(ctx, exit_state)`: the function's exit (`exit_state` is None when no path returns):
  infer the summary (`set_summary`) and report [EndFunction; clang's DeadSymbols has no
  counterpart: what is lost is found at the exit, over all paths at once].

NOTE [call-protocol] in saturn/symex/evaluator.py orders the call events of several checkers.
A checker sees the analysis only through `ctx`, a FunctionContext (saturn/symex/context.py):
values, locations, attributes on locations (§2.2.5), SAT queries, reports and path notes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generic, TypeVar

from ..bitvec.compare import eq as _eq, lt as _lt
from ..bitvec.vec import BitVec, const as _const, fresh as _fresh, ite as _ite
from ..logic.circuit import FALSE, TRUE  # noqa: F401  (re-exported for checkers)
from ..logic.solver import UNKNOWN  # noqa: F401  (re-exported for checkers)

S = TypeVar("S")

SEVERITIES = ("error", "warning", "note")   # SARIF's levels


@dataclass(frozen=True)
class Kind:
    """A report kind: `name` is `area.what` (the SARIF rule id), `help` one paragraph."""
    name: str
    severity: str
    help: str


@dataclass(frozen=True)
class Fact:
    """A search fact a summary may give (a web page filter): `name` is unique over checkers."""
    name: str
    help: str


class ConfigError(Exception):
    """A configuration value of the wrong type (one line, naming the file)."""


@dataclass(frozen=True)
class ConfigKey:
    """A top-level key of saturn.toml. `check(where, key, value, warn)` returns the value to use
    or raises ConfigError; what it leaves out it names through `warn`. Two checkers may declare
    the same key only as the same object (a shared key, such as the user's `free` functions)."""
    name: str
    help: str
    check: Callable


@dataclass
class Access:
    """A read or write of memory: `lv` the IR lvalue, `coord` the statement, `through_pointer`
    whether it dereferences a pointer; `objs()` the objects it reaches, with their guards; for
    an assignment, `value()` the value stored and, when it is a pointer, `old()` the value it
    overwrites (each computed on demand, once)."""
    lv: object
    coord: object
    through_pointer: bool
    objs: Callable
    old: Callable | None = None
    value: Callable | None = None


class Checker(Generic[S]):
    """A checker; `S` is the type of its state for one function's analysis (made in `begin`,
    kept with `keep_state`, read with `state`)."""
    name = "checker"
    description = ""   # what it finds, one sentence (`saturn checkers`)
    kinds: tuple[Kind, ...] = ()
    facts: tuple[Fact, ...] = ()
    config_keys: tuple[ConfigKey, ...] = ()
    enabled_by_default = True
    # A call of an empty body that takes a pointer (a stand-in for what another configuration
    # does: the kernel's compile-test stubs) is, for such a checker, a call it knows nothing of:
    # for the ownership checkers the real body may keep what it is given.
    stubs_unknown = False
    summary_version = 1
    shared_effects: dict | None = None   # set by the registry: every checker's library_effects

    # -- configuration and specs ----------------------------------------------------------------
    def configured(self, config: dict) -> "Checker":
        """The checker for a configuration already validated by its `config_keys`."""
        return self

    def overrides(self, name: str) -> bool:
        """Whether a spec of this checker stands for function `name` even where it has a body
        (the kernel's `spin_lock` is a static inline over `_raw_spin_lock`): its calls then
        come to `pre_call`/`post_call`, never to the summary events."""
        return False

    def library_effects(self) -> dict:
        """Bodiless library functions the checker's specs know, and what they may change:
        "none" (allocators), "args" (what their pointer arguments reach, no globals),
        "release" (a block given back: the pointers in what the arguments reach hold nothing
        any more, its integers are as they were), or a tuple of argument indexes (what those
        arguments reach: `regexec` fills its match array, not the pattern it is given). The
        engine's default for other bodiless calls also changes every visible global."""
        return {}

    def specs_fingerprint(self) -> str:
        """A string that changes whenever the checker's specs change (cache keys)."""
        return f"{self.name}:{self.summary_version}"

    # -- state for one function ----------------------------------------------------------------
    def keep_state(self, ctx, state: S) -> S:
        ctx.states[self.name] = state
        return state

    def state(self, ctx) -> S:
        return ctx.states[self.name]

    # -- events (see the module's docstring) ----------------------------------------------------
    def begin(self, ctx) -> None:
        pass

    def pre_call(self, ctx, call, args, state):
        return None

    def post_call(self, ctx, call, args, ret, state, token) -> None:
        pass

    def pre_summary(self, ctx, call, summary, args, state):
        return None

    def post_summary(self, ctx, call, summary, args, ret, state, token) -> None:
        pass

    def on_load(self, ctx, access: Access, state) -> None:
        pass

    def on_store(self, ctx, access: Access, state) -> None:
        pass

    def on_branch(self, ctx, branch, lit: int, state) -> None:
        pass

    def on_forget(self, ctx, values, state) -> None:
        pass

    def finish(self, ctx, exit_state) -> None:
        pass

    # -- its summary, in words and as search facts --------------------------------------------
    def render_summary(self, summary: dict) -> list[str]:
        """Lines of the plain-words summary (summaries/render.py: `NAME[ subject]: ...`)."""
        return []

    def search_facts(self, summary: dict) -> list[str]:
        """The names of `facts` that hold for this summary."""
        return []

    def handles(self, event: str) -> bool:
        """Whether this checker overrides the event method `event`."""
        return getattr(type(self), event) is not getattr(Checker, event)


def summarized(obj) -> bool:
    """Whether an object is (inside) a derived object: memory the analysis does not tell apart
    element by element (`arr[i]` past the tracked elements, pointer arithmetic it does not
    follow), so one object stands for several."""
    while obj is not None:
        if obj.origin == "derived":
            return True
        obj = obj.parent
    return False


def block(obj):
    """The object that stands for the block `obj` is in: a `container_of` view of a member is
    the member's block (`kfree(list_entry(p, T, list))` then `e->ts` read through the view;
    `free(container_of(data, struct box, data))` frees the block the caller's `data` is in)."""
    root = obj.root
    for _ in range(8):
        if root.container_of is None:
            break
        root = root.container_of[0].root
    return root


def short_name(key: str | None) -> str | None:
    """A callee's name from its key (`file.c:name` for a static)."""
    return key.rsplit(":", 1)[-1] if key else None


def set_summary(ctx, checker_name: str, summary) -> None:
    ctx.given[checker_name] = summary


def callee_summary(ctx, callee_key: str | None, checker_name: str):
    if callee_key is None:
        return None
    return ctx.summaries.get(callee_key, {}).get(checker_name)


def equals_const(circuit, value, k: int) -> int:
    """The literal for `value == k` (an integer value of the analysis)."""
    if not isinstance(value, BitVec):
        return circuit.new_var()
    return _eq(circuit, value, _const(k, value.width, value.signed))


def same_int(circuit, a, b) -> int:
    """The literal for `a == b` over their common low bits (a descriptor copied into a wider
    variable is still that descriptor); FALSE when either is not an integer value."""
    if not (isinstance(a, BitVec) and isinstance(b, BitVec)):
        return FALSE
    w = min(a.width, b.width)
    return circuit.AND_all(-circuit.XOR(x, y) for x, y in zip(a.bits[:w], b.bits[:w]))


def library_spellings(names) -> frozenset:
    """Each C library function name also as an optimising or fortified build calls it
    (`-O2 -D_FORTIFY_SOURCE=2` turns `memset(p, 0, n)` into `__builtin___memset_chk(p, 0, n,
    size)`), and as the x86 kernel's string helpers are named (`#define memset __memset`)."""
    return frozenset(spelled for base in names for spelled in (
        base, f"__{base}", f"__builtin_{base}", f"__{base}_chk", f"__builtin___{base}_chk"))


def result_lit(ctx, when: str, ret) -> int:
    """The literal of a condition on a function's result, integer or pointer: "ret==0",
    "ret!=0" (for a pointer: null, non-null), "ret<0", "ret>=0" (true of a pointer or an
    unsigned result), "ret==1"."""
    if when in ("ret<0", "ret>=0"):
        neg = ret.bits[-1] if getattr(ret, "signed", False) else FALSE
        return neg if when == "ret<0" else -neg
    if when == "ret==1":   # an enum's second value, or a boolean's true, for success
        return equals_const(ctx.c, ret, 1)
    nonzero = ctx.truth(ret)
    return nonzero if when == "ret!=0" else -nonzero


def less_than(circuit, value, k: int) -> int:
    """The literal for `value < k` (signed or not as the value is)."""
    if not isinstance(value, BitVec):
        return circuit.new_var()
    return _lt(circuit, value, _const(k, value.width, value.signed))


def fresh_int(circuit, width: int = 32, signed: bool = True) -> BitVec:
    """An integer value nothing constrains (a descriptor a function returns)."""
    return _fresh(circuit, width, signed)


def string_list(where: str, key: str, value, warn) -> list[str]:
    """A ConfigKey check: a list of function names."""
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise ConfigError(f"{where}: '{key}' must be a list of function names")
    return value


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
