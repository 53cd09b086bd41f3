"""One `saturn check` run: discover → preprocess → parse → lower → analyse bottom-up → reports."""
from __future__ import annotations

import gc
import os
import re
import resource
import signal
import sys
import threading
import time

from .cfront.discover import Discovery, relative_to
from .collector import no_gc
from .incremental.pipeline import units
from .interproc import pools, schedule
from .ir import indirect, linking
from .ir.program import Program
from .ir.types import forget_structs
from .logic.circuit import BudgetExceeded
from .report.fingerprint import assign_fingerprints
from .outcome import RunResult
from .symex.engine import FunctionResult, analyze_function
from .symex.options import Options


def load_program(discovery: Discovery, front, phases, log, jobs: int = 1):
    """(program, files parsed, files skipped as `_skip` gives them). Each unit is lowered on its
    own and absorbed in the files' order (NOTE [unit-cache] in incremental/units.py).

    NOTE [frozen-program]: the lowered program is millions of objects that live until the run
    ends. Each unit is frozen (gc.freeze) as soon as it is loaded — collection stays off until
    then, or the first one after each load walks the whole unit — so no collection walks it
    again and forked workers share its pages instead of copying them; the process ends with
    os._exit (__main__.py) rather than freeing it object by object."""
    program, skipped = Program(), []
    t0 = time.perf_counter()
    with no_gc():
        for src, unit, error in units(discovery.files, front, jobs):
            if error is not None:
                skipped.append(_skip(src, error, log))
            else:
                program.absorb(unit)
                gc.freeze()
    phases["front end"] += time.perf_counter() - t0
    for w in program.warnings:
        log(w)
    return program, len(discovery.files) - len(skipped), skipped


_ERROR = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?:fatal )?error: (?P<msg>.*)$",
                    re.S)


def _skip(src, message: str, log) -> dict:
    """A skipped file as the outputs list it (SARIF: a tool execution notification): where the
    error is (perhaps a header), the file checked (`unit`), and the source line it is on,
    which the log shows under the message with a caret, as compilers do."""
    m = _ERROR.match(message)
    if m is None:
        log(message)
        return {"file": src.path, "unit": src.path, "line": 0, "column": 0, "message": message}
    line, col = int(m["line"]), int(m["col"])
    where = os.path.join(src.directory, m["file"]) if src.directory else m["file"]
    # (1:1 is where errors of the whole file are put: a deadline, a lost worker.)
    text = source_line(where, line) if (line, col) != (1, 1) else ""
    caret = "".join(c if c == "\t" else " " for c in text[:col - 1]) + "^"
    log(message + (f"\n    {text}\n    {caret}" if text.strip() else ""))
    return {"file": m["file"], "unit": src.path, "line": line, "column": col,
            "message": m["msg"], "source": text}


def source_line(path: str, line: int) -> str:
    """Line `line` of the file at `path`, without its end; "" when it cannot be read."""
    try:
        with open(path, "rb") as fh:
            for n, text in enumerate(fh, 1):
                if n == line:
                    return text.decode("utf-8", "replace").rstrip("\r\n")
    except OSError:
        pass
    return ""


class FunctionTimeout(Exception):
    pass


_TIMING = [False]   # the alarm only interrupts while a function is being analysed


def _on_alarm(signum, frame):
    if _TIMING[0]:
        _TIMING[0] = False
        raise FunctionTimeout()


