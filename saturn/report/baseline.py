"""Baselines for CI: the reports a project has accepted, by fingerprint (sorted, diff-friendly)."""
from __future__ import annotations

import json


class BaselineError(Exception):
    pass


def write(path: str, reports) -> None:
    entries = sorted(({"fingerprint": r.fingerprint, "kind": r.kind, "function": r.function,
                       "file": r.file, "line": r.line, "message": r.message} for r in reports),
                     key=lambda e: (e["file"], e["line"], e["kind"], e["fingerprint"]))
    with open(path, "w", encoding="utf-8") as fh:
        json.dump({"version": 1, "tool": "saturn", "reports": entries}, fh, indent=2)
        fh.write("\n")


def read(path: str) -> set[str]:
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
        return {e["fingerprint"] for e in doc["reports"]}
    except FileNotFoundError:
        raise BaselineError(f"{path}: no such baseline (make one with --update-baseline)") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise BaselineError(f"{path}: not a Saturn baseline ({exc})") from None


def mark(reports, known: set[str]) -> None:
    for r in reports:
        r.baseline = "unchanged" if r.fingerprint in known else "new"
