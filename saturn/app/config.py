"""The configuration file: `saturn.toml`, or `[tool.saturn]` in `pyproject.toml`, in the current
directory (or `--config FILE`). Its keys are the checkers' (`config_keys`, saturn/plugin/checker.py:
`saturn checkers` lists them); each checker validates its own, e.g.

    alloc = ["my_alloc"]      # leak: returns new memory or null
    free = ["my_free"]        # leak, free: frees its first argument

    [[lock]]
    function = "my_acquire"   # lock: name of the function
    arg = 0                   # which argument is the lock
    op = "acquire"            # acquire | release | try | init | destroy
"""
from __future__ import annotations

import os
import re

from ..plugin.checker import ConfigError


# What a pyproject.toml with a [tool.saturn] table holds, however written (`[tool.saturn]`,
# dotted keys, or a [tool] table): any other (a project merely named saturn) is not parsed.
_MAY_HAVE_OURS = re.compile(rb"tool\s*\.\s*[\"']?saturn|\[\s*tool\s*\]")


__all__ = ["ConfigError", "load_config"]


def load_config(path: str | None = None, warn=lambda message: None) -> dict:
    """The configuration, checked: a value of the wrong type is a ConfigError; an unknown key,
    or a lock entry with a value out of its range (which is then left out), goes to `warn`."""
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
            data = _table(cand, data, "tool", "[tool]")
            data = _table(cand, data, "saturn", "[tool.saturn]")
        return _checked(cand, data, lambda m: warn(f"{cand}: warning: {m}"))
    return {}


def _table(where: str, data: dict, key: str, name: str) -> dict:
    got = data.get(key, {})
    if not isinstance(got, dict):
        raise ConfigError(f"{where}: {name} must be a table, not {got!r}")
    return got


def _checked(where: str, data: dict, warn) -> dict:
    """Each key checked by the checker that declares it; unknown keys are left out with a
    warning."""
    if not data:
        return data
    from checkers import registry   # imports the checkers: only for a file that has keys
    keys = registry.config_keys()
    for key in sorted(set(data) - set(keys)):
        warn(f"unknown key '{key}' ignored (known: {', '.join(sorted(keys))})")
    return {key: keys[key].check(where, key, value, warn) for key, value in data.items()
            if key in keys}
