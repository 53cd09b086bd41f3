"""NOTE [scc-steps]: a cycle's members see each other as if run one after another, each after
the members it calls but for the calls cut to break the cycle (callees_first), and run as soon
as the earlier members they call are done."""
import random
from concurrent.futures import Future
from types import SimpleNamespace

import pytest

from saturn.interproc import schedule


def _program(calls: dict[str, set[str]]):
    return SimpleNamespace(functions={k: SimpleNamespace(callees=set(v), weight=1)
                                      for k, v in calls.items()})


# a cycle a -> b -> c -> a, d in it too (d <-> a), and top calling a.
CALLS = {"a": {"b", "d"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "top": {"a"}}


class _Result:
    def __init__(self, key):
        self.key, self.ok, self.summaries = key, True, {"of": key}


class _Future:
    def __init__(self, key):
        self.key = key

    def result(self):
        return [_Result(self.key)]


class _Pool:
    """Runs nothing until asked: every submitted task is in flight together."""

    def __init__(self):
        self.flight, self.waves, self.seen = {}, [], {}

    def submit(self, keys, summaries, priority=0):
        self.seen[keys[0]] = sorted(summaries)
        fut = _Future(keys[0])
        self.flight[fut] = keys[0]
        return fut

    def wait_any(self, futures):
        self.waves.append(sorted(self.flight.values()))
        done, self.flight = set(self.flight), {}
        return done


class _Inline:
    """Runs each task when it is submitted (the pool interface of interproc/pools.py)."""

    def __init__(self, seen):
        self.seen = seen

    def submit(self, keys, sums, priority=0):
        self.seen[keys[0]] = sorted(sums)
        done = Future()
        done.set_result([_Result(keys[0])])
        return done

    def wait_any(self, futures):
        return set(futures)



def _run(pool=None):
    seen = {}
    done = [keys for keys, _ in schedule.run(_program(CALLS), pool or _Inline(seen))]
    assert sorted(k for keys in done for k in keys) == sorted(CALLS)
    return pool.seen if pool else seen


class _Cache:
    """Every function but those in `misses` is a hit; `looked` lists the lookups in order."""

    def __init__(self, misses=()):
        self.misses, self.looked = set(misses), []

    def lookup(self, keys, sums):
        self.looked.append(keys[0])
        return None if keys[0] in self.misses else [_Result(keys[0])]


def test_a_cycle_runs_callees_first():
    # all of one weight: b, c and d wait for one member each, b is first by key; then a waits
    # for d alone and is first by key; then c and d wait for nothing
    assert schedule.components(_program(CALLS))[0][0] == ("b", "a", "c", "d")


def test_the_call_left_unseen_is_the_one_into_the_heaviest_member():
    """A wrapper of an allocator in a cycle through a heavy error handler: the allocator's
    call of the handler is cut, and the wrapper runs after the allocator."""
    calls = {"wrap": {"alloc"}, "alloc": {"die"}, "die": {"save"}, "save": {"wrap"}}
    weight = {"wrap": 2, "alloc": 3, "die": 50, "save": 20}
    succ = {k: sorted(v) for k, v in calls.items()}
    assert schedule.callees_first(set(calls), succ, weight.get) == ("alloc", "wrap", "save",
                                                                     "die")


def test_members_see_only_the_earlier_members_they_call():
    seen = _run()
    # b calls only a later member; a sees b (d is later), c and d see a
    assert seen == {"a": ["b"], "b": [], "c": ["a"], "d": ["a"], "top": ["a"]}


def test_members_whose_earlier_callees_are_done_run_together():
    pool = _Pool()
    assert _run(pool) == _run()
    # b calls no earlier member: it runs first; a waits for b, c and d for a
    assert pool.waves == [["b"], ["a"], ["c", "d"], ["top"]]


@pytest.mark.parametrize("seed", range(30))
def test_the_order_is_networkx_s_condensation_in_lexicographic_order(seed):
    """The components are the call graph's strongly connected components, callees first, the
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
    members, deps = schedule.components(_program(calls))
    assert ([tuple(sorted(m)) for m in members], deps) == expected



def test_the_longest_chain_of_callers_is_dispatched_first():
    """NOTE [critical-path]: a leaf under a long chain of callers goes before a heavier lone
    function, and a caller's priority counts its own cost and the chain above it."""
    calls = {"leaf": set(), "mid": {"leaf"}, "top": {"mid"}, "lone": set()}
    program = _program(calls)
    for k, w in {"leaf": 1, "mid": 5, "top": 5, "lone": 8}.items():
        program.functions[k].weight = w
    plan = schedule.Schedule(program)
    assert plan.priority == {"top": 5, "mid": 10, "leaf": 11, "lone": 8}
    pool = _Recorder()
    with pytest.raises(_FirstPassOver):
        list(schedule.run(program, pool))
    assert sorted(pool.order, key=lambda kp: -kp[1]) == [("leaf", 11), ("lone", 8)]


class _FirstPassOver(Exception):
    pass


class _Recorder:
    """Records what is submitted (and the lookups before it); ends the run at the first wait."""

    def __init__(self, cache=None):
        self.cache, self.order, self.found = cache, [], []

    def submit(self, keys, sums, priority=0):
        self.order.append((keys[0], priority))
        self.found.append((keys[0], len(self.cache.looked) if self.cache else 0, sorted(sums)))
        return object()

    def wait_any(self, futures):
        raise _FirstPassOver()


def _submitted(calls, cache, changed=()):
    """The tasks given to the pool in the first pass, each with how many lookups came first."""
    pool = _Recorder(cache)
    with pytest.raises(_FirstPassOver):
        list(schedule.run(_program(calls), pool, cache, changed))
    return pool.found


def test_a_task_found_among_cache_hits_starts_before_the_rest_is_looked_up():
    """After an edit, the edited function goes to a worker while the program's other functions
    are still looked up in the cache; with no hits (a first run) the tasks come together."""
    calls = {f"f{i:03}": set() for i in range(100)}
    found = _submitted(calls, _Cache(misses={"f010", "f090"}))
    hits = schedule.HITS_BEFORE_TASKS
    assert [(k, n) for k, n, _ in found] == [("f010", 11 + hits), ("f090", 100)]
    everything = _submitted(calls, _Cache(misses=set(calls)))
    assert [n for _, n, _ in everything] == [100] * 100


def test_the_changed_functions_and_their_callees_are_looked_up_first():
    """NOTE [changed-first]: the edited function's callees are looked up before the rest of
    the program, and the edited function goes to a worker as soon as they are; what each
    function sees does not change."""
    calls = {f"f{i:03}": set() for i in range(100)}
    calls["f080"] = {"f070", "f075"}
    calls["f070"] = {"f005"}
    cache = _Cache(misses={"f080"})
    found = _submitted(calls, cache, changed={"f080"})
    assert cache.looked[:4] == ["f005", "f070", "f075", "f080"]
    assert found == [("f080", 4, ["f070", "f075"])]
    assert sorted(cache.looked) == sorted(calls)
