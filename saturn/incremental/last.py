"""What a file's last lowering leaves the next one (NOTE [unit-skeleton] in skeleton.py): its
function-cache entries, its skeleton and layout, and its last scan, read while the compiler
runs (units.py)."""
from __future__ import annotations

import pickle

from .scans import ScanCache


class Last:
    """What a file's last stored unit leaves the next lowering: its function-cache entries,
    its skeleton (bytes) and its layout (NOTE [unit-skeleton])."""

    def __init__(self, skeleton=b"", entries=None, layout=None):
        self.entries: dict = entries if isinstance(entries, dict) else {}
        self.skeleton, self.layout = skeleton, layout
        self.scan: ScanCache | None = None   # the file's last scan, when read already
        self.key: str | None = None          # the unit's key in the cache directory
        self._parts = None

    def parts(self) -> tuple:
        """The skeleton unpickled: (unit, tags, packed functions); read once (units.py reads
        it while the compiler runs). Raises if it is damaged."""
        if self._parts is None:
            self._parts = pickle.loads(self.skeleton)
        return self._parts

    def read_ahead(self, cachedir, path: str) -> None:
        """Read what the next lowering of `path` will need (the last scan, the skeleton)."""
        self.scan = ScanCache(cachedir, path)
        self.scan.load()
        try:
            self.parts()
        except Exception:   # damaged: `_reused` finds it so again
            pass


def last_of(data: bytes | None) -> Last:
    try:
        return Last(*pickle.loads(data)) if data else Last()
    except Exception:   # damaged: lowered whole
        return Last()
