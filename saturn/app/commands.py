"""`saturn runs`, `saturn diff` and `saturn review`: the run history and the reviews kept in the
summary database (summaries/history.py, summaries/reviews.py)."""
from __future__ import annotations

import json
import sys

EXIT_OK, EXIT_USAGE = 0, 2


def add_parsers(sub) -> None:
    r = sub.add_parser("runs", help="list the runs kept in the summary database",
                       description="List the runs of `saturn check` kept in the database, the "
                                   "latest first, with their new, unresolved, reopened and "
                                   "resolved counts.")
    _db_and_format(r)
    d = sub.add_parser("diff", help="reports new and resolved between two runs",
                       description="Print the reports new in RUN_B and those resolved since "
                                   "RUN_A (by default the last two runs).")
    d.add_argument("runs", nargs="*", type=int, metavar="RUN", help="[RUN_A] RUN_B")
    _db_and_format(d)
    v = sub.add_parser("review", help="export or import the reviews as sorted JSON",
                       description="Move the reviews (false positive, intentional, confirmed) "
                                   "between the database and a JSON file kept in git.")
    v.add_argument("action", choices=["export", "import"])
    v.add_argument("file", metavar="FILE")
    v.add_argument("--db", default=None, metavar="PATH",
                   help="summary database (default .saturn/saturn.db)")


def _db_and_format(p) -> None:
    p.add_argument("--db", default=None, metavar="PATH",
                   help="summary database (default .saturn/saturn.db)")
    p.add_argument("--format", choices=["text", "json"], default="text")


def _open(args, readonly=True):
    from summaries.store import DEFAULT_PATH, Store
    return Store(args.db or DEFAULT_PATH, readonly=readonly)


def runs(args) -> int:
    from summaries import history
    store = _open(args)
    items = history.runs(store.db)
    if args.format == "json":
        print(json.dumps(items, indent=2, sort_keys=True))
        return EXIT_OK
    if not items:
        print("no runs recorded (run `saturn check`)")
    for r in items:
        c = r["counts"]
        print(f"{r['id']:>4}  {r['time']}  {c.get('reports', 0)} report(s): {c.get('new', 0)} new, "
              f"{c.get('unresolved', 0)} unresolved, {c.get('reopened', 0)} reopened, "
              f"{c.get('resolved', 0)} resolved  {r['files']} files  {r['root']}")
    return EXIT_OK


def diff(args) -> int:
    from summaries import history
    store = _open(args)
    ids = history.run_ids(store.db)
    if len(args.runs) > 2:
        return _error("give at most two runs: [RUN_A] RUN_B")
    for run in args.runs:
        if run not in ids:
            return _error(f"no run {run} in {store.path} (kept: {_ranges(ids) or 'none'})")
    if len(args.runs) == 2:
        a, b = args.runs
    elif args.runs:
        b = args.runs[0]
        earlier = [i for i in ids if i < b]
        a = earlier[-1] if earlier else None
    elif len(ids) >= 2:
        a, b = ids[-2], ids[-1]
    else:
        return _error(f"{store.path} holds {len(ids)} run(s); diff needs two")
    if a is None:
        return _error(f"run {b} is the first kept run: nothing to compare it with")
    out = history.diff(store.db, a, b)
    if args.format == "json":
        print(json.dumps(out, indent=2, sort_keys=True))
        return EXIT_OK
    print(f"runs {a} -> {b}: {len(out['new'])} new, {len(out['resolved'])} resolved")
    for word in ("new", "resolved"):
        for r in out[word]:
            print(f"{word}: {r['file']}:{r['line']}: {r['message']} [{r['kind']}] "
                  f"{r['fingerprint']}")
    return EXIT_OK


def review(args) -> int:
    from summaries import reviews
    if args.action == "export":
        n = reviews.export(_open(args).db, args.file)
        print(f"saturn: {n} review(s) written to {args.file}", file=sys.stderr)
        return EXIT_OK
    try:
        entries = reviews.read(args.file)
    except reviews.ReviewError as exc:
        return _error(str(exc))
    n = reviews.import_entries(_open(args, readonly=False).db, entries)
    print(f"saturn: {n} review(s) read from {args.file}", file=sys.stderr)
    return EXIT_OK


def _ranges(ids) -> str:
    return f"{ids[0]}-{ids[-1]}" if ids else ""


def _error(message: str) -> int:
    print(f"saturn: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def _guarded(handler):
    """StoreError and unwritable files as one line, exit 2."""
    def run(args):
        from summaries.store import StoreError
        try:
            return handler(args)
        except StoreError as exc:
            return _error(str(exc))
        except OSError as exc:
            return _error(f"{args.file}: {exc.strerror}")
    return run


HANDLERS = {"runs": _guarded(runs), "diff": _guarded(diff), "review": _guarded(review)}
