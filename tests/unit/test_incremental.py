"""The incremental layer: what a re-check reuses gives what a lowering from scratch gives.

NOTE [function-cache]: a function of the file's own text is reused while its text and all
before it (other bodies by their prototypes) are unchanged. NOTE [declaration-cache]: parsed
declarations are reused while their text and the typedef names they mention are. NOTE
[function-entries]: a unit stored with its functions as entries loads back the same. NOTE
[direct-mode]: a file whose inputs are unchanged is not preprocessed."""
import os
import re
import time

import pytest

from saturn.cfront.discover import SourceFile
from saturn.incremental import lowering, units
from saturn.incremental.cachedir import CacheDir
from saturn.ir import nodes as N
from saturn.ir.lower import Lowerer

PRELUDE = ('# 1 "a.c"\n# 1 "h.h" 1\ntypedef struct S { int a; } S;\nint log_at(int);\n'
           'static inline int hidden(int x) { return x; }\n# 4 "a.c" 2\nint counter;\n'
           "static int helper(int x) {\n  return x + 1;\n}\n")
F1 = "int f1(S *s) {\n  counter++;\n  return s->a + hidden(1);\n}\n"
F2 = ("int f2(int x) {\n  static int calls;\n  calls++;\n  if (x)\n"
      "    return log_at(__LINE__);\n  return helper(x);\n}\n")
F3 = "int f3(int x) {\n  S t;\n  t.a = x;\n  return f1(&t) + f2(x);\n}\n"
F4 = "int *f4(void) {\n  return &counter;\n}\n"


def _preprocessed(text):
    """`__LINE__` replaced by its line in a.c, as the preprocessor does (a marker gives the
    number of the line after it)."""
    out, line = [], None
    for ln in text.split("\n"):
        if ln.startswith("# "):
            number, name = ln.split()[1:3]
            line = int(number) if name == '"a.c"' else None
        else:
            ln = ln.replace("__LINE__", str(line)) if line is not None else ln
            line = line + 1 if line is not None else None
        out.append(ln)
    return "\n".join(out)


def _signature(unit):
    fns = {k: (f.line, f.end_line, f.digest, f.line_values, f.notes, sorted(f.callees),
               f.weight, [str(s.coord) for b in sorted(f.blocks) for s in f.blocks[b].stmts],
               repr(sorted(((str(b), repr(blk.stmts)) for b, blk in f.blocks.items())))
               .count("Const"))
           for k, f in unit.functions.items()}
    return sorted(fns.items()), sorted(
        (k, g.written, g.address_taken, [str(st.coord) for st in g.inits], g.defined)
        for k, g in unit.globals.items()), unit.warnings


_RECORDING = [True]


@pytest.fixture
def lowered(monkeypatch):
    """Names of the function bodies the cached front ends lowered (not the fresh ones)."""
    seen = []
    real = Lowerer.definition

    def counted(self, fdef, decl, ftype, key):
        if _RECORDING[0]:
            seen.append(decl.name)
        return real(self, fdef, decl, ftype, key)
    monkeypatch.setattr(Lowerer, "definition", counted)
    return seen


def _front(tmp_path, text, name="a.c"):
    """The unit of `text` as a re-check makes it (the last unit of the file known), and what a
    lowering without caches gives."""
    path = tmp_path / name
    path.write_text(text)
    src = SourceFile(str(path), (), str(tmp_path), preprocessed=True)
    front = units.FrontEnd(CacheDir(str(tmp_path / "units")), str(tmp_path))
    got = front.unit(src)
    _RECORDING[0] = False
    try:
        fresh = _signature(units.FrontEnd(None, str(tmp_path)).unit(src))
    finally:
        _RECORDING[0] = True
    return _signature(got), fresh, got


