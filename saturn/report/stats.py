"""The figures of one `saturn check` run: the JSON output's `stats` (docs/DESIGN.md "Output")."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields


@dataclass
class RunStats:
    files: int = 0                      # files analysed
    skipped_files: int = 0
    skipped: list = field(default_factory=list)    # each: file, unit, line, column, message
    functions: int = 0
    incomplete: int = 0
    incomplete_functions: list = field(default_factory=list)   # function, file, line, cause
    reused: int = 0                     # functions whose results came from the cache
    lines: int = 0
    unsupported: int = 0                # notes of constructs not modelled in complete functions
    timeouts: int = 0
    phases: dict = field(default_factory=dict)     # seconds per phase
    peak_rss_mb: float = 0.0
    seconds: float = 0.0
    # set by `saturn check` after the analysis
    suppressed: int | None = None       # hidden by saturn-ignore
    reviewed: int | None = None         # reviewed as false or intentional
    new: int | None = None              # not in the baseline (with --baseline)

    def to_json(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v is not None}

    @classmethod
    def from_json(cls, doc: dict) -> RunStats:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in doc.items() if k in names})
