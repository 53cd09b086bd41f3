// Handles of the C library beyond files and descriptors (checkers/library/libc.toml): a
// library handle, a mapping (MAP_FAILED on failure, not null) and a conversion descriptor
// ((iconv_t) -1 on failure).
#include <dlfcn.h>
#include <iconv.h>
#include <stddef.h>
#include <sys/mman.h>

int bad_dlopen(const char *name) {
    void *lib = dlopen(name, RTLD_NOW);   // expect: resource.leak
    if (lib == NULL)
        return -1;
    return dlsym(lib, "init") != NULL;
}

int ok_dlopen(const char *name) {
    void *lib = dlopen(name, RTLD_NOW);
    if (lib == NULL)
        return -1;
    int found = dlsym(lib, "init") != NULL;
    dlclose(lib);
    return found;
}

int bad_mmap(int fd, size_t n) {
    char *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);   // expect: resource.leak
    if (p == MAP_FAILED)
        return -1;
    return p[0];
}

int ok_mmap(int fd, size_t n) {
    char *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED)
        return -1;
    int first = p[0];
    munmap(p, n);
    return first;
}

int bad_iconv(const char *to) {
    iconv_t cd = iconv_open(to, "UTF-8");   // expect: resource.leak
    if (cd == (iconv_t)-1)
        return -1;
    return 0;
}

int ok_iconv(const char *to) {
    iconv_t cd = iconv_open(to, "UTF-8");
    if (cd == (iconv_t)-1)
        return -1;
    iconv_close(cd);
    return 0;
}
