"""Inputs as users have them: preprocessed files, generated files with #line, odd file names
(NOTE [own-files] in saturn/cfront/markers.py), and a front end that overruns its deadline."""
import json
import os
import subprocess
import threading
import time

import pytest

from test_cli import saturn

LEAKY = ("#include <stdlib.h>\n"
         "int keep(char *p);\n"
         "int leaky(int n) {\n"
         "  char *p = malloc(n);\n"
         "  if (n > 3)\n"
         "    return 0;\n"
         "  return keep(p);\n"
         "}\n")


def _json(*args, cwd):
    proc = saturn("check", "--no-db", "--checkers", "leak", "--format", "json", *args, cwd=cwd)
    doc = json.loads(proc.stdout or "{}")
    return proc, doc.get("reports", []), doc.get("stats", {})


def _places(reports):
    return [(r["file"], r["line"], r["kind"]) for r in reports]


def test_gcc_e_output_under_any_name_is_analysed_at_its_original_lines(tmp_path):
    """As the cstdl benchmark ships them: `gcc -E` run in the source tree (relative names),
    saved as a .c elsewhere; and the same as a .i."""
    src = tmp_path / "tree" / "drivers"
    src.mkdir(parents=True)
    (src / "x.c").write_text(LEAKY)
    text = subprocess.run(["gcc", "-E", "drivers/x.c"], cwd=tmp_path / "tree",
                          capture_output=True, check=True).stdout
    out = tmp_path / "cpped"
    out.mkdir()
    (out / "1173ff0.c").write_bytes(text)
    (out / "copy.i").write_bytes(text)
    for name in ("1173ff0.c", "copy.i"):
        proc, reports, stats = _json(name, cwd=out)
        # relative names are relative to the directory the compiler ran in: the file's own
        assert stats["functions"] == 1 and _places(reports) == \
            [("drivers/x.c", 4, "memory.leak")], proc.stderr


def test_a_generated_file_naming_itself_with_line_keeps_its_functions(tmp_path):
    """bison and flex write `#line N "gen.c"` naming the output itself (or the grammar)."""
    gen = LEAKY.replace("int leaky", '#line 40 "gen.c"\nint leaky')
    (tmp_path / "gen.c").write_text(gen)
    proc, reports, stats = _json("gen.c", cwd=tmp_path)
    assert stats["functions"] == 1 and _places(reports) == [("gen.c", 41, "memory.leak")]
    (tmp_path / "parser.c").write_text(gen.replace('"gen.c"', '"parse.y"'))
    proc, reports, stats = _json("parser.c", cwd=tmp_path)
    assert stats["functions"] == 1 and _places(reports) == [("parse.y", 41, "memory.leak")]


@pytest.mark.parametrize("name", ['we"ird.c', "back\\slash.c", "caf\u00e9.c",
                                  os.fsdecode(b"lat\xe9n.c")])
def test_file_names_with_quotes_backslashes_and_non_ascii_keep_their_functions(tmp_path, name):
    (tmp_path / name).write_text(LEAKY)
    proc, reports, stats = _json(name, cwd=tmp_path)
    assert stats.get("functions") == 1 and len(reports) == 1, proc.stderr
    # (a byte that is not UTF-8 is shown as \xNN)
    assert reports[0]["file"] == name.encode("utf-8", "surrogateescape").decode(
        "utf-8", "backslashreplace")


def test_a_directory_with_x_c_and_x_i_checks_x_c(tmp_path):
    (tmp_path / "x.c").write_text(LEAKY)
    (tmp_path / "x.i").write_bytes(subprocess.run(["gcc", "-E", "x.c"], cwd=tmp_path,
                                                  capture_output=True, check=True).stdout)
    (tmp_path / "y.i").write_bytes((tmp_path / "x.i").read_bytes().replace(b"leaky", b"leak2"))
    proc, reports, stats = _json(".", cwd=tmp_path)
    assert stats["files"] == 2 and stats["functions"] == 2
    assert "x.i: note: skipped, x.c beside it is checked" in proc.stderr


