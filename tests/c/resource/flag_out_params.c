// A helper that returns a descriptor and writes a flag through an `int *` (1: opened for
// writing). The flag equals a descriptor only where the descriptor is 1, a standard stream,
// so the helper hands out nothing through it: its callers own what it returns, no more.
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int open_file(const char *file, int *can_write) {
    int fd;
    *can_write = 1;
    fd = open(file, O_RDWR | O_CREAT, 0600);
    if (fd < 0) {
        if (errno != EROFS)
            return -1;
        *can_write = 0;
        fd = open(file, O_RDONLY);
        if (fd < 0)
            return -1;
    }
    if (*can_write && lseek(fd, 0, SEEK_END) < 0)
        goto fail;
    return fd;
fail:
    close(fd);
    return -1;
}

int ok_get_key(const char *f, char *out) {
    int unused, ret = 1;
    int fd = open_file(f, &unused);
    if (fd < 0)
        return ret;
    ret = read(fd, out, 8) != 8;
    close(fd);
    return ret;
}

int bad_get_key(const char *f, char *out) {
    int unused;
    int fd = open_file(f, &unused);   // expect: resource.leak
    if (fd < 0)
        return 1;
    if (read(fd, out, 8) != 8)
        return 1;
    close(fd);
    return 0;
}
