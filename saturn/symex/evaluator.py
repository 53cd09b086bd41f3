"""The evaluator of one function: expressions, lvalues, statements, and checker attributes."""
from __future__ import annotations

from ..plugin.checker import Access, summarized
from ..ir import nodes as N
from ..ir import types as T
from ..logic.circuit import TRUE
from ..memory.locations import Obj, blurred
from .calls import arg_values, default_call
from .environment import link_unknown
from .expr import ExprEval
from .lvalues import LvalueEval, through_pointer


# NOTE [forgotten-values]: where the analysis gives a location an unknown value (a loop's havoc
# iteration, what a callee without a precise summary may change, a library write into a
# struct), what the location held is not overwritten by the program but by our ignorance. So
# `forget` tells the checkers the pointer it held: the leak checker takes new memory held only
# there to escape (a block stored in ring[i] by earlier iterations, or in a global an unknown
# call may have kept, is not leaked because the analysis lost track of it).
class Evaluator(ExprEval, LvalueEval):
    def __init__(self, circuit, guards, env, program):
        self.c, self.guards, self.env, self.program = circuit, guards, env, program
        self.notes: set[str] = set()
        self.where: N.Coord | None = None
        self._functions: dict[str, Obj] = {}
        self._strings: dict[int, Obj] = {}
        self.int_objects: dict = {}   # integer bits cast to a pointer -> the pointer value
        self.call_hooks = []          # objects with before()/after(); NOTE [call-protocol]
        self.noreturn: set[str] = set()  # callees whose summary says they never return
        self.returns: dict = {}          # callee → the interface object its result points to
        self.returns_copy: set = set()   # callees whose result is that object's pointer, null too
        self.signs: dict = {}            # callee → "nonpositive" / "nonnegative" result
        self.results: dict = {}          # callee → what its result is (symex/results.py)
        self.library_effects: dict = {}  # bodiless callee → "none" / "args" (Checker API)
        self.store_hooks = []         # callables (Access, state) before an assignment
        self.load_hooks = []          # callables (Access, state) at a read through a pointer
        self.forget_hooks = []        # callables (values, state): NOTE [forgotten-values]
        self.effects: dict = {}       # callee key -> interface paths it may modify (its M)
        self.copies: dict = {}        # callee key -> NOTE [copied-pointers]
        self.unlisted: set = set()    # callees whose M is over its bound
        self.pinned: set = set()      # pointers unknown callees leave: NOTE [lock-paths]
        self.attr_defaults = {}       # attribute name -> callable(obj_key) giving its entry value
        self.attr_kept: set = set()   # attribute names a loop's havoc leaves as they are
        self.anywhere: set[int] = set()   # uids of havocked pointers' objects: NOTE [havoc-pointers]
        self.unknown_equal: dict = {}     # (uid, uid) -> literal: NOTE [havoc-pointers]
        self.blurred_unknowns: dict = {}  # object -> its one unknown: NOTE [blurred-writes]
        self.written_whole: dict = {}     # objects calls wrote all of: NOTE [whole-arrays]
        self.written_past: set = set()    # objects written at an unknown offset: NOTE [somewhere-past]

    def forget(self, obj, st, guard=None) -> None:
        """Give `obj` an unknown value (a havocked loop, what an unknown call may change),
        telling the forget hooks the value it held (NOTE [forgotten-values])."""
        old = st.memory.get(obj)
        if old is not None:
            for hook in self.forget_hooks:
                hook([old], st)
        if guard is None:
            st.memory[obj] = self.fresh_for(obj)
        else:
            self.store_obj(obj, self.unknown_for(obj, guard), guard, st)

    # NOTE [blurred-writes]: an object pointer arithmetic reaches at an unknown offset stands
    # for every element there (Environment.derived_object), so a write to it where the path
    # does not surely lead there is weak: the old value stays beside the new. Where the new
    # value is an unknown one (what a callee or an unknown call changed), a fresh object each
    # time grew the element's location set by one a call, and each later write copied it all:
    # quadratic in the calls (a code generator adding one instruction a call, each a union of
    # a dozen pointers). One unknown per such pointer says as much: some element points to
    # something unknown.
    def unknown_for(self, obj, guard: int):
        """The unknown value a write the function cannot see gives `obj` where `guard` holds
        (see above): one per blurred pointer object where the write is weak, else fresh."""
        if guard == TRUE or not (isinstance(obj.type, T.PtrT) and blurred(obj)):
            return self.fresh_for(obj)
        got = self.blurred_unknowns.get(obj)
        if got is None:
            got = self.blurred_unknowns[obj] = self.fresh_value(obj.type, obj.display)
        return got

    def fresh_for(self, obj):
        """A fresh unknown value for `obj` (NOTE [unknown-links] where it is a list link)."""
        value = self.fresh_value(obj.type, obj.display)
        link_unknown(obj, value)
        return value

    def met(self, st) -> list:
        """The objects the function has written or read so far, in the order it met them."""
        return list(dict.fromkeys([*st.memory, *self.env.initial_values]))

    def note(self, text: str) -> None:
        where = f"{self.where}: " if self.where is not None else ""
        self.notes.add(f"{where}{text}")

    def function_object(self, key: str, t) -> Obj:
        obj = self._functions.get(key)
        if obj is None:
            obj = self.env.fresh_object(t.target if isinstance(t, T.PtrT) else t, key, key,
                                        "function")
            self._functions[key] = obj
        return obj

    def string_object(self, e: N.StrLit) -> Obj:
        obj = self._strings.get(id(e))
        if obj is None:
            obj = self.env.fresh_object(T.ArrT(T.CHAR, None), f'"{e.text[:20]}"', e.text[:20],
                                        "string")
            self._strings[id(e)] = obj
        return obj

    def program_function_file(self, key):
        fn = self.program.functions.get(key) if key else None
        return fn.file if fn is not None else None

    # -- attributes (§2.2.5): values that hang on an address ------------------------------------
    def attr_default(self, key):
        addr_uid, name = key
        return self.attr_defaults[name](key)

    def get_attr(self, st, obj: Obj, name: str):
        key = (obj.addr.uid, name)
        v = st.attrs.get(key)
        return v if v is not None else self.attr_default(key)

    def set_attr(self, st, obj: Obj, name: str, value, guard: int = TRUE) -> None:
        key = (obj.addr.uid, name)
        if guard != TRUE:
            value = self.ite(guard, value, self.get_attr(st, obj, name))
        st.attrs[key] = value

    # -- statements -----------------------------------------------------------------------------
    def execute(self, stmt, st) -> None:
        self.where = stmt.coord
        _STMT[type(stmt)](self, stmt, st)


