"""What a `saturn check` leaves in the summary database besides the summaries: the call graph,
the run in the history and the run's memo, which a re-check with nothing changed gives again
(NOTE [run-memo] in saturn/incremental/runs.py)."""
from __future__ import annotations

import os
import resource
import sys
import time

from .. import __version__
from ..incremental.runs import RunMemo, base_key
from ..report.stats import RunStats
from .result import RunResult


def memo(cachedir, store, root, std, discovery, checkers, options) -> RunMemo | None:
    if cachedir is None or store is None:
        return None
    return RunMemo(cachedir, store, root, std, discovery,
                   base_key(checkers, options, __version__))


def replay(memo: RunMemo | None) -> RunResult | None:
    """The last run again, its messages printed again; None (and the memo forgotten: this
    run will rewrite the summaries) if it is not this one."""
    from summaries.store import StoreError
    if memo is None:
        return None
    start = time.perf_counter()
    try:
        doc = memo.replay()
        if doc is None:
            memo.forget()
            return None
    except StoreError:   # the run finds the database's fault again, and says so
        return None
    for message in doc["log"]:
        print(message, file=sys.stderr)
    stats = RunStats.from_json(doc["stats"])
    stats.reused, stats.phases = stats.functions, {name: 0.0 for name in stats.phases}
    stats.peak_rss_mb = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    stats.seconds = round(time.perf_counter() - start, 3)
    return RunResult(doc["reports"], stats, log=doc["log"], files=doc["files"])


# The options of `saturn check` a run records (summaries/history.py).
RUN_OPTIONS = ("paths", "compile_commands", "includes", "defines", "undefines", "std", "exclude",
               "unroll", "whole_program", "conflict_budget", "timeout")


def run_info(root: str, options: dict, checkers: str | None, stats: RunStats) -> dict:
    """What a run records of its command line: `options` by RUN_OPTIONS, `checkers` as given
    to --checkers."""
    return {"root": os.path.abspath(root), "options": options, "version": __version__,
            "checkers": checkers.split(",") if checkers else ["(default)"],
            "counts": {"functions": stats.functions, "incomplete": stats.incomplete}}


def record_run(store, result: RunResult, shown, memo, root: str, info: dict,
               keep_runs: int) -> tuple[list[str], dict]:
    """The call graph and the run in the history (NOTE [detection-status]; `info`: the run's
    command line, run_info), and the run's memo; ([errors], reviews by fingerprint)."""
    from summaries.store import StoreError
    try:
        files = result.files
        if result.program is not None:   # (a replayed run's graph is the one stored)
            fns = result.program.functions
            store.record_run(root, {(k, c) for k, fn in fns.items() for c in fn.callees})
            files = {fn.file for fn in fns.values() if not os.path.isabs(fn.file)}
        store.record_history(info, *shown, files, keep_runs)
        if memo is not None and result.program is not None:
            if result.lost or _skipped_in_run(result.stats):
                memo.forget()
            else:
                memo.keep(result.reports, result.stats.to_json(), result.log, files)
        reviews = store.reviews()
        store.close()
    except StoreError as exc:
        return [str(exc)], {}
    return [], reviews


def _skipped_in_run(stats: RunStats) -> bool:
    """A file the run skipped though it exists (over its deadline, a front end that died) is
    tried again by the next run: no memo."""
    return any(s["message"] != "no such file or directory" for s in stats.skipped)
