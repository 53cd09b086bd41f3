"""The reports page's data: reports with detection status and review, filtered, with counts
per filter value (docs/WEB.md "Reports")."""
from __future__ import annotations

from . import history, reviews

LIMIT = 200
# Filters, each a dimension of a report; `run` picks the rows, the others filter them.
DIMENSIONS = ("kind", "checker", "status", "review", "path")


def top_dir(file: str) -> str:
    """The top-level directory a file is in, as a path filter (`src/`), or the file itself."""
    cut = file.find("/", 1)
    return file if cut < 0 else file[:cut + 1]


def _review(stored: dict, fingerprint: str, in_source) -> str:
    review = stored.get(fingerprint)
    return review["status"] if review else reviews.IN_SOURCE if in_source else "unreviewed"


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
    matching the other filters (as a filter menu shows what choosing it would give). One pass
    over plain rows; only the reports shown become dicts (10,000 reports: see bench/)."""
    run = filters.get("run")
    stored = reviews.all_reviews(db)
    active = [(i, filters[d]) for i, d in enumerate(DIMENSIONS) if filters.get(d)]
    path = filters.get("path", "").rstrip("/")
    counts: list[dict] = [{} for _ in DIMENSIONS]
    selected = []
    for r in history.report_tuples(db, int(run) if run else None):
        values = (r[2], r[1], r[10], _review(stored, r[0], r[9]), top_dir(r[5]))
        missed = [i for i, want in active if not (
            (r[5] == path or r[5].startswith(path + "/")) if i == 4 else values[i] == want)]
        if not missed:
            selected.append(r)
            for i, v in enumerate(values):
                counts[i][v] = counts[i].get(v, 0) + 1
        elif len(missed) == 1:
            i = missed[0]
            counts[i][values[i]] = counts[i].get(values[i], 0) + 1
    shown = [history.as_dict(r) for r in selected[:limit]]
    for r in shown:
        r["review"] = reviews.shown(stored.get(r["fingerprint"]), r["in_source"])
    return {"reports": shown, "total": len(selected),
            "counts": {d: dict(sorted(c.items())) for d, c in zip(DIMENSIONS, counts)}}


def by_function(db, key: str) -> list[dict]:
    """A function's reports as of the latest runs (resolved ones left out)."""
    return [r for r in rows(db, None, key) if r["detection_status"] != history.RESOLVED]
