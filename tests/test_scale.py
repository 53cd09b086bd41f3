"""Parallel runs give the same output; re-runs reuse unchanged functions; a killed run resumes."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

from test_cli import HERE, ROOT, saturn

CORPUS = [os.path.join(HERE, "c", "lock"), os.path.join(HERE, "c", "leak")]


def _json(*args, cwd=None):
    proc = saturn("check", "--format", "json", *args, cwd=cwd)
    doc = json.loads(proc.stdout)
    return doc["reports"], doc["stats"]


def test_results_do_not_depend_on_the_number_of_workers(tmp_path):
    one, _ = _json("--no-db", "--jobs", "1", *CORPUS)
    two, _ = _json("--no-db", "--jobs", "2", *CORPUS)
    three, _ = _json("--no-db", "--jobs", "3", *CORPUS)
    assert one and one == two == three


def _tree(tmp_path):
    tree = tmp_path / "t"
    tree.mkdir()
    (tree / "a.c").write_text(
        "#include <stdlib.h>\n"
        "char *mk(int n) { return malloc(n); }\n"
        "char *mk2(int n) { return mk(n + 1); }\n"
        "void use(void) { char *p = mk2(3); }\n"
        "int other(int x) { return x * 2; }\n")
    return tree


def test_rerun_reuses_and_edit_reanalyses_only_what_changed(tmp_path):
    tree = _tree(tmp_path)
    db = str(tmp_path / "s.db")
    first, s1 = _json("--db", db, "--jobs", "1", ".", cwd=str(tree))
    again, s2 = _json("--db", db, "--jobs", "1", ".", cwd=str(tree))
    assert s1["reused"] == 0 and s2["reused"] == s2["functions"] and first == again
    # Editing `other` changes no summary its callers use: everything else is reused.
    src = (tree / "a.c").read_text().replace("x * 2", "x * 3")
    (tree / "a.c").write_text(src)
    _, s3 = _json("--db", db, "--jobs", "1", ".", cwd=str(tree))
    assert s3["reused"] == s3["functions"] - 1
    # Making `mk` no allocator changes its summary: mk, mk2 and use run again.
    (tree / "a.c").write_text(src.replace("return malloc(n);", "static char b[8]; return b;"))
    leaks, s4 = _json("--db", db, "--jobs", "1", ".", cwd=str(tree))
    assert s4["reused"] == s4["functions"] - 3 and not leaks
    out = saturn("check", "--db", db, ".", cwd=str(tree)).stdout
    assert f"{s4['functions']} reused" in out


def test_moved_functions_are_reused_and_stored_at_their_new_lines(tmp_path):
    """NOTE [line-shift]: lines added above every function reuse them all; their rows, written
    together at the end of the run (ResultCache.flush), give the new lines and reports."""
    import sqlite3
    tree = _tree(tmp_path)
    db = str(tmp_path / "s.db")
    first, _ = _json("--db", db, "--jobs", "1", ".", cwd=str(tree))
    (tree / "a.c").write_text("\n\n" + (tree / "a.c").read_text())
    moved, s2 = _json("--db", db, "--jobs", "1", ".", cwd=str(tree))
    assert s2["reused"] == s2["functions"]
    assert first and [r["line"] + 2 for r in first] == [r["line"] for r in moved]
    lines = dict(sqlite3.connect(db).execute("SELECT name, line FROM functions"))
    assert lines == {"mk": 4, "mk2": 5, "use": 6, "other": 7}
    again, s3 = _json("--db", db, "--jobs", "1", ".", cwd=str(tree))
    assert s3["reused"] == s3["functions"] and again == moved
    fresh = str(tmp_path / "fresh.db")   # the rows written again are those a new run writes
    _json("--db", fresh, "--jobs", "1", ".", cwd=str(tree))

    def rows(path):
        con = sqlite3.connect(path)
        return (con.execute("SELECT function, checker, name, file, line, summary, status, "
                            "notes, reports FROM summaries ORDER BY 1, 2").fetchall(),
                [r[:6] + r[7:] for r in con.execute("SELECT * FROM functions ORDER BY 1")])
    assert rows(db) == rows(fresh)


def test_killed_run_resumes_with_the_same_output(tmp_path):
    tree = tmp_path / "big"
    shutil.copytree(os.path.join(HERE, "c", "lock"), tree / "lock")
    shutil.copytree(os.path.join(HERE, "c", "leak"), tree / "leak")
    expected, _ = _json("--no-db", "--jobs", "1", ".", cwd=str(tree))
    db = str(tmp_path / "s.db")
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.Popen([sys.executable, "-m", "saturn", "check", "--db", db, "--jobs", "1",
                             "--format", "json", "."], cwd=str(tree), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    import sqlite3

    def saved():
        try:
            con = sqlite3.connect(db)
            n = con.execute("SELECT COUNT(DISTINCT function) FROM summaries").fetchone()[0]
            con.close()
        except sqlite3.Error:
            n = 0
        return n
    while time.time() < deadline and saved() < 5:  # some functions saved, then kill -9
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL
    done = saved()
    resumed, stats = _json("--db", db, "--jobs", "1", ".", cwd=str(tree))
    # interrupted before it finished: only the functions saved by then are reused
    assert 5 <= done < stats["functions"] and stats["reused"] == done
    assert resumed == expected


def test_timeout_marks_functions_incomplete(tmp_path):
    tree = _tree(tmp_path)
    proc = saturn("check", "--no-db", "--timeout", "0.000001", ".", cwd=str(tree))
    assert "timed out (--timeout)" in proc.stdout and "incomplete" in proc.stdout
    # exit 0: every function timed out, so none has a report (the leak in `use` is not seen)
    assert proc.returncode == 0 and "0 reports" in proc.stdout and "Traceback" not in proc.stderr


def test_dask_cluster_gives_the_same_reports(tmp_path):
    """A local Dask cluster of two worker processes on loopback, driven through --scheduler."""
    from distributed import LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        remote, stats = _json("--no-db", "--scheduler", cluster.scheduler_address, *CORPUS)
    local, _ = _json("--no-db", "--jobs", "1", *CORPUS)
    assert remote == local and stats["functions"] > 50


def test_unreachable_scheduler_is_a_clean_error():
    proc = saturn("check", "--no-db", "--scheduler", "tcp://127.0.0.1:9", CORPUS[0])
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_rerun_reuses_everything_with_a_checker_that_has_no_summaries(tmp_path):
    tree = _tree(tmp_path)
    db = str(tmp_path / "s.db")
    _json("--db", db, "--checkers", "assert,lock,leak", ".", cwd=str(tree))
    _, stats = _json("--db", db, "--checkers", "assert,lock,leak", ".", cwd=str(tree))
    assert stats["reused"] == stats["functions"]


def test_rerun_reuses_mutually_recursive_functions(tmp_path):
    tree = tmp_path / "r"
    tree.mkdir()
    (tree / "r.c").write_text(
        "int odd(int n);\nint even(int n) { return n == 0 ? 1 : odd(n - 1); }\n"
        "int odd(int n) { return n == 0 ? 0 : even(n - 1); }\n"
        "int top(int n) { return even(n); }\n")
    db = str(tmp_path / "s.db")
    _json("--db", db, ".", cwd=str(tree))
    _, stats = _json("--db", db, ".", cwd=str(tree))
    assert stats["reused"] == stats["functions"] == 3


def test_editing_one_member_of_a_cycle_reruns_only_it(tmp_path):
    """NOTE [scc-steps]: members of a cycle are looked up one by one, each with the summaries
    of the members before it; an edit that keeps c_'s summary re-runs c_ alone."""
    tree = tmp_path / "cyc"
    tree.mkdir()
    src = ("int c_(int n);\n"
           "int a_(int n) { return n <= 0 ? 0 : c_(n - 1); }\n"
           "int b_(int n) { return n <= 0 ? 1 : a_(n - 1); }\n"
           "int c_(int n) { return n <= 0 ? 2 : b_(n - 1); }\n"
           "int top(int n) { return a_(n); }\n")
    (tree / "c.c").write_text(src)
    db = str(tmp_path / "s.db")
    first, _ = _json("--db", db, ".", cwd=str(tree))
    (tree / "c.c").write_text(src.replace(
        "int c_(int n) {", "int c_(int n) { volatile int v = 0; (void)v;"))
    again, stats = _json("--db", db, ".", cwd=str(tree))
    assert stats["functions"] == 4 and stats["reused"] == 3 and first == again


