"""The cache directory of the front end's caches and the run memo: byte strings under keys, one
file each, next to the summary database (`<db>.units/`).

NOTE [one-salt]: every key is a hash of its parts and of one salt, the hash of Saturn's own
source (codehash.py) and of pycparser's version; the summaries' cache keys take the same salt
(results.py). A changed front end, IR, engine, checker or cache format never reads an entry an
older one wrote, so no entry needs a version of its own. An entry is written
through a temporary file and a rename (a killed run leaves none half-written) and read back
whole; an entry that is missing or damaged is only a miss: it is made again. A file's new
unit replaces its last one (lowering.py); delete the folder to reclaim the rest.
"""
from __future__ import annotations

import hashlib
import os

from .codehash import code_fingerprint


def salt() -> str:
    """The salt of every key here and of the summaries' cache keys (results.py)."""
    import pycparser
    return code_fingerprint("saturn", "checkers", extra=pycparser.__version__)


class CacheDir:
    def __init__(self, directory: str):
        self.directory = directory
        self.salt = salt()
        os.makedirs(directory, exist_ok=True)

    def key(self, *parts: str) -> str:
        h = hashlib.sha256(self.salt.encode())
        for part in parts:
            h.update(b"\0" + part.encode("utf-8", "surrogateescape"))
        return h.hexdigest()[:40]

    def path(self, key: str) -> str:
        return os.path.join(self.directory, key[:2], key)

    def get(self, key: str) -> bytes | None:
        try:
            with open(self.path(key), "rb") as fh:
                return fh.read()
        except OSError:
            return None

    def delete(self, key: str) -> None:
        try:
            os.remove(self.path(key))
        except OSError:
            pass

    def put(self, key: str, data: bytes) -> bool:
        """Whether it is written. A cache directory that cannot be written is only slower: errors are
        dropped."""
        path = self.path(key)
        tmp = f"{path}.{os.getpid()}.tmp"
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(tmp, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
            return True
        except OSError:
            try:
                os.remove(tmp)
            except OSError:
                pass
            return False
