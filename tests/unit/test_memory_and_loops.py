"""Guarded location sets, typed views at one address, and loop unrolling."""
from saturn.ir import nodes as N
from saturn.ir import types as T
from saturn.ir.loops import HAVOC, Unroller, havoc_header
from saturn.logic.circuit import Circuit, FALSE, TRUE
from saturn.logic.solver import Session
from saturn.memory import gls
from saturn.memory.locations import Obj, child, member_names, member_path, member_text, view
from saturn.report.paths import render_steps


def _obj(name, t=T.INT):
    return Obj(t, None, None, None, name, name, "local")


def test_gls_merge_equality_and_null():
    c = Circuit()
    s = Session(c)
    x, y = _obj("x"), _obj("y")
    cond = c.new_var()
    p = gls.ite(c, cond, gls.single(x), gls.single(y))
    assert {loc.path for loc, _ in p.locations()} == {"x", "y"}
    assert gls.ite(c, cond, gls.single(x), gls.single(x)) == gls.single(x)
    same = gls.equal(c, p, gls.single(x))
    assert s.may(c.XOR(same, cond)) is None          # p == &x exactly when cond
    assert gls.non_null(c, gls.NULL) == FALSE and gls.non_null(c, p) == TRUE
    dup = gls.make(c, [(x, cond), (x, -cond)])
    assert dup.entries == ((x, TRUE),)


def test_gls_select_is_the_ite_chain():
    c = Circuit()
    s = Session(c)
    x, y, z = _obj("x"), _obj("y"), _obj("z")
    g1, g2, g3, h = (c.new_var() for _ in range(4))
    xy = gls.ite(c, h, gls.single(x), gls.single(y))
    # Overlapping guards, one value twice (not adjacent), a null: priority must hold.
    choices = [(g1, xy), (g2, gls.single(z)), (g3, xy), (c.new_var(), gls.NULL)]
    chain = choices[-1][1]
    for g, v in reversed(choices[:-1]):
        chain = gls.ite(c, g, v, chain)
    got = gls.select(c, choices)
    assert [l for l, _ in got.entries] == [l for l, _ in chain.entries]
    for (_, a), (_, b) in zip(got.entries, chain.entries):
        assert s.may(c.XOR(a, b)) is None
    assert gls.select(c, [(g1, xy), (g2, xy), (g3, xy)]) is xy


def test_views_share_the_address_and_first_member():
    inner = T.StructT("inner")
    inner.complete_with([("n", T.INT)])
    outer = T.StructT("outer")
    outer.complete_with([("in", inner), ("k", T.LONG)])
    o = _obj("o", outer)
    first = child(o, "in", inner)
    assert first.addr is o.addr and child(o, "k", T.LONG).addr is not o.addr
    assert view(o, inner) is first                    # the struct-inheritance idiom
    raw = _obj("raw", T.VOID)
    assert view(raw, T.INT).addr is raw.addr and view(raw, T.INT) is view(raw, T.INT)


def _loop_function():
    """entry -> head; head -> body | exit; body -> head (a while loop)."""
    blocks = {i: N.Block(i) for i in range(4)}
    cond = N.Const(T.INT, 1)
    blocks[0].term = N.Goto(1)
    blocks[1].term = N.Branch(cond, 2, 3, N.NO_COORD)
    blocks[2].term = N.Goto(1)
    blocks[3].term = N.Stop()
    return N.Function("f", "f", "f.c", 1, 1, [], T.VOID, None, blocks, 0, 3)


def _instances(u: Unroller):
    """Every instance reachable from the entry, and every edge, as the engine could meet them."""
    seen, edges, todo = {u.start}, [], [u.start]
    while todo:
        key = todo.pop()
        for _, succ in u.successors(key):
            edges.append((key, succ))
            if succ not in seen:
                seen.add(succ)
                todo.append(succ)
    return seen, edges


def test_unrolling_makes_k_copies_then_the_havoc_iteration():
    u = Unroller(_loop_function(), 2)
    seen, edges = _instances(u)
    heads = sorted(str(dict(ctx)[1]) for bid, ctx in seen if bid == 1)
    assert heads == ["0", "1", "2", HAVOC]
    havoc = [key for key in seen if havoc_header(key) == 1]
    assert len(havoc) == 1 and dict(havoc[0][1])[1] == HAVOC
    assert len([key for key in seen if key[0] == 3]) == 1


