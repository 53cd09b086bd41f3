"""The checkers Saturn knows: every module or package directly under `checkers/` that defines
`CHECKER` (saturn/plugin/checker.py, docs/CHECKERS.md). The rest of Saturn learns of checkers
only here: their names, report kinds, configuration keys, summary words and search facts.
(It sits beside the checkers it loads, above the interface they import: docs/ARCHITECTURE.md.)"""
from __future__ import annotations

import functools
import importlib
import pkgutil

# NOTE [checker-order]: checkers are found in the order of their modules' names, and that is the
# order they see each event in. The order reaches the formula (each checker's gates are made in
# turn: NOTE [gate-order]), so it is fixed, never the import order; `ORDER_FIRST` keeps the
# built-in checkers that came first in the order they always ran in (path notes and input
# values in reports depend on it).
ORDER_FIRST = ("assert", "lock", "leak")

@functools.cache
def _discover() -> dict:
    import checkers
    found = {}
    for info in sorted(pkgutil.iter_modules(checkers.__path__), key=lambda m: m.name):
        if info.name.startswith("_") or info.name == "registry":
            continue
        ch = getattr(importlib.import_module(f"checkers.{info.name}"), "CHECKER", None)
        if ch is not None:
            found[ch.name] = ch
    rank = {n: i for i, n in enumerate(ORDER_FIRST)}
    return dict(sorted(found.items(), key=lambda kv: rank.get(kv[0], len(rank))))


def names() -> list[str]:
    return list(_discover())


def default_names() -> list[str]:
    return [n for n, ch in _discover().items() if ch.enabled_by_default]


def checkers():
    """Every checker as declared (not configured), in order."""
    return list(_discover().values())


def get(name: str):
    return _discover().get(name)


def load(names: list[str], config: dict | None = None):
    """Checker objects for `names`, each built from the (validated) config. Every checker
    carries the library effects of all checkers (`shared_effects`), so what a bodiless library
    call may change does not depend on which checkers run."""
    found = _discover()
    made = {n: ch.configured(config or {}) for n, ch in found.items()}
    effects: dict = {}
    for ch in made.values():
        effects.update(ch.library_effects())
    out = [made[n] for n in names]
    for ch in out:
        ch.shared_effects = effects
    return out


def kinds() -> list:
    """Every report kind (saturn.plugin.checker.Kind), by name."""
    return sorted((k for ch in checkers() for k in ch.kinds), key=lambda k: k.name)


def facts() -> list[tuple[str, object]]:
    """(checker name, Fact) for every search fact, in checker order."""
    return [(ch.name, f) for ch in checkers() for f in ch.facts]


def config_keys() -> dict:
    """Every configuration key, by name (a key two checkers share is one object)."""
    out: dict = {}
    for ch in checkers():
        for key in ch.config_keys:
            out.setdefault(key.name, key)
    return out


def render_summary(checker_name: str, summary: dict) -> list[str]:
    ch = get(checker_name)
    return ch.render_summary(summary) if ch is not None else []


def search_facts(checker_name: str, summary: dict) -> list[str]:
    ch = get(checker_name)
    return ch.search_facts(summary) if ch is not None else []


def describe() -> str:
    """The checkers, their report kinds and configuration keys, as Markdown (`saturn
    checkers`; the README's list of kinds is this text)."""
    lines = []
    for ch in checkers():
        state = "on by default" if ch.enabled_by_default else "off unless asked for"
        lines.append(f"- `{ch.name}` ({state}): {ch.description}")
        for k in ch.kinds:
            lines.append(f"  - `{k.name}` ({k.severity}): {k.help}")
        for key in ch.config_keys:
            lines.append(f"  - configuration `{key.name}`: {key.help}")
    return "\n".join(lines) + "\n"
