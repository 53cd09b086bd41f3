"""When a function hands out new memory: the conditions of an ownership summary.

A condition is a conjunction of atoms joined by " and ", or "always". Each atom is a fact the
caller can see after the call, implied wherever the function hands the block out:

- the result: "ret==0", "ret==1", "ret>=0", "ret!=0" (for a pointer result, "ret!=0" is
  non-null: a reader that returns NULL having allocated nothing, `if (!read_string(p, &v))
  return;`);
- an integer parameter: "param3!=0" (a setter that copies only when given some bytes:
  `set_params(attr, NULL, 0)` allocates nothing), or a pointer parameter, not null (an
  allocator's initialiser that fills its cache only when given a parent to take it from);
- an integer the function leaves behind a pointer parameter: "*param2==0",
  "(*param2).alloced!=0" (a flag set exactly when it allocates, which the caller tests before
  freeing: lmdb's `mn_alloced`, jq's `too_deep`);
- where no result atom holds, one alternative of the success atom and pointer parameters
  given: "(ret==0 or param1!=0)" (NOTE [optional-outputs]).

`find` asks the solver which atoms hold at the exit; `lit` makes an atom's literal at the exit
(`ExitView`) or after a call (`CallView`).
"""
from __future__ import annotations

import re

from saturn.plugin.checker import equals_const, result_lit
from saturn.ir import types as T

RESULT_ATOMS = ("ret==0", "ret==1", "ret>=0", "ret!=0")   # the strongest first
POINTER_RESULT_ATOMS = ("ret==0", "ret!=0")
MAX_CANDIDATES = 8     # integer parameters and out-integers tried per condition
OPTIONAL = 2_000       # conflicts for a question with a conservative answer (no alternative)
_ATOM = re.compile(r"^(?:\(\*param(\d+)\)\.(\w+)|\*param(\d+)|param(\d+)|ret)(==0|!=0|>=0|==1)$")


class ExitView:
    """The function's own values at an exit: its result, integer parameters, out-integers."""

    def __init__(self, ctx, exit_state):
        self.ctx, self.st = ctx, exit_state
        rv = ctx.fn.rv
        self.ret = ctx.exit_value(rv, exit_state) if rv is not None and \
            isinstance(rv.type, (T.IntT, T.PtrT)) else None
        self._outs = None

    def param(self, i):
        p = next((p for p in self.ctx.fn.params if p.index == i), None)
        return self.ctx.param_value(p) if p is not None and \
            isinstance(p.type, (T.IntT, T.PtrT)) else None

    def out(self, i, field):
        """[(value, guard)] of `*param_i` (or its member `field`) at the exit."""
        return [(v, 1) for name, v in self.outs() if name == _out_name(i, field)]

    def outs(self) -> list:
        """(atom name, exit value) of the integers behind the pointer parameters that the
        function wrote, the first few."""
        if self._outs is None:
            self._outs = _out_values(self.ctx, self.st)[:MAX_CANDIDATES]
        return self._outs


class CallView:
    """A call's values, after it: its result, arguments, and what its out-pointers hold."""

    def __init__(self, ctx, ret, args, st):
        self.ctx, self.ret, self.args, self.st = ctx, ret, args, st

    def param(self, i):
        return self.args[i] if i < len(self.args) else None

    def out(self, i, field):
        steps = [["param", i], ["deref"]] + ([["field", field]] if field else [])
        return [(self.ctx.read(obj, self.st), g)
                for obj, g in self.ctx.resolve(steps, self.args, None, self.st)]


def find(ctx, g, valid, view: ExitView, result=True, through=None) -> str:
    """The atoms that hold wherever `valid` does on the exit `g`, as a condition (`result`:
    whether the result may be one; not for an allocator's own result; `through`: the index of
    the parameter the memory is handed out through, whose pointer is then not null anyway)."""
    conds = _result_atoms(ctx, g, valid, view) if result and view.ret is not None else []
    if result and view.ret is not None and not conds:
        conds = _either(ctx, g, valid, view, through)
    ints = [p.index for p in ctx.fn.params if isinstance(p.type, T.IntT)] + \
        [p.index for p in ctx.fn.params if isinstance(p.type, T.PtrT)]
    for i in ints[:MAX_CANDIDATES]:
        value = view.param(i)
        if i != through and value is not None and \
                not ctx.can(g, valid, -ctx.truth(value)):
            conds.append(f"param{i}!=0")
    for name, value in view.outs():
        zero = equals_const(ctx.c, value, 0)
        if not ctx.can(g, valid, zero):
            conds.append(f"{name}!=0")
        elif not ctx.can(g, valid, -zero):
            conds.append(f"{name}==0")
    # What a pointer points to holds only where the pointer is not null: "*param2==0" says it.
    read = {m.group(1) or m.group(3) for m in map(_ATOM.match, conds) if m}
    conds = [c for c in conds if not (c.startswith("param") and c[5:-3] in read)]
    return " and ".join(conds) or "always"