# NOTE [analysis-gc]: a function's analysis makes millions of gates, guards and states that live
# until it ends, so the cyclic collector is off while it runs (each full pass would walk them
# all again, for nothing) and comes back on when it ends. The analysis objects do form cycles
# (context, environment, evaluator), so the context drops its circuit's gates when it is
# disposed (Circuit.release): counting references frees them, and the collector's next pass
# meets only the cycles, not the gates.
def analyze_one(program, key, checkers, options: Options, callee_sums) -> FunctionResult:
    """One function, never raising: budgets, timeouts and internal errors make it incomplete."""
    fn = program.functions[key]
    if fn.unmodelled:
        return _incomplete(key, fn, fn.unmodelled)
    t0 = time.perf_counter()
    # (An alarm reaches only the main thread: a Dask worker's thread runs without it.)
    timed = options.timeout and threading.current_thread() is threading.main_thread()
    if timed:
        signal.signal(signal.SIGALRM, _on_alarm)
    try:
        if timed:
            _TIMING[0] = True
            signal.setitimer(signal.ITIMER_REAL, options.timeout)
        with no_gc():   # NOTE [analysis-gc]
            res = analyze_function(program, fn, checkers, options, callee_sums)
    except BudgetExceeded as exc:
        res = _incomplete(key, fn, f"over budget ({exc})")
    except FunctionTimeout:
        res = _incomplete(key, fn, f"timed out after {options.timeout:g}s (--timeout)")
        res.timed_out = True
    except RecursionError:
        res = _incomplete(key, fn, "expression nesting too deep")
    except Exception as exc:  # never let one function stop the run; say so instead
        res = _incomplete(key, fn, f"internal error: {type(exc).__name__}: {exc}")
    finally:
        _TIMING[0] = False
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
    res.seconds = time.perf_counter() - t0
    return res


def _stand_in(fn, options: Options, why: str, log) -> FunctionResult:
    """The result of a function its worker did not give back: stopped past the hard deadline,
    or lost with the worker (NOTE [lost-units] in interproc/pools.py)."""
    if why.startswith("timed out"):
        res = _incomplete(fn.key, fn, f"timed out after {options.timeout:g}s (--timeout; "
                                      "stopped inside the SAT solver)")
        res.timed_out, res.seconds = True, 2 * options.timeout
        return res
    if "internal error" in why:   # logged with the others, by analyze_program
        return _incomplete(fn.key, fn, why)
    log(f"{fn.file}:{fn.line}:1: warning: '{fn.name}' not analysed: {why}")
    return _incomplete(fn.key, fn, f"not analysed: {why}")


def _incomplete(key, fn, why) -> FunctionResult:
    return FunctionResult(key, status="incomplete", notes=[f"{fn.file}:{fn.line}: {why}"])


class UnitRunner:
    """Analyses the functions of one task with the summaries it carries; picklable, for Dask
    workers. (A cycle's members come one task each: the schedule hands each the summaries of
    those before it, NOTE [scc-steps] in interproc/schedule.py.)"""

    def __init__(self, checkers, options):
        self.checkers, self.options = checkers, options

    def __call__(self, program, keys, summaries):
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
        return [analyze_one(program, key, self.checkers, self.options, summaries)
                for key in keys]


def analyze_program(program: Program, checkers, options: Options, log, progress=None,
                    jobs: int = 1, cache=None, scheduler: str | None = None,
                    lost: set | None = None, changed=()) -> dict:
    """Every function, bottom-up (NOTE [determinism] in interproc/schedule.py). `cache` (a
    ResultCache) reuses unchanged functions and saves each result as soon as it is known;
    `lost` gets the functions whose worker died (not saved); `changed`: the functions lowered
    in this run, looked up first (NOTE [changed-first])."""
    results: dict[str, FunctionResult] = {}

    unit_runner = UnitRunner(checkers, options)

    def runner(keys, summaries):
        return unit_runner(program, keys, summaries)

    lost = set() if lost is None else lost   # not saved: the next run tries them again

    def on_done(unit_results):
        for res in unit_results:
            results[res.key] = res
            if cache is not None and not res.reused and res.key not in lost:
                cache.save(res)
            if progress:
                progress(len(results), len(program.functions))
        return {r.key: r.summaries for r in unit_results if r.status == "ok"}

    def on_lost(keys, why):   # NOTE [lost-units] and [hard-deadline] in interproc/pools.py
        if not why.startswith("timed out"):
            lost.update(keys)
        return [_stand_in(program.functions[key], options, why, log) for key in keys]

    pool = None
    if scheduler:
        pool = pools.DaskPool(scheduler, program, unit_runner)
    else:   # in worker processes even with one job: NOTE [lost-units]
        pool = pools.LocalPool(jobs, runner, options.timeout, on_lost)
    try:
        schedule.run(program, runner, jobs, on_done, cache.lookup if cache is not None else None,
                     pool, changed)
    finally:
        if cache is not None:
            cache.flush()
        if pool is not None:
            pool.close()
    fns = program.functions
    for key in sorted(results, key=lambda k: (fns[k].file, fns[k].line, k)):
        for note in results[key].notes:
            if "internal error" in note:
                log(f"{fns[key].file}:{fns[key].line}:1: warning: {note.split(': ', 1)[1]} "
                    f"in '{fns[key].name}'")
    return results


