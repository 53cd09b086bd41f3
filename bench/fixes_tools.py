"""The three tools of the history bench (bench/fixes.py) on one side of one commit — Saturn as a
user runs it on a compile database, clang-14's analyzer and cppcheck on each changed file with
the same flags — what counts as a report of the commit's kind in one of its functions, and the
cache of their results.

Each tool's raw findings in the changed files are kept (not only the matching ones), so that a
change to the matching below needs no new run.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time

import peers
from kernel import saturn_env
from saturn.cfront.discover import _pp_flags   # the flags Saturn gives the preprocessor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(1, ROOT)   # saturn.cfront.discover, for the flags the preprocessor gets
# Saturn's options beyond the files: the four checkers of the history's kinds, and
# --no-whole-program because the files given are a few of the project's, not all of it — by
# default a global that none of them writes keeps its initializer, so dnsmasq's `daemon`
# (written only in option.c) would be NULL and every `daemon->` path dead.
SATURN_OPTIONS = ("--checkers", "lock,leak,resource,free", "--no-whole-program", "--no-db",
                  "--timeout", "60")
CLANG_CHECKERS = "unix.Malloc,alpha.unix.Stream,alpha.unix.PthreadLock"
# The history's kinds as Saturn's report kinds; a trailing dot is a prefix (every lock.* kind).
SATURN_KINDS = {"memory-leak": "memory.leak", "double-free": "memory.double-free",
                "use-after-free": "memory.use-after-free", "resource-leak": "resource.leak",
                "lock": "lock."}
CPPCHECK_KINDS = {"memleak": "memory-leak", "memleakOnRealloc": "memory-leak",
                  "leakReturnValNotUsed": "memory-leak", "doubleFree": "double-free",
                  "deallocuse": "use-after-free", "deallocret": "use-after-free",
                  "resourceLeak": "resource-leak"}


def source_hash(paths: list[str], suffixes=(".py", ".toml")) -> str:
    """sha256 over the files under `paths` (folders or files, relative to the repository)."""
    h = hashlib.sha256()
    for top in paths:
        full = os.path.join(ROOT, top)
        files = [full] if os.path.isfile(full) else sorted(
            os.path.join(d, n) for d, _, ns in os.walk(full) for n in ns if n.endswith(suffixes))
        for path in sorted(files):
            with open(path, "rb") as fh:
                h.update(os.path.relpath(path, ROOT).encode() + b"\0" + fh.read())
    return h.hexdigest()


def saturn_hash() -> str:
    """Saturn's analysis as it is now (engine, checkers and their library specs) and the
    options it runs with."""
    return key(source_hash(["saturn", "checkers"]), *SATURN_OPTIONS)


# --- Saturn ---------------------------------------------------------------------------------

def _write_db(tree: str, commands: list[dict], path: str) -> None:
    db = [{"directory": tree, "file": c["file"],
           "arguments": [c["compiler"], *c["flags"], "-c", c["file"]]} for c in commands]
    with open(path, "w") as fh:
        json.dump(db, fh, indent=1)


def run_saturn(tree: str, commands: list[dict], changed: list[str], jobs: int, limit: int,
               scratch: str) -> dict:
    """`saturn check -p` on the changed files and their context, as a user would, from the
    tree. Its reports in the changed files, the files it skipped, its incomplete functions;
    "error" when it failed or skipped a changed file."""
    db, out = os.path.join(scratch, "compile_commands.json"), os.path.join(scratch, "saturn.json")
    _write_db(tree, commands, db)
    cmd = [sys.executable, "-m", "saturn", "check", "-p", db, "--root", tree, *SATURN_OPTIONS,
           "--format", "json", "-o", out, "--jobs", str(jobs)]
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=tree, env=saturn_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL,
                            start_new_session=True)   # its workers go with it on a timeout
    try:
        _, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return {"error": f"saturn ran over {limit} s", "seconds": time.perf_counter() - t}
    secs = time.perf_counter() - t
    if proc.returncode not in (0, 1, 2, 3) or not os.path.exists(out):   # 2: all skipped
        lines = [ln for ln in err.splitlines() if ln.strip()]
        why = lines[-1:] if "Traceback" in err else [ln for ln in lines if "error" in ln]
        return {"error": f"saturn exited {proc.returncode}: {(why or lines[-1:] or [''])[0][:300]}",
                "seconds": secs}
    return _read_saturn(json.load(open(out)), changed, secs)


def _read_saturn(doc: dict, changed: list[str], secs: float) -> dict:
    stats = doc["stats"]
    skipped = [{"unit": s.get("unit", s["file"]), "where": f"{s['file']}:{s['line']}",
                "message": s["message"]} for s in stats.get("skipped", [])]
    res = {"seconds": secs, "skipped": skipped,
           "functions": stats.get("functions"), "incomplete": [
               {k: f.get(k) for k in ("function", "file", "cause", "reason")}
               for f in stats.get("incomplete_functions", [])],
           "reports": [{k: r[k] for k in ("kind", "function", "file", "line", "message")}
                       for r in doc["reports"] if r["file"] in changed]}
    own = [s for s in skipped if s["unit"] in changed]
    if own:
        res["error"] = f"{own[0]['unit']} skipped: {own[0]['where']}: {own[0]['message']}"
    return res


# --- the peers ------------------------------------------------------------------------------

def run_clang(tree: str, cmd: dict) -> dict:
    """clang-14 --analyze on one changed file, in its Debian entry's directory, with the
    rewritten flags: its warnings in that file."""
    path = os.path.join(tree, cmd["file"])
    argv = ["clang-14", "--analyze", "-Xanalyzer", f"-analyzer-checker={CLANG_CHECKERS}",
            "-Xanalyzer", "-analyzer-output=text", "-Wno-everything", *cmd["flags"],
            "-o", "/dev/null", path]
    t = time.perf_counter()
    err, why = peers._run_peer(argv, cmd["debian_dir"])
    found = []
    for m in map(peers._CLANG_WARN.match, err.splitlines()):
        if m and os.path.normpath(os.path.join(cmd["debian_dir"], m["file"])) == path:
            found.append([int(m["line"]), m["chk"], m["msg"]])
    return {"findings": found, "failed": why, "seconds": time.perf_counter() - t}


def run_cppcheck(tree: str, cmd: dict) -> dict:
    """cppcheck --enable=warning on one changed file with its -I/-D/-U (and gcc's target
    macros, as bench/peers.py gives them); a file it gave up on is `failed`."""
    path = os.path.join(tree, cmd["file"])
    argv = ["cppcheck", "--quiet", "--enable=warning", "--template={file}:{line}:{id}:{message}",
            *peers.CPPCHECK_TARGET, *peers.preprocessor_flags(["cc", *cmd["flags"]]), path]
    t = time.perf_counter()
    err, why = peers._run_peer(argv, cmd["debian_dir"])
    found = []
    for line in err.splitlines():
        parts = line.split(":", 3)
        if len(parts) != 4 or not parts[1].isdigit():
            continue
        if parts[2] in peers._CPPCHECK_GAVE_UP and why is None:
            why = f"{parts[2]}: line {parts[1]}: {parts[3]}"
        if os.path.normpath(os.path.join(cmd["debian_dir"], parts[0])) == path:
            found.append([int(parts[1]), parts[2], parts[3]])
    return {"findings": found, "failed": why, "seconds": time.perf_counter() - t}


def clang_kind(checker: str, msg: str) -> str | None:
    if checker == "alpha.unix.PthreadLock":
        return "lock"
    if "never closed" in msg or "resource leak" in msg:
        return "resource-leak"
    if "Potential leak" in msg or "Potential memory leak" in msg:
        return "memory-leak"
    if "released memory" in msg or "freed twice" in msg:
        return "double-free"
    if "after it is freed" in msg or "Use of memory after" in msg:
        return "use-after-free"
    return None


# --- is the fixed code compiled at all ---------------------------------------------------------

_MARKER = re.compile(r'# (\d+) "((?:[^"\\]|\\.)*)"')
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? ", re.M)


def compiled_lines(tree: str, cmds: list[dict], git_dir: str, parent: str, commit: str) -> dict:
    """Per changed file, [kept, touched]: of the parent's non-blank lines the fix touched
    (deleted or changed, or around an insertion), how many the preprocessor keeps with the
    file's flags. None kept: the fix is in code this configuration does not compile (an
    #ifdef for another platform or an option the build leaves off), which no tool sees."""
    out = {}
    for cmd in cmds:
        path = os.path.join(tree, cmd["file"])
        lines = open(path, errors="replace").read().split("\n")
        diff = subprocess.run(["git", "-C", git_dir, "diff", "-U0", parent, commit, "--",
                               cmd["file"]], capture_output=True, text=True, errors="replace")
        touched = set()
        for m in _HUNK.finditer(diff.stdout):
            a, n = int(m[1]), int(m[2]) if m[2] is not None else 1
            touched |= set(range(a, a + n)) if n else {a, a + 1}
        touched = {n for n in touched if 0 < n <= len(lines) and lines[n - 1].strip()}
        pre = subprocess.run([os.environ.get("SATURN_CC", "cc"), "-E",
                              *_pp_flags(cmd["flags"]), path], capture_output=True, text=True,
                             errors="replace", cwd=tree)
        out[cmd["file"]] = [len(touched & _kept(pre.stdout, path)), len(touched)]
    return out


