// NOTE [read-only-callees]: an unknown function whose pointer parameters all point to const
// keeps no block it is given, but may keep a descriptor passed as an integer (a registry of
// open files); and a path it is given is no descriptor either way.
#include <fcntl.h>
#include <unistd.h>

int register_fd(const char *tag, int fd);
int check_name(const char *path, const char *suffix);

int ok_registered(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    return register_fd("input", fd);
}

int bad_checked(const char *path) {
    int fd = open(path, O_RDONLY);   // expect: resource.leak
    if (fd < 0)
        return -1;
    if (check_name(path, ".conf") != 0)
        return -1;
    close(fd);
    return 0;
}
