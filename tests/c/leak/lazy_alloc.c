/* `if (!*buf) *buf = alloc();` called in a loop (fs/fat's fat_parse_long): the second call keeps
 * the block the first one made, so nothing is lost. */
#include <stdlib.h>

static int parse_one(int i, char **buf) {
    if (!*buf) {
        *buf = malloc(64);
        if (!*buf)
            return -12;
    }
    (*buf)[0] = (char)i;
    return i > 3;
}
// expect-summary: parse_one: leak: not an allocator; new memory through *param1 if ret>=0 and *param1 was null

int ok_search(int n) {
    char *buf = NULL;
    int err = 0;
    for (int i = 0; i < n; i++) {
        err = parse_one(i, &buf);
        if (err)
            break;
    }
    free(buf);
    return err;
}

int bad_search(int n) {
    char *buf = NULL;
    int err = parse_one(n, &buf);              // expect: memory.leak
    if (err < 0)
        return err;
    return buf[0];
}