def _nested_loops():
    """for (;;) { while (a) { if (b) break; } if (c) continue; } with an exit: loops two deep,
    a break, a continue from the inner level and an exit from the outer one."""
    blocks = {i: N.Block(i) for i in range(7)}
    cond = N.Const(T.INT, 1)
    blocks[0].term = N.Goto(1)                               # entry
    blocks[1].term = N.Branch(cond, 2, 6, N.NO_COORD)        # outer head: body or exit
    blocks[2].term = N.Branch(cond, 3, 5, N.NO_COORD)        # inner head
    blocks[3].term = N.Branch(cond, 5, 4, N.NO_COORD)        # break out of the inner loop
    blocks[4].term = N.Branch(cond, 2, 1, N.NO_COORD)        # inner back edge, or outer continue
    blocks[5].term = N.Goto(1)                               # outer back edge
    blocks[6].term = N.Stop()
    return N.Function("g", "g", "g.c", 1, 1, [], T.VOID, None, blocks, 0, 6)


def test_lazy_unrolling_order_increases_along_every_edge():
    u = Unroller(_nested_loops(), 2)
    seen, edges = _instances(u)
    assert all(u.sort_key(a) < u.sort_key(b) for a, b in edges)
    assert len({u.sort_key(key) for key in seen}) == len(seen)
    inner = {dict(ctx)[2] for bid, ctx in seen if bid == 2}
    assert inner == {0, 1, 2, HAVOC} and any(bid == 6 for bid, _ in seen)


def test_interface_paths_in_words():
    assert render_steps([["param", 0], ["deref"], ["field", "lock"]]) == "(*param0).lock"
    assert render_steps([["global", "f.c:g"]]) == "g"
    assert render_steps([["ret"], ["deref"], ["field", "a"], ["deref"]]) == "*(*ret).a"


class _AddressHashed:
    """A store key hashing like an object by address: set order unrelated to creation order."""

    def __init__(self, h: int):
        self.h = h

    def __hash__(self) -> int:
        return self.h


def test_merge_numbers_multiplexers_in_first_seen_order():
    """NOTE [gate-order]: the key seen first gets the first multiplexer, whatever the hashes."""
    from types import SimpleNamespace
    from saturn.logic.bdd import Guards
    from saturn.symex.lazy import force
    from saturn.symex.merge import merge
    from saturn.symex.state import State
    c = Circuit()
    guards = Guards(c)
    ev = SimpleNamespace(guards=guards, c=c, ite=lambda lit, a, b: c.ITE(lit, a, b))
    first, second = _AddressHashed(7), _AddressHashed(8)
    assert next(iter({first, second})) is second          # a set would take `second` first
    cond = guards.of_lit(c.new_var())
    a = State(cond, {first: c.new_var(), second: c.new_var()})
    b = State(~cond, {first: c.new_var(), second: c.new_var()})
    out = merge(ev, [a, b])
    assert list(out.memory) == [first, second]
    built = [force(ev, v) for v in out.memory.values()]   # NOTE [lazy-values]: built when read
    assert abs(built[0]) < abs(built[1])


def _join(c, guards, vals):
    """Two states under a fresh condition holding vals[0] and vals[1] for key "x"."""
    from saturn.symex.state import State
    cond = guards.of_lit(c.new_var())
    return [State(cond, {"x": vals[0]}), State(~cond, {"x": vals[1]})]


def test_a_joined_value_is_built_only_when_read_and_equals_the_eager_multiplexer():
    from types import SimpleNamespace
    from saturn.logic.bdd import Guards
    from saturn.symex.lazy import Mux, force
    from saturn.symex.merge import merge
    c = Circuit()
    guards = Guards(c)
    ev = SimpleNamespace(guards=guards, c=c, ite=lambda lit, a, b: c.ITE(lit, a, b))
    t, e = c.new_var(), c.new_var()
    states = _join(c, guards, [t, e])
    before = c.nvars
    out = merge(ev, states)
    assert type(out.memory["x"]) is Mux and c.nvars == before     # nothing built yet
    lit = guards.to_lit(states[0].guard)
    assert force(ev, out.memory["x"]) == c.ITE(lit, t, e)
    assert force(ev, out.memory["x"]) is force(ev, out.memory["x"])  # built once


