/* A reader that allocates its buffer, and frees it again where the read fails (leaving the
 * caller's pointer dangling there), still hands the buffer out where it succeeds: its callers
 * own it then. Taken as freed, it was no allocator, and a caller that lost it went unseen. */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

int read_msg(int fd, uint8_t **buf, uint32_t len) {
    ssize_t d = 0, r;
    *buf = malloc(len);
    if (!*buf)
        return 0;
    while (d < (ssize_t)len) {
        if ((r = read(fd, *buf + d, len - d)) <= 0) {
            free(*buf);
            return 0;
        }
        d += r;
    }
    return 1;
}
// expect-summary: read_msg: leak: not an allocator; new memory through *param1 exactly when ret==1

int first_byte(int fd) {
    uint8_t *msg;
    if (!read_msg(fd, &msg, 4))
        return -1;
    int b = msg[0];
    free(msg);
    return b;
}

int bad_first_byte(int fd) {
    uint8_t *msg;
    if (!read_msg(fd, &msg, 4))   // expect: memory.leak
        return -1;
    return msg[0];
}
