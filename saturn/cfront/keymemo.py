"""The body cache's keys of a file's declarations, kept from one run to the next.

NOTE [key-memo]: the function cache keys every main-file definition at each re-check (NOTE
[function-cache]), and BodyCache.keys finding line constants in each (NOTE
[moved-line-constants]) was ~0.1 s of zstd's 0.85 s first edit: a regular expression over
every body. A key depends on nothing but the declaration's text, its file, first line and
column and the typedef names it mentions; the keys of one unit's lowering are kept under the
text, file, column and names, with the line, per main file, and the next lowering of that
file looks them up. At another line (below an edit that added one) they hold when the text
has no line marker and none of its numbers is a line it now spans: then it had no line
constant before and has none now, and nothing else in the key depends on the line. Only the
entries a lowering used are kept: the memo is as large as the file's declarations.
"""
from __future__ import annotations

import bisect
import pickle

from ..ir.digest import NUMBER
from .files import write_later


class KeyMemo:
    def __init__(self, path: str):
        self.path = path
        try:
            with open(path, "rb") as fh:
                self.old = pickle.load(fh)
        except Exception:   # none yet, or damaged: every key is computed again
            self.old = {}
        self.old = self.old if isinstance(self.old, dict) else {}
        self.new: dict[tuple, tuple] = {}
        self.computed = 0

    def keys(self, exact: str, file: str, line: int, column: int, types: str, compute) -> tuple:
        """`compute(exact, file, line, column, types)`, or what it gave before."""
        at = (exact, file, column, types)
        got = self.new.get(at) or self.old.get(at)
        if not (isinstance(got, tuple) and len(got) == 3 and
                (got[0] == line or _still_holds(got[2], exact, line))):
            keys = compute(exact, file, line, column, types)
            self.computed += 1
            numbers = None if len(keys) != 1 or "\n#" in exact else \
                tuple(sorted({int(n) for n in NUMBER.findall(exact)}))
            got = (line, keys, numbers)
        self.new[at] = got
        return got[1]

    def save(self) -> None:
        """Write the entries used, when they are not what was read."""
        if self.computed or len(self.new) != len(self.old):
            new = self.new   # NOTE [background-writes]: not changed after this
            write_later(self.path, lambda: pickle.dumps(new, pickle.HIGHEST_PROTOCOL))


def _still_holds(numbers, exact: str, line: int) -> bool:
    """Whether keys without line constants, of a text with `numbers` and no line markers,
    hold with its first line at `line`."""
    if numbers is None:
        return False
    k = bisect.bisect_left(numbers, line)
    return k == len(numbers) or numbers[k] > line + exact.count("\n")