def test_an_edited_body_is_the_only_one_lowered_again(tmp_path, lowered):
    text = _preprocessed(PRELUDE + F1 + F2 + F3 + F4)
    got, fresh, _ = _front(tmp_path, text)
    assert got == fresh and lowered.count("f3") == 1
    lowered.clear()
    edited = _preprocessed(PRELUDE + F1 + F2 + F3.replace("  t.a = x;\n", "  t.a = x;\n  x++;\n")
                           + F4)
    got, fresh, _ = _front(tmp_path, edited)
    assert got == fresh
    # f3 again; f2's __LINE__ did not move; f4 moved a line down, and is reused there; the
    # header's inline f1 calls is the last lowering's (NOTE [unit-skeleton])
    assert lowered == ["f3"]


def test_functions_below_an_added_line_move_with_their_line_literals(tmp_path, lowered):
    """NOTE [line-literals]: f2 passes __LINE__ and moves with it; f5 also writes its
    __LINE__'s number on another line, where it is a plain number: it is lowered again."""
    f5 = "int f5(int x) {\n  return log_at(__LINE__)\n    + x * SAME;\n}\n"

    def text(pad):
        t = _preprocessed(PRELUDE + pad + F1 + F2 + F3 + f5)
        return t.replace("SAME", re.findall(r"log_at\((\d+)\)\n    \+", t)[0])
    _front(tmp_path, text(""))
    lowered.clear()
    got, fresh, _ = _front(tmp_path, text("\n"))
    assert got == fresh and set(lowered) - {"hidden"} == {"f5"}


def test_a_changed_declaration_lowers_what_follows_it_again(tmp_path, lowered):
    _front(tmp_path, _preprocessed(PRELUDE + F1 + F2 + F3))
    lowered.clear()
    got, fresh, _ = _front(tmp_path, _preprocessed(PRELUDE + F1 + "long counter2;\n" + F2 + F3))
    assert got == fresh and "f1" not in lowered and {"f2", "f3"} <= set(lowered)


def test_an_impure_body_is_part_of_the_context_of_later_ones(tmp_path, lowered):
    """f1 declares `ext` for the whole file: an edit of f1's other text lowers the functions
    after it again (a pure f1's edit lowers f1 alone)."""
    impure = F1.replace("  counter++;\n", "  extern int ext(int);\n  counter++;\n")
    later = F3.replace("f2(x);", "f2(x) + ext(x);")
    for f1, f3, again in ((F1, F3, {"f1"}), (impure, later, {"f1", "f2", "f3"})):
        _front(tmp_path, _preprocessed(PRELUDE + f1 + F2 + f3))
        lowered.clear()
        got, fresh, _ = _front(tmp_path, _preprocessed(PRELUDE + f1.replace("s->a", "s->a + 1")
                                                       + F2 + f3))
        assert got == fresh and set(lowered) - {"hidden"} == again


@pytest.mark.parametrize("callee, again", [("__builtin_ctz", {"f1"}), ("undeclared", {"f1", "f2"})])
def test_a_call_to_a_compiler_builtin_declares_nothing(tmp_path, lowered, callee, again):
    """A call to an undeclared function declares it for the rest of the file (the body is
    impure), but the compiler's builtins are declared everywhere already (it stays pure)."""
    f1 = F1.replace("  counter++;\n", f"  counter += {callee}(1);\n")
    f2 = F2.replace("return helper(x);", f"return helper(x) + {callee}(x);")
    _front(tmp_path, _preprocessed(PRELUDE + f1 + f2))
    lowered.clear()
    got, fresh, _ = _front(tmp_path, _preprocessed(PRELUDE + f1.replace("s->a", "s->a + 1") + f2))
    assert got == fresh and set(lowered) - {"hidden"} == again


