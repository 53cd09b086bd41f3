"""One `saturn check` run: discover → preprocess → parse → lower → analyse bottom-up → reports."""
from __future__ import annotations

import functools
import gc
import os
import re
import resource
import signal
import sys
import threading
import time

from ..cfront.discover import Discovery, relative_to
from ..incremental.pipeline import units
from ..incremental.results import AGAIN
from ..interproc import pools, schedule
from ..ir import indirect, linking
from ..ir.program import Program
from ..ir.types import forget_structs
from ..logic.circuit import BudgetExceeded
from ..process.collector import no_gc
from ..process.workers import Cause, Lost
from ..report.fingerprint import assign_fingerprints
from ..report.stats import RunStats
from ..symex.engine import analyze_function
from ..symex.options import Options
from ..symex.outcome import FunctionResult, Incomplete
from .result import RunResult


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


class _Alarm:
    """--timeout for one function: SIGALRM raises FunctionTimeout while the analysis runs (an
    alarm reaches only the main thread: a Dask worker's thread runs without it)."""

    def __init__(self, seconds):
        self.seconds = seconds if threading.current_thread() is threading.main_thread() else None
        self.armed = False

    def _ring(self, signum, frame):
        if self.armed:
            self.armed = False
            raise FunctionTimeout()

    def __enter__(self):
        if self.seconds:
            signal.signal(signal.SIGALRM, self._ring)
            self.armed = True
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    def __exit__(self, *exc):
        if self.seconds:
            self.armed = False
            signal.setitimer(signal.ITIMER_REAL, 0)
        return False


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
        return _incomplete(fn, Incomplete.UNSUPPORTED, fn.unmodelled)
    t0 = time.perf_counter()
    try:
        with _Alarm(options.timeout), no_gc():   # NOTE [analysis-gc]
            res = analyze_function(program, fn, checkers, options, callee_sums)
    except BudgetExceeded as exc:
        res = _incomplete(fn, Incomplete.BUDGET, f"over budget ({exc})")
    except FunctionTimeout:
        res = _incomplete(fn, Incomplete.TIME, f"timed out after {options.timeout:g}s (--timeout)")
    except RecursionError:
        res = _incomplete(fn, Incomplete.BUDGET, "expression nesting too deep")
    except Exception as exc:  # never let one function stop the run; say so instead
        res = _incomplete(fn, Incomplete.INTERNAL_ERROR,
                          f"internal error: {type(exc).__name__}: {exc}")
    res.seconds = time.perf_counter() - t0
    return res


def _stand_ins(program, keys, lost: Lost, options: Options, log) -> list[FunctionResult]:
    """The results of a task its worker did not give back: stopped past the hard deadline,
    failed, or lost with the worker (NOTE [lost-tasks] in interproc/pools.py)."""
    out = []
    for key in keys:
        fn = program.functions[key]
        if lost.cause is Cause.STOPPED:
            res = _incomplete(fn, Incomplete.TIME, f"timed out after {options.timeout:g}s "
                              "(--timeout; stopped inside the SAT solver)")
            res.seconds = 2 * options.timeout
        elif lost.cause is Cause.FAILED:   # logged with the others, by analyze_program
            res = _incomplete(fn, Incomplete.INTERNAL_ERROR, lost.why)
        else:
            log(f"{fn.file}:{fn.line}:1: warning: '{fn.name}' not analysed: {lost.why}")
            res = _incomplete(fn, Incomplete.LOST, f"not analysed: {lost.why}")
        out.append(res)
    return out


def _incomplete(fn, cause: Incomplete, why: str) -> FunctionResult:
    return FunctionResult(fn.key, incomplete=cause, notes=[f"{fn.file}:{fn.line}: {why}"])


class TaskRunner:
    """Analyses the functions of one task with the summaries it carries; picklable, for Dask
    workers. (A cycle's members come one task each: the schedule hands each the summaries of
    those before it, NOTE [scc-steps] in interproc/schedule.py.)"""

    def __init__(self, checkers, options):
        self.checkers, self.options = checkers, options

    def __call__(self, program, keys, summaries):
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
        return [analyze_one(program, key, self.checkers, self.options, summaries)
                for key in keys]


def _pool(program, runner: TaskRunner, options: Options, jobs: int, scheduler: str | None):
    if scheduler:
        return pools.DaskPool(scheduler, program, runner)
    # in worker processes even with one job: NOTE [lost-tasks]
    return pools.LocalPool(jobs, functools.partial(runner, program), options.timeout)


