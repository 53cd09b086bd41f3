"""A file's last token scan, kept so that the next one starts where the text changed.

NOTE [scan-prefix]: the token scan that splits a preprocessed text into declarations (NOTE
[lazy-headers] in cfront/prune.py) reads the whole text, most of it (in a kernel file, tens of
thousands of lines) the headers before the file's own code, which an edit of that code leaves
as they were. The last scan of each file is kept with its text; the next one takes the
declarations that end before the first character that differs as they were, and scans from
there. (Not after the change: gcc renumbers every line marker below an added line.)
"""
from __future__ import annotations

import bisect
import pickle

from ..cfront.prune import declarations


class ScanCache:
    def __init__(self, store, path: str):
        self.store, self.name = store, store.key("scan", path)

    def declarations(self, text: str, own: set[str]) -> list | None:
        """cfront.prune.declarations(text, own), from the last scan where the text is the same."""
        known = []
        try:
            old_text, old_own, old = pickle.loads(self.store.get(self.name) or b"")
            if old_own == own:
                same = _common_prefix(old_text, text)
                known = old[:bisect.bisect_right([d.end for d in old], same)]
        except Exception:   # none yet, or damaged: scanned whole
            pass
        decls = declarations(text, own, known)
        if decls is not None:
            self.store.put(self.name, pickle.dumps((text, own, decls),
                                                   protocol=pickle.HIGHEST_PROTOCOL))
        return decls


def _common_prefix(a: str, b: str) -> int:
    """How many characters `a` and `b` share at their start (to within 512)."""
    n, done = min(len(a), len(b)), 0
    for step in (1 << 16, 1 << 9):
        while done + step <= n and a[done:done + step] == b[done:done + step]:
            done += step
    return done
