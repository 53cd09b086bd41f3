"""A fingerprint of Saturn's own source, part of every cache key: a changed front end never
reuses lowered units, a changed engine or checker never reuses summaries (the version string
alone stays the same between releases)."""
from __future__ import annotations

import functools
import hashlib
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
@functools.cache
def code_fingerprint(*folders: str, extra: str = "") -> str:
    """sha256 over the .py files under `folders` (relative to the repository), sorted."""
    h = hashlib.sha256(extra.encode())
    for folder in folders:
        top = os.path.join(REPO, folder)
        for dirpath, dirnames, names in os.walk(top):
            dirnames.sort()
            for name in sorted(n for n in names if n.endswith(".py")):
                path = os.path.join(dirpath, name)
                with open(path, "rb") as fh:
                    h.update(os.path.relpath(path, REPO).encode() + b"\0" + fh.read())
    return h.hexdigest()
