"""NOTE [direct-mode]: a file whose preprocessing inputs are unchanged is not preprocessed again;
a changed header, a changed flag or a file younger than the run sends it to the compiler."""
import os
import time

from saturn.cfront import pipeline
from saturn.cfront.discover import SourceFile
from saturn.cfront.unitcache import UnitCache

PAST = time.time() - 3600
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _tree(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "h.h").write_text("#define N 1\n")
    (tmp_path / "a.c").write_text('#include "h.h"\nint f(void) { return N; }\n')
    for p in (tmp_path / "inc" / "h.h", tmp_path / "a.c"):
        os.utime(p, (PAST, PAST))
    return SourceFile(str(tmp_path / "a.c"), ("-Iinc",), str(tmp_path))


def _front(src, tmp_path, jobs=1):
    cache = UnitCache(str(tmp_path / "units"), str(tmp_path))
    srcs = [src] * jobs   # two copies make the pool path run
    return list(pipeline.preprocessed(srcs, None, jobs, cache, str(tmp_path)))[0][1:]


def _no_compiler(monkeypatch):
    def refuse(*args, **kw):
        raise AssertionError("preprocessed again")
    monkeypatch.setattr(pipeline, "Preprocessing", refuse)


def test_unchanged_inputs_skip_the_compiler(tmp_path, monkeypatch):
    src = _tree(tmp_path)
    text, key, error = _front(src, tmp_path)
    assert error is None and key is None and "return 1;" in text
    want = UnitCache(str(tmp_path / "units"), str(tmp_path)).key(text, src.path)
    _no_compiler(monkeypatch)
    assert _front(src, tmp_path) == (None, want, None)


def test_a_changed_header_or_flag_preprocesses_again(tmp_path):
    src = _tree(tmp_path)
    _front(src, tmp_path)
    (tmp_path / "inc" / "h.h").write_text("#define N 22\n")
    os.utime(tmp_path / "inc" / "h.h", (PAST + 60, PAST + 60))
    text, key, _ = _front(src, tmp_path)
    assert key is None and "return 22;" in text
    flagged = SourceFile(src.path, src.flags + ("-DEXTRA",), src.directory)
    assert _front(flagged, tmp_path)[0] is not None


def test_a_file_younger_than_the_run_is_not_remembered(tmp_path):
    src = _tree(tmp_path)
    os.utime(tmp_path / "inc" / "h.h")   # now: it might be changing under the compiler
    _front(src, tmp_path)
    assert _front(src, tmp_path)[0] is not None


def test_an_edited_file_imports_the_parser_while_the_compiler_runs(tmp_path, monkeypatch):
    """NOTE [startup]: only a file preprocessed before whose inputs changed (it will be
    lowered); not one seen for the first time or merely too young to be remembered."""
    calls = []
    monkeypatch.setattr(pipeline, "_lowering_modules", lambda: calls.append("import"))
    src = _tree(tmp_path)
    _front(src, tmp_path)
    assert calls == []
    (tmp_path / "a.c").write_text('#include "h.h"\nint f(void) { return N + 1; }\n')
    os.utime(tmp_path / "a.c", (PAST + 60, PAST + 60))
    assert "N + 1" not in _front(src, tmp_path)[0] and calls == ["import"]
    assert _front(src, tmp_path)[1] is not None and calls == ["import"]   # remembered again


def test_workers_remember_and_lower(tmp_path, monkeypatch):
    src = _tree(tmp_path)
    text, _, _ = _front(src, tmp_path, jobs=2)
    cache = UnitCache(str(tmp_path / "units"), str(tmp_path))
    unit = cache.load(cache.key(text, src.path))
    assert unit is not None and "f" in unit.functions   # lowered by a worker
    _no_compiler(monkeypatch)
    assert _front(src, tmp_path, jobs=2)[1] == cache.key(text, src.path)


def test_one_changed_file_starts_no_workers(tmp_path, monkeypatch):
    src = _tree(tmp_path)
    (tmp_path / "b.c").write_text("int g(void) { return 2; }\n")
    os.utime(tmp_path / "b.c", (PAST, PAST))
    other = SourceFile(str(tmp_path / "b.c"), (), str(tmp_path))
    cache = UnitCache(str(tmp_path / "units"), str(tmp_path))
    list(pipeline.preprocessed([src, other], None, 2, cache, str(tmp_path)))   # both new: pool
    (tmp_path / "b.c").write_text("int g(void) { return 3; }\n")
    os.utime(tmp_path / "b.c", (PAST + 60, PAST + 60))

    def no_pool(*args, **kw):
        raise AssertionError("a worker pool for one changed file")
    monkeypatch.setattr(pipeline, "in_order", no_pool)
    got = list(pipeline.preprocessed([src, other], None, 2, cache, str(tmp_path)))
    assert got[0][1] is None and got[0][2] is not None    # a.c: its unit's key
    # b.c: lowered by one forked process (NOTE [early-compiler]), its unit's key back
    assert got[1][1] is None and "g" in cache.load(got[1][2]).functions
    (tmp_path / "b.c").write_text("int g(void) { return 4; }\n")
    os.utime(tmp_path / "b.c", (PAST + 120, PAST + 120))
    got = list(pipeline.preprocessed([src, other], None, 1, cache, str(tmp_path)))
    assert "return 4;" in got[1][1] and got[1][2] is None  # one job: its text, lowered here