def test_rerun_without_the_cached_units_lowers_them_again(tmp_path):
    """A manifest (NOTE [direct-mode]) naming a unit that is gone from the store: the file is
    preprocessed and lowered again, with the same results."""
    tree = _tree(tmp_path)
    past = time.time() - 3600
    os.utime(tree / "a.c", (past, past))
    db = str(tmp_path / "s.db")
    first, _ = _json("--db", db, ".", cwd=str(tree))
    entries = [p for p in (tmp_path / "s.db.units").glob("*/*")]
    manifests = [p for p in entries if p.read_bytes().startswith(b"{")]
    assert manifests and len(manifests) < len(entries)
    for entry in entries:
        if entry not in manifests:
            entry.unlink()
    again, stats = _json("--db", db, ".", cwd=str(tree))
    assert again == first and stats["reused"] == stats["functions"] and stats["files"] == 1


def _move_first_down(tmp_path, src):
    """Check `src`, then again after `first` grew by a line (everything below it moved):
    (first output, second output, its stats, a fresh run's output, a third run)."""
    tree = tmp_path / "m"
    tree.mkdir()
    (tree / "a.c").write_text(src)
    db = str(tmp_path / "s.db")
    before, _ = _json("--db", db, ".", cwd=str(tree))
    (tree / "a.c").write_text(src.replace("  return x + 1;\n", "  x++;\n  return x;\n"))
    moved, stats = _json("--db", db, ".", cwd=str(tree))
    fresh, _ = _json("--no-db", ".", cwd=str(tree))
    return before, moved, stats, fresh, lambda: _json("--db", db, ".", cwd=str(tree))


