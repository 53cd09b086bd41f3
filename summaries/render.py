"""Plain-words summaries, one grammar for every checker (DESIGN.md "Tests"):

    Function summary for 'drivers/x.c:f' {
      lock (*param0).lock: [unlocked -> locked if ret != 0] [locked -> error (acquire)]
      leak: allocator (returns new memory or null); escapees: *param1
    }

A line is `CHECKER[ SUBJECT]: WHAT`, in the checkers' order; each checker words its own
summary (Checker.render_summary).
"""
from __future__ import annotations

from saturn import registry


def render(key: str, summaries: dict) -> str:
    lines = [f"Function summary for '{key}' {{"]
    if summaries.get("<engine>", {}).get("noreturn"):
        lines.append("  never returns")
    for name in registry.names():
        if name in summaries:
            lines += ["  " + ln for ln in registry.render_summary(name, summaries[name])]
    lines.append("}")
    return "\n".join(lines)
