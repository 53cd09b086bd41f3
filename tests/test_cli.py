"""The command line end to end, in a subprocess."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def saturn(*args, cwd=None):
    """Run the CLI; `check` without --db/--no-db writes to a throwaway database."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    if args and args[0] == "check" and "--db" not in args and "--no-db" not in args:
        args = args + ("--db", os.path.join(tempfile.mkdtemp(prefix="saturn-db-"), "s.db"))
    return subprocess.run([sys.executable, "-m", "saturn", *args], capture_output=True, text=True,
                          cwd=cwd or ROOT, env=env, timeout=300)


def test_example_reports_and_exit_status():
    proc = saturn("check", "--checkers", "assert", "--no-db", "examples/demo")
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("examples/demo/checks.c:12:") and "[assert.violation]" in lines[0]
    assert any("note: id = 2147483647" in ln for ln in lines)
    assert lines[-1].startswith("saturn: 1 report, 3 files, 0 skipped, 9 functions")


def test_json_output_and_determinism():
    first = saturn("check", "--checkers", "assert", "--format", "json", "tests/c/assert")
    second = saturn("check", "--checkers", "assert", "--format", "json", "tests/c/assert")
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    assert a["version"] == 1 and a["reports"]
    r = a["reports"][0]
    assert set(r) >= {"checker", "kind", "function", "file", "line", "column", "message",
                      "fingerprint", "trace"}
    assert a["reports"] == b["reports"]
    assert {"files", "skipped_files", "functions", "incomplete", "reused", "seconds"} <= set(a["stats"])


def _leak_notes(tmp_path, name: str, source: str):
    """(the run, its note lines) of the leak checker on one file."""
    (tmp_path / name).write_text(source)
    proc = saturn("check", "--checkers", "leak", "--no-db", name, cwd=str(tmp_path))
    return proc, [ln.strip() for ln in proc.stdout.splitlines() if ": note: " in ln]


def test_a_reports_notes_keep_only_what_the_bug_depends_on(tmp_path):
    """NOTE [witness-slice]: the option loop before the allocation, and the value it reads,
    are no part of the leak; the test that loses the block is."""
    proc, notes = _leak_notes(
        tmp_path, "w.c",
        "#include <stdlib.h>\nint opt(int i);\nint parse(int argc, int verbose) {\n"
        "  int flags = 0;\n  for (int i = 0; i < argc; i++)\n    if (opt(i) == 'v') flags++;\n"
        "  if (verbose > 3) flags++;\n  char *buf = malloc(16);\n  if (buf == NULL)\n"
        "    return -1;\n  if (opt(flags) < 0)\n    return -2;\n  free(buf);\n  return flags;\n}\n")
    assert notes == ["w.c:8: note: memory allocated by 'malloc(16)'",
                     "w.c:9: note: 'buf == ((void *) 0)' is false",
                     "w.c:11: note: 'opt(flags) < 0' is true",
                     "w.c:12: note: 'parse' returns here and the block is lost"], proc.stdout


def test_a_witness_gives_an_enum_input_one_of_its_enumerators(tmp_path):
    """NOTE [enum-witnesses]: the path needs a type none of the branches handles; the witness
    names one (`enum kind k` declared apart from its definition too), not some other int."""
    proc, notes = _leak_notes(
        tmp_path, "e.c",
        "#include <stdlib.h>\nenum kind { K_UDP, K_TCP, K_SSL = 5, K_HTTP };\n"
        "typedef enum kind kind_t;\nint *mk(kind_t k) {\n  int *c = malloc(4);\n"
        "  if (!c) return NULL;\n  if (k == K_TCP || k == K_SSL || k == K_HTTP) return c;\n"
        "  return NULL;\n}\n")
    assert "e.c:4: note: k = K_UDP" in notes, proc.stdout


def test_no_reports_exit_zero(tmp_path):
    (tmp_path / "ok.c").write_text("int f(int x) { return x; }\n")
    proc = saturn("check", "--checkers", "assert", str(tmp_path))
    assert proc.returncode == 0 and "0 reports" in proc.stdout


