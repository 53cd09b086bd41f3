"""Runs and detection status (summaries/history.py, NOTE [detection-status]) and reviews."""
import json

import pytest

from saturn.report.diagnostic import Report
from summaries import history, reviews
from summaries.store import Store


def _report(fp, file="a.c", line=1):
    return Report("lock", "lock.double-lock", "f", "f", file, line, 1, f"bug {fp}",
                  fingerprint=fp)


def _run(store, fps, files=("a.c", "b.c"), hidden=(), keep=50):
    reports = [_report(fp, file=fp.split(":")[0]) for fp in fps]
    info = {"root": "/r", "options": {}, "checkers": ["lock"], "version": "t"}
    return store.record_history(info, reports, [_report(h) for h in hidden], files, keep)


def _status(store, run=None):
    return {r["fingerprint"]: r["detection_status"] for r in history.report_rows(store.db, run)}


def test_new_unresolved_resolved_reopened(tmp_path):
    store = Store(str(tmp_path / "s.db"))
    one = _run(store, ["a.c:x", "b.c:y"])
    assert _status(store) == {"a.c:x": "new", "b.c:y": "new"}
    _run(store, ["a.c:x"])
    assert _status(store) == {"a.c:x": "unresolved", "b.c:y": "resolved"}
    _run(store, ["a.c:x"], files=["a.c"])   # b.c not checked: nothing about it changes
    assert _status(store)["b.c:y"] == "resolved"
    last = _run(store, ["a.c:x", "b.c:y"])
    assert _status(store) == {"a.c:x": "unresolved", "b.c:y": "reopened"}
    assert _status(store, one) == {"a.c:x": "new", "b.c:y": "new"}   # as it was then
    assert history.diff(store.db, one + 1, last)["new"][0]["fingerprint"] == "b.c:y"
    assert [r["fingerprint"] for r in history.diff(store.db, one, one + 1)["resolved"]] \
        == ["b.c:y"]
    counts = history.runs(store.db)[0]["counts"]
    assert (counts["reopened"], counts["unresolved"], counts["new"]) == (1, 1, 0)


def test_a_report_outside_the_runs_files_is_not_resolved(tmp_path):
    store = Store(str(tmp_path / "s.db"))
    _run(store, ["b.c:y"])
    _run(store, [], files=["a.c"])
    assert _status(store) == {"b.c:y": "new"}


def test_history_is_bounded(tmp_path):
    store = Store(str(tmp_path / "s.db"))
    for i in range(6):
        _run(store, [f"a.c:{i}"], keep=3)
    assert history.run_ids(store.db) == [4, 5, 6]
    kept = {fp for (fp,) in store.db.execute("SELECT fingerprint FROM reports")}
    assert kept == {"a.c:2", "a.c:3", "a.c:4", "a.c:5"}   # a.c:2 was resolved by run 4


def test_reviews_round_trip_as_sorted_json(tmp_path):
    store = Store(str(tmp_path / "s.db"))
    reviews.put(store.db, "ffff", "false-positive", "<b>not a bug</b>", "ann")
    reviews.put(store.db, "aaaa", "confirmed", "", "bob")
    reviews.put(store.db, "cccc", "intentional")
    reviews.put(store.db, "cccc", "unreviewed")   # removes it
    path = tmp_path / "r.json"
    assert reviews.export(store.db, str(path)) == 2
    doc = json.loads(path.read_text())
    assert [e["fingerprint"] for e in doc["reviews"]] == ["aaaa", "ffff"]
    other = Store(str(tmp_path / "t.db"))
    reviews.import_entries(other.db, reviews.read(str(path)))
    assert reviews.all_reviews(other.db) == reviews.all_reviews(store.db)
    with pytest.raises(reviews.ReviewError, match="status must be one of"):
        reviews.put(store.db, "x", "wontfix")
    path.write_text('{"version": 1, "reviews": [{"fingerprint": "a", "status": "meh"}]}')
    with pytest.raises(reviews.ReviewError, match=r"r\.json: status must be"):
        reviews.read(str(path))
