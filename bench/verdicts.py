"""Verdicts on the reports of bench/projects.py, kept in the repository by fingerprint.

bench/verdicts/<project>.json maps each Saturn report's fingerprint to
{"kind", "function", "file", "line", "verdict", "why"}, where verdict is "true" (a real bug),
"false" (why says its cause), "intentional" (the code means it), "unclear", or "unclassified"
(written by --write-unclassified for a report nobody has read yet). Fingerprints survive line
moves (README, "In CI"), so a verdict stays attached to its report across runs; a run then
says which reports are new (no verdict), gone (a verdict but no report), and which changed
verdict since the last run (bench/out/projects.json keeps each report's verdict).
Files are written sorted and indented the same way every time, so their diffs are the edits.
"""
from __future__ import annotations

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DIR = os.path.join(HERE, "verdicts")
VERDICTS = ("true", "false", "intentional", "unclear", "unclassified")


def path(project: str) -> str:
    return os.path.join(DIR, f"{project}.json")


def load(project: str) -> dict:
    """fingerprint -> entry; an absent file is no verdicts yet."""
    try:
        with open(path(project), encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError:
        return {}


def save(project: str, verdicts: dict) -> None:
    os.makedirs(DIR, exist_ok=True)
    tmp = path(project) + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(verdicts, fh, sort_keys=True, indent=1, ensure_ascii=False)
        fh.write("\n")
    os.replace(tmp, path(project))


def entry(report: dict) -> dict:
    """A new, unclassified verdict entry for a report."""
    return {"kind": report["kind"], "function": report["function"], "file": report["file"],
            "line": report["line"], "verdict": "unclassified", "why": ""}


def add_unclassified(project: str, reports: list[dict]) -> int:
    """Add an "unclassified" entry for each report without one; return how many were added.
    Existing entries are left as they are, gone ones included (a verdict is kept until a
    person removes it)."""
    verdicts = load(project)
    new = [r for r in reports if r["fingerprint"] not in verdicts]
    for r in new:
        verdicts[r["fingerprint"]] = entry(r)
    if new or not os.path.exists(path(project)):
        save(project, verdicts)
    return len(new)


def compare(project: str, reports: list[dict], previous: dict) -> dict:
    """The run's reports against the verdict file and the last run's verdicts
    (`previous`: fingerprint -> verdict): new, gone, changed, counts per verdict, bad values."""
    verdicts = load(project)
    run = {r["fingerprint"]: r for r in reports}
    counts = {v: 0 for v in VERDICTS}
    counts["new"] = 0
    for fp in run:
        v = verdicts.get(fp, {}).get("verdict", "new")
        counts[v if v in counts else "unclear"] += 1
    new = sorted(fp for fp in run if fp not in verdicts)
    gone = sorted(fp for fp in verdicts if fp not in run)
    changed = sorted((fp, previous[fp], verdicts[fp]["verdict"]) for fp in run
                     if fp in previous and fp in verdicts and
                     previous[fp] != verdicts[fp]["verdict"])
    bad = sorted(fp for fp, e in verdicts.items() if e.get("verdict") not in VERDICTS)
    return {"new": new, "gone": gone, "changed": changed, "counts": counts, "invalid": bad,
            "verdicts": {fp: verdicts[fp]["verdict"] for fp in run if fp in verdicts}}


LISTED = 40   # reports listed per project and group; the rest are in bench/out/projects.json


def describe(project: str, cmp: dict, reports: list[dict]) -> list[str]:
    """The lines the bench prints for one project's verdicts (at most LISTED new and gone)."""
    total = len(reports)
    c = cmp["counts"]
    lines = [f"{project}: {total} reports: " +
             ", ".join(f"{c[k]} {k}" for k in (*VERDICTS, "new") if c[k]) if total
             else f"{project}: no reports"]
    by_fp = {r["fingerprint"]: r for r in reports}
    for fp in cmp["new"][:LISTED]:
        r = by_fp[fp]
        lines.append(f"    new   {fp} {r['file']}:{r['line']} {r['function']} [{r['kind']}]")
    if len(cmp["new"]) > LISTED:
        lines.append(f"    ... and {len(cmp['new']) - LISTED} more new")
    gone = load(project)
    for fp in cmp["gone"][:LISTED]:
        e = gone[fp]
        lines.append(f"    gone  {fp} {e.get('file')}:{e.get('line')} {e.get('function')} "
                     f"[{e.get('kind')}] (was {e.get('verdict')})")
    if len(cmp["gone"]) > LISTED:
        lines.append(f"    ... and {len(cmp['gone']) - LISTED} more gone")
    for fp, old, new in cmp["changed"]:
        lines.append(f"    changed verdict {fp}: {old} -> {new}")
    for fp in cmp["invalid"]:
        lines.append(f"    invalid verdict value for {fp} (one of {', '.join(VERDICTS)})")
    return lines


def precision_line(counts: dict) -> str:
    """true / all reports, over every project given; the classified share beside it."""
    total = sum(counts.values())
    true = counts.get("true", 0)
    open_ = counts.get("unclassified", 0) + counts.get("new", 0)
    pct = f"{100 * true / total:.1f} %" if total else "n/a"
    return (f"precision: {true} true of {total} reports ({pct}); "
            f"{total - open_} classified, {open_} not yet")
