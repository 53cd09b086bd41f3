"""The front end over many files: preprocessing (and, with a unit cache, parsing and lowering)
in worker processes, results handed back in the files' order, so the output does not depend on
--jobs.

Workers return the preprocessed text and leave the lowered unit in the unit cache (NOTE
[unit-cache] in unitcache.py); the caller then loads it from there. With a unit cache, a file
whose inputs are unchanged is not preprocessed at all: its unit's key comes back instead of its
text (NOTE [direct-mode] in direct.py). Without a cache, with one worker, or with only one
file changed, the parsing and lowering run in this process.
"""
from __future__ import annotations

import os
import pickle
import time

from ..collector import no_gc
from ..workers import Lost, in_order
from .files import in_child
from .preprocess import FrontEndError, Preprocessing, command


class Early:
    """NOTE [early-compiler]: after a one-file edit the compiler ran only once the analysis
    stack was imported (~60 ms, most of what a re-check of a small tree takes). The CLI
    looks the files up (`_known`) and starts the compiler on the one changed file before
    it imports the rest; `preprocessed` takes both from here. zstd: its 85 ms of gcc now
    overlap the imports. With a second core (`jobs` > 1) and a file under FORK_BELOW bytes,
    a forked process preprocesses, parses and lowers it into the unit cache meanwhile (its
    own imports included): lz4's edited file is ready when this process has imported the
    analysis. A larger file is lowered here: pickling its unit there and loading it here
    (zstd's 1.9 MB file: ~50 ms) would cost more than the imports it overlaps."""

    def __init__(self, files, std, cache_dir, root=".", jobs=1):
        self.files, self.std, self.cache_dir = files, std, cache_dir
        from .direct import Manifests
        manifests = Manifests(cache_dir, remember_stats=True)   # one stat a header, not a file
        self.known = [_known(src, std, manifests) for src in files]
        self.running = {}   # id(src) -> (command, when it started, Preprocessing)
        self.forked = {}    # id(src) -> (pid, the pipe its result comes through)
        changed = [src for src, key in zip(files, self.known) if key is None]
        if len(changed) != 1:
            return
        src = changed[0]
        forked = _fork_front(src, std, cache_dir, root) \
            if jobs > 1 and _size(src.path) < FORK_BELOW else None
        if forked is not None:
            self.forked[id(src)] = forked
            return
        try:
            cmd = command(src, std)
            self.running[id(src)] = (cmd, time.time(), Preprocessing(src, std, cmd))
        except FrontEndError:
            pass   # reported when `preprocessed` tries it again

    def fits(self, files, std, cache_dir) -> bool:
        return files is self.files and std == self.std and cache_dir == self.cache_dir


FORK_BELOW = 1 << 20   # bytes of source (NOTE [early-compiler])


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return FORK_BELOW


def _fork_front(src, std, cache_dir, root):
    """(pid, read end of a pipe) of a child running `_front` with lowering on `src` (None if
    none could be made); it sends (None, the unit's key, None) when the unit is in the cache,
    else `_front`'s result."""
    read, write = os.pipe()

    def front():
        os.close(read)
        text, _, error = _front(src, std, cache_dir, root, True, _lowering_modules)
        from .unitcache import UnitCache
        key = UnitCache(cache_dir, root).key(text, src.path) if text is not None else None
        data = pickle.dumps((None, key, None) if key is not None and
                            os.path.exists(os.path.join(cache_dir, key + ".pickle"))
                            else (text, None, error))
        with os.fdopen(write, "wb") as fh:
            fh.write(data)
    pid = in_child(front)
    os.close(write)
    if pid is None:
        os.close(read)
        return None
    return pid, read


def _forked_result(forked, src, std, cache_dir, root) -> tuple:
    """What the child of `_fork_front` sent; `_front` here if it sent nothing."""
    pid, read = forked
    with os.fdopen(read, "rb") as fh:
        data = fh.read()
    os.waitpid(pid, 0)
    try:
        return pickle.loads(data)
    except Exception:   # it died: done here
        return _front(src, std, cache_dir, root, False, _lowering_modules)


def _front(src, std, cache_dir, root, lower: bool, meanwhile=None, early=None):
    """(text or None, None, error or None) for a file `_known` has no unit for; `meanwhile()`
    runs while the compiler does; `early`: its compiler, started by `Early`."""
    try:
        cmd, started, running = early or (command(src, std), time.time(), None)
        running = running or Preprocessing(src, std, cmd)
        if meanwhile is not None:
            meanwhile()
        text = running.text()
        if cache_dir is None:
            return text, None, None
        from .direct import Manifests
        from .unitcache import UnitCache
        cache = UnitCache(cache_dir, root)
        Manifests(cache_dir).record(cmd, src, text, cache.key(text, src.path), started)
    except FrontEndError as exc:
        return None, None, str(exc)
    if lower:
        try:
            with no_gc():   # the unit is dropped before the collector could walk it
                cache.unit(text, src.path)
        except (FrontEndError, RecursionError):
            pass  # the caller tries again and reports the error itself
    return text, None, None


def _lowering_modules():
    from . import unitcache
    unitcache.import_lowering()


def _edited(src, std, cache_dir) -> bool:
    """Preprocessed before, and a file it read has changed since: it will be lowered, likely
    (a file merely touched, or younger than its manifest could be, is not: NOTE [startup])."""
    from .direct import Manifests
    try:
        return cache_dir is not None and Manifests(cache_dir).seen(command(src, std), src)
    except FrontEndError:
        return False


def _known(src, std, manifests) -> str | None:
    """The unit key of a file whose preprocessing inputs are unchanged (NOTE [direct-mode])."""
    try:
        return manifests.lookup(command(src, std), src)
    except FrontEndError:
        return None


def preprocessed(files, std, jobs: int = 1, unit_cache=None, root=".", early=None):
    """Yield (source, text, unit key, error message) in the order of `files`; one of the
    three is not None. Workers are started only for two changed files or more: one is
    lowered here (after an edit, the modules lowering needs are imported while the compiler
    runs: NOTE [startup] in logic/bdd.py), and unchanged ones need no work. `early`: an
    `Early` made for these files."""
    cache_dir = unit_cache.directory if unit_cache is not None else None
    if early is None or not early.fits(files, std, cache_dir):
        early = Early(files, std, cache_dir, root, jobs) if cache_dir is not None else None
    known = early.known if early is not None else [None] * len(files)
    changed = [src for src, key in zip(files, known) if key is None]
    if jobs <= 1 or len(changed) <= 1:
        for src, key in zip(files, known):
            if key is not None:
                yield src, None, key, None
            elif early is not None and id(src) in early.forked:
                yield src, *_forked_result(early.forked.pop(id(src)), src, std, cache_dir, root)
            else:
                meanwhile = _lowering_modules if _edited(src, std, cache_dir) else None
                started = early.running.pop(id(src), None) if early is not None else None
                yield src, *_front(src, std, cache_dir, root, False, meanwhile, started)
        return
    # NOTE [own-workers] in saturn/workers.py: a worker that dies loses only its own file.
    fronts = in_order(min(jobs, len(changed)), _front,
                      [(src, std, cache_dir, root, True) for src in changed])
    for src, key in zip(files, known):
        if key is not None:
            yield src, None, key, None
            continue
        got = next(fronts)
        yield (src, *got) if not isinstance(got, Lost) else \
            (src, None, None, f"{src.path}:1:1: error: not read: {got.why}")
