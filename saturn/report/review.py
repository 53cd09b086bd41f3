"""Reviews in `saturn check`: a report reviewed `false-positive` or `intentional` (on the web
page, or imported with `saturn review import`) is known, as if in the baseline."""
from __future__ import annotations


def mark(reports, reviews: dict) -> int:
    """Attach each report's review (by fingerprint); the number now known by review alone."""
    count = 0
    for r in reports:
        r.review = reviews.get(r.fingerprint)
        if r.review and r.known and r.baseline != "unchanged":
            count += 1
    return count
