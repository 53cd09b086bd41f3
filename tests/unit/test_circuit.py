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


def test_which_may_on_the_model_solver_agrees(monkeypatch):
    """NOTE [model-solver]: the second session is given the question's cone and every required
    clause; it must answer as the main session does."""
    from saturn.logic import solver as S
    answers = []
    for limit in (10**9, 0):   # main session, then the model solver for any size
        monkeypatch.setattr(S, "MODEL_SOLVER_VARS", limit)
        c = Circuit()
        a, b, u = c.new_var(), c.new_var(), c.new_var()
        c.require([a])                       # a constraint outside every question's cone
        s = Session(c)
        lits = [a, -a, b, c.AND(a, b), c.AND(-a, b), c.AND(b, -u), TRUE, FALSE]
        answers.append(s.which_may(lits, u, otherwise=None))
        s.close()
    assert answers[0] == answers[1] == [True, False, True, True, False, False, True, False]


def test_which_may_gives_up_on_one_model_and_still_refutes_the_rest(monkeypatch):
    """NOTE [model-budget]: a literal whose model is over budget takes the caller's answer; the
    others are still asked, and the impossible ones come out impossible."""
    from saturn.logic import solver as S
    monkeypatch.setattr(S, "MODEL_SOLVER_VARS", 0)
    real, calls = S._ModelSolver.may, []

    def may(self, *lits, observe=(), budget=None):
        calls.append(lits)
        return S.UNKNOWN if len(calls) == 1 else real(self, *lits, observe=observe, budget=budget)
    monkeypatch.setattr(S._ModelSolver, "may", may)
    c = Circuit()
    a, b, u = c.new_var(), c.new_var(), c.new_var()
    s = Session(c)
    lits = [c.AND(a, u), c.AND(b, -u), c.AND(-a, b), c.AND(a, -b)]
    got = s.which_may(lits, u, otherwise="open")
    first = sorted(lits)[0]   # the first question is about the smallest open literal
    want = {c.AND(a, u): True, c.AND(b, -u): False, c.AND(-a, b): True, c.AND(a, -b): True}
    want[first] = "open"
    assert got == [want[x] for x in lits]
    assert len(calls) >= 2
