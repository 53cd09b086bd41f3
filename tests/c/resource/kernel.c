/* The kernel's file references and descriptors (declared here as its headers would). */
#define NULL ((void *)0)
struct file;
struct file *fget(unsigned int fd);
void fput(struct file *f);
struct file *filp_open(const char *name, int flags, unsigned short mode);
int filp_close(struct file *f, void *owner);
int get_unused_fd_flags(unsigned int flags);
void put_unused_fd(unsigned int fd);
void fd_install(unsigned int fd, struct file *f);
long vfs_llseek(struct file *f, long offset, int whence);

long sync_fd(unsigned int fd)
{
    long r;
    struct file *f = fget(fd);                 // expect: resource.leak
    if (!f)
        return -9;
    r = vfs_llseek(f, 0, 0);
    if (r < 0)
        return r;
    fput(f);
    return 0;
}

long ok_sync_fd(unsigned int fd)
{
    long r;
    struct file *f = fget(fd);
    if (!f)
        return -9;
    r = vfs_llseek(f, 0, 0);
    fput(f);
    return r;
}

int ok_install(const char *name)
{
    struct file *f;
    int fd = get_unused_fd_flags(0);
    if (fd < 0)
        return fd;
    f = filp_open(name, 0, 0);
    if (!f) {
        put_unused_fd(fd);
        return -2;
    }
    fd_install(fd, f);
    return fd;
}

int install_forgets_fd(const char *name)
{
    struct file *f;
    int fd = get_unused_fd_flags(0);           // expect: resource.leak
    if (fd < 0)
        return fd;
    f = filp_open(name, 0, 0);
    if (!f)
        return -2;
    fd_install(fd, f);
    return 0;
}

int ok_open_close(const char *name)
{
    struct file *f = filp_open(name, 0, 0);
    if (!f)
        return -2;
    return filp_close(f, NULL);
}
