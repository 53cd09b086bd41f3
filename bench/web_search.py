"""Time `saturn serve`'s search on a generated database of 100,000 functions, and its reports
page with 10,000 reports over 50 runs (some fixed and some new at each run).

    python bench/web_search.py [N] [REPORTS] [RUNS]
"""
from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from saturn.report.diagnostic import Report, TraceNote  # noqa: E402
from summaries.store import Store  # noqa: E402
from summaries.web.app import create_app  # noqa: E402


def generate(path: str, n: int) -> None:
    rnd = random.Random(1)
    store = Store(path)
    words = ["alloc", "free", "lock", "unlock", "init", "read", "write", "parse", "net", "dev"]
    rows = []
    for i in range(n):
        name = f"{rnd.choice(words)}_{rnd.choice(words)}_{i}"
        lock = {"version": 1, "pin": [], "pout": [], "locks": [
            {"path": [["param", 0], ["deref"]], "name": "*param0", "constructor": False,
             "transitions": [[[], 0, [], 1, ""], [[], 1, [], 3, "acquire"]]}]} if i % 7 == 0 else {}
        leak = {"version": 1, "allocator": i % 11 == 0, "returns_param": None, "out_alloc": [],
                "fields": [], "escapees": []}
        for checker, summary in (("lock", lock), ("leak", leak), ("<engine>", {})):
            rows.append((f"src/f{i // 50}.c:{name}", checker, name, f"src/f{i // 50}.c", i % 900,
                         "", "bench", summary, "ok", [], [], 0.01))
        if len(rows) >= 30000:
            store.put(rows)
            rows = []
    store.put(rows)
    store.record_run(".", [])
    store.close()


def generate_runs(path: str, n_functions: int, n_reports: int, n_runs: int) -> None:
    """`n_runs` runs of about `n_reports` reports each: at each run 1 % are fixed and as many
    new ones appear, and a few come back."""
    rnd = random.Random(2)
    store = Store(path)
    kinds = ["lock.double-lock", "lock.double-unlock", "memory.leak", "assert.violation"]

    def report(i):
        f = i * 7 % n_functions
        file = f"src/d{f % 40}/f{f // 50}.c"
        r = Report(kinds[i % 4].split(".")[0], kinds[i % 4], f"fn_{f}", f"{file}:fn_{f}", file,
                   i % 900 + 1, 1, f"report {i} in fn_{f}",
                   [TraceNote(file, i % 900 + 1, "acquires the lock")], fingerprint=f"{i:032x}")
        return r
    live, next_id = set(range(n_reports)), n_reports
    files = [f"src/d{d}/f{k}.c" for d in range(40) for k in range(n_functions // 50)]
    info = {"root": "/bench", "options": {}, "checkers": ["lock", "leak"], "version": "bench"}
    for _ in range(n_runs):
        fixed = set(rnd.sample(sorted(live), n_reports // 100))
        live = (live - fixed) | set(range(next_id, next_id + n_reports // 100))
        next_id += n_reports // 100
        store.record_history(info, [report(i) for i in sorted(live)], [], files, n_runs)
    store.close()


def _time(client, urls) -> None:
    for url in urls:
        times = []
        for _ in range(5):
            t = time.perf_counter()
            resp = client.get(url)
            times.append(time.perf_counter() - t)
            assert resp.status_code == 200
        print(f"{url:40} median {statistics.median(times) * 1000:7.1f} ms")


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    n_reports = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    n_runs = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    path = os.path.join(tempfile.mkdtemp(), "big.db")
    t = time.perf_counter()
    generate(path, n)
    print(f"generated {n} functions in {time.perf_counter() - t:.1f}s")
    client = create_app(path).test_client()
    _time(client, ["/api/search?q=lock_init", "/api/search?q=src/f17.c",
                   "/api/search?lock_wrapper=1", "/api/search?allocator=1&q=free",
                   "/?q=parse_net", "/api/search?q=zzz_nothing"])
    t = time.perf_counter()
    generate_runs(path, n, n_reports, n_runs)
    print(f"generated {n_runs} runs of {n_reports} reports in {time.perf_counter() - t:.1f}s")
    _time(client, ["/reports", "/reports?status=new", "/reports?path=src/d3&kind=memory.leak",
                   "/reports?run=25", "/reports?review=unreviewed&status=resolved",
                   "/api/reports?status=unresolved", "/api/runs", "/overview"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
