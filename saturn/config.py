"""The configuration file: `saturn.toml`, or `[tool.saturn]` in `pyproject.toml`, in the current
directory (or `--config FILE`). Users' own allocation functions:

    alloc = ["my_alloc"]      # returns new memory or null
    free = ["my_free"]        # frees its first argument

and lock functions:

    [[lock]]
    function = "my_acquire"   # name of the function
    arg = 0                   # which argument is the lock
    op = "acquire"            # acquire | release | try | init | destroy
    success = 0               # for `try`: the return value that means the lock was taken, or "nonzero"
    mode = "w"                # w (exclusive) or r (shared)
"""
from __future__ import annotations

import os
import re


# What a pyproject.toml with a [tool.saturn] table holds, however written (`[tool.saturn]`,
# dotted keys, or a [tool] table): any other (a project merely named saturn) is not parsed.
_MAY_HAVE_OURS = re.compile(rb"tool\s*\.\s*[\"']?saturn|\[\s*tool\s*\]")


class ConfigError(Exception):
    pass


def load_config(path: str | None = None) -> dict:
    candidates = [path] if path else ["saturn.toml", "pyproject.toml"]
    for cand in candidates:
        if not cand or not os.path.exists(cand):
            if path:
                raise ConfigError(f"{path}: no such file")
            continue
        ours = not cand.endswith("pyproject.toml") or path
        try:
            with open(cand, "rb") as fh:
                raw = fh.read()
            if not ours and not _MAY_HAVE_OURS.search(raw):
                return {}   # another tool's file: not parsed (a broken one does not stop us)
            import tomllib
            data = tomllib.loads(raw.decode("utf-8"))
        except (ValueError, OSError) as exc:   # TOMLDecodeError and UnicodeDecodeError
            raise ConfigError(f"{cand}: {exc}") from None
        if not ours:
            data = data.get("tool", {}).get("saturn", {})
        _validate(cand, data)
        return data
    return {}


def _validate(where: str, data: dict) -> None:
    for key in ("alloc", "free"):
        names = data.get(key, [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ConfigError(f"{where}: '{key}' must be a list of function names")
    for i, entry in enumerate(data.get("lock", [])):
        if not isinstance(entry, dict) or "function" not in entry:
            raise ConfigError(f"{where}: lock entry {i + 1} needs a 'function'")
        if entry.get("op", "acquire") not in ("acquire", "release", "try", "init", "destroy"):
            raise ConfigError(f"{where}: lock entry {i + 1}: unknown op {entry.get('op')!r}")
        if entry.get("mode", "w") not in ("w", "r"):
            raise ConfigError(f"{where}: lock entry {i + 1}: mode must be 'w' or 'r'")
