"""Real C projects, built their own way, checked as a user would check them.

    python bench/projects.py [PROJECT ...] [--no-peers] [--jobs N] [--checkers LIST] [--prepare-only]
                             [--write-unclassified]

Each project (bench/projects_list.py) is a pinned Debian bookworm source package, downloaded
and checked by sha256, unpacked with dpkg-source, built with its own build system and its own
flags, its compile_commands.json from CMake, Meson or bear (bench/projects_build.py; once,
cached under bench/projects/). Then, from the project's source directory, as the README tells
a user:

    saturn check -p compile_commands.json --format json -o OUT --root SRC --db DB --jobs N

with a fresh database (a full run, timed), and clang-14's analyzer and cppcheck on the same
compile-database entries (bench/peers.py). Prints per project its files, lines, skipped files,
functions, incomplete functions, reports and wall times beside the peers', the skipped files
with Saturn's messages, and each report against its verdict in bench/verdicts/<project>.json
(bench/verdicts.py): new, gone, changed verdict, counts per verdict and the precision.
Everything goes to bench/out/projects.json (merged with the projects not run this time).
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import peers  # noqa: E402
import projects_build as build  # noqa: E402
import verdicts  # noqa: E402
from kernel import saturn_env  # noqa: E402
from projects_list import BY_NAME, PROJECTS, Project  # noqa: E402

OUT_DIR = os.path.join(HERE, "out")
OUT = os.path.join(OUT_DIR, "projects.json")


@dataclass(frozen=True)
class Entry:
    """One compile command: the file (absolute), where it ran, and its arguments."""
    path: str
    directory: str
    args: tuple[str, ...]


def c_entries(db_path: str) -> list[Entry]:
    """The C files of a compile database, each with its first command: the entries Saturn
    checks (it keeps the first command of a file compiled twice, as libtool's PIC and
    non-PIC objects are), so the peers see the same ones."""
    out, seen = [], set()
    for e in json.load(open(db_path)):
        directory = e.get("directory", os.path.dirname(db_path))
        path = os.path.normpath(os.path.join(directory, e["file"]))
        if not path.endswith(".c") or path in seen:
            continue
        seen.add(path)
        args = e.get("arguments") or shlex.split(e.get("command", ""))
        out.append(Entry(path, directory, tuple(args)))
    return sorted(out, key=lambda x: x.path)


def count_lines(paths) -> int:
    total = 0
    for path in paths:
        with open(path, "rb") as fh:
            total += sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 16), b""))
    return total


def run_saturn(p: Project, db_path: str, jobs: int, checkers: str | None = None) -> dict:
    """One full `saturn check` run, timed: its JSON's stats and reports, and the error lines
    it printed."""
    src, work = build.source_dir(p), build.work_dir(p)
    os.makedirs(os.path.join(OUT_DIR, "projects"), exist_ok=True)
    out = os.path.join(OUT_DIR, "projects", f"{p.name}.saturn.json")
    sdb = os.path.join(work, "saturn.db")
    for stale in (sdb, sdb + "-wal", sdb + "-shm", out):
        if os.path.exists(stale):
            os.remove(stale)
    shutil.rmtree(sdb + ".units", ignore_errors=True)   # a full run, not a re-check
    cmd = [sys.executable, "-m", "saturn", "check", "-p", db_path, "--format", "json", "-o", out,
           "--root", src, "--db", sdb, "--jobs", str(jobs)] + \
        (["--checkers", checkers] if checkers else [])
    t = time.perf_counter()
    proc = subprocess.run(cmd, cwd=src, capture_output=True, text=True, env=saturn_env(),
                          stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    with open(os.path.join(work, "saturn.stderr"), "w") as fh:
        fh.write(proc.stderr)
    errors = [ln for ln in proc.stderr.splitlines()
              if ": error:" in ln or "internal error" in ln or "Traceback" in ln]
    if proc.returncode not in (0, 1) or not os.path.exists(out):
        return {"error": f"saturn exited {proc.returncode}: " + proc.stderr[-3000:],
                "wall": wall, "errors": errors}
    doc = json.load(open(out))
    return {"wall": wall, "stats": doc["stats"], "reports": doc["reports"], "errors": errors,
            "exit": proc.returncode, "command": cmd}


def run_peers(entries: list[Entry], root: str, jobs: int) -> dict:
    """clang-14's analyzer and cppcheck on the entries; their findings inside the project's
    tree (Saturn shows none in headers outside --root either), paths relative to it."""
    out = {}
    for tool, run, exe in (("clang", peers.clang_entries, "clang-14"),
                           ("cppcheck", peers.cppcheck_entries, "cppcheck")):
        if not peers.available(exe):
            continue
        secs, found, failed = run(entries, jobs)
        inside = [(os.path.relpath(f, root), line, chk, msg) for f, line, chk, msg in found
                  if f.startswith(root + os.sep)]
        out[tool] = {"wall": secs, "reports": [list(x) for x in inside],
                     "failed": [[os.path.relpath(f, root), why] for f, why in failed]}
    return out


def check(p: Project, jobs: int, peers_on: bool, previous: dict, old: dict,
          checkers: str | None = None) -> dict:
    """Prepare (or reuse) the build, then run Saturn and the peers and compare verdicts.
    Without the peers, the last run's figures for them are kept, marked with Saturn's commit
    of that run (`peers_with`)."""
    base = {"name": p.name, "kind": p.kind, "package": p.package, "version": p.version,
            "build": p.build, "deviation": p.why, "commit": _head()}
    try:
        db_path = build.prepare(p, jobs)
    except build.BuildError as err:
        return dict(base, error=f"build failed: {err}")
    entries = c_entries(db_path)
    base.update(compile_commands=db_path, c_files=len(entries),
                lines=count_lines(e.path for e in entries))
    if previous is None:   # --prepare-only
        return base
    sat = run_saturn(p, db_path, jobs, checkers)
    base["saturn"] = sat
    base["checkers"] = checkers or "default"
    if "error" in sat:
        return base
    if peers_on:
        base["peers"] = run_peers(entries, build.source_dir(p), jobs)
    elif old.get("peers"):
        base["peers"] = old["peers"]
        base["peers_with"] = old.get("peers_with") or old.get("commit", "")
    base["verdicts"] = verdicts.compare(p.name, sat["reports"], previous.get(p.name, {}))
    return base


def _head() -> str:
    """Saturn's commit (with `+` when the tree has changes)."""
    def git(*a):
        return subprocess.run(["git", "-C", HERE, *a], capture_output=True, text=True).stdout
    return git("rev-parse", "--short", "HEAD").strip() + ("+" if git("status", "--porcelain",
                                                                    "--", "saturn", "checkers")
                                                         else "")


