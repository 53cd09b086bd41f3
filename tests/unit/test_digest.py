"""NOTE [line-shift]: a function that only moved keeps its IR digest; an edited one does not."""
from saturn.incremental.units import lower_text

BODY = """struct S { int a; int b; };
int f1(int x) { static int cnt; cnt++; return x + cnt; }
const char *f2(int x) { return x ? "yes" : "no"; }
int f3(int x) { struct S s = (struct S){x}; return s.a; }
int f4(int x) { switch (x) { case 1: return 2; default: break; } l: if (x) { x--; goto l; } return x; }
int f5(int x) { int a[3] = {1}; struct S t = {0}; return a[x % 3] + t.b; }
int f6(int x) { return ({ int y = x * 2; y; }); }
void f7(void) { const char *s = __func__; (void)s; }
"""


def _digests(text):
    unit = lower_text('# 1 "t.c"\n' + text, "t.c", ".")
    return {k: fn.digest for k, fn in unit.functions.items()}


def test_moving_keeps_digests_and_editing_changes_one():
    before = _digests(BODY)
    assert len(before) == 7
    assert _digests("int pad;\n\n" + BODY) == before
    edited = _digests(BODY.replace("return x + cnt;", "return x - cnt;"))
    assert [k for k in before if edited[k] != before[k]] == ["f1"]


def _lowered(text):
    unit = lower_text('# 1 "t.c"\n' + text, "t.c", ".")
    return {fn.name: fn for fn in unit.functions.values()}


def test_line_valued_constants_move_with_their_lines():
    """NOTE [line-constants]: `__LINE__` (as the preprocessor leaves it: the line's number)
    moves with the function; a literal that stays put while the function moves does not."""
    src = "int log_at(int);\nint g(int x) {\n  if (x)\n    return log_at(4);\n  return 0;\n}\n"
    before = _lowered(src)["g"]
    assert before.line_values == (4,)
    moved = _lowered("int pad;\n" + src.replace("log_at(4)", "log_at(5)"))["g"]
    assert moved.digest == before.digest and moved.line_values == (5,)
    stale = _lowered("int pad;\n" + src)["g"]    # the same literal 4, now on line 5
    assert stale.digest != before.digest and stale.line_values == ()


def test_loops_weigh_more_than_straight_code():
    """NOTE [critical-path]: the analysis cost estimate grows with statements and loops."""
    fns = _lowered("int flat(int x) { x++; x++; x++; return x; }\n"
                   "int loop(int x) { while (x > 0) x--; return x; }\n"
                   "int two(int x) { while (x > 0) x--; for (; x < 9; x++) ; return x; }\n")
    from saturn.ir.loops import analysis_weight
    w = {name: analysis_weight(fn) for name, fn in fns.items()}
    assert w["two"] > w["loop"] > w["flat"] > 0   # "loop" and "flat": as many statements
    assert all(fn.weight == w[name] for name, fn in fns.items())   # kept with the digest
