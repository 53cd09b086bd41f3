"""Lowering C statements into blocks: if, loops (back edges; unrolled later), switch with
fall-through, goto, break/continue, return into `rv` and the one exit block."""
from __future__ import annotations

from pycparser import c_ast

from . import nodes as N
from . import types as T
from .annotations import cleanup_function
from .builder import new_uid
from .decls import Scope
from .lower_expr import const, source_text


class StmtLowering:
    def stmt(self, node) -> None:
        fn = getattr(self, "_s_" + type(node).__name__, None)
        if fn is not None:
            fn(node)
        else:
            self.expr(node)  # an expression statement

    def _s_Compound(self, node):
        saved = self.scope
        self.scope = Scope(saved)
        self.cleanups.append([])
        try:
            for item in node.block_items or []:
                self.stmt(item)
            self.run_cleanups(len(self.cleanups) - 1)
        finally:
            self.scope = saved
            self.cleanups.pop()

    # NOTE [cleanup]: `__attribute__((cleanup(f)))` locals (the kernel's guard(), scoped_guard())
    # call f(&var) when their scope ends: at the end of the block, and before a return, break or
    # continue that leaves it (innermost first; a return's value is computed before). A goto out
    # of such a scope does not run them (the kernel does not mix the two).
    def run_cleanups(self, level: int) -> None:
        """Call the cleanups of every scope at `level` and deeper, innermost first."""
        if self.b.cur is None:
            return
        for scope in reversed(self.cleanups[level:]):
            for sym, fname, node in reversed(scope):
                call = c_ast.FuncCall(c_ast.ID(fname, node.coord), c_ast.ExprList(
                    [c_ast.UnaryOp("&", c_ast.ID(sym.name, node.coord), node.coord)], node.coord),
                    node.coord)
                self.expr(call)

    def statement_expression(self, node):
        """`({ ...; e; })`: the value is the last expression statement's."""
        saved = self.scope
        self.scope = Scope(saved)
        self.cleanups.append([])
        try:
            items = node.block_items or []
            for item in items[:-1]:
                self.stmt(item)
            last = items[-1] if items else None
            value = N.Unknown(T.VOID, "")
            # A trailing `({ ... })` is a Compound too, like a trailing block: both are taken
            # as expressions (a block's value is void in C, so nobody reads what it gives).
            # As a statement, `({ ({ x; }); })` had no value: the kernel's trylock macros
            # (spin_trylock_irqsave over raw_spin_trylock_irqsave) lost the lock's result.
            if last is None or isinstance(last, (c_ast.Decl, c_ast.Typedef)) or \
                    (getattr(self, "_s_" + type(last).__name__, None) is not None and
                     not isinstance(last, c_ast.Compound)):
                if last is not None:
                    self.stmt(last)
            else:
                value = self.rv(last)
            self.run_cleanups(len(self.cleanups) - 1)
            return value
        finally:
            self.scope = saved
            self.cleanups.pop()

    def _s_EmptyStatement(self, node):
        pass

    def _s_Pragma(self, node):
        pass

    def _s_StaticAssert(self, node):
        pass

    def _s_Typedef(self, node):
        self.scope.names[node.name] = ("typedef", self.types.resolve(node.type, self.scope))

    def _s_DeclList(self, node):
        for d in node.decls:
            self.stmt(d)

    def _s_Decl(self, node):
        t = self.types.resolve(node, self.scope)
        if node.name is None:
            return  # a struct, union or enum declaration: resolving it registered the tag
        if isinstance(t, T.FuncT) or "extern" in (node.storage or []):
            self.declare_extern(node, t)
            return
        value = None   # an `__auto_type` local's initial value, lowered once for its type
        if getattr(t, "key", None) and isinstance(node.type, c_ast.TypeDecl) and \
                isinstance(node.type.type, c_ast.IdentifierType) and \
                "__auto_type" in node.type.type.names and node.init is not None:
            if "static" in (node.storage or []) or isinstance(node.init, c_ast.InitList):
                t = self.type_of(node.init)
            else:   # NOTE [linear-lowering]
                value = self.rv(node.init)
                t = value.type
        if isinstance(t, T.ArrT) and t.count is None and isinstance(node.init, c_ast.InitList):
            t = T.ArrT(t.elem, len(node.init.exprs))
        if "static" in (node.storage or []):
            self.static_local(node, t)
            return
        sym = N.Symbol(node.name, t, "local", new_uid())
        self.scope.names[node.name] = sym
        self.b.locals.append(sym)
        if value is not None:
            self.assign(N.VarLv(t, sym), value, node)
        elif node.init is not None:
            self.initialize(N.VarLv(t, sym), node.init, node)
        fname = cleanup_function(node)
        if fname is not None and self.cleanups:
            self.cleanups[-1].append((sym, fname, node))

    def _s_If(self, node):
        t_blk, f_blk, done = self.b.new_block(), self.b.new_block(), self.b.new_block()
        self.cond(node.cond, t_blk, f_blk)
        self.b.cur = t_blk
        if node.iftrue is not None:
            self.stmt(node.iftrue)
        self.b.start(done)
        self.b.cur = f_blk
        if node.iffalse is not None:
            self.stmt(node.iffalse)
        self.b.start(done)

    def loop(self, cond, body, step=None, test_first=True) -> None:
        head, body_blk, step_blk, done = (self.b.new_block() for _ in range(4))
        self.b.start(head if test_first else body_blk)
        if test_first:
            self.cond_or_true(cond, body_blk, done)
        self.b.cur = body_blk
        self.breaks.append(done)
        self.continues.append(step_blk)
        self.break_levels.append(len(self.cleanups))
        self.continue_levels.append(len(self.cleanups))
        try:
            if body is not None:
                self.stmt(body)
        finally:
            self.breaks.pop()
            self.continues.pop()
            self.break_levels.pop()
            self.continue_levels.pop()
        self.b.start(step_blk)
        if step is not None:
            self.expr(step)
        if test_first:
            self.b.goto(head)
        else:
            self.cond_or_true(cond, body_blk, done)
        self.b.cur = done

    def cond_or_true(self, cond, t_blk, f_blk):
        if cond is None:
            self.b.goto(t_blk)
        else:
            self.cond(cond, t_blk, f_blk)

    def _s_While(self, node):
        self.loop(node.cond, node.stmt)

    def _s_DoWhile(self, node):
        self.loop(node.cond, node.stmt, test_first=False)

    def _s_For(self, node):
        saved = self.scope
        self.scope = Scope(saved)
        self.cleanups.append([])
        try:
            if node.init is not None:
                self.stmt(node.init)
            self.loop(node.cond, node.stmt, node.next)
            self.run_cleanups(len(self.cleanups) - 1)
        finally:
            self.scope = saved
            self.cleanups.pop()

    def _s_Break(self, node):
        if self.breaks:
            self.run_cleanups(self.break_levels[-1])
            self.b.goto(self.breaks[-1])

    def _s_Continue(self, node):
        if self.continues:
            self.run_cleanups(self.continue_levels[-1])
            self.b.goto(self.continues[-1])

    def _s_Return(self, node):
        if node.expr is not None:
            value = self.rv(node.expr)
            if self.rv_sym is not None:
                self.assign(N.VarLv(self.rv_sym.type, self.rv_sym), value, node)
        self.run_cleanups(0)
        self.b.end(N.Goto(self.exit_block.id, self.coord(node)))

    def label_block(self, name: str):
        if name not in self.labels:
            self.labels[name] = self.b.new_block()
        return self.labels[name]

    def _s_Label(self, node):
        self.b.start(self.label_block(node.name))
        if node.stmt is not None:
            self.stmt(node.stmt)

    def _s_Goto(self, node):
        if isinstance(node.name, str):
            self.b.goto(self.label_block(node.name))
        else:   # `goto *p`: to any label whose address the function takes (finish_gotos)
            self.rv(node.name.expr)
            self.b.note(self.coord(node), "computed goto")
            self.b.computed_gotos.append(self.b.cur)
            self.b.end(N.Stop())

    def finish_gotos(self) -> None:
        """Each computed goto goes to one of the labels whose address the function takes (a
        label not taken cannot be its target); with none, its path ends. Past MAX_GOTO_TARGETS
        labels (an interpreter's dispatch loop: every opcode after every other) no budget
        holds the paths, and the function is incomplete at once rather than after its budget."""
        targets = [(n, self.label_block(n)) for n in sorted(self.b.label_addresses)]
        if self.b.computed_gotos and len(targets) > MAX_GOTO_TARGETS:
            self.b.unmodelled = (f"computed goto among {len(targets)} labels (over "
                                 f"{MAX_GOTO_TARGETS}: an interpreter's dispatch)")
            return
        for block in self.b.computed_gotos:
            if targets:
                self.b.cur = block
                self.b.choose(targets, block.stmts[-1].coord, "computed goto")

    def _s_Switch(self, node):
        value = self.rv(node.cond)
        t = T.promote(value.type)
        tmp = self.b.temp(t, "switch")
        self.b.emit(N.Assign(self.coord(node), N.VarLv(t, tmp), self.convert(value, t)))
        head, done = self.b.new_block(), self.b.new_block()
        self.b.goto(head)
        self.switches.append([])
        self.breaks.append(done)
        self.break_levels.append(len(self.cleanups))
        try:
            self.b.cur = None
            self.stmt(node.stmt)
        finally:
            cases = self.switches.pop()
            self.breaks.pop()
            self.break_levels.pop()
        self.b.start(done)
        self.dispatch(head, N.Read(t, N.VarLv(t, tmp)), cases, done, node)

    def dispatch(self, head, value, cases, done, node):
        """The switch head: a chain of tests in source order, then the default."""
        self.b.cur = head
        default = done
        for label, target in cases:
            if label is None:
                default = target
                continue
            lo, hi = label
            test = N.Binary(T.INT, "eq", value, self.convert(const(lo, T.LONG), value.type)) \
                if lo == hi else N.Binary(T.INT, "land",
                                          N.Binary(T.INT, "ge", value, self.convert(const(lo, T.LONG), value.type)),
                                          N.Binary(T.INT, "le", value, self.convert(const(hi, T.LONG), value.type)))
            nxt = self.b.new_block()
            self.b.end(N.Branch(test, target.id, nxt.id, self.coord(node),
                                f"case {lo}" + (f" ... {hi}" if hi != lo else "")))
            self.b.cur = nxt
        self.b.goto(default)
        self.b.cur = done

    def _s_Case(self, node):
        blk = self.b.new_block()
        self.b.start(blk)
        expr = node.expr
        if type(expr).__name__ == "RangeExpression":
            lo = self.types.consts.eval(expr.first, self.scope)
            hi = self.types.consts.eval(expr.last, self.scope)
        else:
            lo = hi = self.types.consts.eval(expr, self.scope)
        if self.switches and lo is not None and hi is not None:
            self.switches[-1].append(((lo, hi), blk))
        elif lo is None:
            self.b.note(self.coord(node), "case label that is not a constant")
        for s in node.stmts or []:
            self.stmt(s)

    def _s_Default(self, node):
        blk = self.b.new_block()
        self.b.start(blk)
        if self.switches:
            self.switches[-1].append((None, blk))
        for s in node.stmts or []:
            self.stmt(s)

    def _s_FuncDef(self, node):
        # A GNU nested function reads and writes the locals of the function around it, through
        # a frame the model has no place for: the function holding it is not analysed.
        name = node.decl.name
        self.b.unmodelled = f"nested function '{name}' (GNU C) is not modelled"
        self.b.note(self.coord(node), f"nested function '{name}'")

    def _s_Asm(self, node):
        self.b.note(self.coord(node), "inline assembly")
        # Pointers given to it as inputs may be kept (the kernel's cmpxchg publishing a new
        # block): a call of ASM_CALL, which changes no memory but, unknown to the leak checker,
        # keeps what it is given. Operands (`"r" (x)`) parse as calls of the constraint string.
        given = [self.rv(e) for e in _operands(node.input_operands)
                 if isinstance(self.type_of(e), T.PtrT)]
        if given:
            func = N.FuncAddr(T.PtrT(T.FuncT(T.VOID, (), True)), N.ASM_CALL)
            self.b.emit(N.Call(self.coord(node), None, func, tuple(given), N.ASM_CALL, T.VOID,
                               "inline assembly"))
        # Output operands become unknown.
        for e in _operands(node.output_operands):
            lv = self.lv(e)
            self.b.emit(N.Assign(self.coord(node), lv, N.Unknown(lv.type, "")))
        labels = getattr(node, "labels", ())
        if labels:   # `asm goto`: on, or to one of its labels
            rest = self.b.new_block()
            self.b.choose([(n, self.label_block(n)) for n in labels] + [("", rest)],
                          self.coord(node), "asm goto")
            self.b.cur = rest

    def text_of(self, node):
        return source_text(node)


MAX_GOTO_TARGETS = 16


def _operands(operands) -> list:
    """The expressions of an asm statement's operand list."""
    return [op.args.exprs[-1] for op in (operands.exprs if operands else [])
            if isinstance(op, c_ast.FuncCall) and op.args is not None and op.args.exprs]
