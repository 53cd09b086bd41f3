"""One file's front end with its caches: preprocessed text → lowered unit.

NOTE [unit-cache]: each translation unit is lowered on its own into a `Program` of its own (its
functions — header inlines it calls included — globals and annotations) and the run's program
absorbs the units in the files' order (`Program.absorb`: first definition wins, as when lowering
into one program). A unit is kept under a hash of its preprocessed text, its path and the
--root, so a re-check that finds it (by direct mode without even preprocessing: NOTE
[direct-mode] in direct.py) loads a small pickle of lowered IR: no parsing, no lowering. Its
functions of the file's own text are stored as their function-cache entries (NOTE
[function-entries]), which the next lowering of the file after an edit reuses (NOTE
[function-cache]), and the header bodies it lowered as entries too, so that loading a unit
reads no body the analysis does not. Units lowered apart have their own symbols for a shared
global: the analysis names globals by key (symex/environment.py).
"""
from __future__ import annotations

import gc
import os
import pickle
import signal
import time

from ..cfront.discover import SourceFile
from ..cfront.preprocess import FrontEndError, Preprocessing
from ..process import limits
from ..ir.program import Program
from . import entries
from .direct import Manifests
from .last import Last, last_of
from .lowering import Lowering


class FrontEnd:
    """Files to lowered units for one run; `cachedir` (a CacheDir) None: no caches. `deadline`: seconds for
    one file's front end (NOTE [front-end-deadline] in saturn/process/limits.py)."""

    def __init__(self, cachedir, root: str = ".", std: str | None = None,
                 deadline: float = 300.0, background: bool = False):
        self.cachedir, self.root, self.std = cachedir, os.path.abspath(root), std
        self.background = background
        self.writers: list[int] = []   # NOTE [background-writes]
        self.deadline = deadline
        self.manifests = Manifests(cachedir, std) if cachedir is not None else None
        self.last_key: str | None = None   # the key of the unit `unit` made last
        self.lowered: set[str] = set()   # the functions lowered, not read from a cache
        self.started: dict[str, Preprocessing] = {}   # by path: see `start`

    def known(self, src: SourceFile) -> str | None:
        """The unit key of a file whose preprocessing inputs are unchanged (NOTE
        [direct-mode])."""
        return self.manifests.lookup(src) if self.manifests is not None else None

    def load(self, key: str) -> Program | None:
        """The unit kept under `key`, or None."""
        data = self.cachedir.get(key) if self.cachedir is not None else None
        try:
            return _unpacked(pickle.loads(data)) if data else None
        except Exception:   # damaged in any way: lowered again and rewritten
            return None

    def start(self, src: SourceFile) -> None:
        """Start the compiler on `src`, whose unit `unit` will make: it preprocesses while
        the caller reads the other files' units."""
        self.started[src.path] = Preprocessing(src, self.std)

    def unit(self, src: SourceFile) -> Program:
        """The unit of `src`, from the cache or made now (and kept); FrontEndError."""
        asked = time.time()   # (the deadline counts from here: NOTE [front-end-deadline])
        running = self.started.pop(src.path, None)
        if running is None or running.src != src:   # (the same path with other flags)
            if running is not None:
                running.stop()
            running = Preprocessing(src, self.std)
        if self.cachedir is None:
            text = running.text(self.deadline, asked)
            return self._within(src, asked,
                                lambda: Lowering(src, text, self.root, None, Last()).unit())
        old = self._last(src)   # read while the compiler runs
        text = running.text(self.deadline, asked)
        key = self.last_key = self.cachedir.key("unit", text, src.path, self.root)
        unit, found = self.load(key), None
        if unit is None:
            lowering = Lowering(src, text, self.root, self.cachedir, old)
            unit = self._within(src, asked, lowering.unit)
            self._keep(lambda: lowering.keep(key, unit, replaces=old.key))
            self.lowered.update(lowering.lowered)
            found = lowering.markers.found
        self.manifests.record(src, text, key, running.started, found)
        return unit

    def _keep(self, write) -> None:
        """NOTE [background-writes]: what a lowering leaves the next run (its unit and its
        scan, pickled: as long as a large file's lowering after an edit) is written by a child
        process forked here, while this one goes on to the analysis; the child writes the
        state at the fork, whatever this process does after, on a deep stack as the lowering
        had (NOTE [deep-nesting]). An entry is written whole or not at all (cachedir.py), so a
        child that fails or is killed leaves a miss, never a wrong entry. `finish` waits for the
        children: the run ends with its entries written. Without `background` (or without
        fork) the writes are made here."""
        if self.background:
            self._reap(MAX_WRITERS - 1)
            pid = _fork_writer(write)
            if pid:
                self.writers.append(pid)
                return
        limits.run(write)

    def _reap(self, keep: int) -> None:
        """The writers that ended waited for; then the oldest, while more than `keep` run."""
        for pid in list(self.writers):
            if _ended(pid, block=len(self.writers) > keep):
                self.writers.remove(pid)

    def finish(self) -> None:
        """Wait for the background writers (NOTE [background-writes]); stop the compilers
        started for units never asked for (the run was interrupted)."""
        self.stop_started()
        self._reap(0)

    def stop_started(self) -> None:
        """The compilers `start` started, stopped unread."""
        for running in self.started.values():
            running.stop()
        self.started.clear()

    def _last(self, src: SourceFile) -> Last:
        """What the file's last lowering left (NOTE [unit-skeleton]), read ahead."""
        last = self.manifests.last_unit(src)
        old = last_of(self.cachedir.get(last)) if last else Last()
        old.key = last
        old.read_ahead(self.cachedir, src.path)
        return old

    def _within(self, src: SourceFile, started: float, work):
        """`work()` on a deep stack, within what is left of the deadline (saturn/process/limits.py)."""
        left = None if self.deadline is None else max(0.0, self.deadline - (time.time() -
                                                                           started))
        try:
            return limits.run(work, left)
        except limits.Overtime:
            raise FrontEndError(f"{src.path}:1:1: error: preprocessing, parsing and lowering "
                                f"took over {self.deadline:g}s (--front-end-timeout)") from None


MAX_WRITERS = 2   # background writers alive at once (each holds a copy of what it writes)


def _fork_writer(write) -> int | None:
    """The pid of a child running `write` then ending, or None (no fork: write here). SIGINT
    is held off across the fork, so that Ctrl-C cannot send the child back into the run."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pid = os.fork()
    except OSError:
        pid = None
    if pid == 0:
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)   # (the parent's to handle)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
            gc.disable()   # (the child only writes, then ends)
            limits.run(write)
        finally:
            os._exit(0)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    return pid


def _ended(pid: int, block: bool) -> bool:
    try:
        return os.waitpid(pid, 0 if block else os.WNOHANG)[0] == pid
    except ChildProcessError:
        return True


def _unpacked(record) -> Program:
    skeleton, stored, _ = record
    unit, tags, packed = pickle.loads(skeleton)
    for key, (entry_key, first, meta) in packed.items():
        unit.functions[key] = entries.lazy(meta, stored[entry_key], tags, unit.globals, first)
    return unit


def lower_text(text: str, path: str, root: str = ".") -> Program:
    """The unit of a preprocessed text, lowered without caches (the file at `path` is its
    main file)."""
    src = SourceFile(os.path.abspath(path), (), os.path.dirname(os.path.abspath(path)))
    return Lowering(src, text, os.path.abspath(root), None, Last()).unit()