def test_a_body_that_became_impure_is_seen_after_lowering(tmp_path, lowered):
    """Predicted pure from the last run, f1 now declares `ext`: f3's stub would be wrong, so
    the unit is lowered again, with the same result as from scratch."""
    later = F3.replace("f2(x);", "f2(x) + ext(x);")
    _front(tmp_path, _preprocessed(PRELUDE + "int ext(int);\n" + F1 + F2 + later))
    impure = F1.replace("  counter++;\n", "  extern int ext(int);\n  counter++;\n")
    got, fresh, _ = _front(tmp_path, _preprocessed(PRELUDE + "\n" + impure + F2 + later))
    assert got == fresh


def test_a_damaged_unit_or_entry_is_made_again(tmp_path):
    text = _preprocessed(PRELUDE + F1 + F2 + F3)
    _front(tmp_path, text)
    for folder, _, names in os.walk(tmp_path / "units"):
        for name in names:
            with open(os.path.join(folder, name), "r+b") as fh:
                fh.seek(40)
                fh.write(b"damaged")
    got, fresh, _ = _front(tmp_path, text)
    assert got == fresh
    got, fresh, _ = _front(tmp_path, _preprocessed(PRELUDE + F1 + F2 + F3 + F4))
    assert got == fresh


def test_a_stored_unit_loads_with_bodies_left_as_bytes(tmp_path):
    text = _preprocessed(PRELUDE + F1 + F2 + F3 + F4)
    path = tmp_path / "a.c"
    path.write_text(text)
    src = SourceFile(str(path), (), str(tmp_path), preprocessed=True)
    front = units.FrontEnd(CacheDir(str(tmp_path / "units")), str(tmp_path))
    made = _signature(front.unit(src))
    loaded = front.load(front.last_key)
    assert all("_body" in fn.__dict__ for fn in loaded.functions.values())   # (a header's too)
    assert _signature(loaded) == made   # (reading the blocks loads the bodies)
    assert isinstance(loaded.functions["f3"].blocks[loaded.functions["f3"].entry], N.Block)


def test_parsed_declarations_are_reused_unless_a_name_became_a_typedef(tmp_path, monkeypatch):
    """`sizeof (T)` parses one way when T is a typedef name, another when it is not."""
    from saturn.cfront import parse
    parsed = []
    real = parse.Declarations.parse

    def counted(self, text, *args):
        if _RECORDING[0]:
            parsed.append(text)
        return real(self, text, *args)
    monkeypatch.setattr(parse.Declarations, "parse", counted)
    uses = "int size_of = sizeof (T);"
    _front(tmp_path, _preprocessed(PRELUDE + "typedef long T;\n" + uses + "\n" + F1))
    parsed.clear()
    edited = F1.replace("counter++", "counter += 2")
    got, fresh, _ = _front(tmp_path, _preprocessed(PRELUDE + "typedef long T;\n" + uses + "\n"
                                                   + edited))
    assert got == fresh and parsed == [edited[:-1]]   # (the others: their prototypes kept)
    parsed.clear()
    got, fresh, _ = _front(tmp_path, _preprocessed(PRELUDE + "enum { T = 1 };\n" + uses + "\n"
                                                   + edited))
    assert got == fresh and uses in parsed


def _c_file(tmp_path):
    (tmp_path / "inc").mkdir(exist_ok=True)
    (tmp_path / "inc" / "h.h").write_text("int helper(int);\n")
    (tmp_path / "a.c").write_text('#include "h.h"\nint f(int x) { return helper(x); }\n')
    past = time.time() - 3600
    for p in (tmp_path / "inc" / "h.h", tmp_path / "a.c"):
        os.utime(p, (past, past))
    return SourceFile(str(tmp_path / "a.c"), ("-Iinc",), str(tmp_path))


def test_direct_mode_skips_the_compiler_until_an_input_changes(tmp_path):
    src = _c_file(tmp_path)
    store = CacheDir(str(tmp_path / "units"))
    front = units.FrontEnd(store, str(tmp_path))
    assert front.known(src) is None
    front.unit(src)
    assert units.FrontEnd(store, str(tmp_path)).known(src) == front.last_key
    (tmp_path / "inc" / "h.h").write_text("int helper(long);\n")
    assert units.FrontEnd(store, str(tmp_path)).known(src) is None
    flagged = SourceFile(src.path, src.flags + ("-DEXTRA",), src.directory)
    assert units.FrontEnd(store, str(tmp_path)).known(flagged) is None


