"""Leak reports (`memory.leak`, `resource.leak`): at the acquisition (or the allocator's call),
once per site, with the path to the exit it is lost at and the assignment that overwrote the
last pointer to it."""
from __future__ import annotations

from saturn.report.diagnostic import TraceNote

from .escape import EscapeRules


# NOTE [main-exit]: `main`'s return ends the process, and the system takes back its memory and
# closes its files: what main's locals still point to when it returns is not lost, and is not
# reported. What main lost before (a pointer overwritten, a block no local reaches any more) is
# lost while the program runs, and is.
def report(ctx, checker, exit_state) -> None:
    data = checker.state(ctx)
    if not data.new_locs:
        return
    main = ctx.fn.name == "main" and not ctx.fn.static
    rules = EscapeRules(ctx, data, exit_state, locals_keep=main)
    g = ctx.lit(exit_state.guard)
    sites: dict = {}
    for obj, (valid, coord, what, text) in data.new_locs.items():
        sites.setdefault((coord.file, coord.line, coord.col), []).append((obj, coord, what, text))
    for _, members in sorted(sites.items()):
        for obj, coord, what, text in members:
            leaked = ctx.c.AND(g, rules.leaked(obj))
            returns = [ctx.lit(gr) for gr, _ in ctx.returns]
            model = ctx.may(leaked, observe=returns)
            if model is None:
                continue
            events = [(lit, cd, t) for o, lit, cd, t in data.events if o is obj]
            notes = ctx.witness(leaked, events=events)
            where = ctx.return_coord(model)
            notes.append(TraceNote(where.file, where.line,
                                   f"'{ctx.fn.name}' returns here and {checker.lost_note}"))
            ctx.report(checker.name, checker.kind, coord,
                       f"{checker.acquired_by(what)} '{text}' may be leaked", notes, statement=text)
            break
