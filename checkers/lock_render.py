"""The lock summary in plain words (summaries/render.py's grammar) and its search facts (the
counts of §2.5.6.2):

    lock (*param0).lock: [unlocked -> locked if ret != 0] [locked -> error (acquire)]
"""
from __future__ import annotations

from saturn.plugin.checker import Fact

from .lock_states import NAMES, L, U

STATE = {**NAMES, "*": "any"}

FACTS = (Fact("touches_locks", "its summary changes or needs a lock's state"),
         Fact("lock_wrapper", "it may return with a lock held that was not held on entry"),
         Fact("unlock_wrapper", "it may return with a lock released that was held on entry"),
         Fact("follows_return", "the lock's exit state follows its return value"))


def _cond(props, values) -> list[str]:
    out = []
    for d, v in zip(props, values):
        if v is None:
            continue
        if "eq" in d or d["kind"] == "ret_is":  # `name == k` holds or not
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
        if lk.get("unknown"):
            parts = ["[unknown]"]
        elif lk.get("alternative"):   # NOTE [alternative-targets]
            parts.append("(vague: as one of a call's alternative targets left it)")
        prefix = "constructor " if lk.get("constructor") else ""
        lines.append(f"lock {prefix}{lk['name']}: " + " ".join(parts))
    if summary.get("coarse") and lines:   # NOTE [lock-summary-budget]
        lines.append("lock conditions: coarse (the question budget ran out)")
    return lines


def lock_facts(summary: dict) -> list[str]:
    rows = [r for lk in summary.get("locks", []) for r in lk["transitions"]]
    ret = [i for i, d in enumerate(summary.get("pout", [])) if d["kind"] == "ret"]
    follows = bool(ret) and any(
        len({r[3] for r in rows if r[1] == s0 and r[2][ret[0]] == v}) == 1 and
        len({r[3] for r in rows if r[1] == s0}) > 1 for s0 in (U, L) for v in (0, 1))
    holds = {"touches_locks": bool(rows),
             "lock_wrapper": any(r[1] == U and r[3] == L for r in rows),
             "unlock_wrapper": any(r[1] == L and r[3] == U for r in rows),
             "follows_return": follows}
    return [f.name for f in FACTS if holds[f.name]]
