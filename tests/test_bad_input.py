"""Bad input on the command line: a one-line error and exit 2, given before any analysis runs
(so nothing is lost to it), or a warning and a run that says what it left out."""
import ctypes
import json
import os
import sqlite3
import subprocess
import sys

import pytest

from test_cli import ROOT, saturn

LOCKS = """#include <pthread.h>
pthread_mutex_t m;
void twice(void) { pthread_mutex_lock(&m); pthread_mutex_lock(&m); }
int plain(int x) { return x + 1; }
"""


def _tree(tmp_path):
    (tmp_path / "t.c").write_text(LOCKS)
    return str(tmp_path)


def _errors(proc):
    assert "Traceback" not in proc.stderr
    return [ln for ln in proc.stderr.splitlines() if "error" in ln]


def _refused(proc, message):
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert _errors(proc) == [f"saturn: error: {message}"]
    assert "reports" not in proc.stdout   # refused before the analysis


@pytest.mark.parametrize("args, message", [
    (["--timeout", "-5"], "--timeout must be a number of seconds (0: no limit), not -5"),
    (["--timeout", "nan"], "--timeout must be a number of seconds (0: no limit), not nan"),
    (["--timeout", "inf"], "--timeout must be a number of seconds (0: no limit), not inf"),
    (["--timeout", "1e7"], "--timeout must be between 0 and 1000000, not 10000000"),
    (["--unroll", "1000000"], "--unroll must be between 1 and 64, not 1000000"),
    (["--unroll", "0"], "--unroll must be between 1 and 64, not 0"),
    (["--conflict-budget", "-1"], "--conflict-budget must be between 1 and 1000000000000, "
                                  "not -1"),
    (["--conflict-budget", str(10 ** 20)], "--conflict-budget must be between 1 and "
                                           f"1000000000000, not {10 ** 20}"),
    (["--jobs", "0"], "--jobs must be at least 1"),
])
def test_numeric_options_out_of_range(tmp_path, args, message):
    _refused(saturn("check", "--no-db", *args, "t.c", cwd=_tree(tmp_path)), message)


def test_jobs_beyond_the_cpus_are_lowered_and_said(tmp_path):
    cpus = len(os.sched_getaffinity(0))
    proc = saturn("check", "--no-db", "--jobs", "100000", "t.c", cwd=_tree(tmp_path))
    assert proc.returncode == 1 and "[lock.double-lock]" in proc.stdout
    assert f"saturn: note: --jobs 100000 lowered to {cpus}, the CPUs" in proc.stderr


def test_outputs_are_checked_before_the_analysis(tmp_path):
    cwd, db = _tree(tmp_path), str(tmp_path / "s.db")
    _refused(saturn("check", "--db", db, "-o", str(tmp_path), "t.c", cwd=cwd),
             f"-o {tmp_path}: is a directory")
    _refused(saturn("check", "--db", db, "--update-baseline", "/missing/dir/b.json", "t.c",
                    cwd=cwd),
             "--update-baseline /missing/dir/b.json: no such directory /missing/dir")
    assert not os.path.exists(db)   # the run never started
    _refused(saturn("check", "--db", "t.c/x.db", "t.c", cwd=cwd),
             f"t.c/x.db: cannot make its directory: {tmp_path}/t.c is a file")


