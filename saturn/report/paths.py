"""Interface paths (§2.5.1) in words: [["param", 0], ["deref"], ["field", "lock"]] is
`(*param0).lock`. Shared by the engine, the checkers' messages and the summary renderer."""
from __future__ import annotations


def render_steps(steps) -> str:
    text = ""
    for step in steps:
        kind = step[0]
        if kind == "param":
            text = f"param{step[1]}"
        elif kind == "global":
            text = str(step[1]).rsplit(":", 1)[-1]
        elif kind == "ret":
            text = "ret"
        elif kind == "deref":
            text = f"*{text}"
        elif kind == "field":
            text = f"({text}).{step[1]}" if text.startswith("*") else f"{text}.{step[1]}"
        elif kind == "container":
            text = f"container_of({text}, {step[1]}, {step[2]})"
        elif kind == "index":
            text = f"{text}[{step[1]}]"
        elif kind == "derived":
            text = f"*({text[1:]}+?)" if text.startswith("*") else f"({text}+?)"
    return text
