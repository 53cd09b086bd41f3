/* NOTE [descriptors]: a new descriptor is -1 (failure) or above the standard streams, so a
 * helper that hands out a stream over the descriptor it returns (nano's open_file) says when:
 * where it returns a descriptor above 0, and its caller, testing that, closes the stream. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int open_stream(const char *name, FILE **f)  // expect-summary: open_stream: resource: not an allocator; new resource through *param1 exactly when ret>=0 and ret!=0; escapees: none
{
    int fd = open(name, O_RDONLY);
    if (fd == -1)
        return -1;
    *f = fdopen(fd, "rb");
    if (*f == NULL) {
        close(fd);
        return -1;
    }
    return fd;
}

int ok_read_named(const char *name)
{
    FILE *f = NULL;
    int fd = open_stream(name, &f);
    if (fd > 0) {
        int c = fgetc(f);
        fclose(f);
        return c;
    }
    return -1;
}

int bad_kept_open(const char *name)
{
    FILE *f = NULL;
    int c = -1;
    if (open_stream(name, &f) > 0)           // expect: resource.leak
        c = fgetc(f);
    return c;
}
