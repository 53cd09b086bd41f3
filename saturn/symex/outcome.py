"""What the analysis of one function gives: its reports and summaries, or why it is incomplete."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Incomplete(Enum):
    """Why a function's analysis did not complete, by the word runs report it under."""
    TIME = "time"                      # --timeout
    BUDGET = "budget"                  # conflicts, formula size, nesting
    UNSUPPORTED = "unsupported"        # a construct the model cannot express
    LOST = "lost"                      # its worker died: the next run analyses it again
    INTERNAL_ERROR = "internal-error"


@dataclass
class FunctionResult:
    key: str
    reports: list = field(default_factory=list)
    summaries: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    incomplete: Incomplete | None = None    # None: complete
    havoc_loops: int = 0
    seconds: float = 0.0
    reused: bool = False

    @property
    def ok(self) -> bool:
        return self.incomplete is None

    @property
    def status(self) -> str:
        """As the summary database stores it: `ok`, or `incomplete (CAUSE)`."""
        return "ok" if self.ok else f"incomplete ({self.incomplete.value})"

    @staticmethod
    def cause_of(status: str) -> Incomplete | None:
        """The inverse of `status`."""
        return None if status == "ok" else Incomplete(status.partition("(")[2].rstrip(")"))
