"""Lowering calls: GCC builtins by table, calls that never return end the path."""
from __future__ import annotations

from pycparser import c_ast

from . import indirect
from . import nodes as N
from . import types as T
from .lower_expr import COMPILER_BUILTINS, const, source_text

# Calls that never return (docs/DESIGN.md "From C to the IR"); `noreturn` declarations are added.
NORETURN = frozenset({
    "exit", "_exit", "_Exit", "quick_exit", "abort", "__assert_fail", "__assert_perror_fail",
    "__assert", "__assert_rtn", "longjmp", "siglongjmp", "_longjmp", "__longjmp_chk", "panic",
    "BUG", "__builtin_unreachable", "__builtin_trap", "__builtin_abort", "__builtin_exit",
    "pthread_exit", "err", "errx", "verr", "verrx", "__stack_chk_fail", "__chk_fail",
    "__fortify_fail", "do_exit", "reach_error", "__VERIFIER_error",
})

# Calls that return twice: the direct return is 0. The second comes from a longjmp (or a
# thread's cancellation unwinding to pthread_cleanup_push's handler) with the state of that
# site, which no path through the call has: taken here, it ran the handler on the state at
# the push (an unlock before the lock was taken).
RETURNS_TWICE = frozenset({"setjmp", "_setjmp", "__setjmp", "sigsetjmp", "__sigsetjmp",
                           "__sigsetjmp_cancel"})


class CallLowering:
    def _x_FuncCall(self, node):
        name = node.name.name if isinstance(node.name, c_ast.ID) else None
        args = list(getattr(node.args, "exprs", None) or getattr(node.args, "types", None) or [])
        handler = _BUILTINS.get(name)
        if handler is not None and not isinstance(self.scope.lookup(name), N.Symbol):
            return handler(self, node, args)
        if name is not None and self.scope.lookup(name) is None:
            func = self.implicit_function(name)
        else:
            func = self.rv(node.name)
        ftype = func.type.target if isinstance(func.type, T.PtrT) else None
        if not isinstance(ftype, T.FuncT):
            ftype = T.FuncT(T.INT, (), True)
        values = []
        for i, a in enumerate(args):
            v = self.rv(a)
            if i < len(ftype.params):
                v = self.convert(v, ftype.params[i])
            elif isinstance(v.type, T.IntT) and v.type.bits < 32:
                v = self.convert(v, T.INT)
            values.append(v)
        callee = func.name if isinstance(func, N.FuncAddr) else None
        if callee is not None:
            self.b.callees.add(callee)
            spawned = indirect.spawned(callee, values)   # NOTE [entry-points] in ir/program.py
            if spawned is not None:
                self.b.spawns.add(spawned)
            site = indirect.init_site(callee, self._unwrapped(values))   # NOTE [init-sites]
            if site is not None:
                self.b.inits.append((*site, self.coord(node).line))
            self.b.fn_stores.update(indirect.passed_functions(callee, values))
        else:
            self.b.fn_pointer_calls += 1
            self.b.indirect.append((indirect.call_slot(func), indirect.type_key(func.type),
                                    indirect.call_shape(func.type)))
        result = None
        if not isinstance(ftype.ret, T.VoidT):
            tmp = self.b.temp(ftype.ret, "ret")
            result = N.VarLv(ftype.ret, tmp)
        text = source_text(node)
        self._note_arguments(node, text, callee, func)
        if result is not None and callee is not None and len(values) == 1:
            self.b.wrapped[result.sym] = values[0]
        self.b.emit(N.Call(self.coord(node), result, func, tuple(values), callee, ftype.ret, text))
        short = callee.rsplit(":", 1)[-1] if callee else None
        if short in RETURNS_TWICE and isinstance(ftype.ret, T.IntT):
            self.b.emit(N.Assign(self.coord(node), result, const(0, ftype.ret)))
        if ftype.noreturn or short in NORETURN:
            self.b.end(N.Stop())
        if result is None:
            return N.Unknown(T.VOID, "")
        return N.Read(result.type, result)

    def _note_arguments(self, node, text, callee, func) -> None:
        """NOTE [stand-in-hooks] in ir/indirect.py: direct calls and calls through a global
        by their argument text."""
        slot = None if callee is not None else indirect.call_slot(func)
        if node.args is None or (callee is None and (slot is None or slot[0] != "var")):
            return
        args = text[len(source_text(node.name)):]
        self.b.calls_by_args.setdefault(args, set()).add(callee or slot)

    def _unwrapped(self, values: list) -> list:
        """The arguments with a first one made by a one-argument call given that call's
        argument (`__raw_spin_lock_init(spinlock_check(&q->lock), ...)` initialises q->lock)."""
        first = N.uncast(values[0]) if values else None
        if isinstance(first, N.Read) and isinstance(first.lv, N.VarLv) and \
                first.lv.sym in self.b.wrapped:
            return [self.b.wrapped[first.lv.sym], *values[1:]]
        return values

    def implicit_function(self, name):
        """A call to an undeclared function declares it, at file scope (C89) — but for the
        compiler's builtins, which every scope has already: such a call declares nothing, and
        a body making one stays pure (NOTE [scope-effects] in lower.py)."""
        ftype = T.FuncT(T.INT, (), True)
        if not name.startswith(COMPILER_BUILTINS):
            self.scope_root().names[name] = ("func", name, ftype)
        return N.FuncAddr(T.PtrT(ftype), name)


