"""Header declarations the file never needs are dropped before parsing (NOTE [lazy-headers])."""
import pickle

import saturn.cfront.parse as parse_mod
import saturn.cfront.prune as prune_mod
from saturn.cfront.gnu_parser import SaturnParser
from saturn.cfront.parse import parse_text
from saturn.cfront.prune import prune
from saturn.ir.digest import ir_digest
from saturn.ir.lower import lower_unit
from saturn.ir.lower_expr import _GEN, source_text
from saturn.ir.program import Program

TEXT = '''# 1 "/src/h.h"
typedef unsigned int u32;
typedef struct { u32 v; } kuid_t;
typedef int (*handler_t)(kuid_t);
enum mode { MODE_A, MODE_B = 4, MODE_C };
enum other { OTHER_X };
struct s { u32 a; enum mode m; };
struct unused_s { long z; };
extern int printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int never_called(struct unused_s *p);
static inline u32 used(kuid_t x) { return helper(x.v) + 1; }
static inline u32 helper(u32 x) { return x * 2; }
static inline int __attribute__((always_inline)) unused(int x)
{
    return x - 1;
}
static inline int one(int x) { return x; } static inline int two(int x) { return x + 2; }
_Static_assert(sizeof(u32) == 4, "u32");
struct s global_s;
struct __attribute__((packed)) pk { char c; int a; };
extern __typeof__(struct pk) pk_global;
# 1 "/src/main.c"
int f(kuid_t y, handler_t h) { global_s.m = MODE_C; return used(y) + two(h(y)) + pk_global.a; }
static int g(int y) { return printk("%d", y); }
'''


def _digests(text):
    program = Program()
    lower_unit(program, SaturnParser().parse(text, "/src/main.c"), "/src/main.c")
    return {key: ir_digest(fn) for key, fn in program.functions.items()}


def test_unneeded_declarations_go_and_lines_stay():
    out = prune(TEXT, "/src/main.c")
    assert out.count("\n") == TEXT.count("\n")
    for gone in ("unused_s", "never_called", "return x - 1", "enum other", "_Static_assert",
                 "int one("):
        assert gone not in out, gone
    for kept in ("typedef unsigned int u32;", "typedef struct { u32 v; } kuid_t;",
                 "typedef int (*handler_t)(kuid_t);", "MODE_B = 4", "struct s { u32 a;",
                 "return helper(x.v) + 1", "return x * 2", "extern int printk(",
                 "struct s global_s;", "static int g(int y)", "pk { char c; int a; };",
                 "extern __typeof__(struct pk) pk_global;"):
        assert kept in out, kept
    assert '# 1 "/src/main.c"' in out
    line = out.split("\n")[16]  # `two` keeps its column after `one` went
    assert line.index("static inline int two") == TEXT.split("\n")[16].index("static inline int two")


def test_pruned_text_lowers_to_the_same_functions():
    full, pruned = _digests(TEXT), _digests(prune(TEXT, "/src/main.c"))
    assert pruned == full
    assert sorted(k.split(":")[-1] for k in full) == ["f", "g", "helper", "two", "used"]


def test_anonymous_structs_are_named_by_their_text_not_their_number():
    extra = TEXT.replace("struct unused_s {", "typedef struct { char c; } other_t;\nstruct unused_s {")
    assert _digests(extra.replace('# 1 "/src/main.c"', '# 2 "/src/main.c"')) == _digests(TEXT)


def test_unbalanced_text_is_left_alone():
    broken = '# 1 "/src/h.h"\nstatic int h(void) { return 1; \n'
    assert prune(broken, "/src/main.c") == broken


def test_a_wrong_guess_falls_back_to_the_whole_text(monkeypatch):
    monkeypatch.setattr(parse_mod, "prune_decls",
                        lambda text, path, memo=None: ("int broken(;\n", []))
    tu = parse_text(TEXT, "/src/main.c")
    assert [d.decl.name for d in tu.ast.ext[-2:]] == ["f", "g"]


def test_expression_text_does_not_depend_on_an_earlier_failed_rendering():
    node = SaturnParser().parse("int x = ({ int a = 1; a; });", "t.c").ext[0].init
    fresh = source_text(node)
    _GEN.indent_level = 3
    assert source_text(node) == fresh


class _Memo:
    """prune_decls' store for a file's last scan (NOTE [incremental-scan]), pickled as on disk;
    counts the declarations the scanner reads."""

    def __init__(self, monkeypatch):
        self.kept, self.read = {}, 0
        real = prune_mod._Scanner.decls

        def counted(scanner, *args):
            for pair in real(scanner, *args):
                self.read += 1
                yield pair
        monkeypatch.setattr(prune_mod._Scanner, "decls", counted)

    def last_scan(self, main_file):
        got = self.kept.get(main_file)
        return pickle.loads(got) if got is not None else None

    def keep_scan(self, main_file, scan):
        self.kept[main_file] = pickle.dumps(scan)


def _pruned(text, memo=None):
    out, decls = prune_mod.prune_decls(text, "/src/main.c", memo)
    return out, [(d.start, d.end, d.main, d.typedef, sorted(d.declared), sorted(d.mentions),
                  d.body, sorted(d.types)) for d in decls]


