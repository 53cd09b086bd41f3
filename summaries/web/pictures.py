"""The page's pictures: a report's path drawn on the source, the call graph around a function
(SVG laid out by Graphviz's `dot`), and the overview's bar charts. Everything is made on the
server and served with the page: nothing is loaded from elsewhere."""
from __future__ import annotations

from urllib.parse import quote

# The `graphviz` package writes the dot text; the layout is Debian's `dot` program.
import graphviz

from .. import callgraph


def bug_paths(reports: list[dict], file: str) -> dict[int, list[dict]]:
    """Each report's steps that are in `file`, by line: {line: [{label, anchor, note}]}. Steps
    are numbered from 1 in each report; with several reports, `2.3` is the third step of the
    second."""
    by_line: dict[int, list[dict]] = {}
    for i, r in enumerate(reports, 1):
        for j, step in enumerate(r["trace"], 1):
            step["label"] = f"{i}.{j}" if len(reports) > 1 else str(j)
            step["anchor"] = f"r{i}-s{j}"
            if step["file"] == file:
                by_line.setdefault(step["line"], []).append(step)
    return by_line


def call_graph_svg(db, key: str, fn_url) -> str | None:
    """The call graph around `key` as an SVG element (None when Graphviz's `dot` is not
    installed). Functions with reports are red, the centre is bold, each analysed function
    links to its page."""
    around = callgraph.neighbourhood(db, key)
    g = graphviz.Digraph("calls", graph_attr={"rankdir": "LR", "bgcolor": "transparent",
                                              "fontsize": "10"},
                         node_attr={"shape": "box", "style": "rounded,filled",
                                    "fontname": "sans-serif", "fontsize": "10",
                                    "fillcolor": "#f4f4f4", "color": "#999999"})
    ids = {n["key"]: f"n{i}" for i, n in enumerate(around["nodes"])}
    for n in around["nodes"]:
        attrs = {"tooltip": n["key"], "target": "_top"}
        if n["analysed"]:   # dot writes URLs unescaped: only percent-encoded text goes in
            attrs["URL"] = quote(fn_url(n["key"]), safe="/%:@._-~")
        if n["reports"]:
            attrs.update(fillcolor="#fde2e2", color="#b00020")
        if n["centre"]:
            attrs.update(penwidth="2.5", fontname="sans-serif bold")
        label = n["name"] + (f" ({n['reports']})" if n["reports"] else "")
        g.node(ids[n["key"]], label=label, **attrs)
    for a, b in around["edges"]:
        g.edge(ids[a], ids[b])
    for i, (k, direction, n) in enumerate(around["more"]):
        g.node(f"m{i}", label=f"+{n} more {direction}", shape="plaintext", style="")
        g.edge(*((ids[k], f"m{i}") if direction == "callees" else (f"m{i}", ids[k])),
               style="dashed")
    try:
        svg = g.pipe(format="svg", encoding="utf-8")
    except (graphviz.ExecutableNotFound, graphviz.CalledProcessError, OSError):
        return None
    return svg[svg.index("<svg"):]   # inline: no XML prolog nor doctype


def bars(counts: dict, limit: int = 12) -> list[dict]:
    """The largest `limit` values as bars: label, value and width in percent of the largest."""
    items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
    top = max((v for _, v in items), default=0) or 1
    return [{"label": k, "value": v, "width": round(100 * v / top, 1)} for k, v in items]
