"""NOTE [body-cache]: function definitions parsed in an earlier run are put back in place of
their text, with their lines moved; the lowering then equals that of a plain parse."""
import re

from saturn.cfront import bodycache
from saturn.cfront.unitcache import lower_text

HEADER = '# 1 "h.h"\ntypedef struct S { int a; } S;\nint log_at(int);\n'
FUNCS = ("int f1(S *s) {\n  return s->a;\n}\n"
         "int f2(int x) {\n  if (x)\n    return log_at(7);\n\n\n\n\n\n\n\n\n\n"
         '# 17 "a.c"\n  return x;\n}\n'
         "int f3(int x) { S t; t.a = x; return f1(&t) + f2(x); }\n")


def _text(funcs, pad=0):
    return '# 1 "a.c"\n' + HEADER + '# 3 "a.c"\n' + "int pad;\n" * pad + funcs


def _shifted(funcs, pad):
    """The marker inside f2 as gcc writes it after `pad` lines were added above."""
    return re.sub(r'# 17 "a.c"', f'# {17 + pad} "a.c"', funcs)


def _lowered(text, bodies=None):
    unit = lower_text(text, "a.c", ".", bodies)
    return {k: (f.line, f.end_line, f.digest, re.sub(r"#\d+", "", repr(f.blocks)))
            for k, f in unit.functions.items()}


def _counting_cache(tmp_path, monkeypatch):
    loads = []
    load = bodycache.BodyCache._load

    def counted(self, key, base, d):
        node = load(self, key, base, d)
        loads.append(node is not None)
        return node
    monkeypatch.setattr(bodycache.BodyCache, "_load", counted)
    return bodycache.BodyCache(str(tmp_path), "salt"), loads


def test_cached_definitions_moved_and_edited_lower_as_parsed(tmp_path, monkeypatch):
    cache, loads = _counting_cache(tmp_path, monkeypatch)
    assert _lowered(_text(FUNCS), cache) == _lowered(_text(FUNCS))
    assert loads == [False, False, False]
    loads.clear()
    # two lines above, f3 edited: f1 and f2 (with its marker) come from the cache, moved
    edited = _shifted(FUNCS, 2).replace("return f1(&t)", "return 1 + f1(&t)")
    assert _lowered(_text(edited, 2), cache) == _lowered(_text(edited, 2))
    assert loads == [True, True, False]
    got = _lowered(_text(edited, 2), cache)
    assert got["f2"][0] == _lowered(_text(FUNCS))["f2"][0] + 2


def test_a_name_that_became_a_typedef_is_parsed_again(tmp_path, monkeypatch):
    cache, loads = _counting_cache(tmp_path, monkeypatch)
    body = "int f(void) {\n  int r = 1;\n  { T * r; r = 0; }\n  return r;\n}\n"
    as_variable = '# 1 "a.c"\nint T;\n' + body
    as_type = '# 1 "a.c"\ntypedef int T;\n' + body
    assert _lowered(as_variable, cache) == _lowered(as_variable)
    assert _lowered(as_type, cache) == _lowered(as_type) != _lowered(as_variable)
    assert loads == [False, False]


def test_long_header_declarations_are_cached_too(tmp_path, monkeypatch):
    """A struct of a header (past MIN_DECLARATION characters) comes from the cache, a unit of
    its own, though the prototype after it is pruned in one run and kept in the next (NOTE
    [declaration-runs]); a short typedef alone is not worth a file."""
    cache, loads = _counting_cache(tmp_path, monkeypatch)
    fields = "".join(f"  long field_{k};\n" for k in range(12))
    header = ('# 1 "h.h"\ntypedef long word;\nstruct big {\n' + fields + "  word last;\n};\n"
              "int use(struct big *);\n")
    text = '# 1 "a.c"\n' + header + '# 3 "a.c"\nint f(struct big *b) {\n  return b->last;\n}\n'
    assert _lowered(text, cache) == _lowered(text)
    assert loads == [False, False]                     # the struct, then f
    edited = text.replace("return b->last;", "return b->field_3 + use(b);")
    loads.clear()
    assert _lowered(edited, cache) == _lowered(edited)
    assert loads == [True, False]


def _units_loaded(loads, text, cache):
    loads.clear()
    assert _lowered(text, cache) == _lowered(text)
    return list(loads)


