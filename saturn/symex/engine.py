"""Running one function: the unrolled CFG in topological order, states merged at joins, branches
turned into BDD guards, checkers' hooks at calls and at the exit (§2.2–2.4)."""
from __future__ import annotations

import heapq

from ..ir import indirect, linking, lists
from ..ir import nodes as N
from ..ir import types as T
from ..ir.loops import HAVOC, Unroller, havoc_header
from ..logic.bdd import Guards
from ..logic.circuit import Circuit
from ..logic.solver import Session
from . import copies, events, heads, interface, results
from .context import FunctionContext
from .environment import Environment
from .evaluator import Evaluator
from .lazy import same
from .merge import merge
from .options import Options
from .outcome import FunctionResult
from .state import State


# NOTE [havoc-passes]: a loop whose exit k iterations cannot reach (`for (i = 0; i < 8; i++)`)
# would hide the code after it. When the walk reaches the loop's havoc iteration (§2.6.6), every
# state leaving the loop from iterations 0..k is known (they come first in the walk's order), so
# it decides there, in the same pass: if no path left for code that can return (`_can_leave`
# asks the solver; leaving through `panic()` does not count), the loop's changes become unknown
# and one more iteration runs; otherwise that iteration is not walked. The loops of an init
# function, one after the other, are each havocked as the walk meets them. The question is
# skipped (the loop taken as left) only where the exits' own conditions are too big to ask
# about, never for the size of the function's formula, so the same loops are havocked
# whatever checkers run.


def analyze_function(program, fn: N.Function, checkers, options: Options, summaries=None):
    """Analyse `fn`, havocking the loops whose exit k iterations could not reach (NOTE
    [havoc-passes])."""
    links = program.links.get(fn.key)
    if links:   # NOTE [linking] in ir/linking.py
        fn = linking.apply(fn, links)
    table = program.dispatch.get(fn.key)
    if table:   # NOTE [indirect-calls] in ir/indirect.py
        fn = indirect.dispatch(fn, table)
    unroller = Unroller(fn, options.unroll)
    havoc: set[int] = set()
    ctx = _run(program, fn, unroller, checkers, options, summaries or {}, havoc)
    result = FunctionResult(fn.key, ctx.reports, dict(ctx.given),
                            sorted(set(fn.notes) | ctx.ev.notes), havoc_loops=len(havoc))
    ctx.dispose()
    return result


def _new_context(program, fn, checkers, options, summaries):
    circuit = Circuit()
    circuit.budget_vars = options.var_budget
    guards = Guards(circuit)
    env = Environment(circuit, program, fn)
    ev = Evaluator(circuit, guards, env, program)
    env.init_runner = lambda g, obj: _run_initializer(ev, g, obj)
    session = Session(circuit, options.conflict_budget)
    ctx = FunctionContext(program, fn, ev, session, options)
    ctx.summaries = summaries
    ctx.head_tests = lists.head_tests(fn)
    ev.noreturn = {k for k, s in summaries.items() if s.get("<engine>", {}).get("noreturn")}
    ev.effects = {k: s["<engine>"]["modifies"] for k, s in summaries.items()
                  if s.get("<engine>", {}).get("modifies") is not None}
    ev.unlisted = {k for k, s in summaries.items()
                   if "<engine>" in s and s["<engine>"].get("modifies", []) is None}
    ev.copies = {k: s["<engine>"]["copies"] for k, s in summaries.items()
                 if s.get("<engine>", {}).get("copies")}
    ev.returns = {k: s["<engine>"]["returns"] for k, s in summaries.items()
                  if s.get("<engine>", {}).get("returns")}
    ev.returns_copy = {k for k, s in summaries.items() if s.get("<engine>", {}).get("returns_copy")}
    ev.signs = {k: s["<engine>"]["sign"] for k, s in summaries.items()
                if s.get("<engine>", {}).get("sign")}
    ev.results = {k: s["<engine>"]["result"] for k, s in summaries.items()
                  if s.get("<engine>", {}).get("result")}   # NOTE [result-summaries]
    for ch in checkers:
        ev.library_effects.update(ch.shared_effects or ch.library_effects())
    events.attach(ctx, checkers)
    return ctx


def _run_initializer(ev, g, obj) -> None:
    """A static that keeps its initializer: run the initializer into the environment's overlay.
    Its stores are no program step the checkers see: a hook reading the old value would make
    the object's initial value, memoised, before the initializer has written it."""
    st = State(ev.guards.true)
    for stmt in g.inits:
        if isinstance(stmt, N.Assign):
            ev.assign(stmt.lv, stmt.value, st)
        else:
            ev.execute(stmt, st)
    ev.env.overlay.update(st.memory)