def result_only(ctx, g, valid, view: ExitView) -> str:
    """The result's atoms that hold wherever `valid` does on the exit `g` ("always" if none, or
    where the function has no result to test): a callee that takes a block over only where it
    succeeds."""
    if view.ret is None or not ctx.affordable():
        return "always"
    return " and ".join(_result_atoms(ctx, g, valid, view)) or "always"


def _result_atoms(ctx, g, valid, view) -> list[str]:
    pointer = isinstance(ctx.fn.rv.type, T.PtrT)
    conds = []
    for atom in POINTER_RESULT_ATOMS if pointer else RESULT_ATOMS:
        if not ctx.can(g, valid, -lit(ctx, atom, view)):
            conds.append(atom)   # "ret>=0 and ret!=0": success as 1 or a positive count
            if atom in ("ret==0", "ret==1"):
                break
    return conds


# NOTE [optional-outputs]
# A function that fills the blocks it is given, any of them optional (`alloc_stats(asd, s3a,
# NULL, NULL)`), may leave one handed out where it fails too: where a later block given could
# not be filled, it returns an error and keeps the earlier one's contents. No result atom then
# holds, yet the caller that gave only the one block knows that on failure nothing is in it.
# The condition says so as one alternative, "(ret==0 or param3!=0)": the success atom, or one
# of the fewest pointer parameters (one or two) whose being given covers every failing path
# that hands the block out. A parameter given wherever the block is handed out at all (the
# context the function reads first) covers those paths vacuously, and is no alternative.
# Asked with a budget: where the solver gives up, no alternative, and the caller takes the
# block as handed out wherever it exists (the conservative answer).
def _either(ctx, g, valid, view, through) -> list[str]:
    if not ctx.affordable():
        return []
    given = [p.index for p in ctx.fn.params if isinstance(p.type, T.PtrT) and
             p.index != through][:MAX_CANDIDATES]
    truths = {i: ctx.truth(v) for i in given if (v := view.param(i)) is not None}
    optional = [i for i in sorted(truths) if ctx.can(g, valid, -truths[i], budget=OPTIONAL)]
    pointer = isinstance(ctx.fn.rv.type, T.PtrT)
    for atom in ("ret!=0",) if pointer else ("ret==0", "ret>=0"):
        failing = -lit(ctx, atom, view)
        for combo in _few(optional):
            cover = ctx.c.OR_all(truths[i] for i in combo)
            if not ctx.can(g, valid, failing, -cover, budget=OPTIONAL):
                return [f"({atom} or " + " or ".join(f"param{i}!=0" for i in combo) + ")"]
    return []


def _few(indices: list) -> list:
    """The parameter sets to try, the smallest first: each one, then each pair."""
    return [(i,) for i in indices] + \
        [(i, j) for k, i in enumerate(indices) for j in indices[k + 1:]]


def lit(ctx, when: str, view) -> int:
    """The literal of a condition `find` gave, with the values of `view`."""
    if when == "always":
        return 1
    if " and " in when:
        return ctx.c.AND_all([lit(ctx, atom, view) for atom in when.split(" and ")])
    if when.startswith("(") and when.endswith(")"):   # NOTE [optional-outputs]
        return ctx.c.OR_all([lit(ctx, atom, view) for atom in when[1:-1].split(" or ")])
    m = _ATOM.match(when)
    if m is None:
        return 1
    field_param, field, out_param, param, op = m.groups()
    if param is not None:
        value = view.param(int(param))
        return ctx.truth(value) if value is not None else 1   # not 0, or not null
    if field_param is not None or out_param is not None:
        i = int(field_param if field_param is not None else out_param)
        held = [(v, g) for v, g in view.out(i, field) if hasattr(v, "bits")]
        if not held:
            return 1
        zero = ctx.c.OR_all(ctx.c.AND(g, equals_const(ctx.c, v, 0)) for v, g in held)
        return zero if op == "==0" else -zero
    return result_lit(ctx, when, view.ret) if view.ret is not None else 1


def _out_name(i, field) -> str:
    return f"(*param{i}).{field}" if field else f"*param{i}"


def _out_values(ctx, exit_state) -> list:
    out = []
    for p in ctx.fn.params:
        target = p.type.target if isinstance(p.type, T.PtrT) else None
        initial = ctx.param_value(p) if isinstance(target, (T.IntT, T.StructT)) else None
        slots = {slot for slot, _ in ctx.locations(initial)} if initial is not None else set()
        if isinstance(target, T.IntT):
            out += [(_out_name(p.index, None), v) for slot in sorted(slots, key=lambda o: o.uid)
                    if (v := ctx.stored(exit_state, slot)) is not None and hasattr(v, "bits")]
        elif slots:
            out += [(_out_name(p.index, obj.step), ctx.force(v))
                    for obj, v in sorted(ctx.int_slots(exit_state), key=lambda ov: ov[0].uid)
                    if obj.parent in slots and isinstance(obj.step, str)]
    return out
