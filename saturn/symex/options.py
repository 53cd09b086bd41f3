"""The options that change an analysis (a module of its own: the CLI reads them before it
knows whether anything is to be analysed)."""
from __future__ import annotations

from dataclasses import dataclass


# NOTE [budgets]: deterministic limits make a function `incomplete` (its callers get the default
# summary, the output says so): the circuit's variable count (formula size) and SAT conflicts
# per query raise BudgetExceeded. Where a checker has a conservative answer it takes it instead
# and the function stays complete (Session.which_may: what is still open after a few models
# counts as possible; on a formula of over OPTIONAL_QUERY_VARS variables such questions are not
# asked at all: Session.affordable). --timeout is the wall-clock safety net; its use is flagged
# in the output.
@dataclass
class Options:
    unroll: int = 2
    conflict_budget: int | None = 200_000
    var_budget: int | None = 3_000_000
    timeout: float | None = None      # wall-clock seconds per function (a safety net)
    whole_program: bool = True        # NOTE [whole-program] in ir/program.py

    def key(self) -> str:
        """What changes results (for cache keys); the timeout only decides incompleteness."""
        return f"unroll={self.unroll};conflicts={self.conflict_budget};vars={self.var_budget}" + \
            (";whole" if self.whole_program else "")
