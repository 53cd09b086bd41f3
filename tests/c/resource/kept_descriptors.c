/* A callee that keeps the descriptor it is given in an object the caller sees (libevent's
 * bufferevent_socket_new, lighttpd's fdlog_init): its summary says the descriptor is taken, so
 * the caller's handing it over is no leak. The copy is made through a pointer that may be null
 * (a choice of the old value and the descriptor), into the block the callee returns, or into
 * one it hands out through an out-parameter (nng's nni_posix_pfd_init), taken then only where
 * the callee could hand it out. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

struct conn { int fd; int flags; };
struct conn *current;

static void conn_init(struct conn *c, int fd) {
    c->flags = 0;
    c->fd = fd;
}
// expect-summary: conn_init: resource: not an allocator; escapees: none; descriptors taken: param1

static struct conn *conn_new(int fd) {
    struct conn *c = malloc(sizeof *c);
    if (!c)
        abort();
    conn_init(c, fd);
    return c;
}
// expect-summary: conn_new: resource: not an allocator; escapees: none; descriptors taken: param0

static struct conn *log_open(int fd) {
    struct conn *c = malloc(sizeof *c);
    if (!c)
        abort();
    c->fd = fd >= 0 ? fd : 2;
    c->flags = 1;
    return c;
}

static int pfd_init(struct conn **connp, int fd) {
    struct conn *c = malloc(sizeof *c);
    if (!c)
        return -1;
    c->fd = fd;
    c->flags = 0;
    *connp = c;
    return 0;
}
// expect-summary: pfd_init: resource: not an allocator; escapees: none; descriptors taken: param1 if ret==0

int ok_listening(const char *path) {
    struct conn *c;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    if (pfd_init(&c, fd) != 0) {
        close(fd);
        return -1;
    }
    current = c;
    return 0;
}

int bad_not_closed_on_failure(const char *path) {
    struct conn *c;
    int fd = open(path, O_RDONLY);             // expect: resource.leak
    if (fd < 0)
        return -1;
    if (pfd_init(&c, fd) != 0)
        return -1;
    current = c;
    return 0;
}

void ok_handed_over(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return;
    current = conn_new(fd);
}

void ok_logged(const char *path) {
    current = log_open(open(path, O_WRONLY | O_APPEND));
}

static int checksum(int fd) {
    char buf[16];
    return (int)read(fd, buf, sizeof buf);
}

int bad_only_read(const char *path) {
    int fd = open(path, O_RDONLY);             // expect: resource.leak
    if (fd < 0)
        return -1;
    return checksum(fd);
}