def test_a_corrupt_page_loses_no_report(tmp_path):
    cwd, db = _tree(tmp_path), str(tmp_path / "s.db")
    for i in range(40):   # enough rows for pages beyond the schema's
        (tmp_path / f"f{i}.c").write_text(f"int f{i}(int x) {{ return x * {i}; }}\n")
    assert saturn("check", "--db", db, ".", cwd=cwd).returncode == 1
    with open(db, "r+b") as fh:
        pages = os.path.getsize(db) // 4096
        for page in range(2, pages):
            fh.seek(page * 4096 + 100)
            fh.write(b"\xde\xad\xbe\xef" * 200)
    # An edit, so that the run reads and writes the database rather than give its last run
    # again from the few pages that hold it (NOTE [run-memo]), which may be whole.
    (tmp_path / "f0.c").write_text("int f0(int x) { return x + 1; }\n")
    proc = saturn("check", "--db", db, ".", cwd=cwd)
    assert proc.returncode == 2 and "t.c:3:" in proc.stdout and "[lock.double-lock]" in proc.stdout
    assert _errors(proc) == [f"saturn: error: {db}: database disk image is malformed; this "
                             "run's results were not saved (remove the database to start again)"]
    proc = saturn("summary", "twice", "--db", db)
    assert proc.returncode == 2 and len(_errors(proc)) == 1


@pytest.mark.parametrize("name, text, message", [
    ("saturn.toml", '[[lock]]\nfunction = "grab"\narg = "zero"\n',
     "saturn.toml: lock entry 1 ('grab'): arg must be an argument's number (0 for the first), "
     "not 'zero'"),
    ("saturn.toml", "lock = 5\n",
     "saturn.toml: 'lock' must be an array of tables ([[lock]] entries), not 5"),
    ("pyproject.toml", "[tool]\nsaturn = 5\n", "pyproject.toml: [tool.saturn] must be a table, "
                                               "not 5"),
])
def test_configuration_of_the_wrong_type(tmp_path, name, text, message):
    (tmp_path / name).write_text(text)
    _refused(saturn("check", "--no-db", "t.c", cwd=_tree(tmp_path)), message)


def test_configuration_warnings_and_what_is_left_out(tmp_path):
    (tmp_path / "saturn.toml").write_text(
        'allocs = ["x"]\n'
        '[[lock]]\nfunction = "grab"\nop = "try"\nsuccess = "maybe"\n'
        '[[lock]]\nfunction = "grab2"\nop = "try"\nsuccess = true\n'
        '[[lock]]\nfunction = "grab3"\narg = -3\ncolour = "red"\n'
        '[[lock]]\nfunction = "take"\narg = 1\n')
    (tmp_path / "u.c").write_text("void take(int n, int *l);\n"
                                  "void f(int *a) { take(0, a); take(1, a); }\n")
    proc = saturn("check", "--no-db", "--checkers", "lock", "u.c", cwd=str(tmp_path))
    assert proc.stderr.splitlines()[:5] == [
        "saturn.toml: warning: unknown key 'allocs' ignored (known: alloc, free, lock, resource, spec)",
        "saturn.toml: warning: lock entry 1 ('grab') ignored: success = \"maybe\" is neither a "
        "return value nor \"nonzero\"",
        "saturn.toml: warning: lock entry 2 ('grab2') ignored: success = true is neither a "
        "return value nor \"nonzero\"",
        "saturn.toml: warning: lock entry 3 ('grab3'): unknown key 'colour' ignored (known: "
        "function, arg, op, success, mode)",
        "saturn.toml: warning: lock entry 3 ('grab3') ignored: arg = -3 is not an argument "
        "(0 is the first)"]
    assert proc.returncode == 1 and "u.c:2:" in proc.stdout   # the good entry still applies


def test_a_path_that_does_not_exist_is_skipped_and_named(tmp_path):
    cwd = _tree(tmp_path)
    proc = saturn("check", "--no-db", "/nonexistent/dir", "t.c", cwd=cwd)
    assert proc.returncode == 3 and "/nonexistent/dir: error: no such file or directory" \
        in proc.stderr
    assert ", 1 file, 1 skipped (not found: /nonexistent/dir), " in proc.stdout.splitlines()[-1]


