"""The free checker's summaries: which blocks the function's parameters and globals reach it
frees, and which it reads or writes through, named by interface paths (§2.5.1):

    {"frees": [[steps, when], ...], "uses": [[steps, when], ...], "returns": when}

(`returns`, when present: the result, where it is not null, points to a block the function
freed — a dangling pointer its caller receives.)

`when`: "always" (wherever the block exists, i.e. the pointers to it were not null), by the
result ("ret==0", "ret!=0", "ret<0", "ret>=0"), by an integer or pointer parameter or an
integer global read on entry (["param", i, b], ["global", key, b]: b = 1 where it is non-zero
or not null, 0 where it is zero or null), by an integer parameter's value among constants the
function compares with (["param", i, "in", ks], and ["param", i, "in", ks, "maybe"] where it
frees perhaps, and only there: an undo record updater whose action code says which record
fields it reallocates), or "maybe" (a condition none of these tells: the caller takes it as
perhaps). A use's `when` is "always" (the caller that hands over a freed block is told of it
wherever the callee may use it: correct code hands no freed block to a function that may read
it) or, where the function has action codes, the codes it may use the block under (["param", i,
"in", ks]): an undo record updater reads the global cut buffer only for the actions that cut,
so a caller may leave it dangling across the other actions.
"""
from __future__ import annotations

from saturn.plugin.checker import TRUE, UNKNOWN, block, equals_const, result_lit
from saturn.ir import nodes as N
from saturn.ir import types as T

MAX_USES = 32        # used paths kept in a summary (more: the first, by path)
MAX_CONDITIONS = 8   # parameters and globals tried as a free's condition
MAX_CODES = 12       # constants tried as the values of a parameter a free depends on
OPTIONAL = 2_000     # conflicts for a question with a conservative answer ("maybe")


def block_steps(ctx, data, root):
    """The interface path of a block the function's inputs reach (param or global, through a
    pointer), or None (kept in the checker's state `data`)."""
    if root.origin != "env":
        return None
    cache = data.steps
    if root not in cache:
        steps = ctx.interface_steps(root)
        ok = steps is not None and steps[0][0] in ("param", "global") and \
            any(s[0] == "deref" for s in steps)
        cache[root] = steps if ok else None
    return cache[root]


# -- at a call ------------------------------------------------------------------------------------
def prepare(ctx, checker, call, summary, args, st):
    """Before the call's effects: the caller's objects each path names, and the conditions on
    parameters and globals, which the callee read on entry."""
    memo: dict = {}
    out = {"uses": [(ctx.resolve(steps, args, None, st, memo),
                     _entry_condition(ctx, when, args, st))
                    for steps, when in summary.get("uses", [])],
           "frees": [(when, _of_its_type(ctx, call, steps,
                                          _not_its_holder(ctx, steps, args, st, memo)),
                      _entry_condition(ctx, when, args, st))
                     for steps, when in summary.get("frees", [])],
           "returns": summary.get("returns")}
    return out


def _of_its_type(ctx, call, steps, hits):
    """The caller's blocks a parameter's freed block may be: those where a struct of the
    parameter's type may start (a walk past its list's head hands over the head, inside a
    struct of another type, as an entry)."""
    fn = ctx.program.functions.get(call.callee) if call.callee else None
    if fn is None or len(steps) != 2 or steps[0][0] != "param" or steps[1] != ["deref"] or \
            steps[0][1] >= len(fn.params) or not isinstance(fn.params[steps[0][1]].type, T.PtrT):
        return hits
    target = fn.params[steps[0][1]].type.target
    return [(o, g) for o, g in hits if ctx.may_start(o, target)]


