"""Header function bodies the file never mentions are dropped before parsing (NOTE [lazy-headers])."""
from saturn.cfront.parse import parse_text
from saturn.cfront.slim import slim
from saturn.ir.lower import lower_unit
from saturn.ir.program import Program

TEXT = '''# 1 "/src/h.h"
struct s { int a; };
static inline int used(int x) { return helper(x) + 1; }
static inline int helper(int x) { return x * 2; }
static inline int __attribute__((always_inline)) unused(int x)
{
    return x - 1;
}
static inline int late(int x) { return x; }
static const struct s init = { 3 };
int (*table[1])(int) = { 0 };
# 1 "/src/main.c"
int f(int y) { return used(y) + late(y); }
static int g(int y) { return y; }
'''


def test_unmentioned_bodies_become_prototypes_and_lines_stay():
    out = slim(TEXT, "/src/main.c")
    assert out.count("\n") == TEXT.count("\n")
    assert "return x - 1" not in out and "unused(int x)\n;" in out
    assert "return helper(x) + 1" in out and "return x * 2" in out  # kept through `used`
    assert "static const struct s init = { 3 };" in out and "struct s { int a; };" in out
    assert "static int g(int y) { return y; }" in out  # the main file is never touched


def test_slimmed_text_lowers_the_reachable_functions():
    program = Program()
    lower_unit(program, parse_text(TEXT, "/src/main.c").ast, "/src/main.c")
    names = sorted(fn.name for fn in program.functions.values())
    assert names == ["f", "g", "helper", "late", "used"]
    late = next(fn for fn in program.functions.values() if fn.name == "late")
    assert late.line == 8  # after the dropped body: line numbers did not move


def test_unbalanced_text_is_left_alone():
    broken = '# 1 "/src/h.h"\nstatic int h(void) { return 1; \n'
    assert slim(broken, "/src/main.c") == broken
