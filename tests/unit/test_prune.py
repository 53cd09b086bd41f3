"""Header declarations the file never needs are not parsed (NOTE [lazy-headers]); the kept
ones are parsed one at a time (NOTE [declaration-parse])."""
from pycparser import c_ast

from saturn.cfront.gnu_parser import SaturnParser
from saturn.cfront.parse import Declarations
from saturn.cfront.prune import kept_declarations
from saturn.incremental import lowering, units
from saturn.incremental.digest import ir_digest
from saturn.incremental.lines import decl_spans
from saturn.ir.lower import lower_unit
from saturn.ir.lower_expr import _GEN, source_text
from saturn.ir.program import Program

TEXT = '''# 1 "/src/main.c"
# 1 "/src/h.h" 1
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
# 2 "/src/main.c" 2
int f(kuid_t y, handler_t h) { global_s.m = MODE_C; return used(y) + two(h(y)) + pk_global.a; }
static int g(int y) { return printk("%d", y); }
'''


def _digests(text):
    program = Program()
    lower_unit(program, SaturnParser().parse(text, "/src/main.c"), "/src/main.c", lambda p: p)
    return {key: ir_digest(fn) for key, fn in program.functions.items()}


def _kept(text):
    return "\n".join(text[d.start:d.end] for d in kept_declarations(text, {"/src/main.c"}))


def test_unneeded_declarations_go():
    out = _kept(TEXT)
    for gone in ("unused_s", "never_called", "return x - 1", "enum other", "_Static_assert",
                 "int one("):
        assert gone not in out, gone
    for kept in ("typedef unsigned int u32;", "typedef struct { u32 v; } kuid_t;",
                 "typedef int (*handler_t)(kuid_t);", "MODE_B = 4", "struct s { u32 a;",
                 "return helper(x.v) + 1", "return x * 2", "extern int printk(",
                 "struct s global_s;", "static int g(int y)", "pk { char c; int a; };",
                 "extern __typeof__(struct pk) pk_global;"):
        assert kept in out, kept


def _by_declarations(text):
    unit = units.lower_text(text, "/src/main.c", "/")
    return {key: ir_digest(fn) for key, fn in unit.functions.items()}


def test_kept_declarations_lower_to_the_same_functions():
    full, pruned = _digests(TEXT), _by_declarations(TEXT)
    assert pruned == full
    assert sorted(k.split(":")[-1] for k in full) == ["f", "g", "helper", "two", "used"]


def test_declarations_parsed_one_at_a_time_keep_their_places():
    """`two` shares a line with `one`, which is not kept: it keeps its column."""
    decls = kept_declarations(TEXT, {"/src/main.c"})
    parser, nodes = Declarations("/src/main.c"), []
    for d, (file, first, _) in zip(decls, decl_spans(TEXT, decls)):
        col = d.start - TEXT.rfind("\n", 0, d.start)
        nodes += parser.parse(TEXT[d.start:d.end], file, first, col)[0]
    whole = SaturnParser().parse(TEXT, "/src/main.c").ext

    def places(ext):
        return {n.decl.name: (n.decl.coord.file, n.decl.coord.line, n.decl.coord.column)
                for n in ext if isinstance(n, c_ast.FuncDef)}
    assert places(nodes) == {k: v for k, v in places(whole).items() if k not in ("one", "unused")}
    whole = SaturnParser().parse(TEXT, "/src/main.c").ext
    placed = {n.name: (n.coord.file, n.coord.line, n.coord.column) for n in whole
              if getattr(n, "name", None)} | \
        {n.decl.name: (n.coord.file, n.coord.line, n.coord.column) for n in whole
         if hasattr(n, "decl")}
    for n in nodes:
        name = n.decl.name if hasattr(n, "decl") else getattr(n, "name", None)
        if name:
            assert (n.coord.file, n.coord.line, n.coord.column) == placed[name], name


def test_anonymous_structs_are_named_by_their_text_not_their_number():
    extra = TEXT.replace("struct unused_s {", "typedef struct { char c; } other_t;\nstruct unused_s {")
    assert _digests(extra.replace('# 1 "/src/main.c"', '# 2 "/src/main.c"')) == _digests(TEXT)


def test_unbalanced_text_is_not_split():
    broken = '# 1 "/src/h.h"\nstatic int h(void) { return 1; \n'
    assert kept_declarations(broken, {"/src/main.c"}) is None


def test_a_wrong_guess_falls_back_to_the_whole_text(monkeypatch):
    """A kept declaration that does not parse alone: the whole text is parsed instead."""
    real = lowering.needed

    def halved(decls):
        decls = real(decls)
        decls[0].end = decls[0].start + 5
        return decls
    monkeypatch.setattr(lowering, "needed", halved)
    assert _by_declarations(TEXT) == _digests(TEXT)


def test_expression_text_does_not_depend_on_an_earlier_failed_rendering():
    node = SaturnParser().parse("int x = ({ int a = 1; a; });", "t.c").ext[0].init
    fresh = source_text(node)
    _GEN.indent_level = 3
    assert source_text(node) == fresh