def test_the_one_changed_file_is_compiled_from_the_early_start(tmp_path, monkeypatch):
    """NOTE [early-compiler]: `Early` starts the compiler on the only changed file, and
    `preprocessed` takes its output rather than running it again."""
    src = _tree(tmp_path)
    (tmp_path / "b.c").write_text("int g(void) { return 2; }\n")
    os.utime(tmp_path / "b.c", (PAST, PAST))
    other = SourceFile(str(tmp_path / "b.c"), (), str(tmp_path))
    files, units = [src, other], str(tmp_path / "units")
    assert pipeline.Early(files, None, units).running == {}   # nothing known: no early start
    cache = UnitCache(units, str(tmp_path))
    list(pipeline.preprocessed(files, None, 1, cache, str(tmp_path)))
    (tmp_path / "b.c").write_text("int g(void) { return 3; }\n")
    os.utime(tmp_path / "b.c", (PAST + 60, PAST + 60))
    early = pipeline.Early(files, None, units)
    assert list(early.running) == [id(other)] and early.known[0] is not None
    _no_compiler(monkeypatch)
    got = list(pipeline.preprocessed(files, None, 1, cache, str(tmp_path), early))
    assert got[0][2] == early.known[0] and "return 3;" in got[1][1]


def test_the_cli_starts_the_compiler_before_importing_the_analysis(tmp_path):
    import subprocess
    import sys
    src = _tree(tmp_path)
    probe = (
        "import sys\n"
        "from saturn.cfront import pipeline\n"
        "real = pipeline.Early.__init__\n"
        "def init(self, *a):\n"
        "    print('engine loaded:', 'saturn.symex.engine' in sys.modules)\n"
        "    real(self, *a)\n"
        "pipeline.Early.__init__ = init\n"
        "from saturn.cli import main\n"
        f"sys.exit(main(['check', {src.path!r}, '--db', {str(tmp_path / 'db')!r}, '-Iinc']))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=str(tmp_path), env={**os.environ, "PYTHONPATH": REPO})
    assert "engine loaded: False" in out.stdout, out.stderr


def test_lookups_stat_a_shared_header_once(tmp_path, monkeypatch):
    from saturn.cfront import direct
    src = _tree(tmp_path)
    (tmp_path / "b.c").write_text('#include "h.h"\nint g(void) { return N; }\n')
    os.utime(tmp_path / "b.c", (PAST, PAST))
    other = SourceFile(str(tmp_path / "b.c"), ("-Iinc",), str(tmp_path))
    files, units = [src, other], str(tmp_path / "units")
    list(pipeline.preprocessed(files, None, 1, UnitCache(units, str(tmp_path)), str(tmp_path)))
    seen = []
    real = direct._stat
    monkeypatch.setattr(direct, "_stat", lambda path: seen.append(path) or real(path))
    early = pipeline.Early(files, None, units)
    assert None not in early.known   # both found unchanged
    header = [p for p in seen if p.endswith("h.h")]
    assert len(header) == 1, seen


def _one_edited(tmp_path):
    """Two files in the cache, then b.c edited: (files, cache)."""
    src = _tree(tmp_path)
    (tmp_path / "b.c").write_text("int g(void) { return 2; }\n")
    os.utime(tmp_path / "b.c", (PAST, PAST))
    other = SourceFile(str(tmp_path / "b.c"), (), str(tmp_path))
    cache = UnitCache(str(tmp_path / "units"), str(tmp_path))
    list(pipeline.preprocessed([src, other], None, 1, cache, str(tmp_path)))
    (tmp_path / "b.c").write_text("int g(void) { return 3; }\n")
    os.utime(tmp_path / "b.c", (PAST + 60, PAST + 60))
    return [src, other], cache


def test_a_large_edited_file_is_lowered_here(tmp_path, monkeypatch):
    files, cache = _one_edited(tmp_path)
    monkeypatch.setattr(pipeline, "FORK_BELOW", 10)   # b.c is larger than that
    early = pipeline.Early(files, None, cache.directory, str(tmp_path), 2)
    assert early.forked == {} and list(early.running) == [id(files[1])]
    got = list(pipeline.preprocessed(files, None, 2, cache, str(tmp_path), early))
    assert "return 3;" in got[1][1]


def test_a_forked_front_end_that_dies_is_done_here(tmp_path, monkeypatch):
    files, cache = _one_edited(tmp_path)
    parent, real = os.getpid(), pipeline._front

    def dies_in_the_child(*args, **kw):
        if os.getpid() != parent:
            os._exit(3)
        return real(*args, **kw)
    monkeypatch.setattr(pipeline, "_front", dies_in_the_child)
    got = list(pipeline.preprocessed(files, None, 2, cache, str(tmp_path)))
    assert "return 3;" in got[1][1] and got[1][2] is None and got[1][3] is None
