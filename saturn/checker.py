"""The checker plug-in interface.

A checker is one module under `checkers/` with a `CHECKER` object implementing these hooks, and one
line in `saturn/registry.py`. It sees the analysis only through `ctx` (a FunctionContext):

- `ctx.fn` (the IR function), `ctx.program`, `ctx.options`;
- `ctx.value(expr, state)`, `ctx.truth(value) -> Lit`, `ctx.locations(pointer) -> [(obj, lit)]`;
- `ctx.lit(state.guard)` turns a path guard into a Lit; `ctx.may(*lits)` asks the function's one
  incremental solver for a model (None: unsatisfiable) — the query API of §2.5.4;
- `ctx.ev.get_attr/set_attr(state, obj, name, ...)`: attributes on locations (§2.2.5), merged at
  joins by the engine; `ctx.ev.attr_defaults[name]` gives an attribute's entry value;
- `ctx.restrict(state, lit)`, `ctx.end_path(state)`;
- `ctx.report(checker, kind, coord, message, notes)` and `ctx.witness(lit)` for path notes;
- `ctx.summaries[callee_key][checker_name]`: callees' summaries (JSON-able), bottom-up.
"""
from __future__ import annotations


class Checker:
    name = "checker"
    kinds: tuple[str, ...] = ()
    enabled_by_default = True
    summary_version = 1

    def begin(self, ctx) -> None:
        """Before the function's first statement: register call hooks and attributes."""

    def finish(self, ctx, exit_state) -> None:
        """At the function's exit (`exit_state` is None when no path returns): infer the
        summary (store it with `set_summary`) and issue reports."""

    def specs_fingerprint(self) -> str:
        """A string that changes whenever the checker's specs change (cache keys)."""
        return f"{self.name}:{self.summary_version}"


def set_summary(ctx, checker_name: str, summary) -> None:
    ctx.data.setdefault("<summaries>", {})[checker_name] = summary


def callee_summary(ctx, callee_key: str | None, checker_name: str):
    if callee_key is None:
        return None
    return ctx.summaries.get(callee_key, {}).get(checker_name)
