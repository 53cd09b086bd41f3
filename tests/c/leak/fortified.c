/* A fortified build (-O2 -D_FORTIFY_SOURCE=2) calls memset and memcpy as their checking
 * builtins; they keep nothing they are given, so the block leaked on the next error path is
 * still a leak (libsodium's fix of a leak after a memset). */
#include <stdlib.h>

int bad_second_fails(size_t n) {
    char *a = malloc(n);                        // expect: memory.leak
    if (!a)
        return -1;
    __builtin___memset_chk(a, 0, n, __builtin_object_size(a, 0));
    char *b = malloc(n);
    if (!b)
        return -1;
    __builtin___memcpy_chk(b, a, n, __builtin_object_size(b, 0));
    free(a);
    free(b);
    return 0;
}
