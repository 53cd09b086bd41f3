"""Fingerprints that survive edits elsewhere: checker, kind, function, path relative to the
root, the normalised statement text and an occurrence index among identical ones — no lines."""
from __future__ import annotations

import hashlib
import re

_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def assign_fingerprints(reports) -> None:
    seen: dict[tuple, int] = {}
    for r in sorted(reports, key=lambda r: r.sort_key()):
        base = (r.checker, r.kind, r.function_key, r.file, normalise(r.statement or r.message))
        index = seen.get(base, 0)
        seen[base] = index + 1
        raw = "\x1f".join(map(str, base + (index,)))
        r.fingerprint = hashlib.sha256(raw.encode()).hexdigest()[:32]
