"""The `saturn` command line."""
from __future__ import annotations

import argparse
import os
import sys

from .. import __version__
from . import commands, record
from checkers import registry
from ..cfront.discover import from_compile_commands, from_paths, within
from .preflight import UsageError, numbers, outputs
from ..report import jsonout, sarif, text
from ..symex.options import Options

# Exit statuses (README "Reading a report"): a run that skipped a file is not a clean run, with
# or without reports, and --exit-zero does not hide it.
EXIT_OK, EXIT_REPORTS, EXIT_USAGE, EXIT_SKIPPED = 0, 1, 2, 3
DEFAULT_TIMEOUT = 60.0   # seconds per function: no real function needs more (bench/RESULTS.md)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="saturn", description="Saturn: a SAT-based bug finder for C.")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="analyse C files and print reports",
                       description="Analyse C source files and report bugs. Exit status: 0 no "
                                   "reports, 1 reports, 2 usage or fatal error (or no file "
                                   "analysed), 3 some files skipped (not analysed).")
    c.add_argument("paths", nargs="*", metavar="PATH",
                   help="C files, or directories (every *.c below them); with -p, the "
                        "database's entries at or below them")
    c.add_argument("-p", "--compile-commands", metavar="FILE",
                   help="take files and flags from a compile_commands.json")
    c.add_argument("-I", dest="includes", action="append", default=[], metavar="DIR",
                   help="add an include directory for preprocessing")
    c.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                   help="define a preprocessor macro")
    c.add_argument("-U", dest="undefines", action="append", default=[], metavar="NAME",
                   help="undefine a preprocessor macro")
    c.add_argument("--std", metavar="STD", help="C standard for preprocessing (e.g. gnu11)")
    c.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                   help="leave out paths matching GLOB (repeatable)")
    checkers = c.add_argument("--checkers", metavar="LIST",
                              help="comma-separated checkers to run (available: %(available)s;"
                                   " default: %(defaults)s)")
    checkers.available, checkers.defaults = _Listed(registry.names), _Listed(registry.default_names)
    c.add_argument("--unroll", type=int, default=2, metavar="K",
                   help="unroll loops K times before the havoc pass (default 2)")
    c.add_argument("--whole-program", action=argparse.BooleanOptionalAction, default=True,
                   help="the files checked are the whole program (the default): a global they "
                        "define, that none of their functions writes and whose address is never "
                        "taken, keeps its initializer; --no-whole-program for a library whose "
                        "users may write its globals")
    c.add_argument("--format", choices=["text", "json", "sarif"], default="text",
                   help="output format (default text); sarif is SARIF 2.1.0")
    c.add_argument("--baseline", metavar="FILE",
                   help="reports whose fingerprint is in FILE are known; exit 1 only on new ones")
    c.add_argument("--update-baseline", metavar="FILE",
                   help="write the current reports to FILE as the new baseline")
    c.add_argument("--show-known", action="store_true",
                   help="with --baseline, also list known reports in text output")
    c.add_argument("--exit-zero", action="store_true",
                   help="exit 0 even when there are (new) reports (advisory runs)")
    c.add_argument("-o", "--output", metavar="FILE", help="write reports to FILE instead of stdout")
    c.add_argument("--root", default=".", metavar="DIR",
                   help="paths in reports are relative to DIR, and reports inside headers "
                        "outside DIR are not shown (default: current directory)")
    c.add_argument("--db", default=None, metavar="PATH",
                   help="summary database to write (default .saturn/saturn.db)")
    c.add_argument("--no-db", action="store_true", help="do not write the summary database")
    c.add_argument("--keep-runs", type=int, default=50, metavar="N",
                   help="runs kept in the database's history (default 50)")
    c.add_argument("--config", metavar="FILE",
                   help="configuration file (default: saturn.toml or [tool.saturn] in "
                        "pyproject.toml, if present)")
    c.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                   help="worker processes (default: all cores); results do not depend on N")
    c.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                   help="send the analysis to a Dask distributed scheduler instead of local "
                        "worker processes")
    c.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help="wall-clock limit per function, a safety net: a function over it is "
                        "incomplete and the output says so (a worker stuck inside the SAT "
                        "solver is stopped after twice the limit plus 10 s); default "
                        f"{DEFAULT_TIMEOUT:g}, 0 for none")
    c.add_argument("--front-end-timeout", type=float, default=300.0, metavar="SECONDS",
                   help="wall-clock limit per file for preprocessing, parsing and lowering: a "
                        "file over it is skipped with an error (default 300)")
    c.add_argument("--conflict-budget", type=int, default=200_000, metavar="N",
                   help="SAT conflicts allowed per query before a function is incomplete")
    sm = sub.add_parser("summary", help="print a function's plain-words summaries",
                        description="Print the plain-words summaries of a function from the "
                                    "summary database.")
    sm.add_argument("name", help="function name (or file:name for a static function)")
    sm.add_argument("--db", default=None, metavar="PATH",
                    help="summary database (default .saturn/saturn.db)")
    sub.add_parser("checkers", help="list the checkers, their report kinds and configuration",
                   description="List the checkers, their report kinds (with severity and help) "
                               "and their configuration keys, as Markdown.")
    sv = sub.add_parser("serve", help="browse the summary database in a web page",
                        description="Serve the summary database as a web page (read-only).")
    sv.add_argument("--db", default=None, metavar="PATH",
                    help="summary database (default .saturn/saturn.db)")
    sv.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    sv.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    sv.add_argument("--read-only", action="store_true",
                    help="no reviews can be set from the page or the API")
    commands.add_parsers(sub)
    return p


