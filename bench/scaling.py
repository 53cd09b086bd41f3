"""The same full run at --jobs 1, at --jobs 2 and on a local Dask cluster of two one-thread
workers (bench/run.py --scaling), the cluster started as a user would (README, "On a cluster")."""
from __future__ import annotations

import contextlib
import socket
import subprocess
import sys

import kernel

WORKERS = 2


def walls(run, wall_two: float | None) -> dict:
    """{"1": s, "2": s, "dask": s}: `run(jobs)` times one full run, where `jobs` is a count or a
    scheduler's address; the --jobs 2 figure is the run already made."""
    out = {"1": run("1"), "2": wall_two}
    with cluster() as address:
        out["dask"] = run(address) if address else None
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def cluster():
    """A scheduler and WORKERS one-thread workers on this machine; yields the scheduler's
    address, or None (said so) when Dask is not installed or the workers do not come up."""
    try:
        from distributed import Client
    except ImportError:
        print("    Dask is not installed (pip install 'saturn-c[cluster]'): no cluster run")
        yield None
        return
    port = str(_free_port())
    address, quiet = f"tcp://127.0.0.1:{port}", {"stdout": subprocess.DEVNULL,
                                                 "stderr": subprocess.DEVNULL,
                                                 "env": kernel.saturn_env()}
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                               "127.0.0.1", "--port", port, "--no-dashboard"], **quiet),
             subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                               "--nworkers", str(WORKERS), "--nthreads", "1",
                               "--no-dashboard"], **quiet)]
    try:
        try:
            with Client(address, timeout=60) as client:
                client.wait_for_workers(WORKERS, timeout=120)
        except (OSError, TimeoutError) as e:
            print(f"    the Dask cluster did not come up ({e}): no cluster run")
            address = None
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(timeout=30)
