"""The free checker in words: the summary line (summaries/render.py's grammar) and the text of
an access for its reports, e.g.

    free: frees *param0, (*param0).buf if ret == 0; uses (*param1).name
"""
from __future__ import annotations

from saturn.ir import nodes as N
from saturn.report.paths import render_steps

_WHEN = {"ret==0": "ret == 0", "ret!=0": "ret != 0", "ret<0": "ret < 0", "ret>=0": "ret >= 0"}


def _when(when) -> str:
    if when == "always":
        return ""
    if when == "maybe":
        return " perhaps"
    if isinstance(when, list) and when[2] == "in":
        codes = " or ".join(str(k) for k in when[3])
        return f"{' perhaps' if when[-1] == 'maybe' else ''} if param{when[1]} is {codes}"
    if isinstance(when, list):
        name = f"param{when[1]}" if when[0] == "param" else when[1]
        return f" if {name} {'!=' if when[2] else '=='} 0"
    return f" if {_WHEN.get(when, when)}"


def summary_lines(summary: dict) -> list[str]:
    parts = []
    frees = [render_steps(steps) + _when(when) for steps, when in summary.get("frees", [])]
    if frees:
        parts.append("frees " + ", ".join(frees))
    if summary.get("uses"):
        parts.append("uses " + ", ".join(render_steps(steps) + _when(when)
                                         for steps, when in summary["uses"]))
    if summary.get("returns"):
        parts.append("returns a pointer to a block it freed" + _when(summary["returns"]))
    return ["free: " + ("; ".join(parts) if parts else "frees nothing, uses nothing")]


def access_text(lv) -> str:
    """`p->buf`, `*p`, `p[i]` as the IR has it (temporaries named by their role)."""
    if isinstance(lv, N.VarLv):
        name = lv.sym.name
        return "a temporary" if name.startswith("<") else name
    if isinstance(lv, N.FieldLv):
        base = lv.base
        if isinstance(base, N.DerefLv):
            return f"{_expr(base.ptr)}->{lv.name}"
        return f"{access_text(base)}.{lv.name}"
    if isinstance(lv, N.IndexLv):
        return f"{access_text(lv.base)}[{_expr(lv.index)}]"
    if isinstance(lv.ptr, N.PtrAdd):
        return f"{_expr(lv.ptr.p)}[{_expr(lv.ptr.offset)}]"
    return f"*{_expr(lv.ptr)}"


_OPS = {"add": "+", "sub": "-", "mul": "*"}


def _expr(e) -> str:
    while isinstance(e, N.Cast):
        e = e.a
    if isinstance(e, N.Read):
        return access_text(e.lv)
    if isinstance(e, N.Const):
        return str(e.value)
    if isinstance(e, N.Binary) and e.op in _OPS:
        return f"{_expr(e.a)} {_OPS[e.op]} {_expr(e.b)}"
    if isinstance(e, N.PtrAdd):
        return f"{_expr(e.p)} + {_expr(e.offset)}"
    return "(...)"