def test_bad_file_is_skipped_and_run_goes_on(tmp_path):
    (tmp_path / "bad.c").write_text("int f(void) { return 1 +; }\n")
    (tmp_path / "good.c").write_text("void reach_error(void);\nvoid g(void) { reach_error(); }\n")
    proc = saturn("check", "--checkers", "assert", str(tmp_path), cwd=str(tmp_path))
    assert "bad.c:1:" in proc.stderr and "error:" in proc.stderr and "Traceback" not in proc.stderr
    assert "1 skipped" in proc.stdout and "good.c:2:" in proc.stdout
    # a run that skipped a file is no clean run, reports or not, --exit-zero or not
    assert proc.returncode == 3
    assert proc.stderr.splitlines()[-1] == \
        "saturn: error: 1 of 2 files skipped, not analysed (each error above): bad.c; exit status 3"
    # the construct, under the error, as compilers show it
    assert "    int f(void) { return 1 +; }\n                            ^" in proc.stderr
    quiet = saturn("check", "--checkers", "assert", "--exit-zero", str(tmp_path), cwd=str(tmp_path))
    assert quiet.returncode == 3


def test_all_files_skipped_exit_two(tmp_path):
    (tmp_path / "bad.c").write_text("int f(void) { return 1 +; }\n")
    proc = saturn("check", "--checkers", "assert", str(tmp_path))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[-1].startswith("saturn: error: 1 of 1 files skipped")


def test_skipped_files_in_json_name_the_unit_the_place_and_the_source(tmp_path):
    (tmp_path / "inc.h").write_text("static int broken(void) { return 1 +; }\n")
    (tmp_path / "a.c").write_text('#include "inc.h"\nint a(void) { return broken(); }\n')
    (tmp_path / "b.c").write_text("int b(void) { return 0; }\n")
    proc = saturn("check", "--no-db", "--format", "json", "a.c", "b.c", cwd=str(tmp_path))
    assert proc.returncode == 3
    skipped = json.loads(proc.stdout)["stats"]["skipped"]
    assert skipped == [{"file": "inc.h", "unit": "a.c", "line": 1, "column": 37,
                        "message": "expected an expression before ';'",
                        "source": "static int broken(void) { return 1 +; }"}]


def test_incomplete_functions_are_named_with_why_in_every_format(tmp_path):
    (tmp_path / "n.c").write_text("int outer(int x) {\n  int inner(int y) { return x + y; }\n"
                                  "  return inner(2);\n}\nint fine(int z) { return z; }\n")
    text = saturn("check", "--no-db", "n.c", cwd=str(tmp_path))
    assert text.returncode == 0
    assert text.stdout.splitlines()[-2] == \
        "n.c:1:1: note: 'outer' is incomplete: nested function 'inner' (GNU C) is not modelled"
    assert ", 2 functions, 1 incomplete" in text.stdout.splitlines()[-1]
    doc = json.loads(saturn("check", "--no-db", "--format", "json", "n.c", cwd=str(tmp_path)).stdout)
    assert doc["stats"]["incomplete_functions"] == [
        {"function": "outer", "file": "n.c", "line": 1, "cause": "unsupported",
         "reason": "nested function 'inner' (GNU C) is not modelled"}]
    sarif = json.loads(saturn("check", "--no-db", "--format", "sarif", "n.c",
                              cwd=str(tmp_path)).stdout)
    [note] = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert note["level"] == "warning" and note["descriptor"]["id"] == "incomplete.unsupported"
    assert note["message"]["text"].startswith("'outer' is incomplete: nested function")


def test_several_programs_in_one_database_each_link_their_own(tmp_path):
    """A compile database of two programs: both mains and both helpers are analysed, and each
    main's call reaches its own program's helper, as the linker would make it."""
    for prog, body in (("one", "free(p);"), ("two", "(void)p;")):
        (tmp_path / prog).mkdir()
        (tmp_path / prog / "main.c").write_text(
            "#include <stdlib.h>\nvoid helper(char *p);\nint run(void) {\n"
            "  char *p = malloc(8);\n  helper(p);\n  return 0;\n}\n"
            "int main(void) { return run(); }\n")
        (tmp_path / prog / "helper.c").write_text(
            f"#include <stdlib.h>\nvoid helper(char *p) {{ {body} }}\n")
    entries = [{"directory": str(tmp_path), "file": f"{p}/{f}.c",
                "arguments": ["cc", "-O2", "-c", f"{p}/{f}.c"]}
               for p in ("one", "two") for f in ("main", "helper")]
    (tmp_path / "compile_commands.json").write_text(json.dumps(entries))
    proc = saturn("check", "--no-db", "--format", "json", "-p", "compile_commands.json",
                  cwd=str(tmp_path))
    doc = json.loads(proc.stdout)
    assert doc["stats"]["functions"] == 6 and "ignored" not in proc.stderr
    assert [(r["file"], r["line"], r["kind"]) for r in doc["reports"]] == \
        [("two/main.c", 4, "memory.leak")]