def previous_verdicts(old: dict) -> dict:
    """project -> fingerprint -> verdict, as the last run's output recorded them."""
    return {name: r.get("verdicts", {}).get("verdicts", {}) for name, r in old.items()}


def load_old() -> dict:
    try:
        return {r["name"]: r for r in json.load(open(OUT))["projects"]}
    except (OSError, ValueError, KeyError):
        return {}


HEADER = (f"{'project':10} {'kind':12} {'version':18} {'build':9} {'files':>5} {'lines':>7} "
          f"{'skip':>4} {'funcs':>6} {'incompl':>7} {'reports':>7} {'wall s':>7} "
          f"{'clang':>5} {'wall s':>7} {'cppchk':>6} {'wall s':>7}")


def row(r: dict) -> str:
    head = (f"{r['name']:10} {r['kind'].split(':')[0]:12} {r['version']:18} {r['build']:9} "
            f"{r.get('c_files', ''):>5} {r.get('lines', ''):>7} ")
    if "error" in r or "error" in r.get("saturn", {}):
        return head + "FAILED"
    if "saturn" not in r:
        return head + "(prepared)"
    s, sat = r["saturn"]["stats"], r["saturn"]
    text = (f"{s['skipped_files']:>4} {s['functions']:>6} {s['incomplete']:>7} "
            f"{len(sat['reports']):>7} {sat['wall']:>7.1f}")
    for tool, width in (("clang", 5), ("cppcheck", 6)):
        pr = r.get("peers", {}).get(tool)
        text += f" {len(pr['reports']):>{width}} {pr['wall']:>7.1f}" if pr else \
            f" {'-':>{width}} {'-':>7}"
    return head + text


