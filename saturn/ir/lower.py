"""C AST → IR: one `Function` per definition, globals with their initializers."""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from pycparser import c_ast

from . import nodes as N
from . import types as T
from .annotations import declaration_attributes, param_names
from .builder import Builder, new_uid
from .decls import Scope, TypeResolver
from . import indirect
from .indirect import signature
from .lower_call import CallLowering
from .lower_expr import ExprLowering
from .lower_init import InitLowering
from .lower_stmt import StmtLowering
from .program import GlobalVar, Program, function_uses, mark_uses, static_local_key


class Lowerer(ExprLowering, CallLowering, InitLowering, StmtLowering):
    """Lowers one translation unit; a fresh Builder per function (the file scope has its own)."""

    def __init__(self, program: Program, tu_path: str, relpath=os.path.relpath, own=None):
        self.program, self.tu_path, self.relpath = program, tu_path, relpath
        self.own = own if own is not None else {relpath(tu_path)}   # NOTE [own-files]
        self.out = Lowered()
        self.body_effects, self.new_statics = False, []   # NOTE [scope-effects]
        self.types = TypeResolver(self.expr_type_in)
        self.file_scope = self.scope = Scope()
        self.b = Builder(tu_path)
        self.breaks, self.continues, self.switches, self.labels = [], [], [], {}
        self.cleanups, self.break_levels, self.continue_levels = [], [], []  # NOTE [cleanup]
        self.rv_sym, self.exit_block, self.fn_key = None, None, ""
        self.written, self.taken = set(), set()   # globals' keys, for mark_uses
        # NOTE [lazy-headers]: bodies defined in headers are lowered only when a function of
        # this file calls them (directly or not), and once per program — a kernel file sees
        # thousands of static inlines and calls a few dozen.
        self.deferred: dict[str, c_ast.FuncDef] = {}
        self.lowered: list[str] = []
        self.expr_types: dict[int, tuple] = {}   # id(node) -> (node, type): NOTE [linear-lowering]

    def coord(self, node) -> N.Coord:
        c = getattr(node, "coord", None)
        if c is None:
            return N.Coord(self.relpath(self.tu_path), 0, 0)
        return N.Coord(self.relpath(c.file or self.tu_path), c.line or 0, c.column or 1)

    def scope_root(self) -> Scope:
        return self.file_scope

    def expr_type_in(self, node, scope):
        saved, self.scope = self.scope, scope
        try:
            return self.type_of(node)
        finally:
            self.scope = saved

    # -- file scope ---------------------------------------------------------------------------
    def lower_unit(self, ast: c_ast.FileAST, roots=()) -> None:
        for ext in ast.ext:
            self.guarded(self.external, ext)
        pending = list(self.lowered)
        for key in sorted(roots):
            self.lower_deferred(key, pending)
        while pending:  # NOTE [lazy-headers]
            fn = self.program.functions.get(pending.pop())
            for callee in sorted(fn.callees) if fn is not None else ():
                self.lower_deferred(callee, pending)
        mark_uses(self.program, self.written, self.taken)

    def lower_deferred(self, key: str, pending: list) -> None:
        """Lower the header body of `key` if it waits, and walk its callees next."""
        fdef = self.deferred.pop(key, None)
        if fdef is not None and key not in self.program.functions:
            self.guarded(self.function, fdef, True)
            pending.append(key)

    def guarded(self, lower, node, *args) -> None:
        try:
            lower(node, *args)
        except RecursionError:
            self.program.warnings.append(f"{self.coord(node)}: warning: nesting too deep; skipped")
        except Exception as exc:  # a construct the lowering mishandles costs one declaration
            self.program.warnings.append(
                f"{self.coord(node)}: warning: internal error ({type(exc).__name__}: {exc}); "
                "declaration skipped")
            self.program.lowering_errors += 1
            if isinstance(node, c_ast.FuncDef):   # still named: incomplete, with why
                self.stand_in(node, f"not lowered: internal error ({type(exc).__name__})")

    def stand_in(self, fdef: c_ast.FuncDef, why: str) -> None:
        """A function whose body could not be lowered, kept with no body and `why` so that it
        is counted and named as incomplete rather than lost."""
        entry = self.file_scope.names.get(fdef.decl.name)
        if not (isinstance(entry, tuple) and entry[0] == "func") or \
                entry[1] in self.program.functions:
            return
        coord, block = self.coord(fdef.decl), N.Block(0, [], N.Stop())
        self.program.add_function(N.Function(
            entry[1], fdef.decl.name, coord.file, coord.line, coord.line, [], entry[2].ret, None,
            {0: block}, 0, 0, static=":" in entry[1], unmodelled=why))

    def external(self, ext) -> None:
        if isinstance(ext, c_ast.FuncDef):
            self.function(ext)
        elif isinstance(ext, c_ast.Decl):
            self.file_decl(ext)
        elif isinstance(ext, c_ast.Typedef):
            self._s_Typedef(ext)
        elif isinstance(ext, c_ast.DeclList):
            for d in ext.decls:
                self.file_decl(d)

    def static_key(self, name: str, node) -> str:
        return f"{self.coord(node).file}:{name}"

    def declare_extern(self, node, t) -> None:
        """A function prototype or an `extern` object declaration, at any scope."""
        self.body_effects |= self.scope is not self.file_scope
        if isinstance(t, T.FuncT):
            prev = self.file_scope.lookup(node.name)
            static = "static" in (node.storage or [])
            if isinstance(prev, tuple) and prev[0] == "func":
                key = prev[1]
                if prev[2].noreturn and not t.noreturn:
                    t = T.FuncT(t.ret, t.params, t.variadic, True)
            else:
                key = self.static_key(node.name, node) if static else node.name
            entry = ("func", key, t)
            self.program.add_attributes(key, declaration_attributes(node, param_names(node)))
            self.file_scope.names[node.name] = entry
            self.scope.names[node.name] = entry
            return
        g = self.global_var(node, t)
        self.scope.names[node.name] = g.sym

    def global_var(self, node, t) -> GlobalVar:
        prev = self.file_scope.lookup(node.name)
        if isinstance(prev, N.Symbol) and prev.kind == "global":
            g = self.program.globals.get(prev.key)
            if g is not None and isinstance(t, T.ArrT) and t.count is not None:
                g.sym = prev  # a later declaration completing the array type keeps the symbol
            if g is not None:
                return g
        static = "static" in (node.storage or [])
        key = self.static_key(node.name, node) if static else node.name
        sym = N.Symbol(node.name, t, "global", new_uid(), key=key)
        g = self.program.add_global(GlobalVar(sym, self.coord(node).file, static,
                                              object_is_const(node.type)))
        self.file_scope.names[node.name] = g.sym
        return g

    def file_decl(self, node) -> None:
        t = self.types.resolve(node, self.scope)
        if node.name is None:
            return
        if isinstance(t, T.FuncT) or "extern" in (node.storage or []):
            self.declare_extern(node, t)
            return
        if isinstance(t, T.ArrT) and t.count is None and isinstance(node.init, c_ast.InitList):
            t = T.ArrT(t.elem, len(node.init.exprs))
        g = self.global_var(node, t)
        g.defined = True
        if node.init is not None:
            self.global_init(g, node)

    def global_init(self, g: GlobalVar, node) -> None:
        block = self.b.new_block()
        self.b.cur = block
        self.initialize(N.VarLv(g.sym.type, g.sym), node.init, node, zero_rest=False)
        g.inits, g.has_init = list(block.stmts), True
        self.b.cur = None

    def static_local(self, node, t) -> None:
        key = static_local_key(self.coord(node).file, self.fn_key.rsplit(':', 1)[-1], node.name)
        sym = N.Symbol(node.name, t, "global", new_uid(), key=key)
        g = self.program.add_global(GlobalVar(sym, self.coord(node).file, True))
        self.new_statics.append(g)
        self.scope.names[node.name] = g.sym
        if node.init is not None:
            saved = self.b.cur
            self.global_init(g, node)
            self.b.cur = saved

    # -- functions ----------------------------------------------------------------------------
    def function(self, fdef: c_ast.FuncDef, now: bool = False) -> None:
        decl = fdef.decl
        ftype = self.types.resolve(decl, self.scope)
        if not isinstance(ftype, T.FuncT):
            return
        if not now:
            self.declare_extern(decl, ftype)
        key = self.file_scope.names[decl.name][1]
        if not now and not self.in_main_file(fdef):
            if key not in self.program.functions:
                self.deferred.setdefault(key, fdef)
            return
        self.definition(fdef, decl, ftype, key)

    def definition(self, fdef, decl, ftype, key: str) -> None:
        """Lower a function's body, noting what it changed outside itself (NOTE
        [scope-effects])."""
        mark, self.body_effects, self.new_statics = self.effects_mark(), False, []
        saved_b = self.b
        self.b, self.fn_key, self.fn_name, self.labels = Builder(self.tu_path), key, decl.name, {}
        self.scope = Scope(self.file_scope)
        try:
            fn = self.function_body(fdef, decl, ftype, key)
            self.out.line_literals[key] = self.b.line_literals
        except BaseException:
            self.out.impure.add(key)
            raise
        finally:
            self.b, self.scope = saved_b, self.file_scope
        self.program.add_function(fn)
        self.lowered.append(fn.key)
        uses = function_uses(fn)
        self.written |= uses[0]
        self.taken |= uses[1]
        self.out.statics[key] = self.new_statics
        if self.body_effects or mark != self.effects_mark():
            self.out.impure.add(key)

    def effects_mark(self) -> tuple:
        """What lowering a body that changes nothing outside itself leaves as it was."""
        return (len(self.file_scope.names), len(self.file_scope.tags),
                self.types.outer_completions, self.program.attributes_added)

    def in_main_file(self, node) -> bool:
        """Whether the node is in the file's own text (NOTE [own-files] in cfront/markers.py)."""
        c = getattr(node, "coord", None)
        return c is None or not c.file or self.relpath(c.file) in self.own

    def function_body(self, fdef, decl, ftype, key) -> N.Function:
        params = self.parameters(decl, fdef)
        self.rv_sym = None if isinstance(ftype.ret, T.VoidT) else \
            N.Symbol("<rv>", ftype.ret, "rv", new_uid())
        entry = self.b.cur
        self.exit_block = self.b.new_block()
        self.stmt(fdef.body)
        self.finish_gotos()
        self.b.start(self.exit_block)
        self.b.end(N.Stop())
        self.exit_block.term = N.Stop()
        self.b.prune(entry.id)
        coord = self.coord(decl)
        end = max((s.coord.line for blk in self.b.blocks.values() for s in blk.stmts
                   if s.coord.file == coord.file), default=coord.line)
        notes = sorted({f"{s.coord}: {s.text}" for blk in self.b.blocks.values()
                        for s in blk.stmts if isinstance(s, N.Note)})
        return N.Function(key, decl.name, coord.file, coord.line, end, params, ftype.ret,
                          self.rv_sym, self.b.blocks, entry.id, self.exit_block.id,
                          static=":" in key, notes=notes, callees=set(self.b.callees),
                          fn_pointer_calls=self.b.fn_pointer_calls,
                          indirect=tuple(dict.fromkeys(self.b.indirect)),
                          fn_stores=tuple(sorted(self.b.fn_stores, key=repr)),
                          stand_ins=indirect.stand_ins(self.b.calls_by_args),
                          spawns=tuple(sorted(self.b.spawns)),
                          inits=tuple(self.b.inits),
                          signature=signature([p.type for p in params], ftype.ret),
                          unmodelled=self.b.unmodelled)

    def parameters(self, decl, fdef) -> list[N.Symbol]:
        ftype_node = decl.type
        while not isinstance(ftype_node, (c_ast.FuncDecl,)) and hasattr(ftype_node, "type") \
                and type(ftype_node).__name__ != "FuncDeclExt":
            ftype_node = ftype_node.type
        params: list[N.Symbol] = []
        kr = {d.name: d for d in (fdef.param_decls or [])}
        for p in (ftype_node.args.params if getattr(ftype_node, "args", None) else []):
            if isinstance(p, c_ast.EllipsisParam):
                continue
            if isinstance(p, c_ast.ID):  # K&R definition: the type is declared below
                p = kr.get(p.name, c_ast.Decl(p.name, [], [], [], [], c_ast.TypeDecl(
                    p.name, [], None, c_ast.IdentifierType(["int"])), None, None))
            t = T.decay(self.types.resolve(p, self.scope))
            if isinstance(t, T.VoidT):
                continue
            name = getattr(p, "name", None) or f"<param{len(params)}>"
            sym = N.Symbol(name, t, "param", new_uid(), index=len(params))
            params.append(sym)
            self.scope.names[name] = sym
        return params


