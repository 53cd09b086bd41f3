// An allocator wrapper in a cycle of calls through the error handler (the handler saves the
// user's file, which copies its name: nano's mallocstrcpy -> nmalloc -> die -> die_save_file):
// the cycle's members run each after the ones it calls, but for the call that closes the
// cycle, so the wrapper sees the allocator it wraps and is one too.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void die(const char *msg);
static const char *unsaved;

void *xmalloc(size_t n) {
    void *p = malloc(n);
    if (!p && n)
        die("out of memory");
    return p;
}

char *copy_string(const char *s) {   // expect-summary: copy_string: leak: allocator
    size_t n = strlen(s) + 1;
    char *d = xmalloc(n);
    memcpy(d, s, n);
    return d;
}

void save_file(const char *name) {
    char *copy = copy_string(name);
    FILE *f = fopen(copy, "w");
    if (f)
        fclose(f);
    free(copy);
}

void die(const char *msg) {
    fputs(msg, stderr);
    if (unsaved)
        save_file(unsaved);
    exit(1);
}

int bad_open(const char *name, int creating) {
    char *full = copy_string(name);   // expect: memory.leak
    if (creating)
        return -2;
    free(full);
    return 0;
}
