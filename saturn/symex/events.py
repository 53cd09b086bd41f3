"""The checkers' events (saturn/plugin/checker.py) wired into one function's evaluator and engine."""
from __future__ import annotations

from ..plugin.checker import callee_summary, short_name


class CallEvents:
    """One checker's hook at calls (NOTE [call-protocol] in evaluator.py): a callee the checker
    has a summary of, and no spec that overrides it, goes to its summary events; any other
    call to its call events."""

    def __init__(self, ctx, checker):
        self.ctx, self.checker = ctx, checker

    def before(self, call, args, st):
        ch, name = self.checker, short_name(call.callee)
        summary = None if name is None or ch.overrides(name) or \
            (ch.stubs_unknown and _stub(self.ctx, call.callee)) \
            else callee_summary(self.ctx, call.callee, ch.name)
        if summary is not None:
            return summary, ch.pre_summary(self.ctx, call, summary, args, st)
        return None, ch.pre_call(self.ctx, call, args, st)

    def after(self, call, args, ret, st, token):
        summary, inner = token
        if summary is not None:
            self.checker.post_summary(self.ctx, call, summary, args, ret, st, inner)
        else:
            self.checker.post_call(self.ctx, call, args, ret, st, inner)


def _stub(ctx, callee) -> bool:
    """An empty stand-in body (engine.py's `_stub`): for a checker with `stubs_unknown`, what the
    real one does is unknown."""
    engine = callee_summary(ctx, callee, "<engine>")
    return bool(engine and engine.get("stub"))


CALL_EVENTS = ("pre_call", "post_call", "pre_summary", "post_summary")


def attach(ctx, checkers) -> None:
    """Hook each checker's events in, in the checkers' order, then begin every checker."""
    ev = ctx.ev
    for ch in checkers:
        if any(ch.handles(e) for e in CALL_EVENTS):
            ev.call_hooks.append(CallEvents(ctx, ch))
        if ch.handles("on_load"):
            ev.load_hooks.append(lambda access, st, ch=ch: ch.on_load(ctx, access, st))
        if ch.handles("on_store"):
            ev.store_hooks.append(lambda access, st, ch=ch: ch.on_store(ctx, access, st))
        if ch.handles("on_forget"):
            ev.forget_hooks.append(lambda values, st, ch=ch: ch.on_forget(ctx, values, st))
        if ch.handles("on_branch"):
            ctx.branch_hooks.append(lambda term, lit, st, ch=ch: ch.on_branch(ctx, term, lit, st))
    for ch in checkers:
        ch.begin(ctx)