def _run(program, fn, unroller, checkers, options, summaries, havoc):
    """One pass over the instances live states reach, in `sort_key` order (NOTE
    [lazy-unrolling]); the loops it havocs go into `havoc`."""
    ctx = _new_context(program, fn, checkers, options, summaries)
    ev, guards = ctx.ev, ctx.guards
    start = unroller.start
    pending: dict[tuple, list[State]] = {start: [State(guards.true)]}
    heap = [(unroller.sort_key(start), start)]
    entries: dict[tuple, State] = {}
    exits = {}   # (loop header, context around the loop) -> guards of the states leaving it
    returning = _returning(fn)
    exit_states = []
    while heap:
        _, key = heapq.heappop(heap)
        st = merge(ev, pending.pop(key))
        if st is None:
            continue
        bid, ictx = key
        if ictx and ictx[-1] == (bid, 0):
            entries[(bid, ictx[:-1])] = st.copy()
        if havoc_header(key) >= 0:   # NOTE [havoc-passes]
            if bid not in havoc and (not _has_exit(fn, unroller.loops[bid]) or
                                     _can_leave(ctx, exits.get((bid, ictx[:-1]), ()))):
                continue
            havoc.add(bid)
            _havoc(ev, st, entries.get((bid, ictx[:-1])))
        outs = _execute_block(ctx, fn.blocks[bid], st)
        if bid == fn.exit:
            exit_states.append(st)
        for label, succ in unroller.successors(key):
            out = outs.get(label)
            if out is None or out.guard == guards.false:
                continue
            if succ[0] in returning:   # leaving through `panic()` does not count
                for n, (h, i) in enumerate(ictx):
                    if i != HAVOC and all(h2 != h for h2, _ in succ[1]):
                        exits.setdefault((h, ictx[:n]), []).append(out.guard)
            if succ not in pending:
                pending[succ] = []
                heapq.heappush(heap, (unroller.sort_key(succ), succ))
            pending[succ].append(out)
    final = merge(ev, exit_states)
    returns = interface.returned(ctx, final)
    ctx.result_copy = returns if copies.returns_copy(ctx, final, returns) else None
    for ch in checkers:
        ch.finish(ctx, final)
    ctx.given["<engine>"] = {
        "noreturn": final is None,
        "modifies": interface.modified(ev, final) if final is not None else [],
        "copies": copies.infer(ctx, final) + copies.kept_bits(ctx, final),
        "returns": returns,
        "returns_copy": ctx.result_copy is not None,
        "sign": interface.return_sign(ctx, final),
        "result": results.result_summary(ctx, final),
        "stub": _stub(program, fn)}
    return ctx


def _can_leave(ctx, guards) -> bool:
    """Whether a path can leave the loop (NOTE [havoc-passes]): a guard is a BDD over branch
    literals, so an exit whose condition no model satisfies (`p != q` where only both null
    would make them equal, and p was dereferenced) still has a guard; the solver says. Over a
    small budget, or where the exits' conditions are too big to ask about, it can."""
    if not guards:
        return False
    lit = ctx.c.OR_all(ctx.lit(g) for g in guards)
    if ctx.c.support([lit], EXIT_QUERY_MAX_VARS) is None:
        return True
    return ctx.session.can(lit, budget=EXIT_QUERY_BUDGET)


EXIT_QUERY_BUDGET = 2_000   # conflicts
EXIT_QUERY_MAX_VARS = 100_000   # variables under the exits' conditions: past it the question
# costs more than the loops it may find


def _stub(program, fn) -> bool:
    """An empty body in a header that takes a pointer: a stand-in for what another
    configuration does (the kernel's compile-test stubs; Checker.stubs_unknown). An empty
    function of a file checked is what it says (a sink that does nothing)."""
    return fn.file not in program.files and \
        any(isinstance(p.type, T.PtrT) for p in fn.params) and \
        not any(b.stmts for b in fn.blocks.values())


def _returning(fn) -> set[int]:
    """The blocks from which the CFG reaches the function's exit."""
    preds: dict[int, list[int]] = {}
    for b in fn.blocks.values():
        for succ in N.successors(b):
            preds.setdefault(succ, []).append(b.id)
    seen, todo = {fn.exit}, [fn.exit]
    while todo:
        for p in preds.get(todo.pop(), ()):
            if p not in seen:
                seen.add(p)
                todo.append(p)
    return seen


def _has_exit(fn, body) -> bool:
    """A loop with no edge leaving it (`for (;;)` without break) gains nothing from havoc."""
    for bid in body:
        term = fn.blocks[bid].term
        targets = [term.target] if isinstance(term, N.Goto) else \
            [term.true, term.false] if isinstance(term, N.Branch) else []
        if any(t not in body for t in targets):
            return True
    return False


def _havoc(ev, st: State, entry: State | None) -> None:
    """The second pass of §2.6.6: what the loop changed becomes unknown, told to the checkers'
    on_forget (NOTE [forgotten-values]); attributes keep their loop-entry values (those declared
    `through_havoc` keep their own)."""
    if entry is None:
        return
    kept = {k: v for k, v in st.attrs.items() if k[1] in ev.attr_kept}
    st.attrs = dict(entry.attrs)
    st.attrs.update(kept)
    for obj, value in list(st.memory.items()):
        if not same(ev, entry.memory.get(obj), value):   # NOTE [lazy-values]
            ev.forget(obj, st)
            for loc, _ in getattr(st.memory[obj], "entries", ()):
                if loc is not None:   # NOTE [havoc-pointers] in symex/meets.py
                    ev.anywhere.add(loc.uid)


def _execute_block(ctx, block: N.Block, st: State) -> dict:
    ev, guards = ctx.ev, ctx.guards
    for stmt in block.stmts:
        ev.execute(stmt, st)
        if st.guard == guards.false:
            return {}
    term = block.term
    if isinstance(term, N.Goto):
        if term.ret is not None:
            ctx.returns.append((st.guard, term.ret))
        return {None: st}
    if isinstance(term, N.Branch):
        ev.where = term.coord
        lit = ev.truth(ev.value(term.cond, st))
        test = ctx.head_tests.get(block.id)
        if test is not None:   # NOTE [list-heads] in ir/lists.py
            heads.assume_head(ev, test, lit, st)
        ctx.branches.append((lit, st.guard, term))
        for hook in ctx.branch_hooks:
            hook(term, lit, st)
        cond = guards.of_lit(lit)
        t_state = st.copy(st.guard & cond)
        st.guard = st.guard & ~cond
        return {True: t_state, False: st}
    return {}