def run_check(discovery: Discovery, checkers, options: Options, front,
              log=lambda m: print(m, file=sys.stderr), progress=None, jobs: int = 1,
              cache_factory=None, scheduler: str | None = None) -> RunResult:
    """`front`: an incremental.units.FrontEnd (with a store or none)."""
    start = time.perf_counter()
    forget_structs()   # (a run's own: not an earlier run's in this process)
    phases = {"front end": 0.0, "analyze": 0.0}
    printed: list[str] = []
    log = _logging(log, printed)
    for note in discovery.notes:
        log(note)
    program, parsed, skipped = load_program(discovery, front, phases, log, jobs)
    rel = relative_to(front.root)
    sources = program.files   # (the files' own text: NOTE [own-files] in cfront/markers.py)
    linking.resolve(program)   # NOTE [linking]
    # NOTE [indirect-calls], with the library functions the checkers know
    indirect.link(program, frozenset(checkers[0].shared_effects or ()) if checkers else ())
    program.assume_whole(options.whole_program)
    program.entries = program.entry_points()
    program.gather_init_sites()
    program.prune_to(sources)
    t = time.perf_counter()
    cache = cache_factory(program) if cache_factory else None
    lost: set[str] = set()
    results = analyze_program(program, checkers, options, log, progress, jobs, cache,
                              scheduler, lost, front.lowered)
    phases["analyze"] = time.perf_counter() - t
    # Reports inside headers outside --root (system and kernel-wide headers when checking one
    # subsystem) are not the user's to fix; those functions still give their summaries.
    reports = [r for res in results.values() for r in res.reports
               if r.file in sources or not os.path.isabs(r.file)]
    reports.sort(key=lambda r: r.sort_key())
    assign_fingerprints(reports)
    unsupported = sum(1 for res in results.values() for n in res.notes
                      if res.status == "ok" and "internal error" not in n)
    incomplete = incomplete_functions(program, results)
    skipped += [{"file": path, "line": 0, "column": 0, "message": "no such file or directory"}
                for path in discovery.missing]   # counted, and named on the last line
    for skip in skipped:
        skip["file"] = rel(skip["file"])
        skip["unit"] = rel(skip.get("unit", skip["file"]))
    stats = {
        "files": parsed, "skipped_files": len(skipped), "skipped": skipped,
        "functions": len(program.functions),
        "incomplete": len(incomplete), "incomplete_functions": incomplete,
        "reused": sum(1 for r in results.values() if r.reused), "lines": program.lines,
        "unsupported": unsupported,
        "timeouts": sum(1 for r in results.values() if r.timed_out),
        "phases": {k: round(v, 3) for k, v in phases.items()},
        "peak_rss_mb": round(max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                                 resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024, 1),
        "seconds": round(time.perf_counter() - start, 3),
    }
    return RunResult(reports, stats, results, program, log=printed, lost=len(lost))


def incomplete_functions(program, results: dict) -> list[dict]:
    """Each incomplete function, named with its place, why, and the cause as a word: `time`
    (--timeout), `budget` (conflicts, formula size, nesting), `unsupported` (a construct the
    model cannot express), `lost` (its worker died) or `internal-error`."""
    out = []
    for key, res in results.items():
        if res.status == "ok":
            continue
        fn = program.functions[key]
        why = res.notes[0].split(": ", 1)[-1] if res.notes else res.status
        cause = "time" if why.startswith("timed out") else \
            "unsupported" if fn.unmodelled else \
            "internal-error" if "internal error" in why else \
            "lost" if why.startswith("not analysed") else "budget"
        out.append({"function": fn.name, "file": fn.file, "line": fn.line,
                    "cause": cause, "reason": why})
    return sorted(out, key=lambda d: (d["file"], d["line"], d["function"]))


def _logging(log, printed: list):
    """`log` that also keeps each message (a replayed run prints them again: NOTE [run-memo])."""
    def both(message):
        printed.append(message)
        log(message)
    return both
