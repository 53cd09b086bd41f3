"""Plain-words summaries, one grammar for every checker (docs/DESIGN.md "Tests"):

    Function summary for 'drivers/x.c:f' {
      lock (*param0).lock: [unlocked -> locked if ret != 0] [locked -> error (acquire)]
      leak: allocator (returns new memory or null); escapees: *param1
    }

A line is `CHECKER[ SUBJECT]: WHAT`, in the checkers' order; each checker words its own
summary (Checker.render_summary).
"""
from __future__ import annotations

from checkers import registry
from saturn.report.paths import render_steps


def render(key: str, summaries: dict) -> str:
    lines = [f"Function summary for '{key}' {{"]
    if summaries.get("<engine>", {}).get("noreturn"):
        lines.append("  never returns")
    lines += ["  " + ln for ln in result_lines(summaries.get("<engine>", {}))]
    for name in registry.names():
        if name in summaries:
            lines += ["  " + ln for ln in registry.render_summary(name, summaries[name])]
    lines.append("}")
    return "\n".join(lines)


def result_lines(engine: dict) -> list[str]:
    """What callers may assume of the result (NOTE [result-summaries] in saturn/symex)."""
    res, parts = engine.get("result") or {}, []
    formula = res.get("formula")
    if formula is not None and not formula["params"]:
        parts.append(f"always {_constant(formula)}")
    elif formula is not None:
        names = sorted({f"param{p[1]}" for p in formula["params"]})
        parts.append(f"computed from {', '.join(names)} alone")
    if res.get("compare"):
        op, a, b = (x if not isinstance(x, int) else [["param", x]] for x in res["compare"])
        parts.append(f"{render_steps(a)} {'==' if op == 'eq' else '!='} {render_steps(b)}")
    if res.get("known"):
        mask, value = res["known"]
        parts.append(f"bits {mask:#x} always {value:#x}")
    if res.get("values"):
        parts.append("one of " + ", ".join(str(v) for v in res["values"]))
    if res.get("nonnull"):
        parts.append("never null")
    if res.get("null_if_zero") is not None:
        parts.append(f"null where param{res['null_if_zero']} is 0")
    if res.get("nonnull_unless_zero") is not None:
        parts.append(f"null only where param{res['nonnull_unless_zero']} is 0")
    sign = engine.get("sign")
    if sign:
        parts.append("never positive (0 or -errno)" if sign == "nonpositive" else
                     "never negative" if sign == "nonnegative" else
                     f"never negative where param{sign[1]} == 0")
    return ["result: " + "; ".join(parts)] if parts else []


def _constant(formula: dict) -> int:
    """The value of a result formula of no parameter."""
    bits = {1: True}
    for local, kind, *ins in formula["gates"]:
        v = [bits[x] if x > 0 else not bits[-x] for x in ins]
        bits[local] = {"&": lambda a, b: a and b, "^": lambda a, b: a != b,
                       "?": lambda c, t, e: t if c else e}[kind](*v)
    value = sum(1 << k for k, x in enumerate(formula["out"])
                if (bits[x] if x > 0 else not bits[-x]))
    if formula["signed"] and value >> (len(formula["out"]) - 1):
        value -= 1 << len(formula["out"])
    return value
