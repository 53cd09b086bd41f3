// A pointer read from the function's inputs may be a constant address: `c->start ==
// MAP_FAILED` is taken both ways (NOTE [sentinels]), so the file opened on the mapping's
// first use and left open on the error return is a leak.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

struct chunk { char *start; long length; const char *name; };

int bad_copy(struct chunk *c, int out) {
    int fd = open(c->name, O_WRONLY);   // expect: resource.leak
    if (fd < 0)
        return -1;
    if (c->start == MAP_FAILED) {
        int in = open(c->name, O_RDONLY);
        if (in < 0)
            return -1;
        c->start = mmap(NULL, c->length, PROT_READ, MAP_SHARED, in, 0);
        close(in);
        if (c->start == MAP_FAILED)
            return -1;
    }
    write(fd, c->start, c->length);
    close(fd);
    return 0;
}

int ok_copy(struct chunk *c) {
    int fd = open(c->name, O_WRONLY);
    if (fd < 0)
        return -1;
    if (c->start == MAP_FAILED) {
        close(fd);
        return -1;
    }
    write(fd, c->start, c->length);
    close(fd);
    return 0;
}
