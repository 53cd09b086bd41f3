// A read that returns -1 only where it was asked not to block (and then leaves the caller's
// buffer pointer as it was), called blocking in a loop that frees each message: the loop's
// `while (read_msg(...))` never sees -1, so the pointer it frees is each round's new buffer.
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
