"""The table at the top of bench/RESULTS.md: every corpus's whole run beside clang-14's and
cppcheck's in the same run, at one commit (bench/run.py --table writes it). The block between
the two markers is replaced whole, so no figure in it is older than the run that wrote it."""
from __future__ import annotations

import datetime
import functools
import os
import re
import subprocess

START, END = "<!-- table: written by bench/run.py --table -->", "<!-- table end -->"
HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "RESULTS.md")


@functools.cache   # the commit the run started at: a checkout may move while it runs
def commit() -> str:
    """The checkout's commit, marked when the analysis has uncommitted changes."""
    root = os.path.dirname(HERE)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, text=True,
                          capture_output=True).stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "saturn", "checkers",
                            "summaries"], cwd=root, text=True, capture_output=True).stdout
    return head + (" with uncommitted changes" if dirty.strip() else "")


def _ratio(a: float, b: float | None) -> str:
    return f"{a / b:.2f}" if b else "–"


def _secs(x: float | None) -> str:
    return f"{x:.1f}" if x is not None else "–"


def corpus_row(r: dict, jobs: int) -> str:
    if "error" in r:
        return f"| {r['name']} | failed: {r['error'].splitlines()[-1][:80]} |" + " |" * 10
    s = r["stats"]
    clang = r["peers"].get("clang", (None, [], []))[0]
    cppcheck, _, failed = r["peers"].get("cppcheck", (None, [], []))
    gave_up = f" (gave up on {len(failed)} of {len(r['files'])} files)" if failed else ""
    return (f"| {r['name']} | {s['files']} | {s['lines']:,} | {r['wall']:.1f} | {r['cpu']:.1f} | "
            f"{s['lines'] / r['wall'] / max(1, jobs):,.0f} | {r['peak_one']:,.0f} | "
            f"{r['peak_all']:,.0f} | {_secs(clang)} | **{_ratio(r['wall'], clang)}** | "
            f"{_secs(cppcheck)}{gave_up} | {_ratio(r['wall'], cppcheck)} |")


def scaling_row(name: str, walls: dict) -> str:
    one = walls.get("1")
    cells = [f"{walls[k]:.1f} ({_ratio(one, walls[k])}×)" if walls.get(k) else "–"
             for k in ("2", "dask")]
    return f"| {name} | {_secs(one)} | " + " | ".join(cells) + " |"


def markdown(rows: list[dict], scaling: dict, checkers: str, jobs: int, command: str) -> str:
    when = datetime.date.today().isoformat()
    lines = [START, f"## Whole runs beside clang-14 and cppcheck ({when}, at {commit()})", "",
             f"`{command}`: the checkers "
             f"{checkers}, `--jobs {jobs}`, a fresh database; clang-14's analyzer (unix.Malloc, "
             "alpha.unix.PthreadLock) and cppcheck (one configuration: the build's -I/-D/-U and "
             "gcc's target macros) on the same files, two at a time, in the same run. Peak "
             "memory is the proportional set size, sampled: the largest process, and the sum "
             "over the driver and its workers. This block is written anew by each run; the "
             "sections below are the history, each at its own commit.", "",
             "| corpus | files | lines | wall s | CPU s | lines/s/core | peak MB, one process | "
             "peak MB, all | clang-14 s | Saturn/clang | cppcheck s | Saturn/cppcheck |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    lines += [corpus_row(r, jobs) for r in rows]
    if scaling:
        lines += ["", "Scaling: the same full runs at `--jobs 1`, `--jobs 2` and on a local Dask "
                  "cluster of two one-thread workers (speed-up over `--jobs 1`).", "",
                  "| corpus | --jobs 1 s | --jobs 2 s | Dask, 2 workers s |", "|---|---|---|---|"]
        lines += [scaling_row(name, walls) for name, walls in scaling.items()]
    return "\n".join(lines + [END]) + "\n"


def write(text: str, path: str = RESULTS) -> None:
    """Puts `text` in place of the marked block, or under the title when there is none."""
    old = open(path).read()
    block = re.compile(re.escape(START) + r".*?" + re.escape(END) + r"\n", re.S)
    if block.search(old):
        new = block.sub(lambda _: text, old, count=1)
    else:
        title, _, rest = old.partition("\n\n")
        new = f"{title}\n\n{text}\n{rest}"
    with open(path, "w") as f:
        f.write(new)