def _counting_parses(monkeypatch):
    from saturn.cfront import gnu_parser
    parsed = []
    parse = gnu_parser.SaturnParser.parse

    def recorded(self, text, *args, **kw):
        parsed.append(text)
        return parse(self, text, *args, **kw)
    monkeypatch.setattr(gnu_parser.SaturnParser, "parse", recorded)
    return parsed


def test_runs_of_small_declarations_are_one_unit_and_declare_their_typedefs(tmp_path,
                                                                            monkeypatch):
    """NOTE [declaration-runs]: the prototypes and typedefs between two definitions are one
    unit; loaded, its stub declares its typedef names, so `len_t * n = 0;` after it parses as
    a declaration (as a product it would not parse, and the file would be parsed again)."""
    cache, loads = _counting_cache(tmp_path, monkeypatch)
    run = "".join(f"int helper_{k}(int);\n" for k in range(10)) + "typedef int len_t;\n"
    text = ('# 1 "a.c"\nint first(void) { return 1; }\n' + run +
            "int use(len_t x) {\n  len_t * n = 0;\n  return helper_3(x) + first() + (n != 0);\n}\n")
    assert _units_loaded(loads, text, cache) == [False, False, False]
    edited = text.replace("return 1;", "return 2;").replace("(n != 0)", "(n == 0)")
    parsed = _counting_parses(monkeypatch)
    assert _units_loaded(loads, edited, cache) == [False, True, False]
    assert len(parsed) == 2   # the cached lowering's, then the plain one it is compared with
    assert "typedef int __saturn_body_1, len_t;" in parsed[0] and "int helper_3" not in parsed[0]


def test_definitions_sharing_a_line_are_one_unit(tmp_path, monkeypatch):
    """A macro defining several functions puts them on one line: they are cached together
    (each alone could not be: its last line has more text). Consecutive stubs (the line, and
    `all` from the function cache) are parsed as one declaration."""
    cache, loads = _counting_cache(tmp_path, monkeypatch)
    gen = " ".join(f"static int get_{k}(int x) {{ return x + {k}; }}" for k in range(3))
    text = ('# 1 "a.c"\nint top(int x) { return x; }\n' + gen + "\n"
            "int all(int x) { return get_0(x) + get_1(x) + get_2(x) + top(x); }\n")
    assert _units_loaded(loads, text, cache) == [False, False, False]
    edited = text.replace("return x; }", "return x + 1; }", 1)
    parsed = _counting_parses(monkeypatch)
    assert _units_loaded(loads, edited, cache) == [False, True]
    assert "get_" not in parsed[0] and "return x + 1;" in parsed[0]
    assert parsed[0].count("__saturn_") == 1   # one stub for the line and `all`: a sequence


def test_the_head_is_parsed_once_and_its_typedefs_known_after_it(tmp_path, monkeypatch):
    """NOTE [head-cache]: the text up to the main file's return from its last #include."""
    parsed = _counting_parses(monkeypatch)
    head = ('# 1 "a.c"\n# 1 "h.h" 1\ntypedef struct S { int a; } S;\ntypedef int idx_t;\n'
            'static inline int get(S *s) { return s->a; }\n# 2 "a.c" 2\n')
    body = "int f(S *s, idx_t i) {\n  idx_t j = i;\n  return get(s) + j;\n}\n"
    cache = bodycache.BodyCache(str(tmp_path), "salt")
    assert _lowered(head + body, cache) == _lowered(head + body)
    edited = head + body.replace("idx_t j = i;", "idx_t j = i + 1;")
    parsed.clear()
    got = _lowered(edited, cache)
    assert len(parsed) == 1 and "typedef" not in parsed[0] and "idx_t j = i + 1;" in parsed[0]
    assert got == _lowered(edited)


def test_no_head_when_the_main_file_declares_before_its_last_include(tmp_path):
    """SQLite's amalgamation #includes down to its last lines: its head would be the file."""
    text = ('# 1 "a.c"\nint early(void) { return 1; }\n# 1 "h.h" 1\ntypedef int idx_t;\n'
            '# 3 "a.c" 2\nidx_t late(void) { return early(); }\n')
    cache = bodycache.BodyCache(str(tmp_path), "salt")
    assert _lowered(text, cache) == _lowered(text)
    heads = tmp_path / "bodies" / "heads"
    assert not heads.exists() or not list(heads.iterdir())
    alone = text.replace("int early(void) { return 1; }\n", "\n")
    _lowered(alone, cache)
    assert len(list(heads.iterdir())) == 1


