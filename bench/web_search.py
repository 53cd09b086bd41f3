"""Time `saturn serve`'s search on a generated database of 100,000 functions.

    python bench/web_search.py [N]
"""
from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    path = os.path.join(tempfile.mkdtemp(), "big.db")
    t = time.perf_counter()
    generate(path, n)
    print(f"generated {n} functions in {time.perf_counter() - t:.1f}s")
    client = create_app(path).test_client()
    queries = ["/api/search?q=lock_init", "/api/search?q=src/f17.c", "/api/search?lock_wrapper=1",
               "/api/search?allocator=1&q=free", "/?q=parse_net", "/api/search?q=zzz_nothing"]
    for url in queries:
        times = []
        for _ in range(5):
            t = time.perf_counter()
            resp = client.get(url)
            times.append(time.perf_counter() - t)
            assert resp.status_code == 200
        print(f"{url:40} median {statistics.median(times) * 1000:7.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