def details(r: dict) -> list[str]:
    """Below the table: failures, skipped files with Saturn's messages, incomplete
    functions, the peers' failed files."""
    name = r["name"]
    if "error" in r:
        return [f"{name}: {r['error']}"]
    sat = r.get("saturn")
    if not sat:
        return []
    if "error" in sat:
        return [f"{name}: {sat['error']}"]
    s, out = sat["stats"], []
    for sk in s.get("skipped", []):
        unit = f" (checking {sk['unit']})" if sk.get("unit", sk["file"]) != sk["file"] else ""
        out.append(f"{name}: skipped {sk['file']}:{sk['line']}:{sk.get('column', 0)}: "
                   f"{sk['message']}{unit}")
        if sk.get("source", "").strip():
            out.append(f"        {sk['source'].strip()}")
    for fn in s.get("incomplete_functions", []):
        out.append(f"{name}: incomplete {fn['function']} ({fn['file']}:{fn['line']}): "
                   f"{fn.get('cause', '')}: {fn.get('reason', '')}")
    for tool, pr in sorted(r.get("peers", {}).items()):
        for f, why in pr["failed"]:
            out.append(f"{name}: {tool} failed on {f}: {why[:160]}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("projects", nargs="*", default=[p.name for p in PROJECTS],
                    help=f"some of: {', '.join(BY_NAME)}")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-peers", action="store_true", help="do not run clang-14 and cppcheck")
    ap.add_argument("--prepare-only", action="store_true",
                    help="download and build, check nothing")
    ap.add_argument("--checkers", help="Saturn's --checkers (default: its default set)")
    ap.add_argument("--write-unclassified", action="store_true",
                    help="add an 'unclassified' verdict for each report without one")
    args = ap.parse_args()
    unknown = [n for n in args.projects if n not in BY_NAME]
    if unknown:
        ap.error(f"unknown project(s) {', '.join(unknown)}; known: {', '.join(BY_NAME)}")
    chosen = [BY_NAME[n] for n in args.projects]
    needs = ["dpkg-dev"] + [d for p in chosen for d in p.deps]
    if not (args.no_peers or args.prepare_only):
        needs += ["clang-14", "cppcheck"]
    build.install(needs)
    old = load_old()
    prev = None if args.prepare_only else previous_verdicts(old)
    results = []
    for p in chosen:
        print(f"{p.name}: {'preparing' if args.prepare_only else 'preparing and checking'}",
              file=sys.stderr, flush=True)
        results.append(check(p, args.jobs, not args.no_peers, prev, old.get(p.name, {}),
                             args.checkers))
        print(row(results[-1]), file=sys.stderr, flush=True)
        if not args.prepare_only:   # after each project, so that a stopped run keeps them
            write(results, old, args)
    report(results, args)
    return 1 if any("error" in r or "error" in r.get("saturn", {}) for r in results) else 0


def report(results: list[dict], args) -> None:
    print(HEADER)
    for r in results:
        print(row(r))
    for r in results:
        for line in details(r):
            print(line)
    if args.prepare_only:
        return
    totals: dict = {}
    for r in results:
        if "verdicts" not in r:
            continue
        reports = r["saturn"]["reports"]
        for line in verdicts.describe(r["name"], r["verdicts"], reports):
            print(line)
        if args.write_unclassified:   # after the listing, which still shows them as new
            r["verdicts"]["added_unclassified"] = verdicts.add_unclassified(r["name"], reports)
            print(f"    {r['verdicts']['added_unclassified']} unclassified verdicts added to "
                  f"{os.path.relpath(verdicts.path(r['name']))}")
        for k, v in r["verdicts"]["counts"].items():
            totals[k] = totals.get(k, 0) + v
    print(verdicts.precision_line(totals))


def write(results: list[dict], old: dict, args) -> None:
    """bench/out/projects.json: this run's projects, and the last run's for the others."""
    merged = dict(old)
    for r in results:
        merged[r["name"]] = r
    order = [p.name for p in PROJECTS if p.name in merged]
    doc = {"jobs": args.jobs, "python": sys.executable, "peers": not args.no_peers,
           "projects": [merged[n] for n in order]}
    os.makedirs(OUT_DIR, exist_ok=True)
    with open(OUT + ".tmp", "w") as fh:
        json.dump(doc, fh, indent=1, sort_keys=True)
    os.replace(OUT + ".tmp", OUT)


if __name__ == "__main__":
    sys.exit(main())