def _scanned(memo, text):
    """The pruned text and declarations with the memo, checked against a scan from scratch,
    and how many declarations the scanner read for it."""
    before = memo.read
    got = _pruned(text, memo)
    read = memo.read - before
    assert got == _pruned(text)
    return read


BIG = TEXT.replace('# 1 "/src/main.c"\n', "".join(
    f"static inline int pad{i}(int x) {{ return x + {i}; }}\n" for i in range(600)) +
    '# 1 "/src/main.c" 2\n')


def test_an_edit_rescans_only_around_it(monkeypatch):
    memo = _Memo(monkeypatch)
    total = _scanned(memo, BIG)
    assert total > 600 and _scanned(memo, BIG) <= 2   # unchanged: nothing read again
    body = BIG.replace("return x + 300;", "int y = x; return y + 300;")
    assert 1 <= _scanned(memo, body) < 20
    longer = body.replace("pad450(int x) { return x + 450; }",
                          "pad450(int x) {\n  return x + 450;\n}\nint extra(void);")
    assert 1 <= _scanned(memo, longer) < 20
    edited = longer.replace("return used(y)", "return 1 + used(y)")
    assert 1 <= _scanned(memo, edited) < 20
    assert _scanned(memo, edited.replace("pad599", "pad_last").rsplit("static int g", 1)[0]) < 20
    assert _scanned(memo, BIG) > 100   # changes far apart: what is between them is read again


def test_what_gcc_renumbers_after_an_added_line_does_not_stop_the_reuse(monkeypatch):
    """Its markers and its line constants (an `assert`'s `__LINE__`) after the edit."""
    def main_file(added, constants):   # a marker (gcc's, after blank lines) every 10
        out, line = ['# 1 "/src/main.c"\n'], 1
        for i in range(400):
            if i == 5 and added:
                out.append("int added;\n")
                line += 1
            if i % 10 == 9:
                line += 12
                out.append(f'# {line} "/src/main.c"\n')
            out.append(f"int m{i}(int x) {{ return x + {line if constants else i}; }}\n")
            line += 1
        return "".join(out)
    for constants in (False, True):
        memo = _Memo(monkeypatch)
        assert _scanned(memo, main_file(0, constants)) == 400
        assert _scanned(memo, main_file(1, constants)) < 30   # (the tail: to 512 characters)


def test_a_typedef_or_a_file_change_in_an_edit_is_seen_after_it(monkeypatch):
    """Old declarations after the edit are not taken while the state differs: a new typedef
    name (`pad_t x` declares `x`, no longer `pad_t`) or another current file."""
    memo = _Memo(monkeypatch)
    uses = BIG.replace("static inline int pad500(", "pad_t pad_x; static inline int pad500(")
    _scanned(memo, uses)
    typedef = uses.replace("static inline int pad100(", "typedef int pad_t;\n"
                                                         "static inline int pad100(")
    assert _scanned(memo, typedef) > 400
    _scanned(memo, uses)
    main = uses.replace("static inline int pad100(", '# 7 "/src/main.c"\n'
                                                     "static inline int pad100(")
    assert _scanned(memo, main) > 400   # the main file is current up to the end's marker
    _scanned(memo, uses)
    back = main.replace("static inline int pad110(", '# 9 "/src/h.h"\n'
                                                     "static inline int pad110(")
    assert _scanned(memo, back) < 30    # and only up to pad110 here




def test_fewer_markers_keep_every_coordinate(tmp_path):
    """NOTE [fewer-markers]: dominated markers go, blank lines after one count in its line."""
    from pycparser import c_ast
    from saturn.cfront.discover import SourceFile
    from saturn.cfront.preprocess import preprocess
    text = ('# 1 "h.h"\n\n# 5 "f.h" 1 3\n\n# 9 "g.h"\n\n\nint y;\n  \n#pragma once\n'
            '# 3 "m.c" 2\n\n    int z;\n')
    assert prune_mod.fewer_markers(text) == \
        '# 11 "g.h"\nint y;\n  \n#pragma once\n# 4 "m.c" 2\n    int z;\n'
    (tmp_path / "t.c").write_text("#include <stdio.h>\n#include <stdlib.h>\n\n\n\n\n\n\n\n\n\n\n"
                                  "int f(int x)\n{\n\n\n\n\n\n\n\n\n\n\n  return x;\n}\n")
    pre = prune_mod.prune(preprocess(SourceFile(str(tmp_path / "t.c"), (), str(tmp_path))),
                          str(tmp_path / "t.c"))

    def coords(t):
        out = []
        for node in _walk(SaturnParser().parse(t, "t.c")):
            c = node.coord
            out.append((type(node).__name__, c and (c.file, c.line, c.column)))
        return out

    def _walk(node):
        yield node
        for _, child in node.children():
            yield from _walk(child)
    fewer = prune_mod.fewer_markers(pre)
    assert fewer.count("\n#") * 2 < pre.count("\n#") and fewer.count("\n") * 2 < pre.count("\n")
    assert coords(fewer) == coords(pre) and ("Return", (str(tmp_path / "t.c"), 25, 3)) in \
        coords(pre)
    assert isinstance(SaturnParser().parse(fewer, "t.c"), c_ast.FileAST)
