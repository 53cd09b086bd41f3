"""The checkers Saturn knows, by name."""
from __future__ import annotations

import importlib

CHECKERS = {
    "assert": "checkers.assertion",
    "lock": "checkers.lock",
    "leak": "checkers.leak",
}


def _module(name):
    return importlib.import_module(CHECKERS[name])


def _make(name, config):
    mod = _module(name)
    maker = getattr(mod, "configured", None)
    return maker(config) if (maker and config) else mod.CHECKER


def load(names: list[str], config: dict | None = None):
    """Checker objects; a checker module with `configured(config)` builds one from the config.
    Every checker carries the library effects of all checkers (`shared_effects`), so what a
    bodiless library call may change does not depend on which checkers run."""
    out = [_make(n, config) for n in names]
    effects: dict = {}
    for n in CHECKERS:
        effects.update(_make(n, config).library_effects())
    for ch in out:
        ch.shared_effects = effects
    return out


def default_names() -> list[str]:
    return [n for n in CHECKERS if _module(n).CHECKER.enabled_by_default]
