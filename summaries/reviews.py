"""Review status of reports, by fingerprint (docs/WEB.md "Reviews").

A review outlives the runs: it is keyed by the report's fingerprint, which survives edits
elsewhere (saturn/report/fingerprint.py), so a false positive marked once stays marked while the
report keeps coming back. `false-positive` and `intentional` make `saturn check` treat the report
as known (saturn/report/review.py); `unreviewed` removes the review.
"""
from __future__ import annotations

import getpass
import json
import time

STATUSES = ("unreviewed", "confirmed", "false-positive", "intentional")
IN_SOURCE = "intentional (in source)"
MAX_COMMENT = 4000

SCHEMA = """
CREATE TABLE IF NOT EXISTS reviews (fingerprint TEXT PRIMARY KEY, status TEXT NOT NULL,
    comment TEXT NOT NULL, author TEXT NOT NULL, time TEXT NOT NULL);
"""


class ReviewError(ValueError):
    """A review that cannot be stored; the message is one line."""


def os_user() -> str:
    """The OS user's name, the default author of a review."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def check(fingerprint, status, comment, author) -> None:
    if not isinstance(fingerprint, str) or not fingerprint or len(fingerprint) > 128:
        raise ReviewError("fingerprint must be a report's fingerprint (a short string)")
    if status not in STATUSES:
        raise ReviewError(f"status must be one of {', '.join(STATUSES)}, not {status!r}")
    for name, value in (("comment", comment), ("author", author)):
        if not isinstance(value, str) or len(value) > MAX_COMMENT:
            raise ReviewError(f"{name} must be a string of at most {MAX_COMMENT} characters")


def put(db, fingerprint: str, status: str, comment: str = "", author: str = "",
        when: str | None = None) -> None:
    check(fingerprint, status, comment, author)
    if status == "unreviewed":
        db.execute("DELETE FROM reviews WHERE fingerprint=?", (fingerprint,))
    else:
        db.execute("INSERT OR REPLACE INTO reviews VALUES (?,?,?,?,?)",
                   (fingerprint, status, comment, author,
                    when or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())))
    db.commit()


def all_reviews(db) -> dict[str, dict]:
    return {r[0]: {"status": r[1], "comment": r[2], "author": r[3], "time": r[4]}
            for r in db.execute("SELECT fingerprint, status, comment, author, time FROM reviews "
                                "ORDER BY fingerprint")}


def shown(review: dict | None, in_source: bool) -> dict:
    """The review a page shows: the stored one, else `intentional (in source)` for a report a
    `saturn-ignore` comment hides, else unreviewed."""
    if review:
        return review
    return {"status": IN_SOURCE if in_source else "unreviewed", "comment": "", "author": "",
            "time": ""}


def export(db, path: str) -> int:
    """Sorted JSON, one entry per fingerprint: stable under git."""
    entries = [dict(fingerprint=fp, **r) for fp, r in all_reviews(db).items()]
    with open(path, "w", encoding="utf-8") as fh:
        json.dump({"version": 1, "tool": "saturn", "reviews": entries}, fh, indent=2,
                  sort_keys=True)
        fh.write("\n")
    return len(entries)


def read(path: str) -> list[dict]:
    """The entries of an exported file, checked; ReviewError (one line) otherwise."""
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
        if doc.get("version") != 1 or not isinstance(doc.get("reviews"), list):
            raise ReviewError(f"{path}: not a Saturn reviews file (version 1)")
        for e in doc["reviews"]:
            check(e.get("fingerprint"), e.get("status"), e.get("comment", ""),
                  e.get("author", ""))
        return doc["reviews"]
    except FileNotFoundError:
        raise ReviewError(f"{path}: no such file") from None
    except ReviewError as exc:
        raise ReviewError(str(exc) if str(exc).startswith(path) else f"{path}: {exc}") from None
    except (OSError, ValueError, AttributeError, TypeError) as exc:
        raise ReviewError(f"{path}: not a Saturn reviews file ({exc})") from None


def import_entries(db, entries) -> int:
    for e in entries:
        put(db, e["fingerprint"], e["status"], e.get("comment", ""), e.get("author", ""),
            e.get("time") or None)
    return len(entries)
