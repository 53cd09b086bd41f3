/* Resources across calls: helpers that open and return, helpers that close, out-parameters,
   wrappers of wrappers. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static int open_ro(const char *path)      // expect-summary: open_ro: resource: allocator (returns new resource or a failure)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        perror(path);
    return fd;
}

static void close_quietly(int fd)         // expect-summary: close_quietly: resource: not an allocator; escapees: none; descriptors taken: param0
{
    if (fd >= 0)
        close(fd);
}

int ok_helpers(const char *path)
{
    char c = 0;
    int fd = open_ro(path);
    if (fd < 0)
        return -1;
    read(fd, &c, 1);
    close_quietly(fd);
    return c;
}

int helper_not_closed(const char *path)
{
    char c = 0;
    int fd = open_ro(path);                    // expect: resource.leak
    if (fd < 0)
        return -1;
    read(fd, &c, 1);
    return c;
}

static FILE *open_log(const char *dir)
{
    char name[64];
    FILE *f;
    snprintf(name, sizeof name, "%s/log", dir);
    f = fopen(name, "a");
    return f;
}

struct logger { FILE *f; int fd; };

static void logger_close(struct logger *l)
{
    if (l->f)
        fclose(l->f);
    if (l->fd >= 0)
        close(l->fd);
}

void ok_logger(const char *dir)
{
    struct logger l;
    l.f = open_log(dir);
    l.fd = open(dir, O_RDONLY);
    logger_close(&l);
}

void logger_forgotten(const char *dir)
{
    FILE *f = open_log(dir);                   // expect: resource.leak
    if (f)
        fputs("x", f);
}

static int open_pair(int *rd, int *wr)
{
    int p[2];
    if (pipe(p) != 0)
        return -1;
    *rd = p[0];
    *wr = p[1];
    return 0;
}

void ok_pair(void)
{
    int r, w;
    if (open_pair(&r, &w) != 0)
        return;
    close(r);
    close(w);
}

void pair_half_closed(void)
{
    int r, w;
    if (open_pair(&r, &w) != 0)                // expect: resource.leak
        return;
    close(r);
}

static int open_twice(const char *path)
{
    return open_ro(path);
}

void ok_wrapper_of_wrapper(const char *path)
{
    int fd = open_twice(path);
    close_quietly(fd);
}

static void close_conn(int *fdp)
{
    close(*fdp);
    *fdp = -1;
}

void ok_close_through_pointer(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return;
    close_conn(&fd);
}

/* An empty sink of the file itself neither closes nor keeps the file. */
static void leave_open(FILE *f) { }

void bad_empty_sink(const char *path)
{
    FILE *f = fopen(path, "r");                 // expect: resource.leak
    if (f)
        leave_open(f);
}