def test_sarif_lists_the_skipped_files(tmp_path):
    cwd = _tree(tmp_path)
    (tmp_path / "bad.c").write_text("int a;\n\nint f(void) {\n  return 1 +;\n}\n")
    proc = saturn("check", "--no-db", "--format", "sarif", "/nonexistent/dir", "bad.c", "t.c",
                  cwd=cwd)
    notes = json.loads(proc.stdout)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [(n["level"], n["message"]["text"], n["locations"][0]["physicalLocation"])
            for n in notes] == [
        ("error", "skipped: expected an expression before ';'",
         {"artifactLocation": {"uri": "bad.c", "uriBaseId": "%SRCROOT%"},
          "region": {"startLine": 4, "startColumn": 13}}),
        ("error", "skipped: no such file or directory",
         {"artifactLocation": {"uri": "file:///nonexistent/dir"}})]


def test_syntax_errors_at_their_line_and_column_with_the_path_once(tmp_path):
    (tmp_path / "a.c").write_text("int a;\n\nint f(void) {\n  return 1 +;\n}\n")
    (tmp_path / "b.c").write_text("int h(void) { return 0; }\nint k(void) { retur 1; }\n")
    proc = saturn("check", "--no-db", "a.c", "b.c", cwd=str(tmp_path))
    assert proc.returncode == 2
    assert _errors(proc) == [f"{tmp_path}/a.c:4:13: error: expected an expression before ';'",
                             f"{tmp_path}/b.c:2:21: error: syntax error before '1'",
                             "saturn: error: 2 of 2 files skipped, not analysed (each error "
                             "above): a.c, b.c; exit status 2"]


def _without_root_rights():
    """Let a root test process meet file permissions, as any user does (no CAP_DAC_OVERRIDE,
    CAP_DAC_READ_SEARCH or CAP_FOWNER after exec)."""
    if os.geteuid() == 0:
        libc = ctypes.CDLL(None, use_errno=True)
        for cap in (1, 2, 3):
            assert libc.prctl(24, cap, 0, 0, 0) == 0   # PR_CAPBSET_DROP


def test_a_read_only_database_directory_is_said_so(tmp_path):
    cwd = _tree(tmp_path)
    (tmp_path / "ro").mkdir()
    os.chmod(tmp_path / "ro", 0o555)
    try:
        proc = subprocess.run([sys.executable, "-m", "saturn", "check", "--db", "ro/s.db", "t.c"],
                              capture_output=True, text=True, cwd=cwd, timeout=300,
                              env=dict(os.environ, PYTHONPATH=ROOT),
                              preexec_fn=_without_root_rights)
    finally:
        os.chmod(tmp_path / "ro", 0o755)
    _refused(proc, "ro/s.db: cannot write the database: its directory is read-only (give "
                   "another --db, or --no-db)")


def test_an_unrelated_sqlite_file_is_refused_untouched(tmp_path):
    cwd, db = _tree(tmp_path), str(tmp_path / "other.db")
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE people (name TEXT)")
    before = open(db, "rb").read()
    _refused(saturn("check", "--db", db, "t.c", cwd=cwd),
             f"{db}: not a Saturn database (it holds other tables: people); give another --db")
    assert open(db, "rb").read() == before


def test_baselines_of_another_version_or_root(tmp_path):
    cwd = _tree(tmp_path)
    (tmp_path / "b.json").write_text('{"version": 99, "reports": []}\n')
    _refused(saturn("check", "--no-db", "--baseline", "b.json", "t.c", cwd=cwd),
             "b.json: baseline version 99 is not 1, the one this Saturn reads; make it again "
             "with --update-baseline")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "t.c").write_text(LOCKS)
    assert saturn("check", "--no-db", "--update-baseline", "b.json", "sub/t.c",
                  cwd=cwd).returncode == 1
    known = saturn("check", "--no-db", "--baseline", "b.json", "sub/t.c", cwd=cwd)
    assert known.returncode == 0 and "another --root" not in known.stderr
    moved = saturn("check", "--no-db", "--baseline", "b.json", "--root", "sub", "sub/t.c",
                   cwd=cwd)
    assert moved.returncode == 1
    assert "saturn: note: every report is new and none is in a file the baseline names (such " \
           "as sub/t.c): was it made with another --root?" in moved.stderr
