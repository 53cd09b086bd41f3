"""The checkers Saturn knows, by name."""
from __future__ import annotations

import importlib

CHECKERS = {
    "assert": "checkers.assertion",
    "lock": "checkers.lock",
}


def load(names: list[str]):
    return [importlib.import_module(CHECKERS[n]).CHECKER for n in names]


def default_names() -> list[str]:
    return [n for n in CHECKERS if importlib.import_module(CHECKERS[n]).CHECKER.enabled_by_default]
