"""Guarded location sets, typed views at one address, and loop unrolling."""
from saturn.ir import nodes as N
from saturn.ir import types as T
from saturn.ir.loops import HAVOC, unroll
from saturn.logic.circuit import Circuit, FALSE, TRUE
from saturn.logic.solver import Session
from saturn.memory import gls
from saturn.memory.locations import Obj, child, view
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


def test_unrolling_makes_k_copies_then_the_havoc_iteration():
    u = unroll(_loop_function(), 2)
    heads = sorted(str(dict(i.ctx)[1]) for i in u.order if i.block.id == 1)
    assert heads == ["0", "1", "2", HAVOC]
    havoc = [i for i in u.order if i.havoc_header == 1]
    assert len(havoc) == 1 and dict(havoc[0].ctx)[1] == HAVOC
    ids = [i.id for i in u.order]
    assert all(p < i.id for i in u.order for p, _ in i.preds) and ids == sorted(ids)
    assert len(u.exit_ids) == 1


def test_interface_paths_in_words():
    assert render_steps([["param", 0], ["deref"], ["field", "lock"]]) == "(*param0).lock"
    assert render_steps([["global", "f.c:g"]]) == "g"
    assert render_steps([["ret"], ["deref"], ["field", "a"], ["deref"]]) == "*(*ret).a"