def _not_its_holder(ctx, steps, args, st, memo):
    """The caller's blocks a freed path names, but for the blocks holding the links the path
    ends by following (`(*(*o).items.next).next`, each a pointer to its own struct type),
    where the path leads back into one: the head of a circular list, reached past its last
    node. The callee took the nodes after the head as blocks of their own; where there are
    fewer it freed no more (`drain(o)` frees the items, never `o`)."""
    hits = ctx.resolve(steps, args, None, st, memo)
    holders = set()
    for d in _trailing_links(steps):
        holders |= {block(o) for o, _ in ctx.resolve(steps[:d], args, None, st, memo)
                    if o.parent is not None and T.points_to(o.type, o.parent.type)}
    return [(o, g) for o, g in hits if block(o) not in holders] if holders else hits


def _trailing_links(steps) -> list[int]:
    """The ends of the link steps a path ends with (each `field` then `deref`), the last
    first."""
    out, d = [], len(steps) - 1
    while d >= 2 and steps[d][0] == "deref" and steps[d - 1][0] == "field":
        out.append(d)
        d -= 2
    return out


def apply(ctx, checker, call, token, args, st) -> None:
    ret = ctx.load(call.lv, st) if call.lv is not None else None
    for objs, cond in token["uses"]:
        if cond is not None:
            objs = [(obj, ctx.c.AND(g, cond)) for obj, g in objs]
        checker.use(ctx, st, objs, call.coord,
                    f"'{call.text}' may use memory that was freed (its summary reads or "
                    f"writes through it)", call.text)
    for when, objs, cond in token["frees"]:
        perhaps = isinstance(when, list) and when[-1] == "maybe"
        checker.free(ctx, st, objs, None if perhaps else _condition(ctx, when, cond, ret),
                     call.coord, call.text, "frees {} (its summary)",
                     only=cond if perhaps else TRUE)
    returned = token["returns"]
    if returned is not None and ret is not None:
        checker.free(ctx, st, ctx.locations(ret), TRUE if returned == "always" else None,
                     call.coord, call.text, "returns a pointer to a freed block", check=False)


def _entry_condition(ctx, when, args, st):
    if not isinstance(when, list):
        return None
    if when[0] == "param" and when[2] == "in":
        value = args[when[1]] if when[1] < len(args) else None
        return ctx.c.OR_all(equals_const(ctx.c, value, k) for k in when[3]) \
            if value is not None else ctx.c.new_var()
    if when[0] == "param":
        value = args[when[1]] if when[1] < len(args) else None
    else:
        objs = ctx.resolve([["global", when[1]]], args, None, st)
        value = ctx.read(objs[0][0], st) if objs else None
    if value is None:
        return ctx.c.new_var()
    truth = ctx.truth(value)
    return truth if when[2] else -truth


def _condition(ctx, when, entry, ret):
    """The literal under which the callee frees (or uses); None for "maybe"."""
    if when == "always":
        return TRUE
    if when == "maybe":
        return None
    if entry is not None:
        return entry
    return result_lit(ctx, when, ret) if ret is not None else ctx.c.new_var()


# -- at the exit ----------------------------------------------------------------------------------
def infer(ctx, checker, exit_state) -> dict:
    out = {"frees": [], "uses": []}
    if exit_state is None:
        return out
    data, c = checker.state(ctx), ctx.c
    fs, g = data.fs, ctx.lit(exit_state.guard)
    conds = _Conditions(ctx, exit_state)
    blocks = []   # (steps, here, freed, maybe): the marked blocks the inputs reach
    for root in data.marked:
        steps = block_steps(ctx, data, root)
        if steps is None:
            continue
        value = exit_state.attrs.get((root.addr.uid, "#freed")) or fs.const(0)
        freed = fs.is_(value, 1)
        blocks.append((steps, c.AND(g, ctx.exists(root)), freed, c.OR(freed, fs.is_(value, 2))))
    # _when asks only while the formula is affordable, which it then was here too: the
    # observed literals are all there whenever a model is kept.
    models = _Models(ctx, [x for b in blocks for x in b[1:]] + [x for _, x in conds.all()]
                     if blocks and ctx.affordable() else [])
    for steps, here, freed, maybe in blocks:
        if models.seen(here, maybe) or ctx.can(here, maybe, budget=OPTIONAL):
            out["frees"].append([steps, _when(ctx, here, freed, maybe, conds, models)])
    # Paths, not queries: a use on a path no model takes is rare, and a query each was most of
    # the checker's time (lz4: 32 paths a function). Action codes are asked only where the
    # function compares a parameter with constants.
    out["uses"] = [[data.uses[k], _use_when(ctx, data.use_lits[k], conds)]
                   for k in sorted(data.uses)[:MAX_USES]]
    out["frees"].sort(key=lambda f: (len(f[0]), ctx.render_path(f[0])))
    returned = _returned(ctx, data, exit_state, g)
    if returned is not None:
        out["returns"] = returned
    return out


