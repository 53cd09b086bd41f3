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
import peers  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run_one(name: str, checkers: str, jobs: str = "1") -> dict:
    srcs = files(name)
    out_dir = os.path.join(HERE, "out")
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, f"{name}.json")
    db = os.path.join(out_dir, f"{name}.db")
    for stale in (db, db + "-wal", db + "-shm"):
        if os.path.exists(stale):
            os.remove(stale)
    cmd = [sys.executable, "-m", "saturn", "check", "--checkers", checkers, "--format", "json",
           "-o", out, "--root", os.path.join(HERE, "corpora"), "--db", db, "--jobs", jobs]
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
    t = time.perf_counter()
    rerun = subprocess.run(cmd[:cmd.index("-o") + 1] + [out + ".rerun"] + cmd[cmd.index("-o") + 2:],
                           capture_output=True, text=True, cwd=ROOT,
                           env=dict(os.environ, PYTHONPATH=ROOT))
    rerun_wall = time.perf_counter() - t if rerun.returncode in (0, 1) else float("nan")
    stats = doc["stats"]
    errors = [ln for ln in proc.stderr.splitlines() if ": error:" in ln or "internal error" in ln]
    kinds = {}
    for r in doc["reports"]:
        kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
    flat = [x for f in flags(name) for x in ([f] if not f.startswith(("-D", "-I")) else [f])]
    peer = {}
    for tool, run in (("clang", peers.clang), ("cppcheck", peers.cppcheck)):
        if peers.available("clang-14" if tool == "clang" else tool):
            peer[tool] = run(srcs, flat)
    saturn_reports = sorted((r["file"], r["line"], r["kind"]) for r in doc["reports"])
    return {"name": name, "wall": wall, "rerun": rerun_wall, "stats": stats, "peers": peer,
            "saturn_reports": saturn_reports, "reports": len(doc["reports"]),
            "errors": errors[:10], "kinds": kinds, "locks": lock_counts(db),
            "leaks": leak_counts(db)}


def leak_counts(db: str) -> dict:
    """Allocators found and functions with escapees, from the leak summaries."""
    import sqlite3
    counts = {"summaries": 0, "allocators": 0, "escapees": 0, "out_alloc": 0}
    con = sqlite3.connect(db)
    for (text,) in con.execute("SELECT summary FROM summaries WHERE checker='leak'"):
        s = json.loads(text)
        counts["summaries"] += 1
        counts["allocators"] += bool(s.get("allocator"))
        counts["escapees"] += bool(s.get("escapees"))
        counts["out_alloc"] += bool(s.get("out_alloc"))
    con.close()
    return counts


def lock_counts(db: str) -> dict:
    """The counts of §2.5.6.2 from the lock summaries in the database."""
    import sqlite3
    counts = {"touching": 0, "lock_wrappers": 0, "unlock_wrappers": 0, "follows_return": 0}
    con = sqlite3.connect(db)
    for (text,) in con.execute("SELECT summary FROM summaries WHERE checker='lock'"):
        s = json.loads(text)
        rows = [r for lk in s.get("locks", []) for r in lk["transitions"]]
        if not rows:
            continue
        counts["touching"] += 1
        if any(r[1] == 0 and r[3] == 1 for r in rows):
            counts["lock_wrappers"] += 1
        if any(r[1] == 1 and r[3] == 0 for r in rows):
            counts["unlock_wrappers"] += 1
        ret = [i for i, d in enumerate(s.get("pout", [])) if d["kind"] == "ret"]
        if ret and any(len({r[3] for r in rows if r[1] == s0 and r[2][ret[0]] == v}) == 1 and
                       len({r[3] for r in rows if r[1] == s0}) > 1
                       for s0 in (0, 1) for v in (0, 1)):
            counts["follows_return"] += 1
    con.close()
    return counts


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("corpora", nargs="*", default=list(CORPORA))
    ap.add_argument("--checkers", default="assert,lock,leak")
    ap.add_argument("--jobs", default=str(os.cpu_count() or 1))
    args = ap.parse_args()
    header = (f"{'corpus':10} {'files':>5} {'skip':>4} {'lines':>8} {'funcs':>6} {'incompl':>7} "
              f"{'unsup':>6} {'reports':>7} {'pre':>6} {'parse':>6} {'lower':>6} {'analyze':>8} "
              f"{'wall':>7} {'lines/s':>8} {'peakMB':>7}")
    print(header)
    for name in args.corpora:
        r = run_one(name, args.checkers, args.jobs)
        if "error" in r:
            print(f"{name:10} FAILED: {r['error']}")
            continue
        s, ph = r["stats"], r["stats"]["phases"]
        print(f"{name:10} {s['files']:>5} {s['skipped_files']:>4} {s['lines']:>8} "
              f"{s['functions']:>6} {s['incomplete']:>7} {s['unsupported']:>6} {r['reports']:>7} "
              f"{ph['preprocess']:>6.1f} {ph['parse']:>6.1f} {ph['lower']:>6.1f} "
              f"{ph['analyze']:>8.1f} {r['wall']:>7.1f} {s['lines'] / r['wall']:>8.0f} "
              f"{s['peak_rss_mb']:>7.0f}")
        print(f"    re-check with nothing changed (every function reused): {r['rerun']:.1f}s")
        print(f"    report kinds: {r['kinds'] or 'none'}")
        lk = r["locks"]
        print(f"    lock summaries: {lk['touching']} functions touch locks, {lk['lock_wrappers']} "
              f"lock wrappers, {lk['unlock_wrappers']} unlock wrappers, {lk['follows_return']} "
              f"with the exit state following the return value")
        for tool, (secs, found) in sorted(r["peers"].items()):
            print(f"    {tool}: {secs:.1f}s (Saturn/{tool} time ratio {r['wall'] / secs:.2f}), "
                  f"{len(found)} lock/leak reports")
            for f, line, chk, msg in found[:8]:
                print(f"        {os.path.relpath(f, ROOT) if os.path.isabs(f) else f}:{line}: [{chk}] {msg[:90]}")
        if not r["peers"]:
            print("    clang-14 / cppcheck not installed: no comparison (apt-get install clang-14 cppcheck)")
        for f, line, kind in r["saturn_reports"][:8]:
            print(f"        saturn: {f}:{line}: [{kind}]")
        lk = r["leaks"]
        print(f"    leak summaries: {lk['summaries']} functions, {lk['allocators']} allocators, "
              f"{lk['escapees']} with escapees, {lk['out_alloc']} handing memory out through a "
              f"parameter")
        for e in r["errors"]:
            print(f"    {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
