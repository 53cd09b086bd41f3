"""One `saturn check` run: discover → preprocess → parse → lower → analyse bottom-up → reports."""
from __future__ import annotations

import os
import resource
import sys
import time
from dataclasses import dataclass, field

from .cfront.discover import Discovery
from .cfront.parse import parse_text
from .cfront.preprocess import FrontEndError, preprocess
from .interproc.callgraph import bottom_up
from .ir.lower import lower_unit
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


def relative_to(root: str):
    root = os.path.abspath(root)

    def rel(path: str) -> str:
        if not path or path.startswith("<"):
            return path
        full = os.path.abspath(path)
        return os.path.relpath(full, root) if full.startswith(root + os.sep) else full
    return rel


def load_program(discovery: Discovery, std, root, phases, log) -> tuple[Program, int, int]:
    program, skipped, rel = Program(), 0, relative_to(root)
    for src in discovery.files:
        t0 = time.perf_counter()
        try:
            text = preprocess(src, std)
            t1 = time.perf_counter()
            tu = parse_text(text, src.path)
            t2 = time.perf_counter()
            lower_unit(program, tu.ast, src.path, rel)
            program.lines += tu.lines
        except FrontEndError as exc:
            log(str(exc))
            skipped += 1
            continue
        except RecursionError:
            log(f"{src.path}:1:1: error: nesting too deep to parse")
            skipped += 1
            continue
        phases["preprocess"] += t1 - t0
        phases["parse"] += t2 - t1
        phases["lower"] += time.perf_counter() - t2
    for w in program.warnings:
        log(w)
    return program, len(discovery.files) - skipped, skipped


def analyze_program(program: Program, checkers, options: Options, log, progress=None) -> dict:
    results: dict[str, FunctionResult] = {}
    summaries: dict[str, dict] = {}
    order = bottom_up(program)
    for i, key in enumerate(order):
        fn = program.functions[key]
        callee_sums = {c: summaries[c] for c in fn.callees if c in summaries}
        t0 = time.perf_counter()
        try:
            res = analyze_function(program, fn, checkers, options, callee_sums)
        except BudgetExceeded as exc:
            res = FunctionResult(key, status="incomplete",
                                 notes=[f"{fn.file}:{fn.line}: over budget ({exc})"])
        except RecursionError:
            res = FunctionResult(key, status="incomplete",
                                 notes=[f"{fn.file}:{fn.line}: expression nesting too deep"])
        except Exception as exc:  # never let one function stop the run; say so instead
            res = FunctionResult(key, status="incomplete",
                                 notes=[f"{fn.file}:{fn.line}: internal error: "
                                        f"{type(exc).__name__}: {exc}"])
            log(f"{fn.file}:{fn.line}:1: warning: internal error analysing '{fn.name}': "
                f"{type(exc).__name__}: {exc}")
        res.seconds = time.perf_counter() - t0
        results[key] = res
        if res.status == "ok":
            summaries[key] = res.summaries
        if progress:
            progress(i + 1, len(order))
    return results


def store_rows(program, results, checkers, version) -> list[tuple]:
    """Database rows: one per (function, checker), plus the engine's own facts."""
    rows = []
    for key, res in results.items():
        fn = program.functions[key]
        ir_hash = ir_digest(fn)
        names = [c.name for c in checkers] + ["<engine>"]
        for name in names:
            reports = [r.to_json() for r in res.reports if r.checker == name]
            rows.append((key, name, fn.name, fn.file, fn.line, ir_hash, version,
                         res.summaries.get(name, {}), res.status, res.notes, reports,
                         round(res.seconds, 4)))
    return rows


def ir_digest(fn) -> str:
    """A hash of the function's IR (types by their keys, symbols by name: stable across runs)."""
    import hashlib
    h = hashlib.sha256()
    for _, block in sorted(fn.blocks.items()):
        h.update(repr((block.id, [_sig(s) for s in block.stmts], _sig(block.term))).encode())
    return h.hexdigest()[:24]


def _sig(x):
    from .ir import nodes as N
    from .ir.types import CType
    if isinstance(x, CType):
        return x.key()
    if isinstance(x, N.Symbol):
        return (x.kind, x.name, x.key)
    if isinstance(x, (list, tuple)):
        return tuple(_sig(v) for v in x)
    if hasattr(x, "__dataclass_fields__"):
        return (type(x).__name__,) + tuple(_sig(getattr(x, f)) for f in x.__dataclass_fields__)
    return x


def run_check(discovery: Discovery, checkers, options: Options, std=None, root=".",
              log=lambda m: print(m, file=sys.stderr), progress=None) -> RunResult:
    start = time.perf_counter()
    phases = {"preprocess": 0.0, "parse": 0.0, "lower": 0.0, "analyze": 0.0}
    for note in discovery.notes:
        log(note)
    program, parsed, skipped = load_program(discovery, std, root, phases, log)
    t = time.perf_counter()
    results = analyze_program(program, checkers, options, log, progress)
    phases["analyze"] = time.perf_counter() - t
    reports = [r for res in results.values() for r in res.reports]
    reports.sort(key=lambda r: r.sort_key())
    assign_fingerprints(reports)
    unsupported = sum(1 for res in results.values() for n in res.notes if "internal error" not in n)
    stats = {
        "files": parsed, "skipped_files": skipped, "functions": len(program.functions),
        "incomplete": sum(1 for r in results.values() if r.status != "ok"),
        "reused": 0, "lines": program.lines, "unsupported": unsupported,
        "phases": {k: round(v, 3) for k, v in phases.items()},
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "seconds": round(time.perf_counter() - start, 3),
    }
    return RunResult(reports, stats, results, program)
