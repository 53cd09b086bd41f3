"""NOTE [linear-lowering]: lowering does a bounded amount of work per AST node, measured as the
number of expressions lowered (scratch lowerings for types included), never by a clock."""
import pytest

from saturn.cfront.discover import SourceFile
from saturn.cfront.parse import parse_text
from saturn.cfront.preprocess import preprocess
from saturn.ir.lower import Lowerer, lower_unit
from saturn.ir.program import Program


def ternary_chain(n: int) -> str:
    """The kernel's old ilog2(): `?:` nested n deep, ending in a call (side effects)."""
    chain = " : ".join(f"x & {1 << (i % 31)} ? {i}" for i in range(n))
    return f"int f(void);\nint g(int x) {{ return ({chain} : f()) + 1; }}\n"


def auto_type_nest(n: int) -> str:
    """Statement expressions whose `__auto_type` local is typed by the next one."""
    e = "x"
    for i in range(n):
        e = f"({{ __auto_type v{i} = {e} + f(); v{i}; }})"
    return f"int f(void);\nint h(int x) {{ return {e}; }}\n"


def typeof_nest(n: int) -> str:
    """`typeof` of a `?:` with calls, the temporary of which needs both arms' types."""
    e = "x"
    for i in range(n):
        e = f"({{ __typeof__(x ? {e} : f()) t{i} = f(); t{i}; }})"
    return f"int f(void);\nint k(int x) {{ return {e}; }}\n"


def lowering_work(tmp_path, monkeypatch, code: str) -> tuple[int, int]:
    """(expressions lowered, IR statements and blocks) for `code`."""
    path = tmp_path / "t.c"
    path.write_text(code)
    ast = parse_text(preprocess(SourceFile(str(path), (), str(tmp_path))), str(path))
    calls = [0]
    expr = Lowerer.expr

    def counted(self, node):
        calls[0] += 1
        return expr(self, node)
    monkeypatch.setattr(Lowerer, "expr", counted)
    program = Program()
    lower_unit(program, ast, str(path))
    size = sum(len(b.stmts) + 1 for fn in program.functions.values() for b in fn.blocks.values())
    return calls[0], size


@pytest.mark.parametrize("shape", [ternary_chain, auto_type_nest, typeof_nest])
def test_nesting_lowers_in_linear_work(tmp_path, monkeypatch, shape):
    small_calls, small_size = lowering_work(tmp_path, monkeypatch, shape(8))
    big_calls, big_size = lowering_work(tmp_path, monkeypatch, shape(16))
    assert big_size <= 2.2 * small_size
    assert big_calls <= 2.2 * small_calls


def test_a_200_deep_chain_lowers(tmp_path, monkeypatch):
    calls, size = lowering_work(tmp_path, monkeypatch, ternary_chain(200))
    assert calls < 20 * 200 and size < 20 * 200