def _expect(self, node, args):
    return self.rv(args[0]) if args else const(0)


def _constant_p(self, node, args):
    value = self.types.consts.eval(args[0], self.scope) if args else None
    return const(1 if value is not None else 0)


def _choose_expr(self, node, args):
    value = self.types.consts.eval(args[0], self.scope)
    return self.expr(args[1] if value else args[2])


def _types_compatible(self, node, args):
    types = getattr(node.args, "types", None) or args
    a, b = (self.types.resolve(t, self.scope) for t in types[:2])
    return const(int(a.key() == b.key()))


def _offsetof(self, node, args):
    t = self.types.resolve(args[0], self.scope)
    value = self.types.consts.offsetof(t, args[1], self.scope)
    if value is not None:
        return const(value, T.ULONG)
    got = _indexed_offset(self, t, args[1])
    return got if got is not None else self.unknown(T.ULONG, node, "offsetof of an unknown member")


def _indexed_offset(self, t, designator):
    """`offsetof(S, list_node[dir])` with a variable index: the member's offset plus the index
    times the element's size, so `container_of` of an element of an array of links finds its
    struct (NOTE [container-of])."""
    if not isinstance(designator, c_ast.ArrayRef):
        return None
    consts = self.types.consts
    base = consts.offsetof(t, designator.name, self.scope)
    at = consts.member_type(t, designator.name)
    if base is None or not isinstance(at, T.ArrT) or at.elem.size <= 0:
        return None
    index = self.convert(self.rv(designator.subscript), T.ULONG)
    scaled = N.Binary(T.ULONG, "mul", index, const(at.elem.size, T.ULONG))
    return N.Binary(T.ULONG, "add", const(base, T.ULONG), scaled)


def _va_arg(self, node, args):
    self.rv(args[0])
    return N.Unknown(self.types.resolve(args[1], self.scope), "")


def _no_op(self, node, args):
    for a in args:
        self.rv(a)
    return N.Unknown(T.VOID, "")


def _unreachable(self, node, args):
    self.b.end(N.Stop())
    return N.Unknown(T.VOID, "")


def _object_size(self, node, args):
    return const((1 << 64) - 1, T.ULONG)


def _list_intact(self, node, args):
    for a in args:
        self.rv(a)
    return const(1)


def _unknown_long(self, node, args):
    for a in args:
        self.rv(a)
    return N.Unknown(T.LONG, "")


# NOTE [error-pointers]: the kernel's ERR_PTR(-errno) is the integer cast to a pointer, which
# keeps its value (the evaluator's pointers from integers do), and no object lives at those
# addresses (Environment.address_bits), so IS_ERR() of real memory is false and an allocator
# that returns an error pointer on failure is still an allocator. The helpers are static inlines
# whose results a summary could not tie to their argument, so they are expanded here by name.
_MAX_ERRNO = 4095


def _is_err(self, node, args):
    v = self.convert(self.rv(args[0]), T.ULONG) if args else const(0, T.ULONG)
    return N.Binary(T.INT, "ge", v, const((1 << 64) - _MAX_ERRNO, T.ULONG))


def _is_err_or_null(self, node, args):
    v = self.convert(self.rv(args[0]), T.ULONG) if args else const(0, T.ULONG)
    return N.Binary(T.INT, "lor", N.Binary(T.INT, "eq", v, const(0, T.ULONG)),
                    N.Binary(T.INT, "ge", v, const((1 << 64) - _MAX_ERRNO, T.ULONG)))


def _err_ptr(self, node, args):
    return self.convert(self.convert(self.rv(args[0]), T.LONG), T.PtrT(T.VOID))


def _ptr_err(self, node, args):
    return self.convert(self.rv(args[0]), T.LONG)


def _err_cast(self, node, args):
    return self.convert(self.rv(args[0]), T.PtrT(T.VOID))


_BUILTINS = {
    "IS_ERR": _is_err, "IS_ERR_OR_NULL": _is_err_or_null, "ERR_PTR": _err_ptr,
    "PTR_ERR": _ptr_err, "ERR_CAST": _err_cast,
    "__builtin_expect": _expect, "__builtin_expect_with_probability": _expect,
    "__builtin_assume_aligned": _expect, "__builtin_constant_p": _constant_p,
    "__builtin_choose_expr": _choose_expr, "__builtin_types_compatible_p": _types_compatible,
    "offsetof": _offsetof, "__builtin_offsetof": _offsetof, "__builtin_va_arg": _va_arg,
    "__builtin_va_start": _no_op, "__builtin_va_end": _no_op, "__builtin_va_copy": _no_op,
    "__builtin_prefetch": _no_op, "__builtin_unreachable": _unreachable,
    "__context__": _no_op,  # sparse's context marks (kernel headers with __CHECKER__)
    "__builtin_object_size": _object_size, "__builtin_dynamic_object_size": _object_size,
    "__builtin_frame_address": _unknown_long, "__builtin_return_address": _unknown_long,
    "__builtin_classify_type": _unknown_long,
    # The kernel's list integrity checks (CONFIG_DEBUG_LIST) fail only on a list already
    # corrupt, which they report: correct code links and unlinks, and its callers rely on it.
    "__list_add_valid": _list_intact, "__list_del_entry_valid": _list_intact,
}
