"""One command: fetch the corpora, run `saturn check` on each, print the figures.

    python bench/run.py [--checkers assert] [CORPUS ...]

Prints per corpus: files, preprocessed lines, functions, skipped files, unsupported constructs,
incomplete functions, reports, time per phase, lines per second and peak memory. JSON goes to
bench/out/.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpora import CORPORA, files, flags  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run_one(name: str, checkers: str) -> dict:
    srcs = files(name)
    out_dir = os.path.join(HERE, "out")
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, f"{name}.json")
    cmd = [sys.executable, "-m", "saturn", "check", "--checkers", checkers, "--format", "json",
           "-o", out, "--root", os.path.join(HERE, "corpora")]
    for f in flags(name):
        cmd += [f[:2], f[2:]]
    cmd += srcs
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=ROOT))
    wall = time.perf_counter() - t
    if proc.returncode not in (0, 1):
        return {"name": name, "error": proc.stderr[-2000:]}
    doc = json.load(open(out))
    stats = doc["stats"]
    errors = [ln for ln in proc.stderr.splitlines() if ": error:" in ln or "internal error" in ln]
    return {"name": name, "wall": wall, "stats": stats, "reports": len(doc["reports"]),
            "errors": errors[:10]}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("corpora", nargs="*", default=list(CORPORA))
    ap.add_argument("--checkers", default="assert")
    args = ap.parse_args()
    header = (f"{'corpus':10} {'files':>5} {'skip':>4} {'lines':>8} {'funcs':>6} {'incompl':>7} "
              f"{'unsup':>6} {'reports':>7} {'pre':>6} {'parse':>6} {'lower':>6} {'analyze':>8} "
              f"{'wall':>7} {'lines/s':>8} {'peakMB':>7}")
    print(header)
    for name in args.corpora:
        r = run_one(name, args.checkers)
        if "error" in r:
            print(f"{name:10} FAILED: {r['error']}")
            continue
        s, ph = r["stats"], r["stats"]["phases"]
        print(f"{name:10} {s['files']:>5} {s['skipped_files']:>4} {s['lines']:>8} "
              f"{s['functions']:>6} {s['incomplete']:>7} {s['unsupported']:>6} {r['reports']:>7} "
              f"{ph['preprocess']:>6.1f} {ph['parse']:>6.1f} {ph['lower']:>6.1f} "
              f"{ph['analyze']:>8.1f} {r['wall']:>7.1f} {s['lines'] / r['wall']:>8.0f} "
              f"{s['peak_rss_mb']:>7.0f}")
        for e in r["errors"]:
            print(f"    {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