# NOTE [scope-effects]: lowering a function's body reads the declarations before it and, but for
# a few constructs, writes nothing outside the function: a block-scope `extern` or prototype
# (which C gives file-scope linkage), a call to an undeclared function (not a compiler builtin:
# lower_call.py), a tag completed in an outer scope, a lock annotation.
# Those make the function *impure*: what follows it depends on its whole text, not its
# prototype alone (the function cache's context, incremental/functions.py).
@dataclass
class Lowered:
    """What lowering a unit leaves besides the program."""
    tags: dict = field(default_factory=dict)      # file-scope struct and union types by tag
    impure: set = field(default_factory=set)      # keys of impure functions (NOTE [scope-effects])
    statics: dict = field(default_factory=dict)   # function key -> its static locals
    # function key -> {id(Const): id(AST node)} of the constants written as their own line
    # (`__LINE__`, as the preprocessor leaves it): NOTE [line-literals] in incremental/lines.py
    line_literals: dict = field(default_factory=dict)


def object_is_const(dtype) -> bool:
    """Whether the declared object itself is const: `const int x` and `int *const p` are,
    `const struct s *p` (a pointer to const, which the program may point elsewhere) is not.
    An array is as const as its elements."""
    while isinstance(dtype, c_ast.ArrayDecl):
        dtype = dtype.type
    return "const" in (getattr(dtype, "quals", None) or [])


def lower_unit(program: Program, ast: c_ast.FileAST, tu_path: str, relpath=os.path.relpath,
               own=None, roots=()) -> Lowered:
    """Lower into `program`. `relpath` gives a line marker's name as reports show it, `own` the
    names so shown of the file's own text (NOTE [own-files] in cfront/markers.py; default: the
    file itself); `roots`: keys of functions lowered elsewhere whose callees' bodies in headers
    this unit must lower (NOTE [lazy-headers])."""
    lowerer = Lowerer(program, tu_path, relpath, own)
    lowerer.lower_unit(ast, roots)
    lowerer.out.tags = lowerer.file_scope.tags
    return lowerer.out
