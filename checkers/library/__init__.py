"""What library functions do to memory, handles and locks, as data: `libc.toml` beside this
module, and the users' `[[spec]]` entries in saturn.toml, in one format (README
"Configuration"). Each checker takes the entries of its domain as tables (`memory`, `handles`,
`locks`); the kernel's families stay in Python beside their checkers.

An entry: `function` (or `functions`, a list) and `op`, with the keys that op reads:

  memory   alloc      returns new memory, or null (`if_null = k`: only when argument k is null;
                      `zeroed = true`: its bytes are zero, as calloc's)
           realloc    returns new memory; argument `arg` is freed where it succeeds
           free       frees argument `arg` (a number, or a list of them)
           out-alloc  stores new memory through argument `arg` (into its member `field`, if
                      given: a name, or a list of the spellings it may have), `when` "always"
                      | "ret==0" | "ret>=0"
  handles  open       returns a new `what` (file, directory, descriptor, socket, ...): a pointer
                      (`fails`: "null", or "minus-one" as mmap's MAP_FAILED) or a descriptor
                      (negative on failure)
           close      releases argument `arg` (a number or a list)
           out-open   stores `count` new ones through argument `arg`, `when` ...
           take       takes argument `arg` over where it succeeds (fdopen)
  locks    acquire | release | try | init | destroy (argument `arg`); `success` (for try: the
           result meaning it was taken, or "nonzero"); `mode` w | r | s (a semaphore) |
           recursive (its holder may take it again: stdio's stream locks) | any
"""
from __future__ import annotations

import os
import tomllib

from saturn.plugin.checker import ConfigError, ConfigKey

DOMAINS = {"alloc": "memory", "realloc": "memory", "free": "memory", "out-alloc": "memory",
           "open": "handles", "close": "handles", "out-open": "handles", "take": "handles",
           "acquire": "locks", "release": "locks", "try": "locks", "init": "locks",
           "destroy": "locks"}
KEYS = ("function", "functions", "op", "arg", "when", "count", "what", "fails", "field",
        "if_null", "success", "mode", "zeroed")
WHEN = ("always", "ret==0", "ret>=0")
MODES = ("w", "r", "s", "recursive", "any")
HERE = os.path.dirname(os.path.abspath(__file__))


def check_entries(where: str, key: str, entries, warn) -> list[dict]:
    """`[[spec]]` entries, each with one function: a value of the wrong type is a ConfigError;
    an unknown key is left out, and an entry with a value out of its range, with a warning."""
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ConfigError(f"{where}: '{key}' must be an array of tables ([[{key}]] entries), "
                          f"not {entries!r}")
    out = []
    for n, e in enumerate(entries, 1):
        names = e.get("functions", [e.get("function")])
        if not isinstance(names, list) or not names or \
                not all(isinstance(x, str) and x for x in names):
            raise ConfigError(f"{where}: {key} entry {n} needs a 'function' (a name) or "
                              f"'functions' (a list of names)")
        for k in sorted(set(e) - set(KEYS)):
            warn(f"{key} entry {n} ('{names[0]}'): unknown key '{k}' ignored")
        why = _out_of_range(where, f"{key} entry {n}", e)
        if why:
            warn(f"{key} entry {n} ('{names[0]}') ignored: {why}")
            continue
        base = {k: v for k, v in e.items() if k in KEYS and k not in ("function", "functions")}
        out += [dict(base, function=name) for name in names]
    return out


