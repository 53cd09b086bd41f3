/* Resources that escape: stored in globals, structs the caller sees, returned, or handed to a
   function Saturn knows nothing of. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int log_fd = -1;
static FILE *trace;

struct conn { int fd; FILE *out; };

void ok_global_descriptor(const char *path)
{
    log_fd = open(path, O_WRONLY | O_APPEND);
}

void ok_global_stream(const char *path)
{
    trace = fopen(path, "a");
}

void ok_into_caller_struct(struct conn *c, const char *path)
{
    int out = dup(1);
    c->fd = open(path, O_RDWR);
    c->out = fdopen(out, "w");
    if (!c->out && out >= 0)
        close(out);
}

void dup_lost_when_fdopen_fails(struct conn *c)
{
    c->out = fdopen(dup(1), "w");              // expect: resource.leak
}

int ok_returned(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    return fd;
}

extern void register_descriptor(int fd);
extern void keep_conn(struct conn *c);

void ok_handed_over(const char *path)
{
    int fd = open(path, O_RDONLY);
    register_descriptor(fd);
}

void ok_struct_handed_over(const char *path)
{
    struct conn c;
    c.fd = open(path, O_RDONLY);
    c.out = NULL;
    keep_conn(&c);
}

void local_struct(const char *path)
{
    struct conn c;
    c.fd = open(path, O_RDONLY);               // expect: resource.leak
    c.out = NULL;
    if (c.fd >= 0)
        write(c.fd, "x", 1);
}

struct conn *ok_new_conn(const char *path)
{
    struct conn *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    c->fd = open(path, O_RDWR);
    c->out = NULL;
    return c;
}

void ok_printed(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return;
    printf("%d\n", fd);
    close(fd);
}
