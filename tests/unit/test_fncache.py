"""NOTE [function-cache]: a main-file function's lowered IR is reused while its text and all
before it (other bodies by their prototypes) are unchanged; what comes out equals a lowering
with no cache at all, moved functions, impure bodies and damaged entries included. NOTE
[packed-units]: a unit stored with its functions as cache entries loads back the same."""
import os
import pickle
import re

import pytest

from saturn.cfront import unitcache
from saturn.cfront.bodycache import BodyCache
from saturn.cfront.fncache import FunctionCache
from saturn.cfront.fnpickle import _nodes
from saturn.ir.nodes import Branch, Call, Const, Function

PRELUDE = ('# 1 "a.c"\nstruct S { int a; };\nint log_at(int);\nint counter;\n'
           "static int helper(int x) {\n  return x + 1;\n}\n")
F1 = "int f1(struct S *s) {\n  counter++;\n  return s->a;\n}\n"
F2 = ("int f2(int x) {\n  static int calls;\n  calls++;\n  if (x)\n"
      "    return log_at(__LINE__);\n  return helper(x);\n}\n")
F3 = "int f3(int x) {\n  struct S t;\n  t.a = x;\n  return f1(&t) + f2(x);\n}\n"
F4 = "int *f4(void) {\n  return &counter;\n}\n"


@pytest.fixture
def caches(tmp_path, monkeypatch):
    """Every FunctionCache made, in order."""
    made = []

    class Recorded(FunctionCache):
        def __init__(self, *args):
            super().__init__(*args)
            made.append(self)
    monkeypatch.setattr(unitcache, "FunctionCache", Recorded)
    return made


def _signature(unit):
    fns = {k: (f.line, f.end_line, f.digest, f.line_values, f.notes, sorted(f.callees),
               [str(s.coord) for b in sorted(f.blocks) for s in f.blocks[b].stmts],
               sorted((type(x).__name__, getattr(x, "value", None), getattr(x, "text", None))
                      for x in _nodes(f) if isinstance(x, (Const, Call, Branch))))
           for k, f in unit.functions.items()}
    return list(fns), fns, sorted((k, g.written, g.address_taken) for k, g in unit.globals.items())


def _preprocessed(text):
    """`__LINE__` replaced by its line (the marker on line 1 names line 1 the next one), as
    the preprocessor does."""
    return "\n".join(ln.replace("__LINE__", str(n)) for n, ln in enumerate(text.split("\n")))


def _lower(text, directory=None):
    text = _preprocessed(text)
    bodies = BodyCache(str(directory), "salt") if directory is not None else None
    return _signature(unitcache.lower_text(text, "a.c", ".", bodies))


def test_an_edited_body_is_the_only_one_lowered_again(tmp_path, caches):
    text = PRELUDE + F1 + F2 + F3 + F4
    assert _lower(text, tmp_path) == _lower(text)
    assert (caches[0].hits, caches[0].misses) == (0, 5)
    # f1 edited (one line more): the others come from the cache, those after it moved down,
    # f2's __LINE__ with it (NOTE [moved-line-constants] in fnpickle.py)
    edited = text.replace("  counter++;\n", "  counter++;\n  counter--;\n")
    assert _lower(edited, tmp_path) == _lower(edited)
    assert (caches[1].hits, caches[1].misses) == (4, 1)
    assert len(caches[1].stubs) == 4   # helper, f2, f3, f4 were parsed as stubs
    # unchanged again: everything from the cache
    assert _lower(edited, tmp_path) == _lower(edited)
    assert (caches[2].hits, caches[2].misses) == (5, 0)


# A macro defining several functions: gcc writes its expansion on one line.
SAME_LINE = ("static int g1(int x) { return x + 1; } static int g2(int x) { counter++; "
             "return g1(x) * 2; } int g3(void) { return g2(3); }\n")


def test_functions_sharing_a_line_are_reused_told_apart_by_column(tmp_path, caches):
    text = PRELUDE + SAME_LINE + F1 + F4
    assert _lower(text, tmp_path) == _lower(text)
    assert (caches[0].hits, caches[0].misses) == (0, 6)
    edited = text.replace("  counter++;\n", "  counter++;\n  counter--;\n")
    assert _lower(edited, tmp_path) == _lower(edited)
    assert (caches[1].hits, caches[1].misses) == (5, 1)
    assert len(caches[1].stubs) == 2   # helper and f4: a stub would move g1-g3's columns
    # g2 edited: g1 before it is reused; g3 after it stands at another column
    longer = edited.replace("return g1(x) * 2;", "return g1(x) * 2 + 0;")
    assert _lower(longer, tmp_path) == _lower(longer) != _lower(edited)
    assert (caches[2].hits, caches[2].misses) == (4, 2)


def test_a_changed_declaration_relowers_what_follows_it(tmp_path, caches):
    text = PRELUDE + F1 + F3
    _lower(text, tmp_path)
    edited = text.replace("struct S { int a; };", "struct S { long pad; int a; };")
    assert _lower(edited, tmp_path) == _lower(edited)
    assert caches[1].hits == 0


def test_an_impure_body_is_part_of_the_context_of_later_ones(tmp_path, caches):
    # a block-scope prototype, seen by later functions (as the lowering treats it)
    impure = "void setup(void) {\n  extern long wide(int);\n}\n"
    user = "long use(void) {\n  return wide(1) >> 40;\n}\n"
    text = PRELUDE + impure + user
    assert _lower(text, tmp_path) == _lower(text)
    narrowed = text.replace("extern long wide(int);", "extern int narrow(int);")
    assert _lower(narrowed, tmp_path) == _lower(narrowed) != _lower(text)
    assert (caches[1].hits, caches[1].failed) == (1, False)   # helper only: `use` is lowered
    # setup made pure, its prototype the same: `use` was never kept under that context
    emptied = text.replace("  extern long wide(int);\n", "")
    assert _lower(emptied, tmp_path) == _lower(emptied)
    assert caches[2].hits == 1


