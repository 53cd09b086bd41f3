/* Descriptors within one function: negative is failure, 0..2 are never leaks. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

int read_byte(const char *path)
{
    char c;
    int fd = open(path, O_RDONLY);             // expect: resource.leak
    if (fd < 0)
        return -1;
    if (read(fd, &c, 1) != 1)
        return -1;
    close(fd);
    return c;
}

int ok_read_byte(const char *path)
{
    char c;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    if (read(fd, &c, 1) != 1) {
        close(fd);
        return -1;
    }
    close(fd);
    return c;
}

void ok_minus_one(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd != -1)
        close(fd);
}

void ok_maybe_opened(const char *path, int want)
{
    int fd = -1;
    if (want)
        fd = open(path, O_RDONLY);
    if (fd >= 0)
        close(fd);
}

void ok_stdio_redirect(void)
{
    int fd = open("/dev/null", O_RDWR);
    if (fd < 0)
        return;
    dup2(fd, 0);
    dup2(fd, 1);
    dup2(fd, 2);
    if (fd > 2)
        close(fd);
}

int created(const char *path)
{
    int fd = creat(path, 0644);                // expect: resource.leak
    return fd < 0 ? -1 : 0;
}

int ok_socket(void)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0)
        return -1;
    shutdown(s, SHUT_RDWR);
    close(s);
    return 0;
}

int duplicated(int fd)
{
    int copy = dup(fd);                        // expect: resource.leak
    if (copy < 0)
        return -1;
    return write(copy, "x", 1);
}

int ok_duplicated(int fd)
{
    int r, copy = dup(fd);
    if (copy < 0)
        return -1;
    r = write(copy, "x", 1);
    close(copy);
    return r;
}

int pipe_one_end(void)
{
    int p[2];
    if (pipe(p) != 0)                          // expect: resource.leak
        return -1;
    close(p[0]);
    return 0;
}

int ok_pipe(void)
{
    int p[2];
    if (pipe(p) != 0)
        return -1;
    close(p[0]);
    close(p[1]);
    return 0;
}

int ok_accepted(int listener)
{
    int c = accept(listener, NULL, NULL);
    if (c < 0)
        return -1;
    send(c, "hi", 2, 0);
    close(c);
    return 0;
}

int accepted(int listener)
{
    int c = accept(listener, NULL, NULL);      // expect: resource.leak
    if (c < 0)
        return -1;
    return send(c, "hi", 2, 0) == 2 ? 0 : -1;
}

void ok_loop(const char **paths, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        int fd = open(paths[i], O_RDONLY);
        if (fd < 0)
            continue;
        close(fd);
    }
}

void ok_fdopen(const char *path)
{
    FILE *f;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return;
    f = fdopen(fd, "r");
    if (!f) {
        close(fd);
        return;
    }
    fclose(f);
}

void ok_mkstemp(char *tmpl)
{
    int fd = mkstemp(tmpl);
    if (fd == -1)
        return;
    unlink(tmpl);
    close(fd);
}

void ok_open_close_each_time(void)
{
    int i;
    for (i = 0; i < 10; i++) {
        int fd = open("/dev/null", O_RDONLY);
        if (fd >= 0)
            close(fd);
    }
}

int ok_fd_table(const char **paths)
{
    struct { int fd; } conns[4];
    int i;
    for (i = 0; i < 4; i++)
        conns[i].fd = open(paths[i], O_RDONLY);
    for (i = 0; i < 4; i++)
        if (conns[i].fd >= 0)
            close(conns[i].fd);
    return 0;
}

int ok_opened_until_failure(const char **paths)
{
    int fds[3], i;
    for (i = 0; i < 3; i++) {
        fds[i] = open(paths[i], O_RDONLY);
        if (fds[i] < 0)
            break;
    }
    while (--i >= 0)
        close(fds[i]);
    return 0;
}

void ok_goto_cleanup(const char *p)
{
    int fd = -1;
    FILE *f = NULL;
    fd = open(p, O_RDONLY);
    if (fd < 0)
        goto out;
    f = fopen(p, "r");
    if (!f)
        goto out;
    fgetc(f);
out:
    if (f)
        fclose(f);
    if (fd >= 0)
        close(fd);
}