def test_functions_that_only_moved_are_reused_with_their_new_lines(tmp_path):
    """NOTE [line-shift]: lines added above a function leave its digest alone; its reused
    reports and notes carry its new lines, as a fresh run gives them."""
    src = ("#include <stdlib.h>\nint first(int x) {\n  return x + 1;\n}\n"
           "char *mk(int n) { return malloc(n); }\n"
           "void leaky(int n) {\n  char *p = mk(n);\n  if (n > 2)\n    return;\n  free(p);\n}\n")
    before, moved, stats, fresh, again_run = _move_first_down(tmp_path, src)
    assert stats["reused"] == stats["functions"] - 1 == 2
    assert moved == fresh and [r["line"] for r in moved] == [before[0]["line"] + 1]
    again, stats = again_run()
    assert again == fresh and stats["reused"] == stats["functions"]


def test_line_valued_constants_that_moved_are_reused_unless_results_mention_them(tmp_path):
    """NOTE [line-constants]: `mk` passes __LINE__ and moved one line down: reused. So does
    `leaky`, whose leak report's `mk(8)` stands at line 8: reused, the text moved with
    the line. `at`'s summary names its constant (the index it returns a pointer to): analysed
    again. The output is a fresh run's either way."""
    src = ("#include <stdlib.h>\nint first(int x) {\n  return x + 1;\n}\nint log_at(int);\n"
           "char *mk(int n) { log_at(__LINE__); return malloc(n); }\n"
           "void leaky(int n) {\n  char *p = mk(__LINE__);\n  if (n > 2)\n    return;\n"
           "  free(p);\n}\nstruct s { int a[99]; };\n"
           "int *at(struct s *t) { return &t->a[__LINE__]; }\n")
    before, moved, stats, fresh, _ = _move_first_down(tmp_path, src)
    assert [r["message"] for r in before] == ["memory allocated by 'mk(8)' may be leaked"]
    assert moved == fresh and [r["line"] for r in moved] == [before[0]["line"] + 1]
    assert [r["message"] for r in moved] == ["memory allocated by 'mk(9)' may be leaked"]
    assert stats["functions"] == 4 and stats["reused"] == 2


def _imports(db, tree):
    """The modules a `saturn check` run imports (python -X importtime), and its output."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "saturn", "check", "--db", db,
                           "--jobs", "1", "."], capture_output=True, text=True, cwd=str(tree),
                          env=dict(os.environ, PYTHONPATH=ROOT), timeout=300)
    return {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines()
            if line.startswith("import time:")}, proc.stdout


def test_a_run_never_imports_networkx(tmp_path):
    """NOTE [startup] in saturn/ir/graphs.py: a run never imports networkx."""
    tree = _tree(tmp_path)
    db = str(tmp_path / "s.db")
    _json("--db", db, "--jobs", "1", ".", cwd=str(tree))
    (tree / "a.c").write_text((tree / "a.c").read_text().replace("x * 2", "x * 3"))
    imported, out = _imports(db, tree)
    assert "saturn.app.cli" in imported and "3 reused" in out, out
    # (bdd.py lets dd try networkx with the module hidden: that attempt is listed, no submodule)
    assert not [m for m in imported if m.startswith("networkx.")]