def analyze_program(program: Program, checkers, options: Options, log, progress=None,
                    jobs: int = 1, cache=None, scheduler: str | None = None,
                    changed=()) -> tuple[dict, set]:
    """Every function's result, bottom-up (NOTE [determinism] in interproc/schedule.py), and
    the functions whose worker died (not saved: the next run tries them again). `cache` (a
    ResultCache) reuses unchanged functions and saves each result as soon as it is known;
    `changed`: the functions lowered in this run, looked up first (NOTE [changed-first])."""
    results: dict[str, FunctionResult] = {}
    lost: set[str] = set()
    pool = _pool(program, TaskRunner(checkers, options), options, jobs, scheduler)
    try:
        for keys, got in schedule.run(program, pool, cache, changed):
            if isinstance(got, Lost):
                lost.update(keys if got.cause is not Cause.STOPPED else ())
                got = _stand_ins(program, keys, got, options, log)
            for res in got:
                results[res.key] = res
                if cache is not None and not res.reused and res.key not in lost:
                    cache.save(res)
                if progress:
                    progress(len(results), len(program.functions))
    finally:
        if cache is not None:
            cache.flush()
        pool.close()
    _log_internal_errors(program, results, log)
    return results, lost


def _log_internal_errors(program, results: dict, log) -> None:
    fns = program.functions
    for key in sorted(results, key=lambda k: (fns[k].file, fns[k].line, k)):
        if results[key].incomplete is Incomplete.INTERNAL_ERROR:
            for note in results[key].notes:
                log(f"{fns[key].file}:{fns[key].line}:1: warning: {note.split(': ', 1)[1]} "
                    f"in '{fns[key].name}'")


def run_check(discovery: Discovery, checkers, options: Options, front,
              log=lambda m: print(m, file=sys.stderr), progress=None, jobs: int = 1,
              cache=None, scheduler: str | None = None) -> RunResult:
    """`front`: an incremental.units.FrontEnd (with a cache directory or none); `cache`: a ResultCache,
    opened on the lowered program."""
    start = time.perf_counter()
    forget_structs()   # (a run's own: not an earlier run's in this process)
    phases = {"front end": 0.0, "analyze": 0.0}
    log = _Log(log)
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
    cache = cache.open(program) if cache is not None else None
    results, lost = analyze_program(program, checkers, options, log, progress, jobs, cache,
                                    scheduler, front.lowered)
    phases["analyze"] = time.perf_counter() - t
    # Reports inside headers outside --root (system and kernel-wide headers when checking one
    # subsystem) are not the user's to fix; those functions still give their summaries.
    reports = [r for res in results.values() for r in res.reports
               if r.file in sources or not os.path.isabs(r.file)]
    reports.sort(key=lambda r: r.sort_key())
    assign_fingerprints(reports)
    skipped += [{"file": path, "line": 0, "column": 0, "message": "no such file or directory"}
                for path in discovery.missing]   # counted, and named on the last line
    for skip in skipped:
        skip["file"] = rel(skip["file"])
        skip["unit"] = rel(skip.get("unit", skip["file"]))
    stats = _stats(program, results, parsed, skipped)
    stats.phases = {k: round(v, 3) for k, v in phases.items()}
    stats.seconds = round(time.perf_counter() - start, 3)
    # A run with functions to analyse again (results.AGAIN) is not one to give again either.
    again = sum(1 for res in results.values() if res.incomplete in AGAIN)
    return RunResult(reports, stats, results, program, log=log.printed, lost=len(lost) + again)


def _stats(program, results: dict, parsed: int, skipped: list) -> RunStats:
    incomplete = incomplete_functions(program, results)
    return RunStats(
        files=parsed, skipped_files=len(skipped), skipped=skipped,
        functions=len(program.functions),
        incomplete=len(incomplete), incomplete_functions=incomplete,
        reused=sum(1 for r in results.values() if r.reused), lines=program.lines,
        unsupported=sum(len(r.notes) for r in results.values() if r.ok),
        timeouts=sum(1 for r in results.values()
                     if r.incomplete is Incomplete.TIME and not r.reused),
        peak_rss_mb=round(max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                              resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024, 1))


def incomplete_functions(program, results: dict) -> list[dict]:
    """Each incomplete function, named with its place, why, and the cause as a word
    (symex/outcome.py's Incomplete)."""
    out = []
    for key, res in results.items():
        if res.ok:
            continue
        fn = program.functions[key]
        why = res.notes[0].split(": ", 1)[-1] if res.notes else res.status
        out.append({"function": fn.name, "file": fn.file, "line": fn.line,
                    "cause": res.incomplete.value, "reason": why})
    return sorted(out, key=lambda d: (d["file"], d["line"], d["function"]))


class _Log:
    """A run's `log` that also keeps each message (a replayed run prints them again: NOTE
    [run-memo])."""

    def __init__(self, out):
        self.out, self.printed = out, []

    def __call__(self, message: str) -> None:
        self.printed.append(message)
        self.out(message)
