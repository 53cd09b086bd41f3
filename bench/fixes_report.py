"""What bench/fixes.py prints and keeps: a progress line per commit, tables per kind and per
project (Saturn beside clang-14 and cppcheck), the commits that could not be analysed grouped by
why, Saturn's misses, and bench/history/results.json — whose `cause` of each miss is written by
a person and kept across runs."""
from __future__ import annotations

import json
import os
import re
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "history", "results.json")
# Saturn's reports that stay at a fix, read and found to be true bugs the fix left (another
# path, another block): commit -> {"reports": [report without its line], "why": ...}.
STAYS = os.path.join(HERE, "history", "stays.json")
# A tool's reports at the parent, read and found not to be the fixed bug (a false report, or
# another bug, in a function the fix changed): a commit whose every such report is listed is
# no find. commit -> {"reports": [report without its line], "why": ...}.
NOT_THE_BUG = os.path.join(HERE, "history", "not_the_bug.json")
TOOLS = ("saturn", "clang", "cppcheck")


def _read(path: str) -> dict:
    try:
        return json.load(open(path))
    except (OSError, ValueError):
        return {}


def found(rec: dict, tool: str) -> bool:
    """Whether the tool found the fixed bug: a report of its kind in a changed function at the
    parent, not every one of them read as not the bug (NOT_THE_BUG)."""
    r = rec.get(tool)
    if not r or not r["found"]:
        return False
    read = set(_read(NOT_THE_BUG).get(rec["commit"], {}).get("reports", []))
    return not all(unplaced(h) in read for h in r["before"])


def _mark(rec: dict, tool: str) -> str:
    r = rec.get(tool)
    if r is None:
        return "n/a"
    return ("found+gone" if r["gone"] else "found") if found(rec, tool) else "-"


def progress(rec: dict) -> str:
    head = f"{rec['project']:15} {rec['commit'][:10]} {rec['kind']:14}"
    if rec["status"] != "analysed":
        return f"{head} {rec['status']}: {rec['reason'][:150]}"
    marks = " ".join(f"{t}={_mark(rec, t):10}" for t in TOOLS)
    return f"{head} {marks} {rec['seconds']:6.0f}s"


def _pct(n: int, d: int) -> str:
    return f"{n:3d} ({100 * n / d:3.0f}%)" if d else f"{n:3d}   (-) "


def apart(rec: dict) -> str:
    """Why an analysed commit is counted apart, or "": the fixed lines are not compiled in
    this configuration, or the cause of its miss says the bug is one no checker sees by design."""
    if rec["status"] != "analysed":
        return ""
    if rec.get("fix_compiled", "").startswith("0/") or \
            rec.get("cause", "").startswith("[not reproducible"):
        return "fixed lines not compiled here"
    if rec.get("cause", "").startswith("[by design"):
        return "by design"
    return ""


def _row(label: str, recs: list[dict]) -> str:
    done = [r for r in recs if r["status"] == "analysed" and not apart(r)]
    text = f"{label:16} {len(recs):7} {len(done):8}"
    for tool in TOOLS:
        ran = [r for r in done if r.get(tool)]
        hit = [r for r in ran if found(r, tool)]
        gone = [r for r in hit if r[tool]["gone"]]
        went = [r for r in hit if r[tool].get("went")]
        text += f"   {_pct(len(hit), len(ran))} {_pct(len(gone), len(hit))} " \
                f"{_pct(len(went), len(hit))}"
    return text


HEAD = (f"{'':16} {'':7} {'':8}   {'saturn':^32}   {'clang-14':^32}   {'cppcheck':^32}\n"
        f"{'':16} {'commits':>7} {'analysed':>8}" + "   found      gone       went      " * 3)


def table(title: str, groups: dict[str, list[dict]], total: list[dict]) -> list[str]:
    """found among the analysed commits (that tool ran on), gone among its found."""
    out = [f"\n{title}", HEAD]
    out += [_row(name, recs) for name, recs in sorted(groups.items())]
    out.append(_row("all", total))
    return out


def reason_group(reason: str) -> str:
    """A not-reproducible reason without the side, file names and positions: what to count."""
    r = re.sub(r"^(parent|fix): ", "", reason)
    r = re.sub(r"no compile command for \S+", "no compile command for the changed file", r)
    r = re.sub(r"^\S+ skipped: \S+: ", "changed file skipped: ", r)
    r = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", r)
    return r[:110]


