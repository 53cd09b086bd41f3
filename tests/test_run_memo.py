"""NOTE [run-memo]: a re-check with nothing changed gives the last run again without analysing;
anything that changes a result makes it analyse."""
import json
import os
import time

import pytest

from saturn.app import cli, driver

SOURCE = """#include <pthread.h>
static pthread_mutex_t m;
void twice(void) { pthread_mutex_lock(&m); pthread_mutex_lock(&m); }
"""


def _tree(tmp_path, text=SOURCE):
    path = tmp_path / "a.c"
    path.write_text(text)
    past = time.time() - 3600   # a file younger than the run is not listed (NOTE [direct-mode])
    os.utime(path, (past, past))
    return path


def _check(tmp_path, capsys, *extra):
    code = cli.main(["check", "--db", str(tmp_path / "s.db"), "--format", "json",
                     "--root", str(tmp_path), "--jobs", "1", *extra, str(tmp_path / "a.c")])
    doc = json.loads(capsys.readouterr().out)
    return code, doc


@pytest.fixture
def analyses(monkeypatch):
    """Counts the runs that analyse (that call the driver)."""
    calls = []
    real = driver.run_check

    def counted(*args, **kw):
        calls.append(1)
        return real(*args, **kw)
    monkeypatch.setattr(driver, "run_check", counted)
    return calls


def test_nothing_changed_gives_the_last_run_again(tmp_path, capsys, analyses):
    _tree(tmp_path)
    first = _check(tmp_path, capsys, "--checkers", "lock")
    again = _check(tmp_path, capsys, "--checkers", "lock")
    assert analyses == [1]
    assert first[0] == again[0] == 1
    assert again[1]["reports"] == first[1]["reports"]
    assert again[1]["stats"]["reused"] == again[1]["stats"]["functions"] == 1
    assert cli.main(["runs", "--db", str(tmp_path / "s.db"), "--format", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 2   # the replayed run is in the history


def test_a_changed_file_or_other_checkers_analyse_again(tmp_path, capsys, analyses):
    _tree(tmp_path)
    _check(tmp_path, capsys, "--checkers", "lock")
    _tree(tmp_path, SOURCE.replace("pthread_mutex_lock(&m); }", "pthread_mutex_unlock(&m); }"))
    code, doc = _check(tmp_path, capsys, "--checkers", "lock")
    assert analyses == [1, 1] and code == 0 and doc["reports"] == []
    _check(tmp_path, capsys, "--checkers", "leak")
    code, doc = _check(tmp_path, capsys, "--checkers", "lock")   # the database's last run: leak
    assert analyses == [1, 1, 1, 1] and code == 0
    _check(tmp_path, capsys, "--checkers", "lock")
    assert len(analyses) == 4


def test_a_run_that_lost_functions_is_not_given_again(tmp_path, capsys, monkeypatch):
    """A dead worker's functions were not saved: the next run analyses them."""
    _tree(tmp_path)
    real = driver.run_check

    def losing(*args, **kw):
        result = real(*args, **kw)
        result.lost = 1
        return result
    monkeypatch.setattr(driver, "run_check", losing)
    _check(tmp_path, capsys, "--checkers", "lock")
    calls = []
    monkeypatch.setattr(driver, "run_check", lambda *a, **k: calls.append(1) or real(*a, **k))
    _check(tmp_path, capsys, "--checkers", "lock")
    _check(tmp_path, capsys, "--checkers", "lock")
    assert calls == [1]   # analysed once more, then given again


def test_a_check_ends_with_what_its_writer_keeps_written(tmp_path, capsys, monkeypatch):
    """NOTE [background-writes]: the unit is written by a child process, slow here; the run
    waits for it, so the next run loads the unit it wrote."""
    from saturn.incremental import lowering, units
    from saturn.incremental.cachedir import CacheDir
    from saturn.cfront.discover import SourceFile
    real = lowering.Lowering.keep

    def slow(self, *args, **kw):
        time.sleep(1.0)
        real(self, *args, **kw)
    monkeypatch.setattr(lowering.Lowering, "keep", slow)
    path = _tree(tmp_path)
    _check(tmp_path, capsys, "--checkers", "lock")
    front = units.FrontEnd(CacheDir(str(tmp_path / "s.db.units")), str(tmp_path))
    assert front.load(front.known(SourceFile(str(path), (), str(tmp_path)))) is not None


def test_the_functions_lowered_are_looked_up_first(tmp_path, capsys, monkeypatch):
    """NOTE [changed-first]: the schedule is given the functions the front end lowered in
    this run: every one at first, the edited one after an edit."""
    from saturn.interproc import schedule
    seen, real = [], schedule.run

    def run(*args, **kw):
        seen.append(sorted(args[3] if len(args) > 3 else kw.get("changed", ())))
        return real(*args, **kw)
    monkeypatch.setattr(schedule, "run", run)
    other = "int other(int x) { return x + 1; }\n"
    _tree(tmp_path, SOURCE + other)
    _check(tmp_path, capsys, "--checkers", "lock")
    _tree(tmp_path, SOURCE + other.replace("x + 1", "x + 2"))
    _check(tmp_path, capsys, "--checkers", "lock")
    assert seen == [["other", "twice"], ["other"]]