def test_a_long_chain_of_unread_joins_is_forced_before_it_nests_too_deep():
    from types import SimpleNamespace
    from saturn.logic.bdd import Guards
    from saturn.symex.lazy import MAX_MUX_DEPTH, Mux, force
    from saturn.symex.merge import merge
    c = Circuit()
    guards = Guards(c)
    ev = SimpleNamespace(guards=guards, c=c, ite=lambda lit, a, b: c.ITE(lit, a, b))
    value = c.new_var()
    for _ in range(3 * MAX_MUX_DEPTH):
        value = merge(ev, _join(c, guards, [value, c.new_var()])).memory["x"]
        assert type(value) is Mux and value.depth <= MAX_MUX_DEPTH
    assert force(ev, value) > 0


def test_list_links_are_known_by_their_words_not_their_spelling():
    from saturn.symex.environment import list_links

    def node(tag, *names, extra=()):
        t = T.StructT(tag)
        t.complete_with([(n, T.PtrT(t)) for n in names] + list(extra))
        return t

    assert list_links(node("l1", "ln_next", "ln_prev")) == {"ln_next": "ln_prev",
                                                            "ln_prev": "ln_next"}
    assert list_links(node("l2", "fwd", "bwd")) == {"fwd": "bwd", "bwd": "fwd"}
    assert list_links(node("l3", "next_entry", "prev_entry", extra=[("id", T.INT)]))
    assert list_links(node("l4", "flink", "blink"))
    assert list_links(node("l6", "pNext", "pPrev")) == {"pNext": "pPrev", "pPrev": "pNext"}
    assert list_links(node("l7", "next", "previous")) == {"next": "previous", "previous": "next"}
    assert list_links(node("l8", "fwd_link", "bwd_link"))
    assert list_links(node("l9", "lru_next", "lru_prev", "next", "prev")) == {
        "lru_next": "lru_prev", "lru_prev": "lru_next", "next": "prev", "prev": "next"}
    assert list_links(node("t1", "left", "right")) == {}       # a tree, not a list
    assert list_links(node("t2", "next", "child")) == {}
    t = T.StructT("l5")
    t.complete_with([("next", T.PtrT(T.INT)), ("prev", T.PtrT(t))])
    assert list_links(t) == {}                                 # both must point to the node
    # One tag, two programs: each definition is known for its own fields.
    a, b = node("twice", "ln_next", "ln_prev"), node("twice", "ln_next", "ln_child")
    assert list_links(a) and list_links(b) == {}


def test_a_loop_exit_is_asked_about_however_big_the_rest_of_the_formula():
    """NOTE [havoc-passes]: whether a path leaves a loop is a question as big as the exits'
    conditions. A formula grown elsewhere (by another checker's attributes, or arithmetic the
    exits never read) does not make the loop be taken as left, which would drop its havoc
    pass and every report after it, differently with each set of checkers."""
    from types import SimpleNamespace
    from saturn.symex.engine import EXIT_QUERY_MAX_VARS, _can_leave
    c = Circuit()
    a, b = c.fresh(2)
    never = c.AND(-a, c.AND(a, b))      # no model, though no fold sees it
    ctx = SimpleNamespace(c=c, session=Session(c), lit=lambda g: g)
    assert not _can_leave(ctx, [never])
    c.fresh(EXIT_QUERY_MAX_VARS + 1)    # unrelated variables
    assert not _can_leave(ctx, [never])
    assert _can_leave(ctx, [never, c.AND(a, b)])


def test_member_path_into_an_array_of_links():
    link = T.StructT("link", False, [], True)
    link.fields = [("next", T.PtrT(link)), ("prev", T.PtrT(link))]
    link.offsets, link.size, link.align = {"next": 0, "prev": 8}, 16, 8
    path = T.StructT("path", False, [("weight", T.INT), ("list_node", T.ArrT(link, 2))], True)
    path.offsets, path.size, path.align = {"weight": 0, "list_node": 8}, 40, 8
    assert member_path(path, 24, link.key()) == ["list_node", 1]
    assert member_path(path, 8, link.key()) == ["list_node", 0]
    assert member_path(path, 16, link.key()) is None   # inside an element, not a link
    assert member_text(["list_node", 1]) == "list_node[1]"
    assert member_names("list_node[1]") == ["list_node", 1]
    assert member_names(member_text(["outer", "items", 3, "head"])) == ["outer", "items", 3, "head"]
