"""A report: one bug at one place, with the path that leads to it."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

# Review statuses that make a report known, like one in the baseline (summaries/reviews.py).
DISMISSED = ("false-positive", "intentional")


@dataclass
class TraceNote:
    file: str
    line: int
    note: str


@dataclass
class Report:
    checker: str
    kind: str
    function: str          # the function the report is issued in, as named in the source
    function_key: str
    file: str
    line: int
    column: int
    message: str
    trace: list[TraceNote] = field(default_factory=list)
    statement: str = ""    # normalised text of the statement involved (for fingerprints)
    fingerprint: str = ""
    baseline: str = ""     # "new" or "unchanged" when a baseline is given
    review: dict | None = None   # its review (status, comment, author, time), when reviewed

    @property
    def known(self) -> bool:
        """In the baseline, or reviewed as not to fix: hidden from text, never failing CI."""
        return self.baseline == "unchanged" or (self.review or {}).get("status") in DISMISSED

    def sort_key(self):
        return (self.file, self.line, self.column, self.kind, self.message, self.function_key)

    def to_record(self) -> dict:
        """Everything, for the database (a reused function re-emits its reports from it); a
        review belongs to the fingerprint, not to the analysis."""
        d = asdict(self)
        d.pop("review")
        return d

    def to_json(self) -> dict:
        d = asdict(self)
        d.pop("statement")
        d.pop("function_key")
        if not d["baseline"]:
            d.pop("baseline")
        if not d["review"]:
            d.pop("review")
        return d

    @staticmethod
    def from_json(d: dict) -> "Report":
        d = dict(d)
        trace = [TraceNote(**t) if isinstance(t, dict) else t for t in d.pop("trace", [])]
        d.setdefault("function_key", d.get("function", ""))
        return Report(trace=trace, **{k: v for k, v in d.items()
                                      if k in Report.__dataclass_fields__ and k != "trace"})
