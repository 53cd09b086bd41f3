"""The reports (and summaries) of tests/c, cstdl and bench corpora, written to a folder, so that
two commits can be compared byte for byte (a change meant to keep behaviour: `diff -r A B`).

    PYTHONPATH=CHECKOUT python bench/snapshot.py OUT [--corpora lz4,zlib-ng,lua,zstd] [--jobs 2]
        [--checkers ...] [--only tests|cstdl|corpora]

Timings and other figures that vary from run to run are left out: only what a run reports.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))
import cstdl  # noqa: E402
import run  # noqa: E402


def tests_c(out: str) -> None:
    """Every tests/c program with its folder's checker, in this process (as the tests run them)."""
    from cprograms import c_programs, sources
    from saturn.app.driver import run_check
    from saturn.cfront.discover import from_paths
    from saturn.incremental.units import FrontEnd
    from saturn.symex.options import Options
    from checkers import registry
    from summaries.render import render
    base = os.path.join(ROOT, "tests", "c")
    with open(os.path.join(out, "tests-c.txt"), "w") as fh:
        for area in sorted(registry.names()):
            if not os.path.isdir(os.path.join(base, area)):
                continue
            for prog in c_programs(os.path.join(base, area)):
                result = run_check(from_paths(sources(prog), (), []), registry.load([area]),
                                   Options(), FrontEnd(None, base), log=lambda m: None)
                fh.write(f"== {os.path.relpath(prog, base)}\n")
                for r in result.reports:
                    fh.write(_checkout_free(r.to_record()) + "\n")
                for key in sorted(result.results):
                    fh.write(f"{key}: {render(key, result.results[key].summaries)}\n")


def _checkout_free(record: dict) -> str:
    """A report without the checkout's path (`__FILE__` in assert's statements) and so without
    its fingerprint, which hashes the statement."""
    record = {k: v for k, v in record.items() if k != "fingerprint"}
    return json.dumps(record, sort_keys=True).replace(ROOT, "<root>")


def _reports(doc: dict) -> str:
    return json.dumps(doc["reports"], indent=1, sort_keys=True) + "\n"


def cstdl_files(out: str, jobs: int) -> None:
    res = cstdl.run(jobs)
    with open(os.path.join(out, "cstdl.json"), "w") as fh:
        json.dump({n: r["reports"] for n, r in sorted(res["files"].items())}, fh, indent=1,
                  sort_keys=True)


def corpus(name: str, out: str, jobs: int, checkers: str) -> None:
    c = run.corpus(name)
    cmd = [sys.executable, "-m", "saturn", "check", "--format", "json", "--no-db",
           "--checkers", checkers, "--jobs", str(jobs), "--timeout", "120", "--root", c["root"],
           *c["args"]]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=c["cwd"])
    with open(os.path.join(out, f"{name}.json"), "w") as fh:
        fh.write(_reports(json.loads(proc.stdout)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--corpora", default="lz4,zlib-ng,lua,zstd")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--checkers", default="assert,lock,leak,free,resource",
                    help="for the corpora (tests/c runs each folder's checker)")
    ap.add_argument("--only", choices=("tests", "cstdl", "corpora"), action="append",
                    help="only these parts (default: all)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    parts = a.only or ("tests", "cstdl", "corpora")
    if "tests" in parts:
        tests_c(a.out)
    if "cstdl" in parts:
        cstdl_files(a.out, a.jobs)
    for name in filter(None, a.corpora.split(",") if "corpora" in parts else ()):
        corpus(name, a.out, a.jobs, a.checkers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
