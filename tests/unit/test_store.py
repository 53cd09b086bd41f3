"""The summary database (summaries/store.py)."""
from summaries.store import Store


def test_the_call_graph_is_the_last_runs(tmp_path):
    """record_run writes the calls again only when they changed; they are always the last's."""
    store = Store(str(tmp_path / "s.db"))

    def calls():
        return sorted(store.db.execute("SELECT caller, callee FROM calls"))
    store.record_run(str(tmp_path), {("f", "g"), ("g", "h")})
    assert calls() == [("f", "g"), ("g", "h")]
    store.record_run(str(tmp_path), {("f", "h")})
    assert calls() == [("f", "h")]
    store.db.execute("INSERT INTO calls VALUES ('x', 'y')")   # (not rewritten: the same calls)
    store.record_run(str(tmp_path), [("f", "h")])
    assert calls() == [("f", "h"), ("x", "y")]
    store.record_run(str(tmp_path), [])
    assert calls() == []
    store.close()
