"""The reports page's data: reports with detection status and review, filtered, with counts
per filter value (docs/WEB.md "Reports")."""
from __future__ import annotations

from . import history, reviews

LIMIT = 200
# Filters, each a dimension of a report; `run` picks the rows, the others filter them.
DIMENSIONS = ("kind", "checker", "status", "review", "path")


def top_dir(file: str) -> str:
    """The top-level directory a file is in, as a path filter (`src/`), or the file itself."""
    head, sep, _ = file.lstrip("/").partition("/")
    return ("/" if file.startswith("/") else "") + head + sep


def _value(r: dict, dim: str) -> str:
    return {"kind": r["kind"], "checker": r["checker"], "status": r["detection_status"],
            "review": r["review"]["status"], "path": top_dir(r["file"])}[dim]


def _matches(r: dict, dim: str, wanted: str) -> bool:
    if dim == "path":
        prefix = wanted.rstrip("/")
        return r["file"] == prefix or r["file"].startswith(prefix + "/")
    return _value(r, dim) == wanted


def rows(db, run: int | None, function_key: str | None = None) -> list[dict]:
    """Every report of `run` (or as of the latest runs, or a function's) with its review."""
    out = history.report_rows(db, run, function_key)
    stored = reviews.all_reviews(db)
    for r in out:
        r["review"] = reviews.shown(stored.get(r["fingerprint"]), r["in_source"])
    return out


def select(db, filters: dict, limit: int = LIMIT) -> dict:
    """Reports matching every filter in `filters` (dimension -> value; `run` -> id), the first
    `limit` of them, their total, and per dimension the count of each value among the reports
    matching the other filters (as a filter menu shows what choosing it would give)."""
    run = filters.get("run")
    all_rows = rows(db, int(run) if run else None)
    active = {d: filters[d] for d in DIMENSIONS if filters.get(d)}
    counts: dict[str, dict[str, int]] = {d: {} for d in DIMENSIONS}
    selected = []
    for r in all_rows:
        failing = [d for d, v in active.items() if not _matches(r, d, v)]
        if not failing:
            selected.append(r)
        for d in DIMENSIONS:
            if not failing or failing == [d]:
                value = _value(r, d)
                counts[d][value] = counts[d].get(value, 0) + 1
    return {"reports": selected[:limit], "total": len(selected),
            "counts": {d: dict(sorted(c.items())) for d, c in counts.items()}}


def by_function(db, key: str) -> list[dict]:
    """A function's reports as of the latest runs (resolved ones left out)."""
    return [r for r in rows(db, None, key) if r["detection_status"] != history.RESOLVED]