def test_usage_errors_exit_two(tmp_path):
    assert saturn("check", "--checkers", "nosuch", "examples/demo").returncode == 2
    assert saturn("check").returncode == 2
    assert saturn("check", "--unroll", "0", "examples/demo").returncode == 2
    bad_db = tmp_path / "cc.json"
    bad_db.write_text("{not json")
    proc = saturn("check", "-p", str(bad_db))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_help_documents_every_flag():
    out = saturn("check", "--help").stdout
    for flag in ("--compile-commands", "-I", "-D", "-U", "--std", "--exclude", "--checkers",
                 "--unroll", "--format", "--output", "--root"):
        assert flag in out


def test_preprocessor_flags_reach_the_compiler(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "cfg.h").write_text("#define LIMIT 5\n")
    (tmp_path / "d.c").write_text(
        "#include \"cfg.h\"\nvoid reach_error(void);\n"
        "void f(int x) {\n#ifdef FAIL\n if (x == LIMIT) reach_error();\n#endif\n}\n")
    proc = saturn("check", "--checkers", "assert", "-I", str(tmp_path / "inc"), "-D", "FAIL",
                  str(tmp_path / "d.c"))
    assert proc.returncode == 1 and ":5:" in proc.stdout
    proc = saturn("check", "--checkers", "assert", "-I", str(tmp_path / "inc"), "-D", "FAIL",
                  "-U", "FAIL", str(tmp_path / "d.c"))
    assert proc.returncode == 0


def test_lock_check_writes_database_and_summary_reads_it(tmp_path):
    db = str(tmp_path / "s.db")
    proc = saturn("check", "--checkers", "lock", "--db", db, "tests/c/lock/paper.c")
    assert proc.returncode == 1 and "[lock.double-lock]" in proc.stdout
    out = saturn("summary", "my_trylock", "--db", db)
    assert out.returncode == 0
    assert "lock *param0: [unlocked -> locked if ret != 0] [unlocked -> unlocked if ret == 0] " \
           "[locked -> error (acquire)]" in out.stdout
    assert saturn("summary", "no_such_function", "--db", db).returncode == 2


def test_corrupt_database_is_an_error_not_a_traceback(tmp_path):
    bad = tmp_path / "bad.db"
    bad.write_text("this is not sqlite")
    for args in (["summary", "f", "--db", str(bad)],
                 ["check", "--checkers", "lock", "--db", str(bad), "examples/demo"]):
        proc = saturn(*args)
        assert proc.returncode == 2 and "not a Saturn database" in proc.stderr
        assert "Traceback" not in proc.stderr


def test_user_lock_specs_from_config(tmp_path):
    (tmp_path / "saturn.toml").write_text(
        '[[lock]]\nfunction = "grab"\narg = 0\nop = "acquire"\n'
        '[[lock]]\nfunction = "drop"\narg = 0\nop = "release"\n')
    (tmp_path / "u.c").write_text(
        "struct l { int x; };\nvoid grab(struct l *);\nvoid drop(struct l *);\n"
        "void f(struct l *a) {\n  grab(a);\n  grab(a);\n}\n")
    proc = saturn("check", "--checkers", "lock", "--no-db", "u.c", cwd=str(tmp_path))
    assert proc.returncode == 1 and "u.c:6:" in proc.stdout and "lock.double-lock" in proc.stdout
    (tmp_path / "saturn.toml").write_text('[[lock]]\nop = "acquire"\n')
    proc = saturn("check", "--checkers", "lock", "--no-db", "u.c", cwd=str(tmp_path))
    assert proc.returncode == 2 and "needs a 'function'" in proc.stderr


def test_user_alloc_specs_from_config(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.saturn]\nalloc = ["pool_get"]\nfree = ["pool_put"]\n')
    (tmp_path / "p.c").write_text(
        "void *pool_get(int n);\nvoid pool_put(void *p);\n"
        "void ok(void) { void *a = pool_get(3); pool_put(a); }\n"
        "void bad(void) {\n  void *b = pool_get(3);\n}\n")
    proc = saturn("check", "--checkers", "leak", "--no-db", "p.c", cwd=str(tmp_path))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "p.c:5:" in proc.stdout and "[memory.leak]" in proc.stdout
    assert "p.c:3:" not in proc.stdout
    (tmp_path / "pyproject.toml").write_text('[tool.saturn]\nalloc = "pool_get"\n')
    proc = saturn("check", "--checkers", "leak", "--no-db", "p.c", cwd=str(tmp_path))
    assert proc.returncode == 2 and "must be a list" in proc.stderr