class _Models:
    """Models of the exit's path, each observing every marked block's state and every
    condition, kept so that one settles the questions it answers for all of them: most of a
    function's blocks are freed on some paths and not on others, and no condition tells it,
    which a model where a condition and the block's state disagree shows with no question of
    its own. A model is a list of every variable, dearer than a question: only the two a block
    needs are asked for as models, and only where no model kept serves."""

    def __init__(self, ctx, observe):
        self.ctx, self.observe, self.found = ctx, list(dict.fromkeys(observe)), []

    def seen(self, *lits):
        """A model kept in which `lits` (observed literals) hold, or None."""
        return next((m for m in self.found if all(m.value(x) for x in lits)), None)

    def model(self, *lits):
        """A model of `lits` (observed literals): kept, or asked for; None where they cannot
        hold, UNKNOWN where the question was over its budget."""
        m = self.seen(*lits)
        if m is None:
            m = self.ctx.may(*lits, observe=self.observe, budget=OPTIONAL)
            if m is not None and m is not UNKNOWN and self.observe:
                self.found.append(m)
        return m

    def refuted(self, here, lit, exact, maybe) -> bool:
        """Whether a kept model of `here` shows `lit` is not the free's condition: it holds
        where the block is not surely freed, or fails where it may be."""
        return any(m.value(here) and (m.value(lit) and not m.value(exact) or
                                      not m.value(lit) and m.value(maybe))
                   for m in self.found)


def _returned(ctx, data, exit_state, g):
    """When the result points to a block the function freed: "always" where it is not null,
    else "maybe"; None when it never does."""
    rv = ctx.fn.rv
    if rv is None or not isinstance(rv.type, T.PtrT):
        return None
    locs = [(loc, gl) for loc, gl in ctx.locations(ctx.exit_value(rv, exit_state))
            if block(loc) in data.marked]
    if not locs:
        return None
    c, fs = ctx.c, data.fs
    freed = c.OR_all(c.AND(gl, fs.is_(exit_state.attrs.get((block(loc).addr.uid, "#freed")) or
                                      fs.const(0), 1)) for loc, gl in locs)
    if not ctx.can(g, freed, budget=OPTIONAL):
        return None
    nonnull = ctx.truth(ctx.exit_value(rv, exit_state))
    return "always" if not ctx.can(g, nonnull, -freed, budget=OPTIONAL) else "maybe"


def _when(ctx, here, exact, maybe, conds, models):
    if not ctx.affordable():
        return "maybe"
    if models.model(here, -exact) is None:
        return "always"
    if any(not models.refuted(here, lit, exact, maybe) for _, lit in conds.all()):
        models.model(here, exact)   # the other side, for the conditions no model ruled out
    for when, lit in conds.all():
        if models.refuted(here, lit, exact, maybe):
            continue
        if not ctx.can(here, lit, -exact, budget=OPTIONAL) and \
                not ctx.can(here, -lit, maybe, budget=OPTIONAL):
            return when
    return _code_set(ctx, here, exact, maybe, conds) or "maybe"


def _use_when(ctx, used, conds):
    """The action codes a use happens under, else "always"."""
    if not conds.codes or not ctx.affordable():
        return "always"
    codes = _code_set(ctx, TRUE, used, used, conds)
    return codes[:4] if codes else "always"