def _kept(text: str, path: str) -> set[int]:
    """The lines of `path` that preprocessed output `text` holds, by its line markers."""
    kept, cur, n = set(), None, 0
    for line in text.split("\n"):
        m = _MARKER.match(line)
        if m:
            cur, n = os.path.normpath(m[2]), int(m[1])
            continue
        if cur == path and line.strip():
            kept.add(n)
        n += 1
    return kept


# --- what counts --------------------------------------------------------------------------------

def saturn_hits(res: dict, kind: str, functions: list[str]) -> list[str]:
    """Saturn's reports of the commit's kind in one of its functions (file already one of the
    changed files), as lines."""
    want = SATURN_KINDS[kind]
    return sorted(f"{r['file']}:{r['line']}: {r['function']}: {r['message']} [{r['kind']}]"
                  for r in res.get("reports", [])
                  if (r["kind"].startswith(want) if want.endswith(".") else r["kind"] == want)
                  and r["function"].rsplit(":", 1)[-1] in functions)


def peer_hits(tool: str, per_file: dict, ranges: dict, kind: str) -> list[str]:
    """A peer's reports of the kind whose line falls inside one of the commit's functions."""
    out = []
    for rel, res in per_file.items():
        for line, chk, msg in res.get("findings", []):
            k = clang_kind(chk, msg) if tool == "clang" else CPPCHECK_KINDS.get(chk)
            fns = [fn for fn, spans in ranges.get(rel, {}).items()
                   if any(a <= line <= b for a, b in spans)]
            if k == kind and fns:
                out.append(f"{rel}:{line}: {fns[0]}: {msg} [{chk}]")
    return sorted(set(out))


# --- the cache ----------------------------------------------------------------------------------

class Cache:
    """bench/out/fixes/cache/<commit>/<side>.<tool>.json, each holding the key it was made
    with: a different key (another Saturn, other inputs) is a miss."""

    def __init__(self, top: str, fresh: bool):
        self.top, self.fresh = top, fresh

    def _path(self, commit: str, side: str, tool: str) -> str:
        return os.path.join(self.top, commit, f"{side}.{tool}.json")

    def get(self, commit: str, side: str, tool: str, key: str):
        if self.fresh:
            return None
        try:
            doc = json.load(open(self._path(commit, side, tool)))
        except (OSError, ValueError):
            return None
        return doc["value"] if doc.get("key") == key else None

    def put(self, commit: str, side: str, tool: str, key: str, value) -> None:
        path = self._path(commit, side, tool)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path + ".tmp", "w") as fh:
            json.dump({"key": key, "value": value}, fh, indent=1, sort_keys=True)
        os.replace(path + ".tmp", path)


def key(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]
