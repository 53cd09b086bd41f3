"""The call graph around a function, for its picture (summaries/web/pictures.py): callers and
callees up to a depth, from the `calls` table of the last run."""
from __future__ import annotations

# Past this many callers or callees of one function, the rest is one "+N more" node: a
# function called from everywhere would make a picture nobody can read.
FAN_OUT = 12


def neighbourhood(db, key: str, depth: int = 2) -> dict:
    """{"nodes": [{key, name, reports, analysed, centre}], "edges": [(caller, callee)],
    "more": [(node, "callers"|"callees", n)]}, in a fixed order."""
    nodes, edges, more = {key}, set(), []
    for direction in ("callees", "callers"):
        frontier = [key]
        for _ in range(depth):
            nxt = []
            for k in frontier:
                near = _near(db, k, direction)
                if len(near) > FAN_OUT:
                    more.append((k, direction, len(near) - FAN_OUT))
                    near = near[:FAN_OUT]
                for other in near:
                    edges.add((k, other) if direction == "callees" else (other, k))
                    if other not in nodes:
                        nodes.add(other)
                        nxt.append(other)
            frontier = nxt
    info = _info(db, sorted(nodes))
    return {"nodes": [dict(info.get(k, {"name": k.rsplit(":", 1)[-1], "reports": 0,
                                        "analysed": False}), key=k, centre=k == key)
                      for k in sorted(nodes)],
            "edges": sorted(edges), "more": more}


def _near(db, key: str, direction: str) -> list[str]:
    sql = ("SELECT callee FROM calls WHERE caller=? ORDER BY callee" if direction == "callees"
           else "SELECT caller FROM calls WHERE callee=? ORDER BY caller")
    return [r[0] for r in db.execute(sql, (key,))]


def _info(db, keys: list[str]) -> dict:
    out = {}
    for i in range(0, len(keys), 500):
        part = keys[i:i + 500]
        for k, name, reports in db.execute(
                f"SELECT function, name, reports FROM functions WHERE function IN "
                f"({','.join('?' * len(part))})", part):
            out[k] = {"name": name, "reports": reports, "analysed": True}
    return out
