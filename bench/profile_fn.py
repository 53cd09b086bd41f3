"""Profile the analysis of single functions of a corpus, with their callees' summaries taken
from a previous run's database (bench/out/CORPUS.db):

    python bench/profile_fn.py sqlite whereScanNext [NAME ...] [--top 25] [--timeout 300]
                                                               [--dump PREFIX]

(PROFILE_DB=path/to.db takes the callees' summaries from another database.)

Prints each function's time, SAT queries and the hottest Python functions (cProfile, by
cumulative time) — the hot paths to work on (encoding, BDD-to-literal, solver calls)."""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from run import corpus  # noqa: E402
from checkers import registry  # noqa: E402
from saturn.cfront.discover import from_compile_commands, from_paths  # noqa: E402
from saturn.app.driver import analyze_one, load_program  # noqa: E402
from saturn.incremental.cachedir import CacheDir  # noqa: E402
from saturn.incremental.units import FrontEnd  # noqa: E402
from saturn.symex.options import Options  # noqa: E402
from summaries.store import Store  # noqa: E402


def discovery(c: dict):
    if c["args"][0] == "-p":
        return from_compile_commands(c["args"][1], ("-D__CHECKER__",), [])
    return from_paths(c["files"], tuple(c["peer_flags"]), [])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("names", nargs="+")
    ap.add_argument("--checkers", default="assert,lock,leak")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--dump", metavar="PREFIX", help="also write PREFIX.NAME.prof (pstats)")
    a = ap.parse_args()
    c = corpus(a.corpus)
    db = os.environ.get("PROFILE_DB") or os.path.join(HERE, "out", a.corpus + ".db")
    os.chdir(c["cwd"])
    phases = {"front end": 0.0}
    program, _, _ = load_program(discovery(c), FrontEnd(CacheDir(db + ".units"), c["root"]),
                                 phases, print)
    store = Store(db, readonly=True)
    checkers = registry.load(a.checkers.split(","), {})
    options = Options(timeout=a.timeout)
    for name in a.names:
        for key in [k for k, f in program.functions.items() if f.name == name]:
            fn = program.functions[key]
            sums = {}
            for callee in fn.callees:
                got = {ck: r["summary"] for ck, r in store.summaries(callee).items()
                       if r["status"] == "ok" and r["summary"]}
                if got:
                    sums[callee] = got
            prof, t = cProfile.Profile(), time.perf_counter()
            prof.enable()
            res = analyze_one(program, key, checkers, options, sums)
            prof.disable()
            print(f"== {key}: {res.status} {time.perf_counter() - t:.1f}s "
                  f"{len(fn.blocks)} blocks, {len(sums)}/{len(fn.callees)} callee summaries "
                  f"{res.notes}")
            pstats.Stats(prof).sort_stats("cumulative").print_stats(a.top)
            if a.dump:   # for pstats' print_callers and friends
                prof.dump_stats(f"{a.dump}.{name}.prof")
    return 0


if __name__ == "__main__":
    sys.exit(main())
