"""The same files through clang's static analyzer (clang-14, unix.Malloc and
alpha.unix.PthreadLock) and cppcheck, two files at a time (the 2 cores Saturn gets with
--jobs 2). `ensure` installs them with apt when they are missing and this is root."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

CLANG_CHECKERS = "unix.Malloc,alpha.unix.PthreadLock"
_CLANG_WARN = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):\d+: warning: (?P<msg>.*?) \[(?P<chk>[\w.]+)\]$")
_CPPCHECK_IDS = {"memleak", "memleakOnRealloc", "leakReturnValNotUsed", "leakNoVarFunctionCall",
                 "resourceLeak", "doubleFree", "deallocuse", "mismatchAllocDealloc"}


def available(tool: str) -> bool:
    return shutil.which(tool) is not None


def ensure() -> None:
    """Installs clang-14 and cppcheck with apt if either is missing (the bench is one command on a
    fresh machine); as another user, or without apt, the comparison is left out and said so."""
    if available("clang-14") and available("cppcheck"):
        return
    if os.geteuid() != 0 or not available("apt-get"):
        print("clang-14 / cppcheck missing: apt-get install clang-14 cppcheck (as root)")
        return
    print("installing clang-14 and cppcheck with apt-get ...", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "clang-14", "cppcheck"]):
        if subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL).returncode != 0:
            print(f"{' '.join(cmd)} failed: the comparison is left out")
            return


def _map(fn, files):
    with ThreadPoolExecutor(max_workers=2) as pool:
        return [line for out in pool.map(fn, files) for line in out]


def _flags_for(flags):
    """One list for every file, or a function of the file (kernel compile commands)."""
    return flags if callable(flags) else (lambda path: flags)


def clang(files, flags):
    """(seconds, [(file, line, checker, message)])"""
    flags_of = _flags_for(flags)

    def one(path):
        cmd = ["clang-14", "--analyze", "-Xanalyzer", f"-analyzer-checker={CLANG_CHECKERS}",
               "-Xanalyzer", "-analyzer-output=text", "-Wno-everything", *flags_of(path),
               "-o", "/dev/null", path]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        return [(m["file"], int(m["line"]), m["chk"], m["msg"])
                for m in map(_CLANG_WARN.match, proc.stderr.splitlines())
                if m and m["chk"] in ("unix.Malloc", "alpha.unix.PthreadLock")]
    t = time.perf_counter()
    found = _map(one, files)
    return time.perf_counter() - t, sorted(set(found))


def cppcheck(files, flags):
    flags_of = _flags_for(flags)

    def one(path):
        cmd = ["cppcheck", "--quiet", "--enable=warning", "--template={file}:{line}:{id}:{message}",
               *[f for f in flags_of(path) if f.startswith(("-I", "-D", "-U"))], path]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        out = []
        for line in proc.stderr.splitlines():
            parts = line.split(":", 3)
            if len(parts) == 4 and parts[2] in _CPPCHECK_IDS:
                out.append((parts[0], int(parts[1]), parts[2], parts[3]))
        return out
    t = time.perf_counter()
    found = _map(one, files)
    return time.perf_counter() - t, sorted(set(found))
