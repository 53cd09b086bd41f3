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


def load(names: list[str], config: dict | None = None):
    """Checker objects; a checker module with `configured(config)` builds one from the config."""
    out = []
    for n in names:
        mod = _module(n)
        maker = getattr(mod, "configured", None)
        out.append(maker(config) if (maker and config) else mod.CHECKER)
    return out


def default_names() -> list[str]:
    return [n for n in CHECKERS if _module(n).CHECKER.enabled_by_default]
