"""Good/bad pairs in the style of public test suites (written here, none copied): double frees,
uses after free, memory, files and descriptors left open, double locks and unlocks, each
through ~40 control- and data-flow
shapes (constant and global flags, loops, sinks and sources in other functions and files,
pointers, arrays, structs, unions, function pointers). Runs Saturn and clang-14 on them and
scores each: bad cases found, and good functions flagged.

    python bench/flowsuite.py [--no-clang] [--only KIND]

A case is one bad function (with its source and sink helpers) and its good variants: G2B (a good
source, the bad sink), B2G (the bad source, a good sink) and, for conditional flows, the bad code
in the branch never taken. A report counts for the function it is issued in (its helpers are its
own: names start with bad/good...). Files go to bench/corpora/flowsuite/ (not committed).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpora", "flowsuite")
sys.path.insert(0, HERE)
from flowsuite_flows import FLOWS, _uid  # noqa: E402

SUPPORT_H = """\
#ifndef SUPPORT_H
#define SUPPORT_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <pthread.h>
typedef struct { int a; int b; } pair_t;
void printLine(const char *line);
void printIntLine(int value);
void printPairLine(const pair_t *p);
int globalReturnsTrue(void);
int globalReturnsFalse(void);
int globalReturnsTrueOrFalse(void);
extern const int GLOBAL_CONST_TRUE, GLOBAL_CONST_FALSE, GLOBAL_CONST_FIVE;
extern int globalTrue, globalFalse, globalFive;
extern pthread_mutex_t flowMutex;
#endif
"""
SUPPORT_C = """\
#include "support.h"
const int GLOBAL_CONST_TRUE = 1, GLOBAL_CONST_FALSE = 0, GLOBAL_CONST_FIVE = 5;
int globalTrue = 1, globalFalse = 0, globalFive = 5;
pthread_mutex_t flowMutex = PTHREAD_MUTEX_INITIALIZER;
void printLine(const char *line) { if (line != NULL) printf("%s\\n", line); }
void printIntLine(int value) { printf("%d\\n", value); }
void printPairLine(const pair_t *p) { printf("%d %d\\n", p->a, p->b); }
int globalReturnsTrue(void) { return 1; }
int globalReturnsFalse(void) { return 0; }
int globalReturnsTrueOrFalse(void) { return rand() % 2; }
"""

# The flaws: how data is declared, made and used. `bad_src`/`good_src` make data; `bad_sink`
# and `good_sink` finish with it. Kinds are Saturn's; clang's messages are matched by `clang`.
FLAWS = {
    "double_free_char": dict(
        kind="memory.double-free", clang=r"free released memory|[Dd]ouble free", type="char *",
        init="NULL",
        bad_src="data = (char *)malloc(64); if (data == NULL) exit(-1); free(data);",
        good_src="data = (char *)malloc(64); if (data == NULL) exit(-1);",
        bad_sink="free(data);", good_sink="; /* not freed again */"),
    "double_free_struct": dict(
        kind="memory.double-free", clang=r"free released memory|[Dd]ouble free",
        type="pair_t *", init="NULL",
        bad_src="data = (pair_t *)malloc(sizeof(pair_t)); if (data == NULL) exit(-1); "
                "free(data);",
        good_src="data = (pair_t *)malloc(sizeof(pair_t)); if (data == NULL) exit(-1);",
        bad_sink="free(data);", good_sink="; /* not freed again */"),
    "use_after_free_char": dict(
        kind="memory.use-after-free", clang=r"after it is freed|[Uu]se of memory after",
        type="char *", init="NULL",
        bad_src="data = (char *)malloc(64); if (data == NULL) exit(-1); "
                "memset(data, 'A', 63); data[63] = '\\0'; free(data);",
        good_src="data = (char *)malloc(64); if (data == NULL) exit(-1); "
                 "memset(data, 'A', 63); data[63] = '\\0';",
        bad_sink="printLine(data);", good_sink="; /* not used */"),
    "use_after_free_int": dict(
        kind="memory.use-after-free", clang=r"after it is freed|[Uu]se of memory after",
        type="int *", init="NULL",
        bad_src="data = (int *)malloc(10 * sizeof(int)); if (data == NULL) exit(-1); "
                "{ int i; for (i = 0; i < 10; i++) data[i] = 5; } free(data);",
        good_src="data = (int *)malloc(10 * sizeof(int)); if (data == NULL) exit(-1); "
                 "{ int i; for (i = 0; i < 10; i++) data[i] = 5; }",
        bad_sink="printIntLine(data[0]);", good_sink="; /* not used */"),
    "use_after_free_struct": dict(
        kind="memory.use-after-free", clang=r"after it is freed|[Uu]se of memory after",
        type="pair_t *", init="NULL",
        bad_src="data = (pair_t *)malloc(sizeof(pair_t)); if (data == NULL) exit(-1); "
                "data->a = 1; data->b = 2; free(data);",
        good_src="data = (pair_t *)malloc(sizeof(pair_t)); if (data == NULL) exit(-1); "
                 "data->a = 1; data->b = 2;",
        bad_sink="printPairLine(data);", good_sink="; /* not used */"),
    "fd_leak_open": dict(
        kind="resource.leak", clang=r"never closed|[Rr]esource leak|[Pp]otential leak",
        type="int", init="-1",
        bad_src='data = open("flowsuite.txt", O_RDWR | O_CREAT, S_IREAD | S_IWRITE);',
        good_src=None,
        bad_sink="; /* not closed */", good_sink="if (data != -1) { close(data); }"),
    "fd_leak_socket": dict(
        kind="resource.leak", clang=r"never closed|[Rr]esource leak|[Pp]otential leak",
        type="int", init="-1",
        bad_src="data = dup(1);",
        good_src=None,
        bad_sink='if (data >= 0) { write(data, "x", 1); }',
        good_sink='if (data >= 0) { write(data, "x", 1); close(data); }'),
    "memory_leak_char": dict(
        kind="memory.leak", clang=r"[Pp]otential leak|[Pp]otential memory leak",
        type="char *", init="NULL",
        bad_src='data = (char *)malloc(100); if (data == NULL) exit(-1); '
                'strcpy(data, "A String"); printLine(data);',
        good_src=None,
        bad_sink="; /* not freed */", good_sink="free(data);"),
    "memory_leak_struct": dict(
        kind="memory.leak", clang=r"[Pp]otential leak|[Pp]otential memory leak",
        type="pair_t *", init="NULL",
        bad_src="data = (pair_t *)calloc(1, sizeof(pair_t)); if (data == NULL) exit(-1); "
                "data->a = 1; printPairLine(data);",
        good_src=None,
        bad_sink="; /* not freed */", good_sink="free(data);"),
    "lock_double_lock": dict(
        kind="lock.double-lock", clang=r"already been acquired",
        type="pthread_mutex_t *", init="NULL",
        bad_src="pthread_mutex_lock(&flowMutex); data = &flowMutex;",
        good_src="data = &flowMutex;",
        bad_sink="pthread_mutex_lock(data); pthread_mutex_unlock(data);",
        good_sink="pthread_mutex_unlock(data);"),
    "lock_double_unlock": dict(
        kind="lock.double-unlock", clang=r"already been unlocked",
        type="pthread_mutex_t *", init="NULL",
        bad_src="pthread_mutex_lock(&flowMutex); pthread_mutex_unlock(&flowMutex); "
                "data = &flowMutex;",
        good_src="pthread_mutex_lock(&flowMutex); data = &flowMutex;",
        bad_sink="pthread_mutex_unlock(data);", good_sink="; /* not unlocked again */"),
    "file_leak_fopen": dict(
        kind="resource.leak", clang=r"never closed|[Rr]esource leak|[Pp]otential leak",
        type="FILE *", init="NULL",
        bad_src='data = fopen("flowsuite.txt", "w+");',
        good_src=None,
        bad_sink="; /* not closed */", good_sink="if (data != NULL) { fclose(data); }"),
}


def generate(out: str = OUT) -> list[dict]:
    """Writes the cases; returns their manifest: files, bad and good function names."""
    os.makedirs(out, exist_ok=True)
    _write(os.path.join(out, "support.h"), SUPPORT_H)
    _write(os.path.join(out, "support.c"), SUPPORT_C)
    cases = []
    for fname, flaw in sorted(FLAWS.items()):
        for flow_name, flow in sorted(FLOWS.items()):
            case = f"{fname}__{flow_name}"
            files, goods = flow(case, flaw)
            paths = []
            for suffix, text in files:
                # One program: the entry points get the case's name, as the helpers others
                # files see have (`bad__1a2b3c4d`).
                text = _ENTRY.sub(lambda m: f"void {m.group(1)}__{_uid(case)}(void)", text)
                path = os.path.join(out, f"{case}{suffix}.c")
                _write(path, text)
                paths.append(path)
            cases.append({"case": case, "flaw": fname, "kind": flaw["kind"], "files": paths,
                          "goods": goods})
    return cases


_ENTRY = re.compile(r"^void (bad|good(?:G2B|B2G)\d?)\(void\)$", re.M)


def _write(path, text):
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


# -- who is flagged ------------------------------------------------------------------------------
_FUNC = re.compile(r"^(?:static\s+)?(?:void|int|char|pair_t|FILE)\s*\**\s*(\w+)\s*\([^;]*$")


def functions(path: str) -> list[tuple[int, int, str]]:
    """(first line, last line, name) of each function of a generated file."""
    out, name, start = [], None, 0
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    for i, line in enumerate(lines, 1):
        m = _FUNC.match(line)
        if m and name is None:
            name, start = m.group(1), i
        elif line == "}" and name is not None:
            out.append((start, i, name))
            name = None
    return out


def owner(name: str) -> str:
    """The good or bad function a helper belongs to: `goodG2BSink_b__1234abcd` -> goodG2B."""
    return re.sub(r"(Sink|Source)(_[a-z])?$", "", name.split("__")[0])


def flagged(cases, reports) -> dict:
    """case -> set of owners flagged by a report of its kind ((file, line, kind) reports)."""
    spans = {}
    for c in cases:
        for f in c["files"]:
            spans[os.path.basename(f)] = (c["case"], functions(f))
    out: dict = {}
    for file, line, kind in reports:
        got = spans.get(os.path.basename(file))
        if got is None:
            continue
        case, fns = got
        for lo, hi, name in fns:
            if lo <= line <= hi:
                out.setdefault(case, set()).add((owner(name), kind))
    return out


def score(cases, flags, matches) -> dict:
    """Per flaw: bad found / bads, goods flagged / goods."""
    out: dict = {}
    for c in cases:
        row = out.setdefault(c["flaw"], {"bad": 0, "found": 0, "good": 0, "flagged": 0,
                                         "missed": [], "false": []})
        hit = {o for o, k in flags.get(c["case"], ()) if matches(c, k)}
        row["bad"] += 1
        row["found"] += "bad" in hit
        if "bad" not in hit:
            row["missed"].append(c["case"])
        for g in c["goods"]:
            row["good"] += 1
            if g in hit:
                row["flagged"] += 1
                row["false"].append(f"{c['case']}:{g}")
    return out


# -- the tools -----------------------------------------------------------------------------------
def run_saturn(cases, jobs: int, extra=()) -> tuple[float, list]:
    files = sorted({f for c in cases for f in c["files"]} | {os.path.join(OUT, "support.c")})
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "saturn", "check", "--no-db", "--format", "json",
                           "--checkers", "free,resource,leak,lock", "-j", str(jobs), *extra, *files],
                          capture_output=True, text=True, cwd=os.path.dirname(HERE))
    seconds = time.perf_counter() - t
    doc = json.loads(proc.stdout)
    return seconds, [(r["file"], r["line"], r["kind"]) for r in doc["reports"]]


CLANG_CHECKERS = "unix.Malloc,alpha.unix.Stream,alpha.unix.PthreadLock"
_CLANG = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):\d+: warning: (?P<msg>.*?) \[(?P<chk>[\w.]+)\]$")


def run_clang(cases) -> tuple[float, list]:
    """clang-14's analyzer, one case at a time (its files together: clang does not follow calls
    across files, so a case's other files are checked too)."""
    found, t = [], time.perf_counter()
    for c in cases:
        for f in c["files"]:
            proc = subprocess.run(["clang-14", "--analyze", "-Xanalyzer",
                                   f"-analyzer-checker={CLANG_CHECKERS}", "-Xanalyzer",
                                   "-analyzer-output=text", "-Wno-everything", "-I", OUT,
                                   "-o", "/dev/null", f], capture_output=True, text=True)
            for m in map(_CLANG.match, proc.stderr.splitlines()):
                if m:
                    found.append((m["file"], int(m["line"]), m["msg"]))
    return time.perf_counter() - t, found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-clang", action="store_true")
    ap.add_argument("--only", help="flaws whose name contains this")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--show", action="store_true", help="list the cases missed and goods flagged")
    ap.add_argument("--no-whole-program", action="store_true",
                    help="run Saturn with --no-whole-program (the support file's globals are "
                         "unknown at every entry)")
    a = ap.parse_args()
    cases = [c for c in generate() if not a.only or a.only in c["flaw"]]
    extra = ["--no-whole-program"] if a.no_whole_program else []
    tools = {"saturn": (run_saturn(cases, a.jobs, extra), lambda c, k: k == c["kind"])}
    if not a.no_clang:
        tools["clang-14"] = (run_clang(cases),
                             lambda c, msg: re.search(FLAWS[c["flaw"]]["clang"], msg) is not None)
    for tool, ((seconds, reports), matches) in tools.items():
        result = score(cases, flagged(cases, reports), matches)
        print(f"{tool} ({seconds:.1f} s)")
        for flaw, r in sorted(result.items()):
            print(f"  {flaw:24} found {r['found']:3}/{r['bad']:3} "
                  f"({100 * r['found'] / r['bad']:5.1f} %)   goods flagged {r['flagged']:3}/"
                  f"{r['good']:3} ({100 * r['flagged'] / r['good']:5.1f} %)")
            if a.show:
                for x in r["missed"]:
                    print(f"      missed {x}")
                for x in r["false"]:
                    print(f"      flagged {x}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
