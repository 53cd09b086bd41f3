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


KEYS = ("alloc", "free", "lock")
LOCK_KEYS = ("function", "arg", "op", "success", "mode")
OPS = ("acquire", "release", "try", "init", "destroy")


def _table(where: str, data: dict, key: str, name: str) -> dict:
    got = data.get(key, {})
    if not isinstance(got, dict):
        raise ConfigError(f"{where}: {name} must be a table, not {got!r}")
    return got


def _checked(where: str, data: dict, warn) -> dict:
    for key in sorted(set(data) - set(KEYS)):
        warn(f"unknown key '{key}' ignored (known: {', '.join(KEYS)})")
    for key in ("alloc", "free"):
        names = data.get(key, [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ConfigError(f"{where}: '{key}' must be a list of function names")
    entries = data.get("lock", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ConfigError(f"{where}: 'lock' must be an array of tables ([[lock]] entries), "
                          f"not {entries!r}")
    kept = [e for i, e in enumerate(entries) if _lock_entry(where, i + 1, e, warn)]
    return {**data, "lock": kept} if "lock" in data else data


def _lock_entry(where: str, n: int, entry: dict, warn) -> bool:
    """Whether to keep lock entry `n`: raises on a wrong type, warns (False) on a value out of
    its range."""
    name = entry.get("function")
    if not isinstance(name, str):
        raise ConfigError(f"{where}: lock entry {n} needs a 'function' (a name)")
    for key in sorted(set(entry) - set(LOCK_KEYS)):
        warn(f"lock entry {n} ('{name}'): unknown key '{key}' ignored "
             f"(known: {', '.join(LOCK_KEYS)})")
    if entry.get("op", "acquire") not in OPS:
        raise ConfigError(f"{where}: lock entry {n}: unknown op {entry.get('op')!r}")
    if entry.get("mode", "w") not in ("w", "r"):
        raise ConfigError(f"{where}: lock entry {n}: mode must be 'w' or 'r'")
    arg = entry.get("arg", 0)
    if not isinstance(arg, int) or isinstance(arg, bool):
        raise ConfigError(f"{where}: lock entry {n} ('{name}'): arg must be an argument's "
                          f"number (0 for the first), not {arg!r}")
    why = None
    if arg < 0:
        why = f"arg = {arg} is not an argument (0 is the first)"
    success = entry.get("success")
    if success is not None and (isinstance(success, bool) or
                                not (isinstance(success, int) or success == "nonzero")):
        why = f"success = {_toml(success)} is neither a return value nor \"nonzero\""
    if why:
        warn(f"lock entry {n} ('{name}') ignored: {why}")
    return why is None


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else repr(value)
