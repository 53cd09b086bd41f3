"""Facts about a function drawn from its summaries, for search filters and the overview (the counts
of §2.5.6.2 and of the leak tables of §2.6.9)."""
from __future__ import annotations

U, L = 0, 1


def lock_facts(summary: dict) -> dict:
    rows = [r for lk in summary.get("locks", []) for r in lk["transitions"]]
    ret = [i for i, d in enumerate(summary.get("pout", [])) if d["kind"] == "ret"]
    follows = bool(ret) and any(
        len({r[3] for r in rows if r[1] == s0 and r[2][ret[0]] == v}) == 1 and
        len({r[3] for r in rows if r[1] == s0}) > 1 for s0 in (U, L) for v in (0, 1))
    return {"touches_locks": bool(rows),
            "lock_wrapper": any(r[1] == U and r[3] == L for r in rows),
            "unlock_wrapper": any(r[1] == L and r[3] == U for r in rows),
            "follows_return": follows}


def leak_facts(summary: dict) -> dict:
    return {"allocator": bool(summary.get("allocator")),
            "escapees": bool(summary.get("escapees")),
            "out_alloc": bool(summary.get("out_alloc"))}


def facts(summaries: dict) -> dict:
    out = lock_facts(summaries.get("lock", {}))
    out.update(leak_facts(summaries.get("leak", {})))
    return out


FLAGS = ("touches_locks", "lock_wrapper", "unlock_wrapper", "follows_return", "allocator",
         "escapees", "out_alloc")
