// Library functions that return their first argument (memcpy, strcpy, ...): returning their
// result returns the block (xz's xstrdup: `return memcpy(dest, src, size);`).
#include <stdlib.h>
#include <string.h>

char *ok_copy(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (!d)
        return NULL;
    return memcpy(d, s, n);
}

char *bad_copy(const char *s, int k) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);   // expect: memory.leak
    if (!d)
        return NULL;
    char *r = strcpy(d, s);
    if (k)
        return NULL;
    return r;
}
