"""The front end over many files: the units in the files' order (so the output does not depend
on --jobs), the changed files lowered by worker processes when there are two or more (NOTE
[own-workers] in saturn/process/workers.py: a worker that dies loses only its own file)."""
from __future__ import annotations

from ..cfront.preprocess import FrontEndError
from ..process.workers import Lost, in_order


def units(files, front, jobs: int = 1):
    """Yield (source, unit or None, error message or None) in the order of `files`
    (`front`: a units.FrontEnd)."""
    known = [front.known(src) for src in files]
    first = next((src for src, key in zip(files, known) if key is None), None)
    if first is not None and (jobs <= 1 or sum(key is None for key in known) <= 1):
        front.start(first)   # made here: it preprocesses while the others' units load
    loaded = [front.load(key) if key is not None else None for key in known]
    changed = [src for src, unit in zip(files, loaded) if unit is None]
    if jobs <= 1 or len(changed) <= 1:
        for src, unit in zip(files, loaded):
            yield (src, unit, None) if unit is not None else (src, *_made(front, src))
        return
    front.stop_started()   # (a unit read back damaged: more to make, in workers)
    made = in_order(min(jobs, len(changed)), _in_worker, [(front, src) for src in changed])
    for src, unit in zip(files, loaded):
        if unit is not None:
            yield src, unit, None
            continue
        got = next(made)
        if isinstance(got, Lost):
            yield src, None, f"{src.path}:1:1: error: not read: {got.why}"
            continue
        key, unit, error, lowered = got
        front.lowered.update(lowered)   # (the worker's own FrontEnd noted them)
        if key is not None:
            unit = front.load(key)
            if unit is None:   # (gone from the cache directory meanwhile: made again here)
                unit, error = _made(front, src)
        yield src, unit, error


def _made(front, src) -> tuple:
    try:
        return front.unit(src), None
    except FrontEndError as exc:
        return None, str(exc)


def _in_worker(front, src) -> tuple:
    """(its key in the cache directory, or None and the unit itself when there is none, error, the
    functions lowered)."""
    front.lowered = set()
    front.background = False   # (its unit must be stored when its key is handed back)
    unit, error = _made(front, src)
    if unit is None or front.cachedir is None:
        return None, unit, error, ()
    return front.last_key, None, None, sorted(front.lowered)