def serve(args) -> int:
    from summaries.store import DEFAULT_PATH, Store, StoreError
    from summaries.web.app import serve as run_server
    path = args.db or DEFAULT_PATH
    if not 1 <= args.port <= 65535:
        print(f"saturn: error: --port must be between 1 and 65535, not {args.port}",
              file=sys.stderr)
        return EXIT_USAGE
    try:
        Store(path, readonly=True).close()
    except StoreError as exc:
        print(f"saturn: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(f"saturn: serving {path} on http://{args.host}:{args.port}/", file=sys.stderr)
    try:
        run_server(path, args.host, args.port, args.read_only)
    except OSError as exc:   # the port is taken, or the address is not this machine's
        print(f"saturn: error: cannot serve on {args.host}:{args.port}: {exc.strerror or exc}",
              file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


def summary(args) -> int:
    from summaries.render import render
    from summaries.store import DEFAULT_PATH, Store, StoreError
    try:
        store = Store(args.db or DEFAULT_PATH, readonly=True)
        keys = store.find(args.name)
        if not keys:
            print(f"saturn: error: no function '{args.name}' in {store.path}", file=sys.stderr)
            return EXIT_USAGE
        for key in keys:
            rows = store.summaries(key)
            print(render(key, {name: row["summary"] for name, row in rows.items()}))
            status = {row["status"] for row in rows.values()}
            if status != {"ok"}:
                print(f"  (status: {', '.join(sorted(status))})")
    except StoreError as exc:
        print(f"saturn: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


class _Listed:
    """Checker names in --help, found only when the help is shown (finding them imports the
    checkers, which `saturn summary` and `saturn serve` do not need)."""

    def __init__(self, names):
        self.names = names

    def __str__(self):
        return ", ".join(self.names()) or "none"


def _flags(args) -> tuple[str, ...]:
    flags = [f"-I{d}" for d in args.includes] + [f"-D{d}" for d in args.defines]
    flags += [f"-U{u}" for u in args.undefines]
    return tuple(flags)


def check(args) -> int:
    try:
        return _check(args)
    except UsageError as exc:
        print(f"saturn: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


def _check(args) -> int:
    """Everything that can be refused is refused before the analysis starts: the options, the
    files, the configuration, the database, the baseline and the outputs (issue: a run whose
    -o could not be written lost its results)."""
    names = _checker_names(args)
    numbers(args, lambda m: print(m, file=sys.stderr))
    outputs(args)
    discovery = _discover(args)
    from .config import ConfigError, load_config
    try:
        config = load_config(args.config, warn=lambda m: print(m, file=sys.stderr))
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    store = _open_store(args)
    known = _read_baseline(args)
    options = Options(unroll=args.unroll, conflict_budget=args.conflict_budget,
                      timeout=args.timeout or None, whole_program=args.whole_program)
    checkers = registry.load(names or registry.default_names(), config)
    cache, cachedir = None, None
    if store is not None:
        from ..incremental.cachedir import CacheDir
        from ..incremental.results import ResultCache
        cachedir = CacheDir(store.path + ".units")
        cache = ResultCache(store, checkers, options, __version__)
    memo = record.memo(cachedir, store, args.root, args.std, discovery, checkers, options)
    result = record.replay(memo)   # NOTE [run-memo] in incremental/runs.py
    if result is None:
        result = _run(args, discovery, checkers, options, cachedir, cache)
    # NOTE [failed-store] in incremental/results.py
    failed = [cache.error] if cache is not None and cache.error else []
    from ..report import suppress
    reports, hidden = suppress.split(result.reports, args.root)
    result.stats.suppressed = len(hidden)
    reviews = {}
    if store is not None and not failed:
        failed, reviews = record.record_run(
            store, result, (reports, hidden), memo, args.root,
            record.run_info(args.root, {k: getattr(args, k) for k in record.RUN_OPTIONS},
                            args.checkers, result.stats), args.keep_runs)
    failed = [f"{e}; this run's results were not saved (remove the database to start again)"
              for e in failed]
    reports = _ci_filter(reports, result.stats, args, known, failed, reviews)
    return _emit(args, reports, result.stats, failed)


def _run(args, discovery, checkers, options, cachedir, cache):
    """The analysis (imported here: a replayed run needs none of it)."""
    from . import driver
    from ..incremental.units import FrontEnd
    front = FrontEnd(cachedir, args.root, args.std, args.front_end_timeout, background=True)
    with _progress_bar() as progress:
        try:
            return driver.run_check(discovery, checkers, options, front, progress=progress,
                                    jobs=args.jobs, cache=cache,
                                    scheduler=args.scheduler)
        except OSError as exc:  # e.g. the Dask scheduler cannot be reached
            raise UsageError(str(exc)) from None
        except ImportError:
            raise UsageError("--scheduler needs Dask: pip install 'saturn-c[cluster]'") from None
        finally:
            front.finish()   # NOTE [background-writes] in incremental/units.py


def _checker_names(args) -> list[str] | None:
    names = None if not args.checkers else \
        [n.strip() for n in args.checkers.split(",") if n.strip()]
    known = registry.names() if names else []
    unknown = [n for n in names or () if n not in known]
    if unknown or names == []:
        raise UsageError(f"unknown checker(s): {', '.join(unknown) or '(none given)'}; "
                         f"available: {', '.join(registry.names())}")
    return names


def _discover(args):
    if not args.paths and not args.compile_commands:
        raise UsageError("give C files, directories or -p compile_commands.json")
    try:
        if args.compile_commands:
            discovery = from_compile_commands(args.compile_commands, _flags(args), args.exclude)
            lacking = []
            if args.paths:
                discovery, lacking = within(discovery, args.paths)
            extra = from_paths(lacking, _flags(args), args.exclude) if lacking else None
            if extra:
                discovery.files += extra.files
                discovery.notes += extra.notes
                discovery.missing += extra.missing
        else:
            discovery = from_paths(args.paths, _flags(args), args.exclude)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise UsageError(f"cannot read compile commands: {exc}") from None
    if not discovery.files:
        for n in discovery.notes:
            print(n, file=sys.stderr)
        raise UsageError("no C files to check")
    return discovery


def _open_store(args):
    if args.no_db:
        return None
    from summaries.store import DEFAULT_PATH, Store, StoreError
    try:
        return Store(args.db or DEFAULT_PATH, root=args.root)
    except StoreError as exc:
        raise UsageError(str(exc)) from None


def _read_baseline(args):
    if not args.baseline:
        return None
    from ..report.baseline import BaselineError, read
    try:
        return read(args.baseline)
    except BaselineError as exc:
        raise UsageError(str(exc)) from None


def _emit(args, reports, stats, failed) -> int:
    """The reports, then what went wrong after the analysis had started (still exit 2)."""
    if args.format == "sarif":
        out = sarif.format_all(reports, stats, registry.kinds())
    else:
        out = {"json": jsonout, "text": text}[args.format].format_all(reports, stats,
                                                                    args.show_known)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as fh:
                fh.write(out)
        except OSError as exc:   # checked before the run; gone or full since
            sys.stdout.write(out)
            failed.append(f"-o {args.output}: {exc.strerror}; the reports went to stdout")
        print(text.totals_line(stats, len(reports)), file=sys.stderr)
    else:
        sys.stdout.write(out)
    for error in failed:
        print(f"saturn: error: {error}", file=sys.stderr)
    if stats.skipped_files:
        print(text.skipped_line(stats), file=sys.stderr)
    if failed or stats.files == 0:
        return EXIT_USAGE
    if stats.skipped_files:
        return EXIT_SKIPPED
    failing = [r for r in reports if not r.known]
    return EXIT_REPORTS if failing and not args.exit_zero else EXIT_OK


class _progress_bar:
    """A progress bar on stderr for long runs, silent when stderr is not a terminal."""

    def __enter__(self):
        self.bar = None
        return self.update if sys.stderr.isatty() else None

    def update(self, done: int, total: int) -> None:
        if self.bar is None:
            from tqdm import tqdm
            self.bar = tqdm(total=total, unit="fn", file=sys.stderr, leave=False)
        self.bar.n = done
        self.bar.refresh()

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.close()


def _ci_filter(reports, stats, args, known, failed: list, reviews: dict):
    """The baseline's and the reviews' marks, and --update-baseline (README "In CI")."""
    from ..report import baseline, review
    if known is not None:
        hint = baseline.mark(reports, known)
        if hint:
            print(f"saturn: note: {hint}", file=sys.stderr)
    reviewed = review.mark(reports, reviews)
    if reviewed:
        stats.reviewed = reviewed
    if known is not None:
        stats.new = sum(1 for r in reports if not r.known)
    if args.update_baseline:
        try:
            baseline.write(args.update_baseline, reports)
        except OSError as exc:   # checked before the run; gone or full since
            failed.append(f"--update-baseline {args.update_baseline}: {exc.strerror}")
    return reports


def main(argv=None) -> int:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    args = _parser().parse_args(argv)
    try:
        if args.command == "check":
            return check(args)
        if args.command == "summary":
            return summary(args)
        if args.command == "serve":
            return serve(args)
        if args.command in commands.HANDLERS:
            return commands.HANDLERS[args.command](args)
        if args.command == "checkers":
            print(registry.describe(), end="")
            return EXIT_OK
    except KeyboardInterrupt:
        print("saturn: interrupted", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
