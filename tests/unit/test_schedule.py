"""NOTE [scc-steps]: a cycle's members see each other as if run one after another in sorted
order, and run as soon as the earlier members they call are done."""
import random
from types import SimpleNamespace

import pytest

from saturn.interproc import schedule


def _program(calls: dict[str, set[str]]):
    return SimpleNamespace(functions={k: SimpleNamespace(callees=set(v), weight=1)
                                      for k, v in calls.items()})


# a cycle a -> b -> c -> a, d in it too (d <-> a), and top calling a.
CALLS = {"a": {"b", "d"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "top": {"a"}}


class _Future:
    def __init__(self, key):
        self.key = key

    def result(self):
        return [self.key]


class _Pool:
    """Runs nothing until asked: every submitted task is in flight together."""

    def __init__(self):
        self.flight, self.waves = {}, []

    def submit(self, keys, summaries, priority=0):
        fut = _Future(keys[0])
        self.flight[fut] = keys[0]
        return fut

    def wait_any(self, futures):
        self.waves.append(sorted(self.flight.values()))
        done, self.flight = set(self.flight), {}
        return done


def _run(pool):
    seen = {}

    def runner(keys, sums):
        seen[keys[0]] = sorted(sums)
        return [keys[0]]

    def on_done(results):
        return {k: {"of": k} for k in results}

    if pool is None:
        schedule.run(_program(CALLS), runner, 1, on_done)
        return seen
    real_submit = pool.submit

    def submit(keys, sums, priority=0):
        seen[keys[0]] = sorted(sums)
        return real_submit(keys, sums, priority)
    pool.submit = submit
    schedule.run(_program(CALLS), runner, 2, on_done, pool=pool)
    return seen


def test_members_see_only_the_earlier_members_they_call():
    seen = _run(None)
    # a is first: b and d come after it, so a sees neither; b calls only c, which is later
    assert seen == {"a": [], "b": [], "c": ["a"], "d": ["a"], "top": ["a"]}


def test_members_whose_earlier_callees_are_done_run_together():
    pool = _Pool()
    assert _run(pool) == _run(None)
    # b calls only c (later): it runs with a; c and d wait for a
    assert pool.waves == [["a", "b"], ["c", "d"], ["top"]]


@pytest.mark.parametrize("seed", range(30))
def test_the_order_is_networkx_s_condensation_in_lexicographic_order(seed):
    """The units are the call graph's strongly connected components, callees first, the
    ready one with the smallest first member next (what networkx's condensation and
    lexicographical_topological_sort give: ir/graphs.py replaces them, NOTE [startup])."""
    import networkx as nx
    rng = random.Random(seed)
    keys = [f"f{i}" for i in range(rng.randrange(1, 25))]
    calls = {k: {rng.choice(keys) for _ in range(rng.randrange(0, 4))} for k in keys}
    g = nx.DiGraph()
    g.add_nodes_from(sorted(calls))
    g.add_edges_from((k, c) for k in sorted(calls) for c in sorted(calls[k]))
    cond = nx.condensation(g)
    rank = {n: min(cond.nodes[n]["members"]) for n in cond.nodes}
    order = list(nx.lexicographical_topological_sort(cond.reverse(copy=False),
                                                     key=lambda n: rank[n]))
    index = {n: i for i, n in enumerate(order)}
    expected = ([tuple(sorted(cond.nodes[n]["members"])) for n in order],
                {index[n]: {index[m] for m in cond.successors(n)} for n in order})
    assert schedule.units(_program(calls)) == expected



def test_the_longest_chain_of_callers_is_dispatched_first():
    """NOTE [critical-path]: a leaf under a long chain of callers goes before a heavier lone
    function, and a caller's priority counts its own cost and the chain above it."""
    calls = {"leaf": set(), "mid": {"leaf"}, "top": {"mid"}, "lone": set()}
    program = _program(calls)
    for k, w in {"leaf": 1, "mid": 5, "top": 5, "lone": 8}.items():
        program.functions[k].weight = w
    plan = schedule._Plan(program, lambda results: {}, None)
    assert plan.priority == {"top": 5, "mid": 10, "leaf": 11, "lone": 8}
    order = [key for key, _ in plan.take()]
    assert sorted(order, key=lambda k: -plan.priority[k]) == ["leaf", "lone"]


def test_a_task_found_among_cache_hits_starts_before_the_rest_is_looked_up():
    """After an edit, the edited function goes to a worker while the program's other functions
    are still looked up in the cache; with no hits (a first run) the tasks come together."""
    calls = {f"f{i:03}": set() for i in range(100)}
    looked = []

    def cached(keys, sums):
        looked.append(keys[0])
        return None if keys[0] in ("f010", "f090") else [keys[0]]
    plan = schedule._Plan(_program(calls), lambda results: {}, cached)
    found = []
    for key, _ in plan.take():
        found.append((key, len(looked)))
    hits = schedule.HITS_BEFORE_TASKS
    assert found == [("f010", 11 + hits), ("f090", 100)]
    looked.clear()
    plan = schedule._Plan(_program(calls), lambda results: {},
                          lambda keys, sums: looked.append(keys[0]))
    assert [len(looked) for _ in plan.take()] == [100] * 100


def test_the_changed_functions_and_their_callees_are_looked_up_first():
    """NOTE [changed-first]: the edited function's callees are looked up before the rest of
    the program, and the edited function goes to a worker as soon as they are; what each
    function sees does not change."""
    calls = {f"f{i:03}": set() for i in range(100)}
    calls["f080"] = {"f070", "f075"}
    calls["f070"] = {"f005"}
    looked = []

    def cached(keys, sums):
        looked.append(keys[0])
        return None if keys[0] == "f080" else [keys[0]]
    plan = schedule._Plan(_program(calls), lambda results: {k: {} for k in results}, cached,
                          changed={"f080"})
    found = [(key, len(looked), sorted(task[1])) for key, task in plan.take()]
    assert looked[:4] == ["f005", "f070", "f075", "f080"]
    assert found == [("f080", 4, ["f070", "f075"])]
    assert sorted(looked) == sorted(calls)
