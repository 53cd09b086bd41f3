"""NOTE [unit-cache]: units lowered apart and absorbed give the program that lowering them into
one program gives; a second load comes from the cache without parsing."""
import os

from saturn.cfront import parse, unitcache
from saturn.cfront.discover import relative_to
from saturn.cfront.parse import parse_text
from saturn.ir.digest import ir_digest
from saturn.ir.lower import lower_unit
from saturn.ir.program import Program

HEADER = '# 1 "h.h"\nint shared;\nstatic inline int twice(int x) { shared++; return 2 * x; }\n'
A = '# 1 "a.c"\n' + HEADER + '# 3 "a.c"\nint fa(int x) { return twice(x); }\n'
B = '# 1 "b.c"\n' + HEADER + '# 3 "b.c"\nint *pb(void) { return &shared; }\nint fb(void) { return twice(1); }\n'


def _together(root):
    program = Program()
    for text, path in ((A, "a.c"), (B, "b.c")):
        lower_unit(program, parse_text(text, path).ast, path, relative_to(root))
    return program


def _digests(program):
    return {k: ir_digest(fn) for k, fn in program.functions.items()}


def test_absorbed_units_equal_one_program(tmp_path):
    cache = unitcache.UnitCache(str(tmp_path / "units"), str(tmp_path))
    program = Program()
    for text, path in ((A, "a.c"), (B, "b.c")):
        program.absorb(cache.unit(text, path))
    together = _together(str(tmp_path))
    assert _digests(program) == _digests(together)
    assert sorted(program.functions) == sorted(["fa", "fb", os.path.abspath("h.h") + ":twice", "pb"])
    g = program.globals["shared"]
    assert g.written and g.address_taken    # written in a.c's copy of twice, address in b.c


def _entries(directory):
    """The cached units (the folder also holds NOTE [body-cache]'s parsed definitions)."""
    return [e for e in os.listdir(directory) if e.endswith(".pickle")]


def test_second_load_comes_from_the_cache(tmp_path, monkeypatch):
    cache = unitcache.UnitCache(str(tmp_path / "units"), str(tmp_path))
    first = cache.unit(A, "a.c")
    assert len(_entries(tmp_path / "units")) == 1

    def no_parsing(*args):
        raise AssertionError("parsed again")
    monkeypatch.setattr(parse, "parse_text", no_parsing)   # lower_text imports it when lowering
    again = cache.unit(A, "a.c")
    assert _digests(again) == _digests(first)
    other_root = unitcache.UnitCache(str(tmp_path / "units"), str(tmp_path / "elsewhere"))
    try:
        other_root.unit(A, "a.c")
        raise RuntimeError("a unit lowered under another --root was reused")
    except AssertionError:
        pass


def test_damaged_entry_is_lowered_again(tmp_path):
    cache = unitcache.UnitCache(str(tmp_path / "units"), str(tmp_path))
    first = cache.unit(A, "a.c")
    (entry,) = _entries(tmp_path / "units")
    (tmp_path / "units" / entry).write_bytes(b"\x80\x05garbage")
    assert _digests(cache.unit(A, "a.c")) == _digests(first)
    assert (tmp_path / "units" / entry).read_bytes() != b"\x80\x05garbage"   # rewritten


def test_a_background_writer_saves_the_unit_as_it_was_lowered(tmp_path, monkeypatch):
    """NOTE [background-writes]: a forked child pickles and writes the unit (its pid is not
    this process's), from the objects as they were at the fork; `wait_writers` waits for it."""
    from saturn.cfront import files
    writers = []
    real_fork = os.fork

    def fork():
        pid = real_fork()
        writers.append(pid)
        return pid
    monkeypatch.setattr(os, "fork", fork)
    cache = unitcache.UnitCache(str(tmp_path / "units"), str(tmp_path), background=True)
    unit = cache.unit(A, "a.c")
    want = _digests(unit)
    unit.functions.clear()   # what the parent does after the fork is not what is saved
    files.wait_writers()
    assert len(writers) == 1 and writers[0] != 0
    assert len(_entries(tmp_path / "units")) == 1
    again = unitcache.UnitCache(str(tmp_path / "units"), str(tmp_path)).load(
        cache.key(A, "a.c"))
    assert _digests(again) == want


def test_writes_wait_for_the_end_of_deferred_and_happen_here_without_background(tmp_path):
    from saturn.cfront import files
    target = tmp_path / "entry"
    made = []
    with files.deferred(False):
        files.write_later(str(target), lambda: made.append(1) or b"now")
        assert target.read_bytes() == b"now"
    with files.deferred(True):
        files.write_later(str(target), lambda: b"later")
        files.write_later(str(tmp_path / "none"), lambda: None)
        assert target.read_bytes() == b"now"
    files.wait_writers()
    assert target.read_bytes() == b"later" and not (tmp_path / "none").exists()
