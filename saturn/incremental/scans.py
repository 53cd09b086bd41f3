"""A file's last token scan, kept so that the next one reads only where the text changed.

NOTE [scan-prefix]: the token scan that splits a preprocessed text into declarations (NOTE
[lazy-headers] in cfront/prune.py) reads the whole text, most of it (in a kernel file, tens of
thousands of lines) the headers before the file's own code, which an edit of that code leaves
as they were. The last scan of each file is kept with its text; the next one takes the
declarations that end before the first character that differs as they were, and scans from
there. After the change gcc renumbers every line marker below an added line, and a `__LINE__`
there is another number, but the scan reads no number: the declarations that start where the
rest of the text is the same but for the digits of numbers (not of names) are taken moved, as
soon as the scan finds the first of them alike and with the same typedef names before it.
"""
from __future__ import annotations

import bisect
import pickle
import re

from ..cfront.prune import declarations

_DIGITS = str.maketrans("123456789", "000000000")
_DIFFERENT = re.compile(rb"[^\x00]+")
_STEPS = (1 << 16, 1 << 11, 1 << 6, 1)   # (slices compared, long to short)
_NAME_OR_NUMBER = frozenset(b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_.")


class ScanCache:
    def __init__(self, cachedir, path: str):
        self.cachedir, self.name = cachedir, cachedir.key("scan", path)
        self.last, self.made = None, False

    def load(self) -> tuple:
        """The last scan, (text, own names, declarations) or (), read once (units.py reads it
        while the compiler runs)."""
        if self.last is None:
            try:
                self.last = pickle.loads(self.cachedir.get(self.name) or b"")
            except Exception:   # none yet, or damaged: scanned whole
                self.last = ()
        return self.last

    def declarations(self, text: str, own: set[str]) -> list | None:
        """cfront.prune.declarations(text, own), from the last scan where the text is the same."""
        known, tail = [], ((), None)
        try:
            old_text, old_own, old = self.load()
            if old_own == own:
                same = _common_prefix(old_text, text)
                known = old[:bisect.bisect_right([d.end for d in old], same)]
                tail = _tail(old_text, text, old, len(known))
        except Exception:   # none yet, or damaged: scanned whole
            pass
        decls = declarations(text, own, known, tail)
        if decls is not None:
            self.last, self.made = (text, own, decls), True
        return decls

    def keep(self) -> None:
        """The scan `declarations` made, stored for the next one."""
        if self.made:
            self.cachedir.put(self.name, pickle.dumps(self.last, protocol=pickle.HIGHEST_PROTOCOL))


def _tail(old_text: str, text: str, old: list, start: int) -> tuple:
    """(the last declarations of `old` (from index `start` on) moved to where they stand in
    `text`, the typedef names declared up to the first of them), where the rest of the text
    is the same but for the digits of numbers; ((), None) if none is."""
    by = len(text) - len(old_text)
    a, b = old_text.translate(_DIGITS), text.translate(_DIGITS)
    same_from = len(a) - _common_suffix(a, b)
    k = bisect.bisect_left([d.start for d in old], same_from, lo=start)
    if k >= len(old) or not _numbers_only(old_text, text, old[k].start, by):
        return (), None
    typedefs = {name for d in old[:k + 1] if d.typedef for name in d.declared}
    return [d.moved(by) for d in old[k:]], typedefs


def _numbers_only(old_text: str, text: str, start: int, by: int) -> bool:
    """Whether `old_text` from `start` and `text` from `start + by`, the same but for digits,
    differ only in numbers."""
    x = old_text[start:].encode("utf-8", "surrogateescape")
    y = text[start + by:].encode("utf-8", "surrogateescape")
    if len(x) != len(y):
        return False
    diff = (int.from_bytes(x, "big") ^ int.from_bytes(y, "big")).to_bytes(len(x), "big")
    for m in _DIFFERENT.finditer(diff):
        at = m.start()
        while at > 0 and x[at - 1] in _NAME_OR_NUMBER:
            at -= 1
        if not 48 <= x[at] <= 57:   # the token is a name (or a string: scanned again)
            return False
        line = x.rfind(b"\n", 0, at) + 1
        if x[line:line + 1] == b"#" and x[line:at] not in (b"#", b"# "):
            return False   # in a marker, only its line number (not a file's name)
    return True


def _common_prefix(a: str, b: str) -> int:
    """How many characters `a` and `b` share at their start."""
    n, done = min(len(a), len(b)), 0
    for step in _STEPS:
        while done + step <= n and a[done:done + step] == b[done:done + step]:
            done += step
    return done


def _common_suffix(a: str, b: str) -> int:
    """How many characters `a` and `b` share at their end."""
    n, done, la, lb = min(len(a), len(b)), 0, len(a), len(b)
    for step in _STEPS:
        while done + step <= n and a[la - done - step:la - done] == b[lb - done - step:lb - done]:
            done += step
    return done