def test_a_preprocessed_file_from_compile_commands(tmp_path):
    (tmp_path / "x.c").write_text(LEAKY)
    (tmp_path / "x.i").write_bytes(subprocess.run(["gcc", "-E", "x.c"], cwd=tmp_path,
                                                  capture_output=True, check=True).stdout)
    (tmp_path / "cc.json").write_text(json.dumps(
        [{"directory": str(tmp_path), "file": "x.i", "arguments": ["gcc", "-c", "x.i"]}]))
    proc, reports, stats = _json("-p", "cc.json", cwd=tmp_path)
    assert stats["functions"] == 1 and _places(reports) == [("x.c", 4, "memory.leak")]


def test_a_file_whose_functions_are_all_included_says_none_is_analysed(tmp_path):
    """No silent zero: a unity build's `#include "impl.c"`."""
    (tmp_path / "impl.c").write_text(LEAKY)
    (tmp_path / "all.c").write_text('#include "impl.c"\n')
    proc, reports, stats = _json("all.c", cwd=tmp_path)
    assert stats["functions"] == 0
    assert "all.c:1:1: warning: no function is analysed" in proc.stderr and "impl.c" in \
        proc.stderr


def test_a_file_over_the_front_end_deadline_is_skipped_with_an_error(tmp_path):
    (tmp_path / "a.c").write_text(LEAKY)
    proc = saturn("check", "--no-db", "--front-end-timeout", "0", "a.c", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "a.c:1:1: error: " in proc.stderr and "--front-end-timeout" in proc.stderr
    assert "1 skipped" in proc.stdout


def test_the_front_end_deadline_stops_the_work_and_the_run_goes_on(tmp_path, monkeypatch):
    """NOTE [front-end-deadline]: lowering stuck in Python is stopped, its thread ends, the file
    is skipped with an error, and the next file is lowered."""
    from saturn.cfront.discover import SourceFile
    from saturn.cfront.preprocess import FrontEndError
    from saturn.incremental import lowering, units
    (tmp_path / "slow.c").write_text(LEAKY)
    (tmp_path / "fine.c").write_text(LEAKY)
    real, spinning = lowering.Lowering.unit, threading.Event()

    def stuck(self):
        if self.src.path.endswith("slow.c"):
            spinning.set()
            while True:   # pure Python: stopped at the deadline
                pass
        return real(self)
    monkeypatch.setattr(lowering.Lowering, "unit", stuck)
    front = units.FrontEnd(None, str(tmp_path), deadline=1.0)
    with pytest.raises(FrontEndError, match=r"slow.c:1:1: error: .*--front-end-timeout"):
        front.unit(SourceFile(str(tmp_path / "slow.c"), (), str(tmp_path)))
    assert spinning.is_set() and not [t for t in threading.enumerate()
                                      if t.name == "saturn-front-end"]
    assert list(front.unit(SourceFile(str(tmp_path / "fine.c"), (), str(tmp_path))).functions)


def _compiling(tmp_path, monkeypatch, script: str):
    """The compiler started on a.c, the compiler being a shell `script` (SATURN_CC)."""
    from saturn.cfront.discover import SourceFile
    from saturn.cfront.preprocess import Preprocessing
    cc = tmp_path / "fake-cc"
    cc.write_text("#!/bin/sh\n" + script)
    cc.chmod(0o755)
    monkeypatch.setenv("SATURN_CC", str(cc))
    (tmp_path / "a.c").write_text(LEAKY)
    return Preprocessing(SourceFile(str(tmp_path / "a.c"), (), str(tmp_path)))


def test_a_compiler_that_hangs_is_stopped_at_the_deadline(tmp_path, monkeypatch):
    """The preprocessor runs beside other work and is waited for without polling; at the
    deadline it is killed and the file gets an error."""
    from saturn.cfront.preprocess import FrontEndError
    running = _compiling(tmp_path, monkeypatch, "exec sleep 60\n")
    start = time.monotonic()
    with pytest.raises(FrontEndError, match=r"a.c:1:1: error: preprocessing took over 1s"):
        running.text(1.0)
    assert time.monotonic() - start < 10 and running.proc.returncode is not None


def test_a_compiler_that_cannot_start_leaves_no_file_open(tmp_path):
    from saturn.cfront.discover import SourceFile
    from saturn.cfront.preprocess import FrontEndError, Preprocessing
    (tmp_path / "a.c").write_text(LEAKY)
    running = Preprocessing(SourceFile(str(tmp_path / "a.c"), (), str(tmp_path / "gone")))
    with pytest.raises(FrontEndError, match=r"a.c:1:1: error: cannot run the preprocessor"):
        running.text(10.0)
    assert running.out.closed and running.err.closed


def test_the_deadline_stops_what_the_compiler_started_too(tmp_path, monkeypatch):
    """The compiler's own children (gcc's cc1) end with it at the deadline."""
    from saturn.cfront.preprocess import FrontEndError
    running = _compiling(tmp_path, monkeypatch, f"sleep 60 &\necho $! > {tmp_path}/child\nwait\n")
    with pytest.raises(FrontEndError, match="took over"):
        running.text(1.0)
    child = int((tmp_path / "child").read_text())
    for _ in range(50):
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the compiler's child outlived the deadline")


def test_time_before_the_unit_is_asked_for_does_not_count(tmp_path):
    """The compiler started early (while other units load) has the whole deadline from the
    moment its unit is asked for."""
    from saturn.cfront.discover import SourceFile
    from saturn.incremental import units
    (tmp_path / "a.c").write_text(LEAKY)
    src = SourceFile(str(tmp_path / "a.c"), (), str(tmp_path))
    front = units.FrontEnd(None, str(tmp_path), deadline=1.0)
    front.start(src)
    time.sleep(1.5)
    assert front.unit(src).functions


def test_a_compiler_started_for_other_flags_is_not_used(tmp_path):
    """Two entries for one path (a compile database and the command line): each is lowered
    from its own compiler's output."""
    from saturn.cfront.discover import SourceFile
    from saturn.incremental import units
    (tmp_path / "a.c").write_text("#ifdef B\nint b(void) { return 1; }\n#else\n"
                                  "int a(void) { return 0; }\n#endif\n")
    plain = SourceFile(str(tmp_path / "a.c"), (), str(tmp_path))
    front = units.FrontEnd(None, str(tmp_path))
    front.start(plain)
    unit = front.unit(SourceFile(str(tmp_path / "a.c"), ("-DB",), str(tmp_path)))
    assert [fn.name for fn in unit.functions.values()] == ["b"] and not front.started


def test_an_interrupted_wait_stops_the_compiler(tmp_path, monkeypatch):
    """The compiler runs in a session of its own (so that a deadline stops cc1 too), where
    Ctrl-C does not reach it: an interrupted wait stops it."""
    running = _compiling(tmp_path, monkeypatch, "exec sleep 60\n")

    def interrupted(left):
        raise KeyboardInterrupt
    monkeypatch.setattr(running, "_wait", interrupted)
    with pytest.raises(KeyboardInterrupt):
        running.text(60.0)
    assert running.proc.returncode is not None and running.out.closed


def test_a_flag_the_compiler_cannot_take_is_an_error(tmp_path):
    from saturn.cfront.discover import SourceFile
    from saturn.cfront.preprocess import FrontEndError, Preprocessing
    (tmp_path / "a.c").write_text(LEAKY)
    running = Preprocessing(SourceFile(str(tmp_path / "a.c"), ("-DX\0Y",), str(tmp_path)))
    with pytest.raises(FrontEndError, match="cannot run the preprocessor"):
        running.text(10.0)
    assert running.out.closed
