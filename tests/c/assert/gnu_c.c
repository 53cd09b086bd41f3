// GNU C and C23 as GCC accepts them (issue: real projects' files skipped): each construct
// parses and means what it means in C, bit for bit.
#include <assert.h>
#include <stddef.h>

struct inner { int a[4]; struct { int b; } s; };
struct outer { int x; struct inner in; _Static_assert(sizeof(int) == 4, "member"); };
enum level { LOW __attribute__((deprecated)), HIGH = 4 };

void ok_int128_wide(unsigned long a) {
    unsigned __int128 p = (unsigned __int128)a * 4;
    assert((unsigned long)(p >> 64) < 4);
}

void bad_int128_high(unsigned long a) {
    __uint128_t p = (__uint128_t)a * a;
    assert((p >> 64) == 0);   // expect: assert.violation
}

void ok_int128_names(__int128_t x, signed __int128 y, __int128 unsigned z) {
    assert(sizeof(x) == 16 && sizeof(y) == 16 && sizeof(z) == 16 && (__int128)(z >> 1) >= 0);
}

void ok_statement_expressions(int x) {
    int a = (__extension__ ({ int t = x; t & 1; }));
    int b = (int)({ x & 2; });
    int c[2] = { ({ 1; }), ({ int q = ({ 3; }); q; }) };
    assert(a <= 1 && b <= 2 && c[0] == 1 && c[1] == 3);
}

void ok_case_ranges(int c) {
    int k = 0;
    switch (c) {
    case 'a' ... 'z': k = 1; break;
    case '0' ... '9': k = 2; break;
    }
    if (k == 1) assert(c >= 'a' && c <= 'z');
}

int ranged[10] = { [0 ... 4] = 1, [5 ... 9] = 2 };

void ok_designated_range(void) {
    assert(ranged[3] == 1 && ranged[7] == 2);
}

void ok_builtins(void) {
    assert(__builtin_types_compatible_p(int, int));
    assert(!__builtin_types_compatible_p(int, long));
    assert(__builtin_choose_expr(1, 10, 20L) == 10);
    assert(__builtin_offsetof(struct outer, in.s.b) == 4 + 16);
    assert(offsetof(struct outer, in.a[2]) == 4 + 8);
}

void ok_typeof_and_auto(int x) {
    __auto_type y = x;
    typeof(y) z = y;
    typeof(int *) p = &z;
    __typeof__(typeof(long)) w = 0;
    assert(*p == x && sizeof(w) == 8);
}

void ok_generic(long l) {
    assert(_Generic(l, int: 1, long: 2, default: 0) == 2);
}

[[nodiscard]] int ok_c23(void) {
    bool b = true;
    int *p = nullptr;
    constexpr int k = 0b1010;
    int big = 1'000'000;
    [[maybe_unused]] int u = 0;
    static_assert(sizeof(int) == 4, "keyword");
    assert(b && !false && p == 0 && k == 10 && big == 1000000 && HIGH == 4);
    return k;
}

void bad_c23_separators(unsigned x) {
    unsigned low = 0xFFFF'FFF0u, top = 0xFFFF'FFFFu;
    if (x > low) assert(x < top);   // expect: assert.violation
}

int ok_attributes(int x __attribute__((unused)), int y) {
    int v __attribute__((aligned(16))) = y;
    switch (x) {
    case 1: v++; __attribute__((fallthrough));
    case 2: v++; [[fallthrough]];
    default: break;
    }
    assert(v >= y || v < 0);
    return v;
}

int bad_computed_goto(int op) {
    static void *table[] = { &&zero, &&one };
    int r = 5;
    goto *table[op & 1];   // to any label whose address is taken
zero: r = 0; goto out;
one: r = 1; goto out;
out:
    assert(r == 0);   // expect: assert.violation
    return r;
}

int ok_computed_goto(int op) {
    static void *table[] = { &&zero, &&one };
    int r = 5;
    goto *table[op & 1];
zero: r = 0; goto out;
one: r = 1; goto out;
out:
    assert(r == 0 || r == 1);
    return r;
}

int bad_asm_goto(int x) {
    asm goto ("" : : : : yes);
    assert(x > 100);   // expect: assert.violation
    return 0;
yes:
    return 1;
}

int ok_asm_goto(int x) {
    if (x < 0) x = 0;
    asm goto ("" : : : : yes);
    return 0;
yes:
    assert(x >= 0);
    return 1;
}