def test_a_moved_line_constant_is_loaded_at_its_new_line(tmp_path, monkeypatch):
    """NOTE [moved-line-constants]: `g` passes its own line (as `assert` passes __LINE__) and
    moves down two lines: it comes from the cache, the constant moved with it; the same
    number in a string, or another number, stays."""
    cache, loads = _counting_cache(tmp_path, monkeypatch)

    def text(pad):
        at = 4 + pad
        return ('# 1 "a.c"\nint log_at(int, const char *);\nint top(void) { return 0; }\n' +
                "int pad;\n" * pad + f'int g(int x) {{\n  return log_at({at}, "4") + '
                f'(x == {at}) + log_at(99, "x");\n}}\n')
    assert _units_loaded(loads, text(0), cache) == [False, False]
    assert _units_loaded(loads, text(2), cache) == [True]
    got = _lowered(text(2), cache)["g"]
    assert got == _lowered(text(2))["g"] and "value=6" in got[3] and "value=4" not in got[3]
    assert '"4"' in got[3]


def test_line_constants_found_whatever_their_digits():
    """A number equal to its own line becomes __LINE__ when the lines span a digit count
    (99 to 101) or share leading digits (1200 to 1202); the same digits elsewhere, inside a
    longer number or on another line, stay."""
    lc = bodycache._line_constants
    assert lc("f(99);\ng(1);\nh(101);", 99) == "f(__LINE__);\ng(1);\nh(__LINE__);"
    assert lc("f(0);\ng(1201);\nh(12010);", 1200) == "f(0);\ng(__LINE__);\nh(12010);"
    assert lc("f(1200);\ng(7);", 1300) == "f(1200);\ng(7);"
    assert lc('f(120);\n# 140 "a.c"\nf(140);', 120) == 'f(__LINE__);\n# 140 "a.c"\nf(__LINE__);'


def test_keys_come_from_the_memo_of_the_last_lowering(tmp_path, monkeypatch):
    """NOTE [key-memo]: a second lowering of the same text computes no key; after an edit of
    f3 two lines down, f3 is keyed again, and f2, whose marker moved (f1 has no line marker
    and no number of a line it spans now); the keys and the lowering are those computed
    without the memo."""
    cache, _ = _counting_cache(tmp_path, monkeypatch)
    computed = []
    plain = bodycache.BodyCache._keys

    def counted(self, *args):
        computed.append(args[0][:12])
        return plain(self, *args)
    monkeypatch.setattr(bodycache.BodyCache, "_keys", counted)
    assert _lowered(_text(FUNCS), cache) == _lowered(_text(FUNCS))
    first = len(computed)
    assert first >= 3
    computed.clear()
    assert _lowered(_text(FUNCS), cache) == _lowered(_text(FUNCS)) and computed == []
    edited = _shifted(FUNCS, 2).replace("return f1(&t)", "return 1 + f1(&t)")
    assert _lowered(_text(edited, 2), cache) == _lowered(_text(edited, 2))
    assert sorted(computed) == ["int f2(int x", "int f3(int x"]
    fresh = bodycache.BodyCache(str(tmp_path / "other"), "salt")
    text = _text(edited, 2)
    from saturn.cfront.prune import prune_decls
    pruned, decls = prune_decls(text, "a.c", None)
    spans = bodycache.decl_spans(pruned, decls)
    cache.open_keys("a.c")
    for d, (file, first_line, _) in zip(decls, spans):
        assert cache.keys(pruned, d, file, first_line) == fresh.keys(pruned, d, file, first_line)


def test_a_memo_key_is_computed_again_when_a_number_becomes_its_line(tmp_path):
    """`return 9;` on line 6 is a number; moved to line 9 it is a line constant (NOTE
    [key-memo]): the memo's keys, moved, equal fresh ones whatever the line."""
    from saturn.cfront.prune import prune_decls
    memo, fresh = bodycache.BodyCache(str(tmp_path), "s"), bodycache.BodyCache(str(tmp_path), "s")
    for pad in (4, 6, 7, 8, 12, 7, 4):
        text = '# 1 "a.c"\n' + "int pad;\n" * pad + "int g(void) {\n  return 9;\n}\n"
        pruned, decls = prune_decls(text, "a.c", None)
        (file, first, _), d = bodycache.decl_spans(pruned, decls)[-1], decls[-1]
        memo.open_keys("a.c")
        assert memo.keys(pruned, d, file, first) == fresh.keys(pruned, d, file, first)
        assert len(fresh.keys(pruned, d, file, first)) == (2 if first + 1 == 9 else 1)
        memo.keep_keys()
