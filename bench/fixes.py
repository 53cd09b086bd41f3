"""The history bench: real fix commits, each analysed before and after the fix.

    python bench/fixes.py [PROJECT ...] [--commits SHA ...] [--kinds KIND,...] [--no-peers]
                          [--jobs N] [--mirrors DIR] [--limit N] [--fresh] [--prepare]
                          [--table]

For each commit of bench/history/commits.json, the files the fix changed are analysed as they
were at the parent (bug present) and at the fix, with the flags and generated headers of the
project's configured Debian build (bench/projects_build.py), by Saturn — on a compile database
of the changed files plus up to 12 files defining what they call, so callees have summaries —
and, on the changed files alone with the same flags, by clang-14's analyzer and cppcheck.
found: a report of the bug's kind in a function the fix changed, at the parent; gone: no such
report there at the fix. Histories come from bare git mirrors (`git clone --mirror`), found
under the directory given by --mirrors or $SATURN_MIRRORS. Prints a table per kind and per
project and Saturn's misses, and writes
bench/history/results.json (keeping the causes written for misses). Each tool's result per
commit and side is cached in bench/out/fixes/cache/, Saturn's keyed by its source too.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixes_inputs as inputs  # noqa: E402
import fixes_report as report  # noqa: E402
import fixes_tools as tools  # noqa: E402
import peers  # noqa: E402
import projects_build as build  # noqa: E402

COMMITS = os.path.join(HERE, "history", "commits.json")
OUT = os.path.join(HERE, "out", "fixes")
SATURN_LIMIT = 3600    # seconds for one Saturn run; over it the side is not reproducible
PEERS_VERSION = "1"    # bump when the peers' command lines change
PP_VERSION = "1"       # bump when tools.compiled_lines changes


class Run:
    """What every commit of one invocation shares."""

    def __init__(self, args):
        self.args = args
        self.mirrors = args.mirrors or os.environ.get("SATURN_MIRRORS")
        if not self.mirrors:
            sys.exit("fixes.py: say where the git mirrors are: --mirrors DIR or $SATURN_MIRRORS")
        self.cache = tools.Cache(os.path.join(OUT, "cache"), args.fresh)
        # What a side's inputs come from: the context's choice reads libc.toml's names too.
        self.inputs_hash = tools.source_hash(["bench/fixes_inputs.py", "bench/fixes_context.py",
                                              "bench/fixes_sources.py",
                                              "checkers/library/libc.toml"])
        self.builds: dict[str, inputs.Build] = {}

    def build_of(self, p) -> inputs.Build:
        if p.name not in self.builds:
            b = inputs.Build(p)
            b.db_hash = tools.source_hash([os.path.relpath(b.db_path, tools.ROOT)], ())
            self.builds[p.name] = b
        return self.builds[p.name]


def unavailable(run: Run, c: dict) -> tuple[str, str] | None:
    """(status, reason) when the commit cannot be run here: no history, no configured build."""
    git = inputs.find_mirror(run.mirrors, c["repo"])
    if git is None:
        d = os.path.join(run.mirrors, c["repo"].replace("/", "+"))
        return "no history here", (f"no mirror of {c['repo']} under {run.mirrors}: git clone "
                                   f"--mirror https://github.com/{c['repo']} {d}/repo")
    missing = [s for s in (c["parent"], c["commit"]) if not inputs.has_commit(git, s)]
    if missing:
        return "no history here", (f"{missing[0][:12]} not in {git}: git -C {git} fetch "
                                   f"origin {missing[0]}")
    p = inputs.bench_project(c["project"])
    if p is None:
        return "no configured build", "not in the real-projects bench (bench/projects_list.py)"
    if not build.prepared(p):
        if not run.args.prepare:
            return "no configured build", (f"{p.name} not prepared: python bench/projects.py "
                                           f"--prepare-only {p.name} (or --prepare here)")
        build.install(["dpkg-dev", *p.deps])   # its build dependencies, as projects.py does
        try:
            build.prepare(p, run.args.jobs)
        except build.BuildError as err:
            return "no configured build", f"{p.name} build failed: {str(err)[:300]}"
    return None


def run_peers(tree: str, cmds: list[dict]) -> dict:
    """clang-14 and cppcheck on each changed file, the two side by side."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        futs = {(tool, x["file"]): pool.submit(fn, tree, x) for x in cmds
                for tool, fn in (("clang", tools.run_clang), ("cppcheck", tools.run_cppcheck))}
        out: dict = {"clang": {}, "cppcheck": {}}
        for (tool, f), fut in futs.items():
            out[tool][f] = fut.result()
    return out


