"""Plain-words summaries, one grammar for every checker (docs/DESIGN.md "Tests"):

    Function summary for 'drivers/x.c:f' {
      lock (*param0).lock: [unlocked -> locked if ret != 0] [locked -> error (acquire)]
      leak: allocator (returns new memory or null); escapees: *param1
    }
"""
from __future__ import annotations

from saturn.report.paths import render_steps

STATE = {0: "unlocked", 1: "locked", 2: "read-locked", 3: "error", "*": "any"}


def _cond(props, values) -> list[str]:
    out = []
    for d, v in zip(props, values):
        if v is None:
            continue
        if "eq" in d:  # a field compared with a constant: `name == k` holds or not
            out.append(d["name"] if v else d["name"].replace(" == ", " != "))
        else:
            out.append(f"{d['name']} {'!=' if v else '=='} 0")
    return out


def _simplify(rows):
    """Merge transitions that differ only in one proposition into a don't-care (None)."""
    rows = {tuple(r) for r in rows}
    changed = True
    while changed:
        changed = False
        for r in sorted(rows, key=str):
            for j, v in enumerate(r[0]):
                if v is None:
                    continue
                twin = r[0][:j] + (1 - v,) + r[0][j + 1:]
                other = (twin,) + r[1:]
                if other in rows:
                    rows -= {r, other}
                    rows.add((r[0][:j] + (None,) + r[0][j + 1:],) + r[1:])
                    changed = True
                    break
            if changed:
                break
    return rows


def lock_lines(summary: dict) -> list[str]:
    props = summary.get("pin", []) + summary.get("pout", [])
    lines = []
    for lk in summary.get("locks", []):
        rows = [(tuple(ins) + tuple(outs), s, s2, why) for ins, s, outs, s2, why in lk["transitions"]]
        parts = []
        order = {"*": -1, 0: 0, 1: 1, 2: 2, 3: 3}
        for vals, s, s2, why in sorted(_simplify(rows), key=lambda r: (
                order[r[1]], [-(v if v is not None else 0.5) for v in r[0]], r[2])):
            text = f"{STATE[s]} -> {STATE[s2]}"
            if s2 == 3 and why:
                text += f" ({why})"
            cond = _cond(props, vals)
            if cond:
                text += " if " + " and ".join(cond)
            parts.append(f"[{text}]")
        prefix = "constructor " if lk.get("constructor") else ""
        lines.append(f"lock {prefix}{lk['name']}: " + " ".join(parts))
    return lines


def render(key: str, summaries: dict) -> str:
    lines = [f"Function summary for '{key}' {{"]
    if summaries.get("<engine>", {}).get("noreturn"):
        lines.append("  never returns")
    lines += ["  " + ln for ln in result_lines(summaries.get("<engine>", {}))]
    if "lock" in summaries:
        lines += ["  " + ln for ln in lock_lines(summaries["lock"])]
    if "leak" in summaries and "leak" in RENDERERS:
        lines += ["  " + ln for ln in RENDERERS["leak"](summaries["leak"])]
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
    if res.get("known"):
        mask, value = res["known"]
        parts.append(f"bits {mask:#x} always {value:#x}")
    if res.get("nonnull"):
        parts.append("never null")
    sign = engine.get("sign")
    if sign:
        parts.append("never positive (0 or -errno)" if sign == "nonpositive" else
                     "never negative")
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


def leak_lines(summary: dict) -> list[str]:
    parts = []
    if summary.get("allocator"):
        parts.append("allocator (returns new memory or null)")
    elif summary.get("returns_param") is not None:
        parts.append(f"returns param{summary['returns_param']} or null")
    else:
        parts.append("not an allocator")
    for i, when, *flags in summary.get("out_alloc", []):
        conds = ([when] if when != "always" else []) + \
            ([f"*param{i} was null"] if "if-null" in flags else [])
        parts.append(f"new memory through *param{i}" + (f" if {' and '.join(conds)}" if conds else ""))
    if summary.get("fields"):
        parts.append("result comes with allocated " +
                     ", ".join(render_steps([["ret"], ["deref"]] + f) for f in summary["fields"]))
    escapees = [render_steps(e) for e in summary.get("escapees", [])]
    parts.append("escapees: " + (", ".join(escapees) if escapees else "none"))
    return ["leak: " + "; ".join(parts)]


RENDERERS: dict = {"leak": leak_lines}
