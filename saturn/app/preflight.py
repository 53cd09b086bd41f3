"""What `saturn check` checks before it starts, so that no analysis is run only to be lost: the
numeric options in their ranges, and the files it will write writable."""
from __future__ import annotations

import math
import os

MAX_UNROLL = 64          # K=100 on two nested loops took 1.2 GB for a 3-line function
MAX_TIMEOUT = 1e6        # seconds (11 days); signal.setitimer overflows on larger values
MAX_CONFLICTS = 10 ** 12 # the SAT solver takes a C long; past this the budget means nothing


class UsageError(Exception):
    """A one-line error for the command line (exit 2)."""


def usable_cpus() -> int:
    """The CPUs this process may run on (a container's, not the host's)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def numbers(args, note) -> None:
    """Each numeric option in its range; --jobs above the CPUs is lowered to them (`note`
    says so: more workers than CPUs only wait for each other, and each takes memory)."""
    _between("--unroll", args.unroll, 1, MAX_UNROLL)
    _between("--conflict-budget", args.conflict_budget, 1, MAX_CONFLICTS)
    if args.timeout is not None and not (math.isfinite(args.timeout) and args.timeout >= 0):
        raise UsageError(f"--timeout must be a number of seconds (0: no limit), not "
                         f"{_shown(args.timeout)}")
    _between("--timeout", args.timeout, 0, MAX_TIMEOUT)
    deadline = getattr(args, "front_end_timeout", None)
    if deadline is not None and not math.isfinite(deadline):
        raise UsageError(f"--front-end-timeout must be a number of seconds, not "
                         f"{_shown(deadline)}")
    _between("--front-end-timeout", deadline, 0, MAX_TIMEOUT)
    _between("--keep-runs", getattr(args, "keep_runs", None), 1, 1_000_000)
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    cpus = usable_cpus()
    if args.jobs > cpus:
        note(f"saturn: note: --jobs {args.jobs} lowered to {cpus}, the CPUs this machine "
             "lets Saturn use")
        args.jobs = cpus


def _between(flag: str, value, low, high) -> None:
    if value is not None and not low <= value <= high:
        raise UsageError(f"{flag} must be between {_shown(low)} and {_shown(high)}, not "
                         f"{_shown(value)}")


def _shown(value) -> str:
    """A number as a user would write it: 1000000, 2.5, -5, nan."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def writable(path: str, what: str) -> None:
    """That `path` can be written (made, or replaced) as a file."""
    if os.path.isdir(path):
        raise UsageError(f"{what} {path}: is a directory")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"{what} {path}: no such directory {folder}")
    if not os.access(path if os.path.exists(path) else folder, os.W_OK):
        raise UsageError(f"{what} {path}: not writable")


def outputs(args) -> None:
    if args.output:
        writable(args.output, "-o")
    if args.update_baseline:
        writable(args.update_baseline, "--update-baseline")
