"""One `saturn check` run: discover → preprocess → parse → lower → analyse bottom-up → reports."""
from __future__ import annotations

import gc
import os
import re
import resource
import signal
import sys
import time
from dataclasses import dataclass, field

from .cfront.discover import Discovery, relative_to
from .cfront.files import wait_writers
from .cfront.pipeline import preprocessed
from .cfront.preprocess import FrontEndError, preprocess
from .cfront.unitcache import lower_text
from .collector import no_gc
from .interproc import pools, schedule
from .ir import indirect
from .ir.program import Program
from .logic.circuit import BudgetExceeded
from .report.fingerprint import assign_fingerprints
from .symex.engine import FunctionResult, Options, analyze_function


@dataclass
class RunResult:
    reports: list = field(default_factory=list)
    stats: dict = field(default_factory=dict)
    results: dict = field(default_factory=dict)   # function key -> FunctionResult
    program: Program | None = None
    errors: list = field(default_factory=list)


def load_program(discovery: Discovery, std, root, phases, log, unit_cache=None, jobs: int = 1,
                 early=None):
    """(program, files parsed, files skipped as `_skip` gives them). Each unit is lowered on its own and absorbed in
    the files' order (NOTE [unit-cache] in cfront/unitcache.py).

    NOTE [frozen-program]: the lowered program is millions of objects that live until the run
    ends. Each unit is frozen (gc.freeze) as soon as it is loaded — collection stays off until
    then, or the first one after each load walks the whole unit (Lua's re-check: 0.3 of 1.0 s)
    — so no collection walks it again and forked workers share its pages instead of copying
    them; the process ends with os._exit
    (__main__.py) rather than freeing it object by object."""
    program, skipped = Program(), []
    t0 = time.perf_counter()
    for src, text, key, error in preprocessed(discovery.files, std, jobs, unit_cache, root,
                                              early):
        t1 = time.perf_counter()
        phases["preprocess"] += t1 - t0   # with workers: waiting for them (incl. lowering)
        try:
            if error is not None:
                raise FrontEndError(error)
            with no_gc():   # NOTE [frozen-program]
                unit = unit_cache.load(key) if key is not None else None
                if unit is None:   # (a unit named by key but gone from the cache: made again)
                    text = text if text is not None else preprocess(src, std)
                    unit = unit_cache.unit(text, src.path) if unit_cache is not None else \
                        lower_text(text, src.path, root)
                program.absorb(unit)
                gc.freeze()
        except FrontEndError as exc:
            skipped.append(_skip(src.path, str(exc), log))
        except RecursionError:
            skipped.append(_skip(src.path, f"{src.path}:1:1: error: nesting too deep to parse",
                                 log))
        t0 = time.perf_counter()
        phases["lower"] += t0 - t1
    gc.freeze()
    for w in program.warnings:
        log(w)
    return program, len(discovery.files) - len(skipped), skipped


_ERROR = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$", re.S)


def _skip(path: str, message: str, log) -> dict:
    """A skipped file as the outputs list it (SARIF: a tool execution notification)."""
    log(message)
    m = _ERROR.match(message)
    if m is None:
        return {"file": path, "line": 0, "column": 0, "message": message}
    return {"file": m["file"], "line": int(m["line"]), "column": int(m["col"]),
            "message": m["msg"]}


class FunctionTimeout(Exception):
    pass


_TIMING = [False]   # the alarm only interrupts while a function is being analysed


def _on_alarm(signum, frame):
    if _TIMING[0]:
        _TIMING[0] = False
        raise FunctionTimeout()


