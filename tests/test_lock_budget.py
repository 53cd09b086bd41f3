"""NOTE [lock-summary-budget]: a lock summary over its budget of solver work keeps fewer
propositions, then leaves its locks unknown; callers then report less, never more."""
from __future__ import annotations

from checkers import lock_summary
from checkers import registry
from saturn.cfront.discover import from_paths
from saturn.app.driver import run_check
from saturn.incremental.units import FrontEnd
from saturn.symex.options import Options
from summaries.render import render

SOURCE = """
#include <pthread.h>
pthread_mutex_t m;
int take(int x) {
    if (!x) return 0;
    pthread_mutex_lock(&m);
    return 1;
}
void ok_caller(int x) {
    if (take(x))
        pthread_mutex_unlock(&m);
}
void bad_caller(void) {
    pthread_mutex_lock(&m);
    take(1);
}
"""


def _run(tmp_path, source=SOURCE, callee="take"):
    """The reports of checking `source`, and the plain-words summary of `callee`."""
    path = tmp_path / "budget.c"
    path.write_text(source)
    result = run_check(from_paths([str(path)], (), []), registry.load(["lock"]), Options(),
                       FrontEnd(None, str(tmp_path)), log=lambda *_: None)
    key = next(k for k, f in result.program.functions.items() if f.name == callee)
    return {(r.function, r.kind) for r in result.reports}, \
        render(key, result.results[key].summaries)


def test_within_budget_the_summary_follows_the_result(tmp_path):
    reports, summary = _run(tmp_path)
    assert reports == {("bad_caller", "lock.double-lock")}
    assert "[unlocked -> locked if" in summary and "coarse" not in summary


def test_over_budget_the_lock_is_unknown_and_callers_report_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(lock_summary, "QUESTION_BUDGET", 0)
    reports, summary = _run(tmp_path)
    assert "lock m: [unknown]" in summary and "lock conditions: coarse" in summary
    assert reports == set()   # the double lock is missed: less, never more


GUESS = """
#include <pthread.h>
void drop(pthread_mutex_t *l, int x) {
    if (x) pthread_mutex_unlock(l);
}
void ok_caller(void) {
    pthread_mutex_t m;
    pthread_mutex_init(&m, 0);
    drop(&m, 0);
    pthread_mutex_destroy(&m);
}
void bad_caller(void) {
    pthread_mutex_t m;
    pthread_mutex_init(&m, 0);
    drop(&m, 1);
    pthread_mutex_destroy(&m);
}
"""


def test_an_error_the_budget_left_unconditioned_is_no_callers_error(tmp_path, monkeypatch):
    reports, summary = _run(tmp_path, GUESS, "drop")
    assert reports == {("bad_caller", "lock.double-unlock")}
    assert "coarse" not in summary

    def over(*_args):
        raise lock_summary.OverBudget
    monkeypatch.setattr(lock_summary, "refined", over)   # the inputs' stage runs out
    reports, summary = _run(tmp_path, GUESS, "drop")
    assert "[unlocked -> error (release)]" in summary and "lock conditions: coarse" in summary
    # Unlocked, drop may err or not by a condition the summary lost: neither caller is told
    # of an error it cannot tell apart (the double unlock of bad_caller is missed).
    assert reports == set()


HELD = """
#include <pthread.h>
struct link { pthread_mutex_t m; int up; };
void relink(struct link *p, int take) {
    if (take) pthread_mutex_lock(&p->m);
    p->up = 1;
}
void ok_held_on_one_side(struct link *p, int held) {
    if (held) pthread_mutex_lock(&p->m);
    relink(p, !held);
    pthread_mutex_unlock(&p->m);
}
void bad_held_always(struct link *p) {
    pthread_mutex_lock(&p->m);
    relink(p, 1);
    pthread_mutex_unlock(&p->m);
}
"""


def test_an_unconditioned_error_is_the_callers_where_it_surely_holds_the_lock(tmp_path,
                                                                             monkeypatch):
    """NOTE [coarse-guess]: the caller that took the lock on every path to the call is told of
    the callee's double lock; the one holding it on one side only is not."""
    def over(*_args):
        raise lock_summary.OverBudget
    monkeypatch.setattr(lock_summary, "refined", over)
    reports, summary = _run(tmp_path, HELD, "relink")
    assert "[locked -> error (acquire)]" in summary and "lock conditions: coarse" in summary
    assert reports == {("bad_held_always", "lock.double-lock")}