def test_a_file_younger_than_the_run_is_not_listed(tmp_path):
    src = _c_file(tmp_path)
    (tmp_path / "a.c").write_text('#include "h.h"\nint f(int x) { return helper(x) + 1; }\n')
    store = CacheDir(str(tmp_path / "units"))
    front = units.FrontEnd(store, str(tmp_path))
    front.unit(src)
    assert front.known(src) is None and front.manifests.last_unit(src) == front.last_key


def test_every_field_of_a_function_is_kept_with_its_entry_or_its_body():
    """A field added to ir.nodes.Function must be in entries.META or entries._BODY, or a
    function loaded from the store would have its default."""
    from dataclasses import fields

    from saturn.incremental import entries
    assert {f.name for f in fields(N.Function)} == set(entries.META) | set(entries._BODY)


@pytest.fixture
def whole(monkeypatch):
    """How many times a cached front end lowered a whole unit (not its skeleton's)."""
    calls = []
    real = lowering.Lowering._parsed_and_lowered

    def counted(self, *args):
        if self.cachedir is not None:
            calls.append(1)
        return real(self, *args)
    monkeypatch.setattr(lowering.Lowering, "_parsed_and_lowered", counted)
    return calls


def _edit_after(tmp_path, base, edited, lowered, whole):
    _front(tmp_path, _preprocessed(base))
    lowered.clear()
    whole.clear()
    got, fresh, unit = _front(tmp_path, _preprocessed(edited))
    assert got == fresh
    return unit


def test_an_edit_reuses_the_skeleton_with_the_lines_below_moved(tmp_path, lowered, whole):
    """NOTE [unit-skeleton]: a table initialised below the edited body, and an impure body
    below it (lowered again), are where a whole lowering puts them."""
    impure = F4.replace("  return &counter;\n", "  extern int ext(int);\n  return &counter;\n")
    base = PRELUDE + F1 + F2 + F3 + "int *table[2] = {\n  &counter,\n  0 };\n" + impure
    _edit_after(tmp_path, base, base.replace("  t.a = x;\n", "  t.a = x;\n  x++;\n"),
                lowered, whole)
    assert not whole and sorted(lowered) == ["f3", "f4"]


def test_an_edit_that_stops_calling_a_header_body_or_taking_an_address(tmp_path, lowered,
                                                                      whole):
    base = PRELUDE + F1 + F2 + F3 + F4
    edited = base.replace("hidden(1)", "(hidden != 0)").replace("return &counter;", "return 0;")
    unit = _edit_after(tmp_path, base, edited, lowered, whole)
    assert not whole and "hidden" not in {fn.name for fn in unit.functions.values()}
    assert not unit.globals["counter"].address_taken


def test_a_header_body_newly_called_or_moved_lowers_the_whole_unit(tmp_path, lowered, whole):
    two = PRELUDE.replace("{ return x; }\n", "{ return x; }\nstatic inline int neg(int x) "
                          "{ return -x; }\n")
    base = two + F1 + F2 + F3
    _edit_after(tmp_path, base, base.replace("+ f2(x);", "+ neg(x);"), lowered, whole)
    assert whole and "neg" in lowered
    moved = two.replace("typedef", "\ntypedef") + F1 + F2 + F3.replace("+ f2(x);", "+ neg(x);")
    _edit_after(tmp_path, base.replace("+ f2(x);", "+ neg(x);"), moved, lowered, whole)
    assert whole


def _scan_signature(decls):
    return [(d.start, d.end, d.main, d.typedef, d.body, set(d.declared), set(d.mentions))
            for d in decls]


