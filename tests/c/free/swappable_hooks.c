/* A library's memory hooks: globals that start as its own functions over malloc and free, and
 * that a setter lets the user replace (c-ares's ares_free, jansson's do_free). What the user
 * installs is taken to do the same job, so a block freed through the hook is freed. */
#include <stdlib.h>

static void default_free(void *p) { free(p); }
static void *default_malloc(size_t n) { return malloc(n); }
void (*lib_free)(void *) = default_free;
void *(*lib_malloc)(size_t) = default_malloc;

int lib_init_mem(void *(*amalloc)(size_t), void (*afree)(void *)) {
    if (amalloc)
        lib_malloc = amalloc;
    if (afree)
        lib_free = afree;
    return 0;
}

struct rec { int x; };

static void rec_destroy(struct rec *r) { lib_free(r); }

int bad_read_after_destroy(struct rec *r) {
    rec_destroy(r);
    return r->x;                                // expect: memory.use-after-free
}

int ok_read_before_destroy(struct rec *r) {
    int x = r->x;
    rec_destroy(r);
    return x;
}