def test_a_damaged_entry_has_the_unit_lowered_again_without_stubs(tmp_path, caches):
    text = PRELUDE + F1 + F3 + F4
    _lower(text, tmp_path)
    pack = caches[0].path
    entries = pickle.load(open(pack, "rb"))
    for key, entry in entries.items():
        if not entry:
            continue   # f3 calls f2 undeclared: an implicit declaration makes it impure
        first, base, data, head, check, moving = pickle.loads(entry)
        entries[key] = pickle.dumps((first, base, data[:len(data) // 2], head, check, moving))
    pickle.dump(entries, open(pack, "wb"))
    assert _lower(text, tmp_path) == _lower(text)
    assert caches[1].failed and not caches[2].stubs and caches[2].hits == 0
    assert caches[0].path == caches[2].path and caches[2].misses == 4


def test_cached_functions_are_installed_without_their_bodies(tmp_path, caches):
    # NOTE [lazy-install]: a re-check after an edit reads few bodies; the rest stay bytes
    text = _preprocessed(PRELUDE + F1 + F2 + F3 + F4)
    unitcache.lower_text(text, "a.c", ".", BodyCache(str(tmp_path), "salt"))
    edited = text.replace("  t.a = x;\n", "  t.a = x;\n  t.a++;\n")
    unit = unitcache.lower_text(edited, "a.c", ".", BodyCache(str(tmp_path), "salt"))
    lazy = sorted(k for k, fn in unit.functions.items() if "_blob" in fn.__dict__)
    assert lazy == ["a.c:helper", "f1", "f2", "f4"] and caches[1].hits == 4
    assert any(k.endswith("f2.calls") for k in unit.globals)   # f2's static local came too
    assert _signature(unit) == _lower(edited)   # bodies read on demand equal a plain lowering


def test_a_packed_unit_loads_back_the_same(tmp_path, caches):
    text = _preprocessed(PRELUDE + F1 + F2 + F3 + F4)
    cache = unitcache.UnitCache(str(tmp_path))
    made = cache.unit(text, "a.c")
    key = cache.key(text, "a.c")
    assert os.path.exists(os.path.join(str(tmp_path), key + ".pickle"))
    edited = text.replace("  t.a = x;\n", "  t.a = x;\n  t.a++;\n")
    relowered = cache.unit(edited, "a.c")    # all but f3 from the function cache
    assert (caches[1].hits, caches[1].misses) == (4, 1)
    for original, source in ((made, text), (relowered, edited)):
        loaded = cache.load(cache.key(source, "a.c"))
        lazy = [k for k, fn in loaded.functions.items() if "_blob" in fn.__dict__]
        assert lazy == list(made.functions)   # every body still bytes, until it is read
        f3 = loaded.functions["f3"]
        assert f3.callees == {"f1", "f2"} and "_blob" in f3.__dict__
        plain = pickle.loads(pickle.dumps(f3))   # what a worker gets: the whole function
        assert type(plain) is Function and "_blob" not in f3.__dict__
        assert _signature(loaded) == _signature(original) == _lower(source)


# NOTE [moved-line-constants] in fnpickle.py: (a body on lines 4..., whether it moves when a
# line is added above it); `@` is the body's line 4 + k for the `@k` written in it.
MOVES = {
    "call": ("int g(int x) {\n  return log_at(@1);\n}\n", True),
    "branch": ("int g(int x) {\n  if (x == @1)\n    return 1;\n  return log_at(@3);\n}\n", True),
    "also_plain": ("int g(int x) {\n  if (x)\n    return log_at(@2);\n  return @2;\n}\n", False),
    "plain_too": ("int g(int x) {\n  int y = @2;\n  return log_at(@2) + y;\n}\n", False),
    "case": ("int g(int x) {\n  switch (x) {\n  case @2: return 1;\n  }\n  return 0;\n}\n",
             False),
    "two_lines": ("int g(int x) {\n  return log_at(@1,\n    4);\n}\n", False),   # 4: @1 here
    "next_line": ("int g(int x) {\n  return log_at(x,\n    @2);\n}\n", False),
    "none": ("int g(int x) {\n  return log_at(x) + 1000;\n}\n", True),
    "one_there": ("int g(int x) {\n  return log_at(x) + 5;\n}\n", False),   # 5: its line there
}


@pytest.mark.parametrize("name", sorted(MOVES))
def test_line_literals_move_with_their_function_when_its_ir_does(tmp_path, caches, name):
    body, moves = MOVES[name]
    head = '# 1 "a.c"\nint log_at(int, ...);\n'

    def at(first):   # the body's lines counted from `first`; `@k` is its line first + k
        return re.sub(r"@(\d)", lambda m: str(first + int(m[1])), body)
    text = head + "\n" + at(3)
    moved = head + "\n\n" + at(4)
    assert text.count("\n") == 3 + body.count("\n")
    signature = _signature(unitcache.lower_text(text, "a.c", ".", BodyCache(str(tmp_path), "s")))
    assert signature == _signature(unitcache.lower_text(text, "a.c", ".", None))
    got = _signature(unitcache.lower_text(moved, "a.c", ".", BodyCache(str(tmp_path), "s")))
    assert got == _signature(unitcache.lower_text(moved, "a.c", ".", None))
    assert (caches[1].hits, caches[1].misses) == ((1, 0) if moves else (0, 1))
