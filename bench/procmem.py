"""Peak memory of a process and its descendants, sampled from /proc while it runs: the largest
single process (a worker or the driver) and the tree's sum. Sizes are proportional set sizes, so
the pages forked workers share with the driver count once in the sum."""
from __future__ import annotations

import os
import threading


def _parents() -> dict[int, int]:
    out = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    # pid (comm) state ppid ...: comm may hold spaces, so split after its ')'
                    out[int(name)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    return out


def _tree(pid: int) -> list[int]:
    parents, found = _parents(), [pid]
    for p in found:
        found += [c for c, pp in parents.items() if pp == p and c not in found]
    return found


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class Peak:
    """Samples the tree under `pid` every `interval` seconds until stop(); one_mb and all_mb
    are the peaks seen."""

    def __init__(self, pid: int, interval: float = 0.5):
        self.pid, self.interval = pid, interval
        self.one_mb = self.all_mb = 0.0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._done.wait(self.interval):
            sizes = [_pss_kb(p) / 1024 for p in _tree(self.pid)]
            if sizes:
                self.one_mb = max(self.one_mb, max(sizes))
                self.all_mb = max(self.all_mb, sum(sizes))

    def stop(self) -> "Peak":
        self._done.set()
        self._thread.join()
        return self