def _out_of_range(where: str, what: str, e: dict) -> str | None:
    """Why entry `e` cannot be used (None when it can); raises on a value of the wrong type."""
    op = e.get("op")
    if op not in DOMAINS:
        raise ConfigError(f"{where}: {what}: 'op' must be one of {', '.join(DOMAINS)}, "
                          f"not {op!r}")
    args = e.get("arg", 0)
    for a in args if isinstance(args, list) else [args]:
        if not isinstance(a, int) or isinstance(a, bool):
            raise ConfigError(f"{where}: {what}: arg must be an argument's number (0 for the "
                              f"first), not {a!r}")
        if a < 0:
            return f"arg = {a} is not an argument (0 is the first)"
    for k, allowed in (("when", WHEN), ("mode", MODES), ("fails", ("null", "minus-one"))):
        if k in e and e[k] not in allowed:
            return f"{k} = {e[k]!r} is not one of {', '.join(allowed)}"
    for k in ("count", "if_null"):
        if k in e and (not isinstance(e[k], int) or isinstance(e[k], bool) or e[k] < 0):
            raise ConfigError(f"{where}: {what}: {k} must be a number, not {e[k]!r}")
    for k in ("what", "field"):
        ok = isinstance(e.get(k), str) or k == "field" and isinstance(e.get(k), list) and \
            e[k] and all(isinstance(x, str) for x in e[k])
        if k in e and not ok:
            raise ConfigError(f"{where}: {what}: {k} must be a string"
                              f"{' or a list of them' if k == 'field' else ''}, not {e[k]!r}")
    if "zeroed" in e and not isinstance(e["zeroed"], bool):
        raise ConfigError(f"{where}: {what}: zeroed must be true or false, not {e['zeroed']!r}")
    success = e.get("success")
    if success is not None and (isinstance(success, bool) or
                                not (isinstance(success, int) or success == "nonzero")):
        return f"success = {success!r} is neither a return value nor \"nonzero\""
    return None


def _load(name: str) -> list[dict]:
    path = os.path.join(HERE, name)
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    return check_entries(path, "spec", data.get("spec", []), _broken)


def _broken(message: str):
    raise ConfigError(f"{HERE}: {message}")   # the shipped data is checked like a user's


LIBC = _load("libc.toml")

SPEC_KEY = ConfigKey(
    "spec", "your own functions, in the format of checkers/library/libc.toml: [[spec]] "
    "entries with function and op (alloc, realloc, free, out-alloc; open, close, out-open, "
    "take; acquire, release, try, init, destroy) and the keys the op reads (README "
    "\"Configuration\")", check_entries)


def of_domain(domain: str, config: dict | None = None) -> list[dict]:
    """The library's entries of one domain, then the user's (a later entry of a function
    replaces an earlier one)."""
    return [e for e in LIBC + list((config or {}).get("spec", []))
            if DOMAINS[e["op"]] == domain]


def memory(entries) -> tuple[dict, dict, dict, dict]:
    """(alloc: name → "alloc" | "realloc", out_alloc: name → (arg, when), free: name → arg
    or tuple of args, extra: name → {fails, field, if_null, zeroed}) from memory entries."""
    alloc, out, free, extra = {}, {}, {}, {}
    for e in entries:
        name, op = e["function"], e["op"]
        if op in ("alloc", "realloc"):
            alloc[name] = op
        elif op == "free":
            free[name] = _args(e)
        else:
            out[name] = (e.get("arg", 0), e.get("when", "always"))
        _extra(extra, e)
    return alloc, out, free, extra


def handles(entries) -> tuple[dict, dict, dict, dict, dict, dict]:
    """(acquire: name → noun, release: name → arg(s), out_acquire: name → (arg, when, count),
    out_noun: name → noun, consume: name → arg, extra) from handle entries."""
    acquire, release, out, noun, consume, extra = {}, {}, {}, {}, {}, {}
    for e in entries:
        name, op = e["function"], e["op"]
        if op == "open":
            acquire[name] = e.get("what", "resource")
        elif op == "close":
            release[name] = _args(e)
        elif op == "out-open":
            out[name] = (e.get("arg", 0), e.get("when", "always"), e.get("count", 1))
            noun[name] = e.get("what", "resource")
        else:
            consume[name] = e.get("arg", 0)
        _extra(extra, e)
    return acquire, release, out, noun, consume, extra


def locks(entries) -> dict:
    """name → (operation, argument, success, mode), as checkers/lock_specs.py's SPECS."""
    return {e["function"]: (e["op"], e.get("arg", 0), e.get("success"), e.get("mode", "w"))
            for e in entries}


def _args(e: dict):
    arg = e.get("arg", 0)
    return tuple(arg) if isinstance(arg, list) and len(arg) > 1 else \
        (arg[0] if isinstance(arg, list) else arg)


def _extra(extra: dict, e: dict) -> None:
    got = {k: e[k] for k in ("fails", "field", "if_null", "zeroed") if e.get(k) is not None}
    if got:
        extra[e["function"]] = got
