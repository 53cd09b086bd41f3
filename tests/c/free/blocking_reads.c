// A read that returns -1, 0 or 1, and -1 only where it was asked not to block (leaving the
// caller's buffer pointer as it was there). Called blocking in a loop that frees each
// message, `while (read_msg(...))` never sees -1; called non-blocking by a loop that returns
// on 0 and goes round again on -1, only 1 is left: either way the pointer freed is each
// round's new buffer. Taken as any negative number, -2 reached the use with the buffer the
// last round freed.
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

int ready(int fd);

int read_msg(int fd, uint8_t **buf, uint32_t *len, int nonblock) {
    if (nonblock && !ready(fd))
        return -1;
    if (read(fd, len, sizeof *len) != sizeof *len || *len > 65536)
        return 0;
    *buf = malloc(*len);
    if (!*buf)
        return 0;
    if (read(fd, *buf, *len) != (ssize_t)*len) {
        free(*buf);
        return 0;
    }
    return 1;
}
// expect-summary: read_msg: result: one of -1, 0, 1; never negative where param3 == 0

int command(uint8_t *msg, uint32_t len) { return len > 0 ? msg[0] : 0; }

void ok_drain(int fd) {
    uint8_t *msg;
    uint32_t len;
    while (read_msg(fd, &msg, &len, 0)) {
        if (command(msg, len) == 3) {
            free(msg);
            break;
        }
        free(msg);
    }
}

void bad_drain_nonblocking(int fd) {
    uint8_t *msg;
    uint32_t len;
    while (read_msg(fd, &msg, &len, 1)) {
        if (command(msg, len) == 3)   // expect: memory.use-after-free
            break;
        free(msg);   // expect: memory.double-free // expect-also: memory.double-free
    }
}

int ok_wait(int fd) {
    uint8_t *msg;
    uint32_t len;
    for (;;) {
        int r = read_msg(fd, &msg, &len, 1);
        if (r == 0)
            return -1;
        if (r == -1)
            continue;
        r = command(msg, len);
        free(msg);
        if (r == 0)
            return 0;
    }
}
