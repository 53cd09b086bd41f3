// A descriptor a callee keeps only where it succeeds (in the block it returns, or null) is taken
// only there: "descriptors taken: param0 if ret!=0", and its caller must close it on failure.
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

struct conn { int fd; };
struct conn *current;

static struct conn *conn_new(int fd) {   // expect-summary: conn_new: resource: not an allocator; escapees: none; descriptors taken: param0 if ret!=0
    struct conn *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    c->fd = fd;
    return c;
}

int bad_not_closed_on_failure(const char *path) {
    int fd = open(path, O_RDONLY);             // expect: resource.leak
    if (fd < 0)
        return -1;
    current = conn_new(fd);
    return current ? 0 : -1;
}
