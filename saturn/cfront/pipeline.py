"""The front end over many files: preprocessing (and, with a unit cache, parsing and lowering)
in worker processes, results handed back in the files' order, so the output does not depend on
--jobs.

Workers return the preprocessed text and leave the lowered unit in the unit cache (NOTE
[unit-cache] in unitcache.py); the caller then loads it from there. Without a cache, or with one
worker, everything runs in this process.
"""
from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from .preprocess import FrontEndError, preprocess


def _front(src, std, cache_dir, root):
    try:
        text = preprocess(src, std)
    except FrontEndError as exc:
        return None, str(exc)
    if cache_dir is not None:
        from .unitcache import UnitCache
        try:
            UnitCache(cache_dir, root).unit(text, src.path)
        except (FrontEndError, RecursionError):
            pass  # the caller tries again and reports the error itself
    return text, None


def preprocessed(files, std, jobs: int = 1, unit_cache=None, root="."):
    """Yield (source, text or None, error message or None) in the order of `files`."""
    cache_dir = unit_cache.directory if unit_cache is not None else None
    if jobs <= 1 or len(files) <= 1 or cache_dir is None:
        for src in files:
            text, error = _front(src, std, None, root)
            yield src, text, error
        return
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=min(jobs, len(files)), mp_context=ctx) as pool:
        futures = [pool.submit(_front, src, std, cache_dir, root) for src in files]
        for src, fut in zip(files, futures):
            text, error = fut.result()
            yield src, text, error
