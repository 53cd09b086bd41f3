"""Inline suppression: `saturn-ignore[KIND]` (or `saturn-ignore[*]`) in a comment on the report's
line or the line above hides it."""
from __future__ import annotations

import os
import re

_MARK = re.compile(r"saturn-ignore\[([\w.\-*, ]+)\]")


def _kinds_on(lines, lineno) -> set[str]:
    kinds: set[str] = set()
    for n in (lineno - 1, lineno - 2):
        if 0 <= n < len(lines):
            for m in _MARK.finditer(lines[n]):
                kinds.update(k.strip() for k in m.group(1).split(","))
    return kinds


def split(reports, root: str):
    """(kept, hidden) — reading each reported file once."""
    cache: dict[str, list[str]] = {}
    kept, hidden = [], []
    for r in reports:
        path = r.file if os.path.isabs(r.file) else os.path.join(root, r.file)
        if path not in cache:
            try:
                with open(path, encoding="utf-8", errors="replace") as fh:
                    cache[path] = fh.read().splitlines()
            except OSError:
                cache[path] = []
        kinds = _kinds_on(cache[path], r.line)
        (hidden if (r.kind in kinds or "*" in kinds) else kept).append(r)
    return kept, hidden
