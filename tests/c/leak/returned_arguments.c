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

/* Returns its second argument whatever happens (nano's free_and_assign): null only where that
 * argument is, so a caller's null test on the result is one on the argument. */
char *replace_with(char *dest, char *src)      // expect-summary: replace_with: leak: returns param1; escapees: *param0
{
    free(dest);
    return src;
}

int ok_null_tested_result(char *old, const char *name)
{
    char *path = replace_with(old, strdup(name));
    if (path == NULL)
        return -1;
    free(path);
    return 0;
}
