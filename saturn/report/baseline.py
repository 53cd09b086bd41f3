"""Baselines for CI: the reports a project has accepted, by fingerprint (sorted, diff-friendly)."""
from __future__ import annotations

import json
from dataclasses import dataclass

VERSION = 1


class BaselineError(Exception):
    pass


def write(path: str, reports) -> None:
    entries = sorted(({"fingerprint": r.fingerprint, "kind": r.kind, "function": r.function,
                       "file": r.file, "line": r.line, "message": r.message} for r in reports),
                     key=lambda e: (e["file"], e["line"], e["kind"], e["fingerprint"]))
    with open(path, "w", encoding="utf-8") as fh:
        json.dump({"version": VERSION, "tool": "saturn", "reports": entries}, fh, indent=2)
        fh.write("\n")


@dataclass
class Baseline:
    fingerprints: set[str]
    files: set[str]   # the reports' paths, relative to the --root that made it


def read(path: str) -> Baseline:
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
        version = doc.get("version")
        if version != VERSION:
            raise BaselineError(f"{path}: baseline version {version!r} is not {VERSION}, the "
                                "one this Saturn reads; make it again with --update-baseline")
        return Baseline({e["fingerprint"] for e in doc["reports"]},
                        {e.get("file", "") for e in doc["reports"]})
    except FileNotFoundError:
        raise BaselineError(f"{path}: no such baseline (make one with --update-baseline)") from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise BaselineError(f"{path}: not a Saturn baseline ({exc})") from None


def mark(reports, known: Baseline) -> str | None:
    """Mark each report new or unchanged; a hint when none is known and none of the files
    the baseline names is among the reports' (it was made from another --root, likely:
    fingerprints hold paths relative to it)."""
    for r in reports:
        r.baseline = "unchanged" if r.fingerprint in known.fingerprints else "new"
    files = {r.file for r in reports}
    if reports and known.fingerprints and all(r.baseline == "new" for r in reports) \
            and not files & known.files:
        return ("every report is new and none is in a file the baseline names (such as "
                f"{sorted(known.files)[0]}): was it made with another --root?")
    return None