def test_user_specs_in_the_library_format_reach_every_checker(tmp_path):
    """A deallocator taking the block second (`xfree(ctx, p)`), a handle pair and a lock, each
    one [[spec]] entry, as the library's own specs are written."""
    (tmp_path / "saturn.toml").write_text(
        '[[spec]]\nfunction = "xalloc"\nop = "alloc"\n\n'
        '[[spec]]\nfunction = "xfree"\nop = "free"\narg = 1\n\n'
        '[[spec]]\nfunction = "hopen"\nop = "open"\nwhat = "handle"\n\n'
        '[[spec]]\nfunction = "hclose"\nop = "close"\n\n'
        '[[spec]]\nfunction = "take"\nop = "acquire"\n\n'
        '[[spec]]\nfunction = "give"\nop = "release"\n')
    (tmp_path / "x.c").write_text(
        "void *xalloc(void *ctx, int n);\nvoid xfree(void *ctx, void *p);\n"
        "void *hopen(const char *n);\nvoid hclose(void *h);\n"
        "void take(int *l);\nvoid give(int *l);\n"
        "void ok(void *c) { void *a = xalloc(c, 3); xfree(c, a); }\n"
        "void bad(void *c) {\n  void *b = xalloc(c, 3);\n  xfree(b, c);\n}\n"
        "void leaky(void) {\n  void *h = hopen(\"x\");\n}\n"
        "void twice(int *l) {\n  take(l);\n  take(l);\n  give(l);\n}\n")
    proc = saturn("check", "--checkers", "leak,resource,lock", "--no-db", "x.c",
                  cwd=str(tmp_path))
    found = sorted(ln.split(": warning")[0] + " " + ln.rsplit("[", 1)[1]
                   for ln in proc.stdout.splitlines() if ": warning:" in ln)
    assert found == ["x.c:13:13 resource.leak]", "x.c:17:3 lock.double-lock]",
                     "x.c:9:13 memory.leak]"], proc.stdout + proc.stderr


def test_the_saturn_command_is_the_module_entry_point(tmp_path):
    """`saturn` (pyproject's script) runs `saturn.__main__:run`, as `python -m saturn` does: its
    exit status is main's, and it ends without tearing the program down."""
    import tomllib
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        assert tomllib.load(fh)["project"]["scripts"]["saturn"] == "saturn.__main__:run"
    (tmp_path / "t.c").write_text("int f(int x) { return x; }\n")
    said = {}
    for args, status in ((["t.c"], 0), (["--jobs", "0", "t.c"], 2)):
        code = (f"import sys; sys.argv = ['saturn', 'check', '--no-db', *{args!r}]\n"
                "import atexit; atexit.register(print, 'torn down')\n"
                "from saturn.__main__ import run; run()")
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              cwd=str(tmp_path), env=dict(os.environ, PYTHONPATH=ROOT),
                              timeout=300)
        assert proc.returncode == status, proc.stdout + proc.stderr
        assert "torn down" not in proc.stdout
        said[status] = proc.stdout + proc.stderr
    assert "1 functions" in said[0] and "--jobs must be at least 1" in said[2]


def test_whole_program_keeps_never_written_globals(tmp_path):
    """NOTE [whole-program]: `int global_true = 1;` that no function writes stays 1 only when the
    files checked are the whole program (the default); a static stays so whatever the switch."""
    (tmp_path / "flags.c").write_text(
        "#include <stdlib.h>\n"
        "int global_true = 1;\n"
        "static int static_true = 1;\n"
        "void by_global(void) {\n"
        "    char *p = malloc(10);\n"
        "    if (!global_true) return;\n"
        "    free(p);\n"
        "}\n"
        "void by_static(void) {\n"
        "    char *p = malloc(10);\n"
        "    if (!static_true) return;\n"
        "    free(p);\n"
        "}\n")

    def leaks(*flags):
        proc = saturn("check", "--checkers", "leak", "--format", "json", "--no-db", *flags,
                      "flags.c", cwd=str(tmp_path))
        assert proc.returncode == (1 if flags == ("--no-whole-program",) else 0), proc.stderr
        return sorted(r["function"] for r in json.loads(proc.stdout)["reports"])
    assert leaks("--no-whole-program") == ["by_global"]
    assert leaks("--whole-program") == []
    assert leaks() == []   # the default


