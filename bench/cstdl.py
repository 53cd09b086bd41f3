"""cstdl: 26 preprocessed Linux files, each holding a double lock that a kernel commit fixed
(the file is named after the commit). The benchmark of the EBA paper (Abal et al., VMCAI 2017).

    python bench/run.py cstdl [--jobs 2]        (or python bench/cstdl.py)

The files come from ../shared/corpora/cstdl-5.1-cpped.tar.xz when that folder is there, else
from folder 5.1/cpped of github.com/IagoAbal/2017-vmcai; they land in bench/corpora/cstdl/
(not committed). Each file is its own program: one `saturn check --checkers lock` per file,
`jobs` files at a time, each file unmodified. Prints, per file, its functions, its time and its
lock reports, whether the fixed double lock is among them, and the totals.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CACHE = os.path.join(HERE, "corpora", "cstdl")
SHARED = os.path.join(ROOT, "..", "shared", "corpora", "cstdl-5.1-cpped.tar.xz")
GITHUB = "https://codeload.github.com/IagoAbal/2017-vmcai/tar.gz/refs/heads/master"

# The fixed double lock of each file: the function in which Saturn should report it (the one
# holding the lock when it is taken again, itself or through the calls; several when the fix
# mended the same mistake in more than one), and the bug's depth
# (calls between the two acquisitions, as the EBA paper's Table 1 counts them). Found by
# reading each file; bench/RESULTS.md gives the evidence.
BUGS = {
    "00dfff7": ("free_dmar_iommu", 2),
    "023160b": ("tipc_purge_publications", 0),
    "09dc3cf": ("console_unlock", 0),
    "0adb237": ("drm_gem_prime_fd_to_handle", 0),
    "0e6f989": ("pmb_resize", 0),
    "1173ff0": ("watchdog_nmi_enable_all", 0),
    "149a051": ("as_merged_requests", 0),
    "16da4b1": ("otg_statemachine", 0),
    "1c81557": ("isp1362_hc_stop", 1),
    "2904207": ("geos_gpio_store", 0),
    "328be39": ("gsm_dlci_data_kick", 1),
    "344e3c77": ("sunhv_console_write_bychar", 0),
    "59a1264": ("ad9832_init", 0),
    "5a276fa": (("imxdma_tasklet", "imxdma_issue_pending"), 1),
    "5ad8b7d": ("drm_setmaster_ioctl", 0),
    "5c51543": ("proc_kprobes_optimization_handler", 2),
    "80edb72": ("_mv88e6xxx_get_ethtool_stats", 1),
    "872c782": ("snd_card_register", 1),
    "8860168": ("at91_rtc_interrupt", 0),
    "a7eef88": ("radeon_vm_bo_rmv", 0),
    "b383141": ("wm8958_mic_work", 2),
    "b838396": ("cx231xx_i2c_xfer", 0),
    "ca9fe15": ("hid_debug_events_read", 0),
    "d7e9711": ("add_dquot_ref", 1),
    "e1db4ce": ("__xen_pcibk_get_pcifront_dev", 0),
    "e50fb58": ("hfsplus_ioctl_setflags", 0),
}


def fetch() -> str:
    """The folder of the 26 files (unpacked once)."""
    folder = os.path.join(CACHE, "cpped")
    if os.path.isdir(folder) and len(os.listdir(folder)) >= len(BUGS):
        return folder
    os.makedirs(CACHE, exist_ok=True)
    if os.path.exists(SHARED):
        with tarfile.open(SHARED) as tar:
            tar.extractall(CACHE, filter="data")
        return folder
    with urllib.request.urlopen(GITHUB, timeout=300) as r:
        data = r.read()
    os.makedirs(folder, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for m in tar.getmembers():
            parts = m.name.split("/")
            if len(parts) == 4 and parts[1:3] == ["5.1", "cpped"] and m.isfile():
                m.name = parts[3]
                tar.extract(m, folder, filter="data")
    return folder


def check(path: str) -> dict:
    """One file through `saturn check --checkers lock` (no database: each run starts cold)."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    cmd = [sys.executable, "-m", "saturn", "check", "--checkers", "lock", "--no-db",
           "--jobs", "1", "--timeout", "120", "--format", "json", os.path.basename(path)]
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=os.path.dirname(path),
                          env=env)
    wall = time.perf_counter() - t
    try:
        doc = json.loads(proc.stdout)
    except ValueError:
        return {"wall": wall, "error": (proc.stderr or proc.stdout)[-500:], "reports": [],
                "stats": {}}
    return {"wall": wall, "reports": doc["reports"], "stats": doc["stats"],
            "errors": [ln for ln in proc.stderr.splitlines() if "error" in ln]}


def run(jobs: int = 2) -> dict:
    folder = fetch()
    names = sorted(BUGS)
    paths = [os.path.join(folder, f"{n}.c") for n in names]
    t = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = dict(zip(names, pool.map(check, paths)))
    return {"wall": time.perf_counter() - t, "files": results}


def functions(name: str) -> tuple:
    fns = BUGS[name][0]
    return fns if isinstance(fns, tuple) else (fns,)


def found(name: str, reports: list) -> bool:
    return any(r["function"] in functions(name) and r["kind"] == "lock.double-lock"
               for r in reports)


def report(res: dict) -> None:
    files = res["files"]
    print(f"{'file':9} {'depth':>5} {'fns':>5} {'skip':>4} {'secs':>6}  fixed bug  reports")
    hits = deep = 0
    for name, r in files.items():
        s, depth = r["stats"], BUGS[name][1]
        hit = found(name, r["reports"])
        hits += hit
        deep += hit and depth > 0
        print(f"{name:9} {depth:>5} {s.get('functions', 0):>5} {s.get('skipped_files', '-'):>4} "
              f"{r['wall']:>6.1f}  {'found' if hit else 'MISSED':9}  {len(r['reports'])}")
        for rep in r["reports"]:
            mark = "*" if rep["function"] in functions(name) else " "
            print(f"      {mark} {rep['kind']} in {rep['function']} "
                  f"({rep['file']}:{rep['line']}): {rep['message']}")
        if "error" in r:
            print(f"      error: {r['error']}")
    others = sum(1 for n, r in files.items() for rep in r["reports"]
                 if rep["function"] not in functions(n))
    print(f"fixed double locks found: {hits} of {len(files)} "
          f"({deep} of {sum(1 for d in BUGS.values() if d[1] > 0)} inter-procedural); "
          f"reports elsewhere (classified in bench/RESULTS.md): {others}; "
          f"wall {res['wall']:.1f}s")


def main() -> int:
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    report(run(ap.parse_args().jobs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
