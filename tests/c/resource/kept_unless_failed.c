// saturn-xfail: a descriptor a callee keeps is taken whatever the callee returns; one it keeps only when it succeeds (and the caller must close on failure) would need the summary's "taken" to carry the result's condition, which is known only after the call while escapes are marked before it
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

struct conn { int fd; };
struct conn *current;

static struct conn *conn_new(int fd) {
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
