"""The front end over many files: the units in the files' order (so the output does not depend
on --jobs), the changed files lowered by worker processes when there are two or more."""
from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from ..cfront.preprocess import FrontEndError


def units(files, front, jobs: int = 1):
    """Yield (source, unit or None, error message or None) in the order of `files`
    (`front`: a units.FrontEnd)."""
    known = [front.known(src) for src in files]
    loaded = [front.load(key) if key is not None else None for key in known]
    changed = [src for src, unit in zip(files, loaded) if unit is None]
    if jobs <= 1 or len(changed) <= 1:
        for src, unit in zip(files, loaded):
            yield (src, unit, None) if unit is not None else (src, *_made(front, src))
        return
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=min(jobs, len(changed)), mp_context=context) as pool:
        futures = {id(src): pool.submit(_in_worker, front, src) for src in changed}
        for src, unit in zip(files, loaded):
            if unit is not None:
                yield src, unit, None
                continue
            key, unit, error = futures[id(src)].result()
            if key is not None:
                unit = front.load(key)
                if unit is None:   # (gone from the store meanwhile: made again here)
                    unit, error = _made(front, src)
            yield src, unit, error


def _made(front, src) -> tuple:
    try:
        return front.unit(src), None
    except FrontEndError as exc:
        return None, str(exc)


def _in_worker(front, src) -> tuple:
    """(its key in the store, or None and the unit itself when there is no store, error)."""
    unit, error = _made(front, src)
    if unit is None or front.store is None:
        return None, unit, error
    return front.last_key, None, None