def run_side(run: Run, b: inputs.Build, c: dict, side: str, sha: str, saturn: str) -> dict:
    """One side's inputs and each tool's results, from the cache where the keys match, else
    by extracting the tree and running what is missing."""
    ikey = tools.key(c["commit"], side, run.inputs_hash, b.db_hash)
    wanted = ["saturn"] + ([] if run.args.no_peers else ["clang", "cppcheck"]) + \
        (["pp"] if side == "parent" else [])
    got = {"inputs": run.cache.get(c["commit"], side, "inputs", ikey)}
    if got["inputs"] is not None:
        if "error" in got["inputs"] or _cached(run, c, side, saturn, got, wanted):
            return got
    tree = os.path.join(OUT, "work", f"{c['commit'][:12]}-{side}")   # fixed: flags name it
    shutil.rmtree(tree, ignore_errors=True)
    try:
        inputs.extract(b.git_dir, sha, tree)
        if got["inputs"] is None:
            got["inputs"] = inputs.side_inputs(b, c, tree)
            run.cache.put(c["commit"], side, "inputs", ikey, got["inputs"])
        if "error" not in got["inputs"] and not _cached(run, c, side, saturn, got, wanted):
            inputs.make_links(got["inputs"])
            _run_tools(run, b, c, side, tree, got, wanted)
    except inputs.NotReproducible as err:
        got["inputs"] = {"error": str(err)}
    finally:
        shutil.rmtree(tree, ignore_errors=True)
    return got


def _keys(got: dict, saturn: str) -> dict:
    """Each tool's cache key: Saturn's by everything it reads (the context too) and its source;
    the peers' and the compiled-lines count by the changed files' commands alone, so a new
    choice of context files does not run them again."""
    inp = got["inputs"]
    ckey = tools.key(json.dumps(inp["commands"], sort_keys=True), json.dumps(inp["ranges"],
                                                                             sort_keys=True))
    return {"saturn": tools.key(json.dumps(inp, sort_keys=True), saturn),
            "clang": tools.key(ckey, PEERS_VERSION), "cppcheck": tools.key(ckey, PEERS_VERSION),
            "pp": tools.key(ckey, PP_VERSION)}


def _cached(run: Run, c: dict, side: str, saturn: str, got: dict, wanted) -> bool:
    """Fill `got` with the cached results of the tools; whether every wanted one was there."""
    got["keys"] = _keys(got, saturn)
    for t, k in got["keys"].items():
        got[t] = run.cache.get(c["commit"], side, t, k)
    return all(got[t] is not None for t in wanted)


def _run_tools(run: Run, b: inputs.Build, c: dict, side: str, tree: str, got: dict,
               wanted) -> None:
    inp, keys = got["inputs"], got["keys"]
    if got["saturn"] is None and inp["changed"]:
        scratch = tree + ".saturn"
        os.makedirs(scratch, exist_ok=True)
        try:
            got["saturn"] = tools.run_saturn(tree, inp["commands"] + inp["context"],
                                             inp["changed"], run.args.jobs,
                                             run.args.saturn_limit, scratch)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        run.cache.put(c["commit"], side, "saturn", keys["saturn"], got["saturn"])
    if "clang" in wanted and (got["clang"] is None or got["cppcheck"] is None):
        res = run_peers(tree, inp["commands"])
        for tool in ("clang", "cppcheck"):
            got[tool] = res[tool]
            run.cache.put(c["commit"], side, tool, keys[tool], res[tool])
    if "pp" in wanted and got["pp"] is None:
        got["pp"] = tools.compiled_lines(tree, inp["commands"], b.git_dir,
                                         c["parent"], c["commit"])
        run.cache.put(c["commit"], side, "pp", keys["pp"], got["pp"])


def outcome(c: dict, sides: dict) -> dict:
    """The commit's record from its two sides' results."""
    rec = {"status": "analysed", "reason": "", "notes": []}
    for side in ("parent", "fix"):
        inp, sat = sides[side]["inputs"], sides[side].get("saturn") or {}
        if "error" in inp or "error" in sat:
            return dict(rec, status="not reproducible",
                        reason=f"{side}: {inp.get('error') or sat.get('error')}")
        rec["notes"] += inp["notes"] + [f"{side}: context file skipped: {s['unit']}: "
                                        f"{s['message'][:200]}" for s in sat.get("skipped", [])
                                        if s["unit"] not in inp["changed"]]
    pp = sides["parent"].get("pp")
    if pp:   # of the parent's lines the fix touched, how many the preprocessor keeps
        rec["fix_compiled"] = f"{sum(k for k, _ in pp.values())}/{sum(n for _, n in pp.values())}"
    if not sides["parent"]["inputs"]["changed"]:
        return dict(rec, status="not reproducible",
                    reason="none of the changed files exists at the parent")
    for tool in ("saturn", "clang", "cppcheck"):
        if tool != "saturn" and any(sides[s].get(tool) is None for s in sides):
            continue   # peers neither run nor cached
        hits = {s: _hits(tool, c, sides[s]) for s in sides}
        after = {report.unplaced(h) for h in hits["fix"]}
        rec[tool] = {"found": bool(hits["parent"]), "gone": bool(hits["parent"]) and
                     not hits["fix"], "before": hits["parent"], "after": hits["fix"],
                     "went": [h for h in hits["parent"] if report.unplaced(h) not in after]}
        failed = sorted({f"{s}: {f}: {r['failed']}" for s in sides
                         for f, r in (sides[s].get(tool) or {}).items()
                         if tool != "saturn" and r.get("failed")})
        if failed:
            rec[tool]["failed"] = failed
    return rec


