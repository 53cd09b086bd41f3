// A read that returns -1, 0 or 1, and leaves the caller's buffer pointer as it was where it
// returns less than 0: a caller that returns on 0 and goes round again on -1 has only 1
// left, a new buffer each round. Taken as any negative number, -2 reached the use with the
// buffer the last round freed.
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

int ready(int fd);

int read_msg(int fd, uint8_t **buf, uint32_t *len) {
    if (!ready(fd))
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
// expect-summary: read_msg: result: one of -1, 0, 1

int command(uint8_t *msg, uint32_t len) { return len > 0 ? msg[0] : 0; }

int ok_wait(int fd) {
    uint8_t *msg;
    uint32_t len;
    for (;;) {
        int r = read_msg(fd, &msg, &len);
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