# NOTE [analysis-gc]: a function's analysis makes millions of gates, guards and states that live
# until it ends; with the cyclic collector on, its full passes walked them again and again:
# sqlite3Pragma 61 -> 14 s with it off, lookupName 18 -> 12 s, whereScanNext 28 -> 24 s, the
# same peak memory. It comes back on when the function ends. The analysis objects do form
# cycles (context, environment, evaluator), so the context drops its circuit's gates when it is
# disposed (Circuit.release): counting references frees them, and the collector's next pass
# meets ~45 k objects instead of selectExpander's 1.7 M (1.0 s).
def analyze_one(program, key, checkers, options: Options, callee_sums) -> FunctionResult:
    """One function, never raising: budgets, timeouts and internal errors make it incomplete."""
    fn = program.functions[key]
    t0 = time.perf_counter()
    if options.timeout:
        signal.signal(signal.SIGALRM, _on_alarm)
    try:
        if options.timeout:
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
        if options.timeout:
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
                    jobs: int = 1, cache=None, scheduler: str | None = None) -> dict:
    """Every function, bottom-up (NOTE [determinism] in interproc/schedule.py). `cache` (a
    ResultCache) reuses unchanged functions and saves each result as soon as it is known."""
    results: dict[str, FunctionResult] = {}

    unit_runner = UnitRunner(checkers, options)

    def runner(keys, summaries):
        return unit_runner(program, keys, summaries)

    lost: set[str] = set()   # functions whose worker died: not saved, the next run tries again

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
                     pool, memo=cache)
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


def store_rows(program, results, checkers, version, cache_keys=None) -> list[tuple]:
    """Database rows: one per (function, checker), plus the engine's own facts."""
    rows = []
    for key, res in results.items():
        fn = program.functions[key]
        names = [c.name for c in checkers] + ["<engine>"]
        text = getattr(res.summaries, "text", None)   # a reused one's, as stored (cache.py)
        for name in names:
            reports = [r.to_record() for r in res.reports if r.checker == name]
            rows.append((key, name, fn.name, fn.file, fn.line, (cache_keys or {}).get(key, ""),
                         version, text(name) if text else res.summaries.get(name, {}),
                         res.status, res.notes, reports, round(res.seconds, 4)))
    return rows


def run_check(discovery: Discovery, checkers, options: Options, std=None, root=".",
              log=lambda m: print(m, file=sys.stderr), progress=None, jobs: int = 1,
              cache_factory=None, scheduler: str | None = None, unit_cache=None,
              early=None) -> RunResult:
    """`early`: a cfront.pipeline.Early for these files (NOTE [early-compiler])."""
    start = time.perf_counter()
    phases = {"preprocess": 0.0, "lower": 0.0, "analyze": 0.0}
    for note in discovery.notes:
        log(note)
    program, parsed, skipped = load_program(discovery, std, root, phases, log, unit_cache, jobs,
                                            early)
    rel = relative_to(root)
    sources = {rel(src.path) for src in discovery.files}
    indirect.link(program)   # NOTE [indirect-calls]
    program.assume_whole(options.whole_program)
    program.prune_to(sources)
    t = time.perf_counter()
    cache = cache_factory(program) if cache_factory else None
    try:
        results = analyze_program(program, checkers, options, log, progress, jobs, cache,
                                  scheduler)
    finally:
        wait_writers()   # NOTE [background-writes] in cfront/files.py
    phases["analyze"] = time.perf_counter() - t
    # Reports inside headers outside --root (system and kernel-wide headers when checking one
    # subsystem) are not the user's to fix; those functions still give their summaries.
    reports = [r for res in results.values() for r in res.reports
               if r.file in sources or not os.path.isabs(r.file)]
    reports.sort(key=lambda r: r.sort_key())
    assign_fingerprints(reports)
    unsupported = sum(1 for res in results.values() for n in res.notes
                      if res.status == "ok" and "internal error" not in n)
    skipped += [{"file": path, "line": 0, "column": 0, "message": "no such file or directory"}
                for path in discovery.missing]   # counted, and named on the last line
    for skip in skipped:
        skip["file"] = rel(skip["file"])
    stats = {
        "files": parsed, "skipped_files": len(skipped), "skipped": skipped,
        "functions": len(program.functions),
        "incomplete": sum(1 for r in results.values() if r.status != "ok"),
        "reused": sum(1 for r in results.values() if r.reused), "lines": program.lines,
        "unsupported": unsupported,
        "timeouts": sum(1 for r in results.values() if r.timed_out),
        "phases": {k: round(v, 3) for k, v in phases.items()},
        "peak_rss_mb": round(max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                                 resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024, 1),
        "seconds": round(time.perf_counter() - start, 3),
    }
    return RunResult(reports, stats, results, program)