def _assign(ev, stmt, st):
    lv, memo = stmt.lv, {}
    if ev.forget_hooks and isinstance(lv.type, T.PtrT) and \
            any(summarized(loc) for loc, _ in ev.locs(lv, st)):
        # One object stands for many elements (`p[i]`, unmodelled arithmetic): what it held
        # may still be another element's (NOTE [forgotten-values]).
        for hook in ev.forget_hooks:
            hook([ev.load(lv, st)], st)
    if not ev.store_hooks:
        ev.assign(lv, stmt.value, st)
        return

    def once(name, make):
        if name not in memo:
            memo[name] = make()
        return memo[name]
    access = Access(lv, stmt.coord, through_pointer(lv),
                    lambda: once("objs", lambda: ev.locs(lv, st)),
                    (lambda: ev.load(lv, st)) if isinstance(lv.type, T.PtrT) else None,
                    lambda: once("value", lambda: ev.value(stmt.value, st)))
    for hook in ev.store_hooks:
        hook(access, st)
    if isinstance(lv.type, (T.StructT, T.ArrT)) or not memo:
        ev.assign(lv, stmt.value, st)
        return
    value = access.value()   # as ev.assign: the value, then the objects (NOTE [gate-order])
    for obj, g in access.objs():
        ev.store_obj(obj, value, g, st)


def _call(ev, stmt, st):
    """NOTE [call-protocol]: every checker's `before` sees the call first (it may end the path or
    save what it needs, e.g. lock states and input propositions); then the call's effect on
    memory (the default: unknown result, reachable memory changed; attributes are untouched);
    then every `after` applies the checker's spec or the callee's summary to its attributes."""
    args = arg_values(ev, stmt, st)
    false = ev.guards.false
    tokens = [hook.before(stmt, args, st) for hook in ev.call_hooks]
    if st.guard == false:
        return
    default_call(ev, stmt, args, st)
    ret = ev.read_obj(ev.env.var_obj(stmt.lv.sym), st) if isinstance(stmt.lv, N.VarLv) else None
    for hook, token in zip(ev.call_hooks, tokens):
        hook.after(stmt, args, ret, st, token)
    if stmt.callee in ev.noreturn:
        st.guard = false


def _note(ev, stmt, st):
    ev.note(stmt.text)


_STMT = {N.Assign: _assign, N.Call: _call, N.Note: _note}
