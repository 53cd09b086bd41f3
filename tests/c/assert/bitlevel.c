#include <assert.h>

void ok_unsigned_char(unsigned char c) {
    if (c & 0x80) assert(c >= 128);
}

void bad_signed_char(signed char c) {
    if (c & 0x80) assert(c >= 128);   // expect: assert.violation
}

void ok_mask_correlation(unsigned x) {
    if ((x & 3) == 0) assert(x % 4 == 0);
}

void bad_mask(unsigned x) {
    if ((x & 1) == 0) assert(x % 4 == 0);   // expect: assert.violation
}

void ok_xor_swap(int a, int b) {
    int x = a, y = b;
    x ^= y; y ^= x; x ^= y;
    assert(x == b && y == a);
}
