"""What a `saturn check` run gives: its reports, statistics and messages (saturn/app/driver.py
makes one by analysing; saturn/app/record.py by giving the last run again: NOTE [run-memo])."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..report.stats import RunStats


@dataclass
class RunResult:
    reports: list = field(default_factory=list)
    stats: RunStats = field(default_factory=RunStats)
    results: dict = field(default_factory=dict)   # function key -> FunctionResult
    program: object = None       # the lowered Program (none for a replayed run)
    errors: list = field(default_factory=list)
    log: list = field(default_factory=list)     # the messages the run printed
    files: list = field(default_factory=list)   # a replayed run's files (NOTE [run-memo])
    lost: int = 0    # functions whose worker died: the next run analyses them again
