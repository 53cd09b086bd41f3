"""An ownership summary in plain words (summaries/render.py's grammar), e.g.

    leak: allocator (returns new memory or null); escapees: *param1
"""
from __future__ import annotations

from saturn.report.paths import render_steps


def summary_lines(name: str, thing: str, summary: dict, failure: str = "null") -> list[str]:
    parts = []
    if summary.get("allocator"):
        when = summary.get("allocator_when")
        zeroed = ", its bytes zero" if summary.get("zeroed") else ""
        parts.append(f"allocator (returns new {thing} or {failure}{zeroed})" +
                     (f", new only if {when}" if when else ""))
    elif summary.get("returns_param") is not None:
        parts.append(f"returns param{summary['returns_param']}" +
                     ("" if summary.get("returns_param_always") else " or null"))
    else:
        parts.append("not an allocator")
    for i, when, *flags in summary.get("out_alloc", []):
        conds = ([when] if when != "always" else []) + \
            ([f"*param{i} was null"] if "if-null" in flags else [])
        word = "exactly when" if "exactly" in flags else "if"
        parts.append(f"new {thing} through *param{i}" +
                     (f" {word} {' and '.join(conds)}" if conds else ""))
    for i, steps, when, *flags in summary.get("field_alloc", []):
        parts.append(f"new {thing} in {render_steps([['param', i], ['deref']] + steps)}" +
                     (f" if {when}" if when != "always" else "") +
                     (" and it was null" if "if-null" in flags else "") +
                     (", else as it was" if "grows" in flags else "") +
                     "".join(f", {f}" for f in flags if f.startswith("null if ")))
    if summary.get("fields"):
        parts.append("result comes with allocated " +
                     ", ".join(render_steps([["ret"], ["deref"]] + f) for f in summary["fields"]))
    for first, other in summary.get("field_aliases", []):
        parts.append(f"{render_steps([['ret'], ['deref']] + other)} points to the same block as "
                     f"{render_steps([['ret'], ['deref']] + first)}")
    escapees = [render_steps(e) for e in summary.get("escapees", [])] + \
        [f"{render_steps(e)} if {when}" for e, when in summary.get("escapees_if", [])]
    parts.append("escapees: " + (", ".join(escapees) if escapees else "none"))
    taken = [render_steps(v) for v in summary.get("values", [])] + \
        [f"{render_steps(v)} if {when}" for v, when in summary.get("values_if", [])]
    if taken:
        parts.append("descriptors taken: " + ", ".join(taken))
    return [f"{name}: " + "; ".join(parts)]


def facts(summary: dict) -> dict:
    """The search facts every ownership checker's summary gives, by their role."""
    return {"allocator": bool(summary.get("allocator")),
            "escapees": bool(summary.get("escapees") or summary.get("escapees_if")),
            "out_alloc": bool(summary.get("out_alloc"))}