def _code_set(ctx, here, exact, maybe, conds):
    """["param", i, "in", ks(, "maybe")]: the free happens only where an integer parameter is
    one of the constants `ks` the function compares with."""
    if not conds.codes:
        return None
    for index, value in conds.params:
        eqs = {k: equals_const(ctx.c, value, k) for k in conds.codes}
        # One question first: where it may happen for a value none of the codes is, no code
        # set tells it (most uses and frees, whatever the parameter).
        if ctx.can(here, -ctx.c.OR_all(eqs.values()), maybe, budget=OPTIONAL):
            continue
        ks = [k for k, eq in eqs.items() if ctx.can(here, eq, maybe, budget=OPTIONAL)]
        if not ks or len(ks) == len(eqs):
            continue
        lit = ctx.c.OR_all(eqs[k] for k in ks)
        if ctx.can(here, -lit, maybe, budget=OPTIONAL):
            continue
        exact_there = not ctx.can(here, lit, -exact, budget=OPTIONAL)
        return ["param", index, "in", ks] + ([] if exact_there else ["maybe"])
    return None


class _Conditions:
    """What a free may depend on, made on first need: the result, then the integer parameters
    and globals the function read on entry, then whether a pointer parameter is null."""

    def __init__(self, ctx, exit_state):
        self.ctx, self.st, self.made = ctx, exit_state, None
        # Action codes: integer parameters a branch compares for equality (with a constant or
        # with what the function dispatches on), and the constants it compares with.
        compared = _compared_params(ctx.fn)
        self.params = [(p.index, ctx.param_value(p)) for p in ctx.fn.params
                       if p.uid in compared and ctx.param_value(p) is not None][:MAX_CONDITIONS]
        self.codes = sorted({k for _, k in N.equality_tests(ctx.fn, zero=True)})[:MAX_CODES] \
            if self.params else []

    def all(self):
        if self.made is None:
            self.made = self._make()
        return self.made

    def _make(self):
        ctx, out = self.ctx, []
        rv = ctx.fn.rv
        if rv is not None and isinstance(rv.type, (T.IntT, T.PtrT)):
            ret = ctx.exit_value(rv, self.st)
            out += [(w, result_lit(ctx, w, ret)) for w in ("ret!=0", "ret==0")]
            if isinstance(rv.type, T.IntT) and rv.type.signed:
                out += [(w, result_lit(ctx, w, ret)) for w in ("ret<0", "ret>=0")]
        inputs, pointers = [], []
        for p in ctx.fn.params:
            value = ctx.param_value(p)
            if isinstance(p.type, T.IntT) and value is not None:
                inputs.append((["param", p.index], value))
            elif isinstance(p.type, T.PtrT) and value is not None:
                # A release that returns early where a list it is also given is null.
                pointers.append((["param", p.index], value))
        for obj, value in ctx.inputs.items():
            sym = obj.sym
            if obj.parent is None and sym is not None and sym.kind == "global" and \
                    isinstance(obj.type, T.IntT):
                inputs.append((["global", sym.key], value))
        for head, value in (inputs + pointers)[:MAX_CONDITIONS]:
            truth = ctx.truth(value)   # not 0, or not null
            out += [(head + [1], truth), (head + [0], -truth)]
        return out


def _compared_params(fn) -> set:
    """Uids of integer parameters read in a branch condition `a == b` or `a != b`, directly or
    through the copy a `switch` tests (ir/lower_stmt.py's `<switchN>` temporary)."""
    params = {p.uid for p in fn.params if isinstance(p.type, T.IntT)}
    copies = {st.lv.sym.uid: _var_uid(st.value) for block in fn.blocks.values()
              for st in block.stmts if isinstance(st, N.Assign) and isinstance(st.lv, N.VarLv)
              and st.lv.sym.name.startswith("<switch")}
    compared = {_var_uid(x) for sides in N.equality_branches(fn) for x in sides}
    return {copies.get(uid, uid) for uid in compared} & params


def _var_uid(e):
    e = N.uncast(e)
    return e.lv.sym.uid if isinstance(e, N.Read) and isinstance(e.lv, N.VarLv) else None
