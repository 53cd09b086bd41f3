"""Gate folding and Tseitin encoding agree with truth tables."""
import itertools

from saturn.logic.circuit import Circuit, FALSE, TRUE
from saturn.logic.solver import Session


def test_folding():
    c = Circuit()
    x, y = c.fresh(2)
    assert c.AND(x, FALSE) == FALSE and c.AND(x, TRUE) == x and c.AND(x, x) == x
    assert c.AND(x, -x) == FALSE and c.OR(x, -x) == TRUE and c.XOR(x, x) == FALSE
    assert c.AND(x, y) == c.AND(y, x)  # hash-consed
    assert c.XOR(-x, y) == -c.XOR(x, y)


def test_gates_match_truth_tables_including_folds():
    c = Circuit()
    s = Session(c)
    a, b, d = c.fresh(3)
    inputs = [a, b, d, -a, -b, TRUE, FALSE]
    gates = []
    for x, y, z in itertools.product(inputs, repeat=3):
        gates.append(("ite", (x, y, z), c.ITE(x, y, z)))
        gates.append(("and", (x, y), c.AND(x, y)))
        gates.append(("xor", (x, y), c.XOR(x, y)))
    for va, vb, vd in itertools.product([False, True], repeat=3):
        env = {a: va, b: vb, d: vd, TRUE: True}
        val = lambda l: (not env[-l]) if l < 0 and -l in env else env[l] if l in env else not env[-l]
        m = s.may(a if va else -a, b if vb else -b, d if vd else -d, observe=[g for _, _, g in gates])
        for kind, ins, g in gates:
            vs = [val(i) for i in ins]
            want = {"ite": lambda: vs[1] if vs[0] else vs[2], "and": lambda: vs[0] and vs[1],
                    "xor": lambda: vs[0] != vs[1]}[kind]()
            assert m.value(g) == want, (kind, ins)
