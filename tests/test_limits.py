"""Front-end limits: C nested thousands of levels deep, huge expressions and files of tens of
thousands of functions are lowered, in time and memory linear in their size (NOTE
[deep-nesting] in saturn/process/limits.py). Checked by what comes out, never by a clock."""
import tracemalloc

from saturn.cfront.discover import SourceFile
from saturn.incremental.units import FrontEnd
from saturn.ir import nodes as N
from saturn.logic.circuit import Circuit


def _unit(tmp_path, code):
    (tmp_path / "t.c").write_text(code)
    return FrontEnd(None, str(tmp_path)).unit(SourceFile(str(tmp_path / "t.c"), (),
                                                         str(tmp_path)))


def _count(fn, kind):
    stack, n = [x for b in fn.blocks.values() for x in (*b.stmts, b.term)], 0
    while stack:
        x = stack.pop()
        n += isinstance(x, kind)
        if hasattr(x, "__dataclass_fields__") and not isinstance(x, (N.Symbol, N.Coord)):
            stack.extend(getattr(x, f) for f in x.__dataclass_fields__)
        elif isinstance(x, (tuple, list)):
            stack.extend(x)
    return n


def test_two_thousand_nested_ifs_and_three_thousand_parentheses_lower(tmp_path):
    ifs = "".join(f"if (x > {i}) " for i in range(2000))
    unit = _unit(tmp_path, f"int f(int x) {{\n{ifs}x++;\nreturn x; }}\n"
                           f"int g(int x) {{ return {'(' * 3000}x{')' * 3000}; }}\n")
    f, g = unit.functions["f"], unit.functions["g"]
    assert sum(isinstance(b.term, N.Branch) for b in f.blocks.values()) == 2000
    assert _count(g, N.Read) == 1 and not unit.warnings


def test_an_expression_of_five_thousand_additions_lowers_to_as_many_nodes(tmp_path):
    unit = _unit(tmp_path, "int h(int x) { return " + " + ".join(["x"] * 5000) + "; }\n")
    assert _count(unit.functions["h"], N.Binary) == 4999


def test_a_cone_s_clauses_go_to_the_solver_as_they_are_made():
    """A cone of a million gates is never one list of its clauses: `emit` takes each."""
    c = Circuit()
    bits = c.fresh(64)
    out = bits[0]
    for b in bits[1:]:
        out = c.XOR(c.AND(out, b), b)
    seen, lengths = [], []
    c.cone_clauses([out], lambda clause: (seen.append(tuple(clause)), lengths.append(len(seen))))
    assert len(seen) == len(set(seen)) > 4 * 63 and lengths == list(range(1, len(seen) + 1))
    c.cone_clauses([out], seen.append)
    assert len(seen) == lengths[-1]   # emitted once


def test_lowering_many_small_functions_keeps_little_per_function(tmp_path):
    """Each definition is parsed as the lowering reaches it and its IR nodes have no dict:
    a file's syntax trees are never all alive, and a small function's IR is a few KB."""
    code = "".join(f"int f{i}(int x) {{ int y = x * 3; if (y > 7) return y - {i % 97}; "
                   f"return y + {i}; }}\n" for i in range(500))
    tracemalloc.start()
    try:
        unit = _unit(tmp_path, code)
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(unit.functions) == 500
    assert kept / 500 < 8_000 and peak / 500 < 10_000   # bytes per function (was 8 and 17 KB)