def _hits(tool: str, c: dict, side: dict) -> list[str]:
    if not side["inputs"]["changed"]:
        return []
    if tool == "saturn":
        return tools.saturn_hits(side["saturn"], c["kind"], c["functions"])
    return tools.peer_hits(tool, side[tool], side["inputs"]["ranges"], c["kind"])


def run_commit(run: Run, c: dict) -> dict:
    t = time.perf_counter()
    rec = {"commit": c["commit"], "project": c["project"], "kind": c["kind"]}
    blocked = unavailable(run, c)
    if blocked:
        return dict(rec, status=blocked[0], reason=blocked[1], seconds=0.0)
    b = run.build_of(inputs.bench_project(c["project"]))
    b.git_dir = inputs.find_mirror(run.mirrors, c["repo"])
    saturn = tools.saturn_hash()   # once: both sides with the same Saturn
    sides = {s: run_side(run, b, c, s, sha, saturn)
             for s, sha in (("parent", c["parent"]), ("fix", c["commit"]))}
    rec.update(outcome(c, sides), saturn_source=saturn[:12])
    rec["seconds"] = round(time.perf_counter() - t, 1)
    return rec


def select(args) -> list[dict]:
    commits = json.load(open(COMMITS))
    names = {n for n in args.projects} | {inputs.ALIASES.get(n, n) for n in args.projects}
    kinds = set(args.kinds.split(",")) if args.kinds else None
    out = [c for c in commits
           if (not args.projects or c["project"] in names or
               inputs.ALIASES.get(c["project"], c["project"]) in names)
           and (not args.commits or any(c["commit"].startswith(s) for s in args.commits))
           and (not kinds or c["kind"] in kinds)]
    return out[:args.limit] if args.limit else out


def ensure_tools(peers_on: bool) -> None:
    """ctags for function ranges and context files; the peers unless --no-peers."""
    if not shutil.which("ctags") and os.geteuid() == 0:
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "install", "-y", "-qq", "universal-ctags"], env=env,
                       stdout=subprocess.DEVNULL)
    if not shutil.which("ctags"):
        sys.exit("ctags missing: apt-get install universal-ctags")
    if peers_on:
        peers.ensure()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("projects", nargs="*", help="history project names (default: all)")
    ap.add_argument("--commits", nargs="+", default=[], metavar="SHA", help="sha prefixes")
    ap.add_argument("--kinds", help="comma-separated: " + ",".join(tools.SATURN_KINDS))
    ap.add_argument("--no-peers", action="store_true", help="do not run clang-14 and cppcheck "
                    "(their cached results are still shown)")
    ap.add_argument("--jobs", type=int, default=2, help="Saturn's --jobs (default 2)")
    ap.add_argument("--mirrors", help="directory of bare git mirrors (or $SATURN_MIRRORS)")
    ap.add_argument("--limit", type=int, help="only the first N commits selected")
    ap.add_argument("--fresh", action="store_true", help="ignore the cache")
    ap.add_argument("--prepare", action="store_true",
                    help="prepare a project's Debian build when it is not prepared yet")
    ap.add_argument("--saturn-limit", type=int, default=SATURN_LIMIT,
                    help=f"seconds for one Saturn run (default {SATURN_LIMIT})")
    ap.add_argument("--table", action="store_true",
                    help="run nothing: print the tables of bench/history/results.json")
    args = ap.parse_args()
    chosen = select(args)
    if not chosen:
        ap.error("no commit selected")
    if args.table:
        done = {r["commit"]: r for r in report.load_old()}
        report.print_tables([done[c["commit"]] for c in chosen if c["commit"] in done], chosen)
        return 0
    ensure_tools(not args.no_peers)
    run = Run(args)
    records = []
    for c in chosen:
        records.append(run_commit(run, c))
        print(report.progress(records[-1]), file=sys.stderr, flush=True)
        report.write_results(records[-1:])   # as it goes: a long run stopped keeps its work
    report.print_tables(records, chosen)
    return 0


if __name__ == "__main__":
    sys.exit(main())
