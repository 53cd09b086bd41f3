#include <assert.h>

void ok_promotion(unsigned char a, unsigned char b) {
    int s = a + b;
    assert(s <= 510);
}

void bad_truncation(int x) {
    char c = (char)x;
    assert(c == x);   // expect: assert.violation
}

void ok_sign_extension(signed char c) {
    int i = c;
    if (c < 0) assert(i < 0);
}

void ok_zero_extension(unsigned char c) {
    int i = c;
    assert(i >= 0);
}

void ok_usual_arith(int i) {
    unsigned u = 1;
    if (i == -1) assert(i > u);   /* -1 converts to UINT_MAX */
}

void ok_long_width(long l) {
    unsigned long big = 1ul << 40;
    assert(big > 4294967295ul);
}

void ok_bool(int x) {
    _Bool b = x;
    if (x == 256) assert(b == 1);
}
