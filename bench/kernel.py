"""Check Linux kernel subsystems: one command fetches Debian's linux-source-6.1, configures it
(defconfig plus what the subsystems need), records how each file is compiled, and runs Saturn.

    python bench/kernel.py                      # ext2, e1000, udc, sound, fat, tty (below)
    python bench/kernel.py fs/minix --enable MINIX_FS
    python bench/kernel.py --jobs 2 ext2
    python bench/kernel.py --allmod drivers/staging   # a tree of its own, allmodconfig

Prints per subsystem: files, functions, parse failures, crashes (internal errors), time and the
reports. Each file's compile command comes from Kbuild itself (the objects are built, then the
kernel's scripts/clang-tools/gen_compile_commands.py reads the .cmd files Kbuild leaves), and
Saturn preprocesses with `-D__CHECKER__` so sparse's `__acquires`/`__releases`/`__must_hold`
annotations are visible. Everything lands in bench/corpora/kernel/ (not committed); with
--allmod, in bench/corpora/kernel-allmod/, configured by `make allmodconfig` (every driver the
architecture builds, lockdep included), for large directories of drivers.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WORK = os.path.join(HERE, "corpora", "kernel")
TREE = os.path.join(WORK, "linux-source-6.1")
PACKAGE = "linux-source-6.1"
BUILD_DEPS = {"flex": "flex", "bison": "bison", "bc": "bc", "make": "make", "gcc": "gcc",
              "/usr/include/gelf.h": "libelf-dev", "/usr/include/openssl/ssl.h": "libssl-dev"}

# name -> (directory, CONFIG_ options it needs on top of defconfig)
SUBSYSTEMS = {
    "ext2": ("fs/ext2", ["EXT2_FS", "EXT2_FS_XATTR", "EXT2_FS_POSIX_ACL"]),
    "e1000": ("drivers/net/ethernet/intel/e1000", ["E1000"]),
    "udc": ("drivers/usb/gadget/udc", ["USB_GADGET", "USB_DUMMY_HCD", "USB_NET2280", "USB_GOKU",
                                      "USB_AMD5536UDC"]),
    "sound": ("sound/core", []),
    "fat": ("fs/fat", []),
    "tty": ("drivers/tty", []),
}
# Every subsystem: lockdep's annotations (`mutex_lock_nested(l, depth)`), which the macros of a
# kernel without it erase, so that lock classes (NOTE [lock-classes]) see them.
LOCKDEP = ["DEBUG_KERNEL", "DEBUG_LOCK_ALLOC"]


def _run(cmd, check=True, **kw):
    return subprocess.run(cmd, check=check, **kw)


def install_build_deps() -> None:
    missing = sorted({pkg for probe, pkg in BUILD_DEPS.items()
                      if not (os.path.exists(probe) if probe.startswith("/") else shutil.which(probe))})
    if missing:
        print(f"installing kernel build dependencies: {' '.join(missing)}", file=sys.stderr)
        _run(["apt-get", "install", "-y", "-q", *missing], stdout=subprocess.DEVNULL)


def fetch() -> str:
    """Download and unpack Debian's kernel source once; return the tree."""
    if os.path.exists(os.path.join(TREE, "Makefile")):
        return TREE
    os.makedirs(WORK, exist_ok=True)
    debs = glob.glob(os.path.join(WORK, f"{PACKAGE}_*.deb"))
    if not debs:
        _run(["apt-get", "download", PACKAGE], cwd=WORK)
        debs = glob.glob(os.path.join(WORK, f"{PACKAGE}_*.deb"))
    print(f"unpacking {os.path.basename(debs[0])}", file=sys.stderr)
    tar = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", debs[0]], stdout=subprocess.PIPE)
    inner = subprocess.Popen(["tar", "-xO", f"./usr/src/{PACKAGE}.tar.xz"], stdin=tar.stdout,
                             stdout=subprocess.PIPE)
    _run(["tar", "-xJ", "-C", WORK], stdin=inner.stdout)
    return TREE


def use_allmod() -> None:
    """Work in the allmodconfig tree (bench/corpora/kernel-allmod/) from now on."""
    global WORK, TREE, ALLMOD
    WORK = os.path.join(HERE, "corpora", "kernel-allmod")
    TREE = os.path.join(WORK, "linux-source-6.1")
    ALLMOD = True


ALLMOD = False


def configure(options: list[str]) -> None:
    """defconfig once, then the options (a changed set re-runs olddefconfig and prepare);
    allmodconfig instead in the --allmod tree."""
    stamp = os.path.join(WORK, ".config-options")
    wanted = ["allmodconfig"] if ALLMOD else sorted(set(options))
    if os.path.exists(stamp) and json.load(open(stamp)) == wanted:
        return
    if not os.path.exists(os.path.join(TREE, ".config")):
        _run(["make", "-s", "allmodconfig" if ALLMOD else "defconfig"], cwd=TREE,
             stdout=subprocess.DEVNULL)
    args = [x for opt in wanted for x in ("-e", opt) if not ALLMOD]
    if args:
        _run(["./scripts/config", *args], cwd=TREE)
    _run(["make", "-s", "olddefconfig"], cwd=TREE, stdout=subprocess.DEVNULL)
    print("make modules_prepare", file=sys.stderr)
    _run(["make", "-s", f"-j{os.cpu_count() or 1}", "modules_prepare"], cwd=TREE,
         stdout=subprocess.DEVNULL)
    json.dump(wanted, open(stamp, "w"))


