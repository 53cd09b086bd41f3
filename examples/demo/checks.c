/* A small example tree for `saturn check`: one assertion that can fail, one that cannot. */
#include <assert.h>

int clamp_byte(unsigned char c) {
    if (c & 0x80)
        assert(c >= 128);           /* holds at the bit level */
    return c;
}

int next_id(int id) {
    int next = id + 1;
    assert(next > id);              /* fails for id == INT_MAX (wrap-around) */
    return next;
}
