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
from typing import NamedTuple

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


class _Entry(NamedTuple):
    """A file as a compile database gives it: its path, directory and command."""
    path: str
    directory: str
    args: list


def _entries(files, flags) -> list[_Entry]:
    """The bench corpora's files as compile entries: one list of flags for every file, or a
    function of the file (kernel compile commands)."""
    flags_of = flags if callable(flags) else (lambda path: flags)
    return [_Entry(path, os.getcwd(), ["cc", *flags_of(path), path]) for path in files]


def clang(files, flags):
    """(seconds, [(file, line, checker, message)], [(file, failure)]), as clang_entries."""
    return clang_entries(_entries(files, flags))


def cppcheck(files, flags):
    """As clang, for cppcheck: the failures are the files it gave up on."""
    return cppcheck_entries(_entries(files, flags))


# Compile-database entries (bench/projects.py): each file with its own command, in its own
# directory, so the peers see what the build compiled, with the build's flags.
_DROP_WITH_ARG = {"-o", "-MF", "-MT", "-MQ"}
_DROP_ALONE = {"-c", "-MD", "-MMD", "-MP", "-M", "-MM"}
PER_FILE_TIMEOUT = 900   # seconds: one pathological file must not stall the whole bench
# cppcheck gives up on a file (exit status 0, no findings) after these; the bench says so.
# gcc's own target macros, which a compile command implies without writing them: without them
# cppcheck takes `#if defined(__GNUC__) ... #else #error` (c-ares' ares_build.h) the wrong way
# and gives up on the file. Its -D flags check only the configuration given, as gcc builds it.
CPPCHECK_TARGET = ("-D__GNUC__=12", "-D__linux__", "-D__x86_64__")
_CPPCHECK_GAVE_UP = {"preprocessorErrorDirective", "syntaxError", "internalAstError",
                     "cppcheckError", "unknownMacro", "internalError"}


def analyzer_flags(args, source_path: str, directory: str) -> list[str]:
    """A compile command's flags minus the compiler, the output, -c, the dependency-file flags
    (the analyzer must not rewrite the build's .d files) and the source file itself."""
    out, skip = [], False
    for arg in args[1:]:
        if skip:
            skip = False
        elif arg in _DROP_WITH_ARG:
            skip = True
        elif arg in _DROP_ALONE or arg.startswith(("-Wp,-M", "-MF", "-MT", "-MQ")) or \
                (arg.startswith("-o") and len(arg) > 2):
            continue
        elif not arg.startswith("-") and \
                os.path.normpath(os.path.join(directory, arg)) == source_path:
            continue
        else:
            out.append(arg)
    return out


def preprocessor_flags(args) -> list[str]:
    """The -I/-D/-U flags of a compile command, joined to their values (cppcheck's form)."""
    out, i = [], 1
    while i < len(args):
        arg = args[i]
        if arg in ("-I", "-D", "-U") and i + 1 < len(args):
            out.append(arg + args[i + 1])
            i += 1
        elif arg.startswith(("-I", "-D", "-U")):
            out.append(arg)
        i += 1
    return out


def _run_peer(cmd, cwd):
    """(stderr, failure or None): a tool that exits non-zero or times out failed on the file."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd,
                              timeout=PER_FILE_TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return "", f"timeout after {PER_FILE_TIMEOUT}s"
    if proc.returncode != 0:
        errs = [ln for ln in proc.stderr.splitlines() if "error" in ln]
        return proc.stderr, (errs or proc.stderr.splitlines() or [f"exit {proc.returncode}"])[0]
    return proc.stderr, None


def _entries_run(one, entries, jobs):
    """(seconds, sorted unique findings, sorted [(file, failure)]) of `one` over `entries`."""
    t = time.perf_counter()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(one, entries))
    secs = time.perf_counter() - t
    found = sorted({f for fs, _ in results for f in fs})
    failed = sorted((e.path, why) for e, (_, why) in zip(entries, results) if why)
    return secs, found, failed


def clang_entries(entries, jobs=2):
    """clang-14 --analyze on each entry (an object with path, directory and args), in its
    directory with its full flags: (seconds, [(abs file, line, checker, message)], failed)."""
    def one(e):
        cmd = ["clang-14", "--analyze", "-Xanalyzer", f"-analyzer-checker={CLANG_CHECKERS}",
               "-Xanalyzer", "-analyzer-output=text", "-Wno-everything",
               *analyzer_flags(e.args, e.path, e.directory), "-o", "/dev/null", e.path]
        err, why = _run_peer(cmd, e.directory)
        found = [(os.path.normpath(os.path.join(e.directory, m["file"])), int(m["line"]),
                  m["chk"], m["msg"]) for m in map(_CLANG_WARN.match, err.splitlines())
                 if m and m["chk"] in ("unix.Malloc", "alpha.unix.PthreadLock")]
        return found, why
    return _entries_run(one, entries, jobs)


def cppcheck_entries(entries, jobs=2):
    """cppcheck on each entry with its -I/-D/-U, in its directory; as clang_entries."""
    def one(e):
        cmd = ["cppcheck", "--quiet", "--enable=warning",
               "--template={file}:{line}:{id}:{message}", *CPPCHECK_TARGET,
               *preprocessor_flags(e.args), e.path]
        err, why = _run_peer(cmd, e.directory)
        found = []
        for line in err.splitlines():
            parts = line.split(":", 3)
            if len(parts) == 4 and parts[2] in _CPPCHECK_GAVE_UP and why is None:
                why = f"{parts[2]}: {os.path.relpath(parts[0], e.directory)}:{parts[1]}: {parts[3]}"
            if len(parts) == 4 and parts[2] in _CPPCHECK_IDS and parts[1].isdigit():
                found.append((os.path.normpath(os.path.join(e.directory, parts[0])),
                              int(parts[1]), parts[2], parts[3]))
        return found, why
    return _entries_run(one, entries, jobs)
