// A mapping whose address is copied byte for byte into a second variable (libsodium's
// allocate_memory: `memcpy(&memory, &base, sizeof memory)`, through the C library's fortified
// memcpy, a function of its own) is still the one `base` holds: a copy writes its destination,
// not its source, and the mapping handed out in the region is no leak.
#include <stdlib.h>
#include <sys/mman.h>

typedef struct { void *base; void *memory; size_t size; } region_t;

// glibc's memcpy with _FORTIFY_SOURCE: a function of its own around the checked builtin.
void *memcpy(void *dst, const void *src, size_t n) {
    return __builtin___memcpy_chk(dst, src, n, __builtin_object_size(dst, 0));
}

int ok_allocate(region_t **region, size_t n) {
    void *base;
    void *memory;
    *region = malloc(sizeof **region);
    if (*region == NULL)
        return -1;
    (*region)->base = (*region)->memory = NULL;
    if ((base = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0)) ==
            MAP_FAILED)
        base = NULL;
    memcpy(&memory, &base, sizeof memory);
    if (base == NULL) {
        free(*region);
        *region = NULL;
        return -1;
    }
    (*region)->base = base;
    (*region)->memory = memory;
    (*region)->size = n;
    return 0;
}

