#include <assert.h>
#include <limits.h>

void bad_wraparound(int x) {
    int y = x + 1;
    assert(y > x);   // expect: assert.violation
}

void ok_wrap_only_at_max(int x) {
    if (x + 1 < x) assert(x == INT_MAX);
}

void ok_unsigned_wrap(unsigned u) {
    if (u + 1 == 0) assert(u == 4294967295u);
}

void ok_division_truncates(int a) {
    if (a == -7) { assert(a / 2 == -3); assert(a % 2 == -1); }
}

void ok_int_min_div(int a) {
    if (a == INT_MIN) assert(a / -1 == INT_MIN);
}

void bad_division_by_zero_unconstrained(int a, int b) {
    if (b == 0) assert(a / b == 0);   // expect: assert.violation
}

void ok_multiply(unsigned short a) {
    unsigned r = (unsigned)a * 3u;
    assert(r / 3 == a);
}

void ok_shift(unsigned x) {
    if (x < 16) assert((1u << x) >= 1);
}

void ok_arith_shift(int x) {
    if (x < 0) assert((x >> 1) < 0);
}

void bad_logical_shift(unsigned x) {
    if (x > 0x80000000u) assert((x >> 1) > 0x80000000u);   // expect: assert.violation
}

/* GCC's spellings: `__alignof (type)` (zstd), `__alignof__ (expr)`, `__extension__ (type) x`
 * (x86 intrinsics headers). */
struct aligned_pair { char c; double d; };
void ok_gnu_alignof_and_extension_cast(int x) {
    struct aligned_pair p;
    assert(__alignof(int) == 4 && __alignof__(p.d) == 8 && __alignof__ (struct aligned_pair) == 8);
    long w = __extension__ (long)(x);
    assert(w == x);
    assert(__alignof(char) == 2);                // expect: assert.violation
}