def compile_commands(name: str, directory: str) -> str:
    """Build the directory's objects and record their compile commands (once per directory)."""
    out = os.path.join(WORK, f"{name}.compile_commands.json")
    if os.path.exists(out):
        return out
    print(f"make {directory}/", file=sys.stderr)
    # -k: with allmodconfig a driver that does not build here must not stop the others
    _run(["make", "-s", "-k", f"-j{os.cpu_count() or 1}", f"{directory}/"], cwd=TREE,
         stdout=subprocess.DEVNULL, check=False) if ALLMOD else \
        _run(["make", "-s", f"-j{os.cpu_count() or 1}", f"{directory}/"], cwd=TREE,
             stdout=subprocess.DEVNULL)
    _run([sys.executable, "scripts/clang-tools/gen_compile_commands.py", "-d", ".", "-o", out,
          directory], cwd=TREE)
    if not json.load(open(out)):
        os.remove(out)
        raise SystemExit(f"{directory}: nothing was compiled with this configuration; "
                         "enable its CONFIG_ options with --enable")
    return out


def prepare(names: list[str], extra_options=()) -> dict[str, tuple[str, str]]:
    """name -> (directory, compile_commands.json) for each subsystem, ready to check."""
    install_build_deps()
    fetch()
    resolved = {n: SUBSYSTEMS.get(n, (n.rstrip("/"), [])) for n in names}
    configure([o for _, opts in SUBSYSTEMS.values() for o in opts] + LOCKDEP + list(extra_options))
    return {n: (d, compile_commands(n.replace("/", "_"), d)) for n, (d, _) in resolved.items()}


def saturn_env() -> dict:
    """The environment Saturn runs in: this checkout on the path, and Python's bytecode cache
    on even where the shell turned it off (PYTHONDONTWRITEBYTECODE=1 made every run compile
    Saturn's modules again: 0.2 s of each re-check), as on a user's machine."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def check(name: str, directory: str, commands: str, jobs: int, checkers: str) -> dict:
    out_dir = os.path.join(HERE, "out")
    os.makedirs(out_dir, exist_ok=True)
    stem = os.path.join(out_dir, "kernel-" + name.replace("/", "_"))
    for stale in glob.glob(stem + ".db*"):
        shutil.rmtree(stale) if os.path.isdir(stale) else os.remove(stale)
    cmd = [sys.executable, "-m", "saturn", "check", "-p", commands, "-D__CHECKER__",
           "--root", os.path.join(TREE, directory), "--checkers", checkers, "--format", "json",
           "-o", stem + ".json", "--db", stem + ".db", "--jobs", str(jobs), "--timeout", "120"]
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=TREE, env=saturn_env())
    wall = time.perf_counter() - t
    if proc.returncode not in (0, 1):
        return {"name": name, "error": proc.stderr[-2000:]}
    doc = json.load(open(stem + ".json"))
    crashes = [ln for ln in proc.stderr.splitlines() if "internal error" in ln]
    return {"name": name, "directory": directory, "wall": wall, "stats": doc["stats"],
            "reports": doc["reports"], "crashes": crashes, "commands": commands,
            "parse_failures": [ln for ln in proc.stderr.splitlines() if ": error:" in ln]}


def print_result(r: dict) -> None:
    if "error" in r:
        print(f"{r['name']}: FAILED\n{r['error']}")
        return
    s = r["stats"]
    print(f"{r['directory']:36} {s['files']:>5} {s['functions']:>6} {s['skipped_files']:>6} "
          f"{len(r['crashes']):>7} {s['incomplete']:>7} {r['wall']:>7.1f} {len(r['reports']):>7}")
    for line in r["parse_failures"][:5] + r["crashes"][:5]:
        print(f"    {line}")
    for rep in r["reports"]:
        print(f"    {rep['file']}:{rep['line']}: [{rep['kind']}] {rep['message']}")


HEADER = (f"{'subsystem':36} {'files':>5} {'funcs':>6} {'parse✗':>6} {'crashes':>7} "
          f"{'incompl':>7} {'wall s':>7} {'reports':>7}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("subsystems", nargs="*", default=list(SUBSYSTEMS),
                    help=f"known names ({', '.join(SUBSYSTEMS)}) or kernel directories")
    ap.add_argument("--enable", action="append", default=[], metavar="OPTION",
                    help="a CONFIG_ option (without the prefix) to enable as well")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--checkers", default="lock,leak")
    ap.add_argument("--allmod", action="store_true",
                    help="check in an allmodconfig tree of its own (large driver directories)")
    args = ap.parse_args()
    if args.allmod:
        use_allmod()
    ready = prepare(args.subsystems, args.enable)
    print(HEADER)
    failed = 0
    for name, (directory, commands) in ready.items():
        r = check(name, directory, commands, args.jobs, args.checkers)
        print_result(r)
        failed += "error" in r
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