@pytest.mark.parametrize("edit, moved", [
    (("  t.a = x;\n", "  t.a = x;\n  x++;\n"), True),        # a line added: markers renumbered
    (("  counter++;\n", "  counter += 2;\n"), True),          # the same lines
    (("int counter;\n", "typedef int counter;\n"), False),     # a name became a typedef
    (("int counter2;", "int counter3;"), False),               # a digit of a name
    (("return x + 1;", "return x + 2;"), True),                # a digit of a number
])
def test_a_scan_after_an_edit_is_a_whole_scan(tmp_path, monkeypatch, edit, moved):
    """NOTE [scan-prefix]: what the scan takes from the last one, before and after the change,
    is what scanning the whole text finds."""
    from saturn.cfront.prune import _Decl, declarations
    from saturn.incremental.scans import ScanCache
    alike, real = [], _Decl.same
    monkeypatch.setattr(_Decl, "same", lambda a, b: alike.append(real(a, b)) or alike[-1])
    marker = '# 30 "a.c"\n'
    base = PRELUDE + F1 + F2 + "\n" * 12 + marker + F3 + F4 + "int counter2;\n" + F2.replace(
        "f2", "f5")
    cache, own = ScanCache(CacheDir(str(tmp_path / "units")), "a.c"), {"a.c"}
    cache.declarations(_preprocessed(base), own)
    edited = base.replace(*edit)
    if "\n  x++;\n" in edited:
        edited = edited.replace(marker, '# 31 "a.c"\n')
    text = _preprocessed(edited)
    assert _scan_signature(cache.declarations(text, own)) == \
        _scan_signature(declarations(text, own))
    assert any(alike) == moved   # the declarations after the change taken moved, or scanned


def test_what_an_impure_body_declares_is_seen_by_an_edited_one_after_it(tmp_path, lowered,
                                                                      whole):
    """NOTE [unit-skeleton]: the impure bodies are lowered again with the edited one, in their
    order: f2 sees the `noreturn` f1's block-scope declaration gives `stop`."""
    base = PRELUDE.replace("int counter;", "void stop(int);\nint counter;") + F1.replace(
        "  counter++;\n", "  extern void stop(int) __attribute__((noreturn));\n  counter++;\n") \
        + "int f2(int x) {\n  if (x > 3)\n    stop(x);\n  return x;\n}\n"
    _edit_after(tmp_path, base, base.replace("x > 3", "x > 4"), lowered, whole)
    assert not whole and sorted(lowered) == ["f1", "f2", "hidden"]


def test_a_file_whose_lines_come_twice_is_lowered_whole(tmp_path, lowered, whole):
    """A `#line` that gives lines again: no line of the last lowering says where it went."""
    base = PRELUDE + F1 + "int table[2] = { 1, 2 };\n" + '# 9 "a.c"\n' + F4
    _edit_after(tmp_path, base, base.replace("  counter++;\n", ""), lowered, whole)
    assert whole



def _units_of(tmp_path, jobs, cached=True):
    from saturn.incremental import pipeline
    store = CacheDir(str(tmp_path / "units")) if cached else None
    front = units.FrontEnd(store, str(tmp_path))
    files = [SourceFile(str(tmp_path / n), (), str(tmp_path)) for n in ("a.c", "b.c")]
    got = [(src.path, _signature(unit), error)
           for src, unit, error in pipeline.units(files, front, jobs)]
    return got, front