def print_tables(records: list[dict], chosen: list[dict]) -> None:
    causes = {r["commit"]: r.get("cause", "") for r in load_old()}
    records = [dict(r, cause=r.get("cause") or causes.get(r["commit"], "")) for r in records]
    by_kind: dict[str, list] = {}
    by_project: dict[str, list] = {}
    for r in records:
        by_kind.setdefault(r["kind"], []).append(r)
        by_project.setdefault(r["project"], []).append(r)
    lines = table("Per kind: found = a report of the kind in a function the fix changed, at the "
                  "parent; gone = none there at the fix; went = one of them is not there at the "
                  "fix (the others stay); % of analysed, gone and went % of found",
                  by_kind, records)
    lines += table("Per project", by_project, records)
    lines.append(gone_but_true(records))
    status = Counter(r["status"] for r in records)
    lines.append("\nStatus: " + ", ".join(f"{n} {s}" for s, n in status.most_common()))
    for why, n in Counter(apart(r) for r in records if apart(r)).most_common():
        lines.append(f"  analysed but counted apart: {n:3} × {why}")
    for st in ("not reproducible", "no configured build", "no history here"):
        groups = Counter(reason_group(r["reason"]) for r in records if r["status"] == st)
        for why, n in groups.most_common():
            lines.append(f"  {st}: {n:3} × {why}")
    lines += misses_listing(records, chosen)
    print("\n".join(lines))


def unplaced(hit: str) -> str:
    """A report line without its line number: the same report at the fix, lines moved."""
    file, _, rest = hit.split(":", 2)
    return f"{file}:{rest}"


def stays_true(rec: dict, stays: dict) -> bool:
    """Whether every Saturn report left at the fix was read as another true bug."""
    read = set(stays.get(rec["commit"], {}).get("reports", []))
    after = rec.get("saturn", {}).get("after", [])
    return bool(after) and all(unplaced(h) in read for h in after)


def gone_but_true(records: list[dict]) -> str:
    """Saturn's gone, counting a fix whose remaining reports are all other true bugs."""
    stays = _read(STAYS)
    hit = [r for r in records if r["status"] == "analysed" and not apart(r)
           and found(r, "saturn")]
    gone = [r for r in hit if r["saturn"]["gone"] or stays_true(r, stays)]
    return (f"\nSaturn, gone or leaving only reports read as other true bugs "
            f"(bench/history/stays.json): {_pct(len(gone), len(hit))} of {len(hit)} found")


def misses_listing(records: list[dict], chosen: list[dict]) -> list[str]:
    fns = {c["commit"]: c["functions"] for c in chosen}
    causes = {r["commit"]: r.get("cause", "") for r in load_old()}
    out = ["\nSaturn's misses (analysed, no report of the kind in a changed function at the "
           "parent):"]
    for r in records:
        if is_miss(r):
            cause = causes.get(r["commit"], "")
            unseen = r.get("fix_compiled", "").startswith("0/")
            out.append(f"  {r['commit'][:10]} {r['project']:15} {r['kind']:14} "
                       f"{','.join(fns.get(r['commit'], []))[:60]}"
                       + (" [the fixed lines are not compiled here]" if unseen else "")
                       + (f"  — {cause}" if cause else ""))
    return out


def is_miss(rec: dict) -> bool:
    return rec["status"] == "analysed" and "saturn" in rec and not found(rec, "saturn")


def load_old() -> list[dict]:
    try:
        return json.load(open(RESULTS))
    except (OSError, ValueError):
        return []


def write_results(records: list[dict]) -> None:
    """bench/history/results.json: this run's records and the old file's for the commits not
    run now; a miss keeps the non-empty cause the old file had for it, a new miss gets ""."""
    old = {r["commit"]: r for r in load_old()}
    merged = dict(old)
    for r in records:
        rec = dict(r)
        rec.pop("cause", None)
        if is_miss(rec):
            rec["cause"] = old.get(r["commit"], {}).get("cause", "") or ""
        merged[r["commit"]] = rec
    doc = sorted(merged.values(), key=lambda r: (r["project"], r["commit"]))
    with open(RESULTS + ".tmp", "w") as fh:
        json.dump(doc, fh, indent=1, sort_keys=True)
        fh.write("\n")
    os.replace(RESULTS + ".tmp", RESULTS)
