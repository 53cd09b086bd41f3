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