def test_paths_beside_a_compile_database_select_its_entries(tmp_path):
    """`saturn check -p cc.json src/x.c` checks x.c with its own command's flags, not the
    whole database, and not x.c a second time without them."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "conf.h").write_text("#define SIZE 8\n")
    for name in ("a", "b"):
        (tmp_path / f"{name}.c").write_text(
            "#include <stdlib.h>\n#include \"conf.h\"\n"
            f"void {name}(void) {{\n  char *p = malloc(SIZE);\n  (void)p;\n}}\n")
    entries = [{"directory": str(tmp_path), "file": f"{n}.c",
                "arguments": ["cc", "-Iinc", "-c", f"{n}.c"]} for n in ("a", "b")]
    (tmp_path / "cc.json").write_text(json.dumps(entries))
    proc = saturn("check", "--no-db", "--format", "json", "-p", "cc.json", "a.c",
                  cwd=str(tmp_path))
    doc = json.loads(proc.stdout)
    assert proc.returncode == 1, proc.stderr
    assert [(r["file"], r["kind"]) for r in doc["reports"]] == [("a.c", "memory.leak")]
    assert doc["stats"]["functions"] == 1 and not doc["stats"].get("skipped")


def test_a_use_saturn_only_assumed_says_so(tmp_path):
    """A freed block handed to a function with no body here, to a call through a pointer
    Saturn cannot follow, or to a call back into a cycle (no summary yet) is a use Saturn
    assumes; the report says what it rests on. One the C library is known to read is not an
    assumption."""
    (tmp_path / "u.c").write_text(
        "#include <stdlib.h>\n#include <string.h>\nvoid mystery(char *p);\n"
        "void a(char *p) { free(p); mystery(p); }\n"
        "void b(char *p, char *q) { free(p); strcpy(q, p); }\n"
        "struct ops { void (*cb)(char *); };\n"
        "void through(struct ops *o, char *p) { free(p); o->cb(p); }\n"
        "void rec(char *p, int n);\n"
        "void back(char *p, int n) { free(p); rec(p, n); }\n"
        "void rec(char *p, int n) { if (n) back(p, n - 1); }\n")
    proc = saturn("check", "--no-db", "--checkers", "free", "--format", "json", "u.c",
                  cwd=str(tmp_path))
    messages = {r["line"]: r["message"] for r in json.loads(proc.stdout)["reports"]}
    assert messages[4].endswith("(no body of 'mystery' here: taken to read what it is given)")
    assert messages[5] == "'strcpy(q, p)' may be given memory that was freed"
    assert "(a call through a pointer to no known function: taken to read" in messages[7]
    assert "('rec' has no summary, being in a cycle with this function or incomplete:" \
        in messages[9]


def test_paths_beside_a_database_match_through_links_and_relative_directories(tmp_path):
    """The entries a path selects are found whether the database names the tree through a
    symbolic link, names its directory relative to itself, or the path ends in a slash; a path
    no entry is under is checked with the command line's flags, and a note says so."""
    real = tmp_path / "real"
    (real / "src" / "inc").mkdir(parents=True)
    (real / "src" / "inc" / "conf.h").write_text("#define SIZE 8\n")
    (real / "src" / "a.c").write_text(
        "#include <stdlib.h>\n#include \"conf.h\"\n"
        "void a(void) {\n  char *p = malloc(SIZE);\n  (void)p;\n}\n")
    (real / "extra.c").write_text("#include <stdlib.h>\nvoid e(void) { (void)malloc(4); }\n")
    (tmp_path / "link").symlink_to(real)
    entries = [{"directory": ".", "file": "src/a.c", "arguments": ["cc", "-Isrc/inc", "-c",
                                                                   "src/a.c"]}]
    (real / "cc.json").write_text(json.dumps(entries))
    for given in ("src/a.c", "src/", "src"):
        proc = saturn("check", "--no-db", "--format", "json", "-p", "cc.json", given,
                      cwd=str(tmp_path / "link"))
        doc = json.loads(proc.stdout)
        assert [r["file"] for r in doc["reports"]] == ["src/a.c"], (given, proc.stderr)
    proc = saturn("check", "--no-db", "--format", "json", "-p", "cc.json", "src", "extra.c",
                  cwd=str(real))
    assert sorted(r["file"] for r in json.loads(proc.stdout)["reports"]) == ["extra.c", "src/a.c"]
    assert "extra.c: note: not in the compile database" in proc.stderr
