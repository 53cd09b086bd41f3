"""Location sets stay small where a function's writes repeat (NOTE [blurred-writes] in
symex/evaluator.py, NOTE [union-members] in symex/lvalues.py): a code generator that adds one
instruction a call, each instruction a union of pointers, at an index the analysis cannot tell."""
import os

from checkers import registry
from saturn.cfront.discover import from_paths
from saturn.app.driver import analyze_one, load_program
from saturn.incremental.units import FrontEnd
from saturn.memory.gls import GLS
from saturn.symex import lvalues
from saturn.symex.options import Options

CALLS = 30
GENERATOR = """
void *make(void);
union p4 { char *z; void *p; int *ai; struct op *next; long *pl; double *pd; };
struct op { int opcode; union p4 p4; };
struct vdbe { struct op *aOp; int nOp; };
void add(struct vdbe *v, int code) {
    struct op *op = &v->aOp[v->nOp++];
    op->opcode = code;
    op->p4.z = make();
}
int build(struct vdbe *v) {
""" + "".join(f"    add(v, {i});\n" for i in range(CALLS)) + """    return v->nOp;
}
"""


def test_repeated_unknown_writes_to_an_element_do_not_grow_its_locations(tmp_path, monkeypatch):
    src = tmp_path / "gen.c"
    src.write_text(GENERATOR)
    sizes = []
    store = lvalues.LvalueEval.store_obj

    def counting(self, obj, value, g, st):
        old = st.memory.get(obj)
        sizes.append(len(old.entries) if isinstance(old, GLS) else 0)
        return store(self, obj, value, g, st)
    monkeypatch.setattr(lvalues.LvalueEval, "store_obj", counting)
    program, _, _ = load_program(from_paths([str(src)], (), []),
                                 FrontEnd(None, os.fspath(tmp_path)), {"front end": 0.0},
                                 lambda _: None)
    keys = {fn.name: key for key, fn in program.functions.items()}
    checkers, options = registry.load(["leak"]), Options()
    add = analyze_one(program, keys["add"], checkers, options, {})
    sizes.clear()   # in this process: the caller only
    build = analyze_one(program, keys["build"], checkers, options,
                        {keys["add"]: add.summaries})
    assert add.ok and build.ok
    # Each call may write some element's six pointers: one unknown for the element, not one
    # a call (181 locations by the last call), and one write for the union's six pointers,
    # not one a member (1,417 locations copied in all).
    assert max(sizes) <= 4, max(sizes)
    assert sum(sizes) <= 4 * CALLS, sum(sizes)
