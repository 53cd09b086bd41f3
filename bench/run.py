"""One command: fetch the corpora, run `saturn check` on each, print the figures.

    python bench/run.py [--checkers LIST] [--jobs 2] [--no-peers] [--table]
                        [--scaling [CORPUS,...]] [CORPUS ...]

Prints per corpus: files, preprocessed lines, functions, skipped files, unsupported constructs,
incomplete functions, reports, time per phase, wall and CPU time, lines per second per core,
peak memory, the re-check time with nothing changed and after a one-function edit, and
clang-14's and cppcheck's time and lock/leak reports on the same files (two at a time). The
kernel corpus (linux-ext2) is prepared by bench/kernel.py. JSON goes to bench/out/. --table
writes the figures as the table at the top of bench/RESULTS.md (bench/table.py); --scaling adds
the full run at --jobs 1 and on a local two-worker Dask cluster (bench/scaling.py).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpora import CORPORA, files, flags  # noqa: E402
import cstdl  # noqa: E402
import kernel  # noqa: E402
import peers  # noqa: E402
import procmem  # noqa: E402
import scaling  # noqa: E402
import table  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from saturn.cfront.discover import from_compile_commands  # noqa: E402
from checkers import registry  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


KERNEL_PREFIX = "linux-"   # linux-ext2, linux-e1000, linux-udc: kernel subsystems (kernel.py)
DEFAULT = ["lz4", "zlib-ng", "lua", "sqlite", "zstd", "linux-ext2"]
_CLANG_M_FLAGS = re.compile(r"-m(32|64|cmodel=\w+|no-(sse2?|mmx|3dnow|avx|80387|red-zone))$")


def corpus(name: str) -> dict:
    """Files, Saturn's arguments, the peers' flags (a list, or per file) and the root."""
    if name.startswith(KERNEL_PREFIX):
        sub = name[len(KERNEL_PREFIX):]
        directory, commands = kernel.prepare([sub])[sub]
        found = from_compile_commands(commands, (), [])
        by_file = {f.path: [x for x in f.flags if not x.startswith("-m") or
                            _CLANG_M_FLAGS.match(x)] for f in found.files}
        return {"files": sorted(by_file), "args": ["-p", commands, "-D__CHECKER__"],
                "peer_flags": lambda path: by_file[path], "cwd": kernel.TREE,
                "root": os.path.join(kernel.TREE, directory)}
    srcs, flat = files(name), flags(name)
    args = [x for f in flat for x in (f[:2], f[2:])] + srcs
    return {"files": srcs, "args": args, "peer_flags": flat, "cwd": ROOT,
            "root": os.path.join(HERE, "corpora")}


def saturn(c: dict, checkers: str, jobs: str, out: str, db: str):
    """Runs `saturn check` (`jobs` a count, or a Dask scheduler's address): the process, with
    its CPU time and peak memory (procmem), and the wall time."""
    where = ["--scheduler", jobs] if "://" in jobs else ["--jobs", jobs]
    cmd = [sys.executable, "-m", "saturn", "check", "--checkers", checkers, "--format", "json",
           "-o", out, "--root", c["root"], "--db", db, *where, "--timeout", "120", *c["args"]]
    t, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            cwd=c["cwd"], env=kernel.saturn_env())
    peak = procmem.Peak(proc.pid)
    _, proc.stderr = proc.communicate()
    proc.peak = peak.stop()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc.cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return proc, time.perf_counter() - t


def fresh(db: str) -> None:
    for stale in (db, db + "-wal", db + "-shm"):
        if os.path.exists(stale):
            os.remove(stale)
    shutil.rmtree(db + ".units", ignore_errors=True)   # a full run lowers every unit itself


def run_one(name: str, checkers: str, jobs: str = "1", peers_on: bool = True) -> dict:
    c = corpus(name)
    out_dir = os.path.join(HERE, "out")
    os.makedirs(out_dir, exist_ok=True)
    out, db = os.path.join(out_dir, f"{name}.json"), os.path.join(out_dir, f"{name}.db")
    fresh(db)
    proc, wall = saturn(c, checkers, jobs, out, db)
    if proc.returncode not in (0, 1):
        return {"name": name, "error": proc.stderr[-2000:]}
    doc = json.load(open(out))
    rerun, rerun_wall = saturn(c, checkers, jobs, out + ".rerun", db)
    edited, (edit_proc, edit_wall) = edit_one_function(db, c["files"]), (None, float("nan"))
    if edited:
        try:
            edit_proc, edit_wall = saturn(c, checkers, jobs, out + ".edit", db)
        finally:
            edited()
    reused = json.load(open(out + ".edit"))["stats"] if edit_proc is not None and \
        edit_proc.returncode in (0, 1) else {}
    errors = [ln for ln in proc.stderr.splitlines() if ": error:" in ln or "internal error" in ln]
    kinds = {}
    for r in doc["reports"]:
        kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
    peer = {}
    for tool, run in (("clang", peers.clang), ("cppcheck", peers.cppcheck)):
        if peers_on and peers.available("clang-14" if tool == "clang" else tool):
            peer[tool] = run(c["files"], c["peer_flags"])
    saturn_reports = sorted((r["file"], r["line"], r["kind"]) for r in doc["reports"])
    return {"name": name, "wall": wall, "cpu": proc.cpu, "peak_one": proc.peak.one_mb,
            "peak_all": proc.peak.all_mb, "rerun": rerun_wall, "edit": edit_wall,
            "edit_stats": reused, "edited": getattr(edited, "label", ""), "stats": doc["stats"],
            "peers": peer, "files": c["files"], "saturn_reports": saturn_reports,
            "reports": len(doc["reports"]),
            "errors": errors[:10], "kinds": kinds, "locks": lock_counts(db),
            "leaks": leak_counts(db), "results": result_counts(db)}


def full_wall(name: str, checkers: str, jobs: str) -> float | None:
    """The wall time of one more full run (a fresh database), None where it failed."""
    db = os.path.join(HERE, "out", f"{name}.scaling.db")
    fresh(db)
    proc, wall = saturn(corpus(name), checkers, jobs, db + ".json", db)
    return wall if proc.returncode in (0, 1) else None


def edit_one_function(db: str, files: list[str]):
    """Change one function's body in a way that changes its IR but not its summaries (a
    volatile local read on a line of its own, so every later function in the file moves down
    a line), as a small edit would; return the function that undoes it."""
    import sqlite3
    con = sqlite3.connect(db)
    rows = con.execute("SELECT name, file, line FROM functions WHERE status='ok' "
                       "ORDER BY file, line").fetchall()
    con.close()
    by_base = {os.path.basename(f): f for f in files}
    for name, file, line in rows[len(rows) // 2:]:
        path = file if os.path.isabs(file) else by_base.get(os.path.basename(file))
        if not path or path not in files:
            continue
        text = open(path).read()
        lines = text.split("\n")
        offset = sum(len(ln) + 1 for ln in lines[:line - 1])
        brace = text.find("{", offset)
        if brace < 0:
            continue
        edit = "\n { volatile int saturn_bench_edit = 0; (void)saturn_bench_edit; }"
        open(path, "w").write(text[:brace + 1] + edit + text[brace + 1:])

        def undo(path=path, text=text):
            open(path, "w").write(text)
        undo.label = f"{name} ({os.path.basename(path)})"
        return undo
    return None


def _summaries(db: str, checker: str):
    """Every stored summary of one checker, decoded."""
    import sqlite3
    con = sqlite3.connect(db)
    try:
        for (text,) in con.execute("SELECT summary FROM summaries WHERE checker=?", (checker,)):
            yield json.loads(text)
    finally:
        con.close()


def leak_counts(db: str) -> dict:
    """Allocators found and functions with escapees, from the leak summaries."""
    counts = {"summaries": 0, "allocators": 0, "escapees": 0, "out_alloc": 0}
    for s in _summaries(db, "leak"):
        counts["summaries"] += 1
        counts["allocators"] += bool(s.get("allocator"))
        counts["escapees"] += bool(s.get("escapees"))
        counts["out_alloc"] += bool(s.get("out_alloc"))
    return counts


def result_counts(db: str) -> dict:
    """Functions whose result callers know something of (NOTE [result-summaries])."""
    counts = {"exact": 0, "known_bits": 0, "nonnull": 0, "sign": 0}
    for s in _summaries(db, "<engine>"):
        res = s.get("result") or {}
        counts["exact"] += "formula" in res
        counts["known_bits"] += "known" in res
        counts["nonnull"] += bool(res.get("nonnull"))
        counts["sign"] += bool(s.get("sign"))
    return counts


def lock_counts(db: str) -> dict:
    """The counts of §2.5.6.2 from the lock summaries in the database."""
    counts = {"touching": 0, "lock_wrappers": 0, "unlock_wrappers": 0, "follows_return": 0}
    for s in _summaries(db, "lock"):
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
    return counts


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("corpora", nargs="*", default=DEFAULT,
                    help=f"PyPI corpora ({', '.join(CORPORA)}), kernel subsystems "
                         f"({', '.join(KERNEL_PREFIX + k for k in kernel.SUBSYSTEMS)}) and "
                         "cstdl (known kernel double locks)")
    ap.add_argument("--checkers", default=",".join(registry.default_names()),
                    help="default: Saturn's own default set")
    ap.add_argument("--jobs", default=str(os.cpu_count() or 1))
    ap.add_argument("--no-peers", action="store_true", help="do not run clang-14 and cppcheck")
    ap.add_argument("--table", action="store_true",
                    help="write the figures as the table at the top of bench/RESULTS.md")
    ap.add_argument("--scaling", nargs="?", const="all", metavar="CORPUS,...",
                    help="also time each full run (of the corpora named, or all) at --jobs 1 "
                         "and on a two-worker Dask cluster")
    args = ap.parse_args()
    if not args.no_peers:
        peers.ensure()
    rows, walls = [], {}
    table.commit()   # taken now, written with every row
    print(f"{'corpus':12} {'files':>5} {'skip':>4} {'lines':>8} {'funcs':>6} {'incompl':>7} "
          f"{'unsup':>6} {'reports':>7} {'front':>6} {'analyze':>8} "
          f"{'wall':>7} {'cpu':>7} {'l/s/core':>8} {'peakMB':>7}")
    for name in args.corpora:
        if name == "cstdl":   # known bugs, one program per file (bench/cstdl.py)
            cstdl.report(cstdl.run(int(args.jobs)))
            continue
        rows.append(run_one(name, args.checkers, args.jobs, not args.no_peers))
        print_result(rows[-1], int(args.jobs))
        if args.scaling and (args.scaling == "all" or name in args.scaling.split(",")):
            walls[name] = scaling.walls(lambda jobs, n=name: full_wall(n, args.checkers, jobs),
                                        rows[-1].get("wall"))
            print(f"    scaling: {walls[name]}")
        if args.table:   # after each corpus: a stopped run keeps the rows it made
            command = " ".join(["python bench/run.py", *sys.argv[1:]])
            table.write(table.markdown(rows, walls, args.checkers, int(args.jobs), command))
    return 0


def print_result(r: dict, jobs: int) -> None:
    name = r["name"]
    if "error" in r:
        print(f"{name:12} FAILED: {r['error']}")
        return
    s, ph = r["stats"], r["stats"]["phases"]
    print(f"{name:12} {s['files']:>5} {s['skipped_files']:>4} {s['lines']:>8} "
          f"{s['functions']:>6} {s['incomplete']:>7} {s['unsupported']:>6} {r['reports']:>7} "
          f"{ph['front end']:>6.1f} "
          f"{ph['analyze']:>8.1f} {r['wall']:>7.1f} {r['cpu']:>7.1f} "
          f"{s['lines'] / r['wall'] / max(1, jobs):>8.0f} {s['peak_rss_mb']:>7.0f}")
    print(f"    re-check with nothing changed (every function reused): {r['rerun']:.2f}s")
    e = r["edit_stats"]
    if e:
        print(f"    re-check after editing {r['edited']}: {r['edit']:.2f}s "
              f"({100 * r['edit'] / r['wall']:.1f} % of the full run), {e['reused']} of "
              f"{e['functions']} functions reused")
    print(f"    report kinds: {r['kinds'] or 'none'}")
    lk = r["locks"]
    print(f"    lock summaries: {lk['touching']} functions touch locks, {lk['lock_wrappers']} "
          f"lock wrappers, {lk['unlock_wrappers']} unlock wrappers, {lk['follows_return']} "
          f"with the exit state following the return value")
    lk = r["leaks"]
    print(f"    leak summaries: {lk['summaries']} functions, {lk['allocators']} allocators, "
          f"{lk['escapees']} with escapees, {lk['out_alloc']} handing memory out through a "
          f"parameter")
    rc = r["results"]
    print(f"    result summaries: {rc['exact']} exact (computed from the parameters alone), "
          f"{rc['known_bits']} with known bits, {rc['nonnull']} never null, {rc['sign']} with "
          f"a known sign")
    for tool, (secs, found, failed) in sorted(r["peers"].items()):
        quit_on = f", gave up on {len(failed)} of {len(r['files'])} files" if failed else ""
        print(f"    {tool}: {secs:.1f}s (Saturn/{tool} time ratio {r['wall'] / secs:.2f}), "
              f"{len(found)} lock/leak reports{quit_on}")
        for f, line, chk, msg in found[:20]:
            print(f"        {tool}: {os.path.relpath(f, ROOT) if os.path.isabs(f) else f}:{line}: "
                  f"[{chk}] {msg[:90]}")
    if not r["peers"]:
        print("    no comparison (--no-peers, or clang-14 / cppcheck not installed)")
    for f, line, kind in r["saturn_reports"][:20]:
        print(f"        saturn: {f}:{line}: [{kind}]")
    for e in r["errors"]:
        print(f"    {e}")


if __name__ == "__main__":
    sys.exit(main())