@pytest.mark.parametrize("damaged", [False, True])
def test_the_changed_file_preprocesses_while_the_others_load(tmp_path, monkeypatch, damaged):
    """The changed file's compiler starts before the unchanged files' units are read, and its
    unit is the one a lowering without caches gives; when more files must be made in workers
    (a stored unit read back damaged), the compiler started here is stopped."""
    (tmp_path / "a.c").write_text("int f(int *s) {\n  return *s;\n}\n")
    (tmp_path / "b.c").write_text("int x;\nint *g(void) {\n  return &x;\n}\n")
    past = time.time() - 10   # (direct mode trusts files older than the run by a second)
    for name in ("a.c", "b.c"):
        os.utime(tmp_path / name, (past, past))
    _, front = _units_of(tmp_path, 2)
    b_unit = front.cachedir.path(front.known(SourceFile(str(tmp_path / "b.c"), (), str(tmp_path))))
    started = []
    real = units.FrontEnd.start
    monkeypatch.setattr(units.FrontEnd, "start", lambda self, src: real(self, src) or
                        started.append(self.started[src.path]))
    (tmp_path / "a.c").write_text("int h(void) { return 2; }\n" +
                                  (tmp_path / "a.c").read_text())
    if damaged:
        with open(b_unit, "r+b") as fh:
            fh.write(b"damaged")
    got, front = _units_of(tmp_path, 2)
    assert [s.src.path for s in started] == [str(tmp_path / "a.c")] and not front.started
    assert started[0].proc.returncode is not None   # waited for (read, or stopped)
    assert got == _units_of(tmp_path, 1, cached=False)[0]


def test_a_background_writer_stores_the_unit_as_it_was_made(tmp_path, lowered):
    """NOTE [background-writes]: the unit and the scan are written by a child process from
    the state at the fork; after `finish`, the next run reuses them (no body lowered) and
    they are what the lowering made, whatever this process did with the unit after."""
    text = _preprocessed(PRELUDE + F1 + F2 + F3 + F4)
    path = tmp_path / "a.c"
    path.write_text(text)
    src = SourceFile(str(path), (), str(tmp_path), preprocessed=True)
    front = units.FrontEnd(CacheDir(str(tmp_path / "units")), str(tmp_path), background=True)
    made = front.unit(src)
    expected = _signature(made)
    assert len(front.writers) == 1
    made.functions.clear()   # (after the fork: not what the child writes)
    front.finish()
    assert not front.writers
    lowered.clear()
    again = units.FrontEnd(CacheDir(str(tmp_path / "units")), str(tmp_path))
    assert _signature(again.load(again.known(src) or front.last_key)) == expected
    edited = _preprocessed(PRELUDE + F1 + F2 + F3.replace("  t.a = x;\n", "  t.a = x;\n  x++;\n")
                           + F4)
    got, fresh, _ = _front(tmp_path, edited)
    assert got == fresh and lowered == ["f3"]   # the stored scan and skeleton were used


def test_a_new_unit_replaces_the_file_s_last_one(tmp_path):
    """Each edit of a large file would otherwise leave a copy of its unit in the store."""
    path = tmp_path / "a.c"
    src = SourceFile(str(path), (), str(tmp_path), preprocessed=True)
    keys = []
    for f3 in (F3, F3.replace("  t.a = x;\n", "  t.a = x;\n  x++;\n")):
        path.write_text(_preprocessed(PRELUDE + F1 + F2 + f3))
        front = units.FrontEnd(CacheDir(str(tmp_path / "units")), str(tmp_path))
        front.unit(src)
        keys.append(front.last_key)
    store = CacheDir(str(tmp_path / "units"))
    assert keys[0] != keys[1] and store.get(keys[0]) is None and store.get(keys[1])


def test_a_unit_made_again_under_its_own_key_is_kept(tmp_path):
    """A file whose stored unit went missing, its text unchanged, is lowered again under the
    same key: that unit is not the last one to delete."""
    text = _preprocessed(PRELUDE + F1 + F2 + F3)
    path = tmp_path / "a.c"
    path.write_text(text)
    src = SourceFile(str(path), (), str(tmp_path), preprocessed=True)
    store = CacheDir(str(tmp_path / "units"))
    front = units.FrontEnd(store, str(tmp_path))
    front.unit(src)
    os.remove(store.path(front.last_key))
    again = units.FrontEnd(store, str(tmp_path))
    again.unit(src)
    assert again.last_key == front.last_key and store.get(again.last_key)
