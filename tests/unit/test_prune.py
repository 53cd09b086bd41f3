"""Header declarations the file never needs are dropped before parsing (NOTE [lazy-headers])."""
import saturn.cfront.parse as parse_mod
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
    """prune_decls' store for the scan of the headers (NOTE [header-scan])."""

    def __init__(self):
        self.kept, self.hits = {}, 0

    def get(self, head, main_file):
        import pickle
        got = self.kept.get((head, main_file))
        self.hits += got is not None
        return pickle.loads(got) if got is not None else None

    def put(self, head, main_file, decls):
        import pickle
        self.kept[head, main_file] = pickle.dumps(decls)


def _pruned(text, memo=None):
    from saturn.cfront.prune import prune_decls
    out, decls = prune_decls(text, "/src/main.c", memo)
    return out, [(d.start, d.end, d.main, d.typedef, sorted(d.declared), sorted(d.mentions),
                  d.body, sorted(d.types)) for d in decls]


def test_the_scan_of_the_headers_is_reused_when_only_the_file_changed():
    memo = _Memo()
    text = TEXT.replace('# 1 "/src/main.c"\n', '# 1 "/src/main.c" 2\n')   # back from h.h
    assert _pruned(text, memo) == _pruned(text) and len(memo.kept) == 1 and memo.hits == 0
    edited = text.replace("return used(y)", "return 1 + used(y)")
    assert edited != text
    assert _pruned(edited, memo) == _pruned(edited) and memo.hits == 1
    # a header changed: its scan is not reused
    changed = text.replace("OTHER_X };", "OTHER_X, OTHER_Y };")
    assert _pruned(changed, memo) == _pruned(changed) and memo.hits == 1
    assert len(memo.kept) == 2


def test_an_include_inside_a_declaration_keeps_no_scan():
    memo = _Memo()
    text = '# 1 "/src/main.c"\nint t[] = {\n# 1 "/src/tab.h" 1\n1, 2\n# 3 "/src/main.c" 2\n};\n'
    assert _pruned(text, memo) == _pruned(text) and memo.kept == {}
