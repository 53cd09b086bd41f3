// A function that fills the blocks it is given, each one optional, and fails when a later one
// cannot be filled, leaves the earlier one's contents in it: the map of `a` is handed out on
// success, or where `b` was given. A caller that gave only `a` and frees it on failure leaks
// nothing; one that gave both leaks the map. A context the function reads on every path is
// given wherever it fails, and says nothing of which blocks were filled.
#include <stdlib.h>

struct stat_buf { char *map; int size; };

// expect-summary: fill_stats: new memory in (*param0).map if (ret==0 or param1!=0)
int fill_stats(struct stat_buf *a, struct stat_buf *b) {
    a->map = malloc(16);
    if (!a->map)
        return -1;
    if (b) {
        b->map = malloc(128);
        if (!b->map)
            return -1;
    }
    return 0;
}

struct stat_buf *kept;

int ok_alloc_one(void) {
    struct stat_buf *a = malloc(sizeof *a);
    if (!a)
        return -1;
    if (fill_stats(a, NULL)) {
        free(a);
        return -1;
    }
    kept = a;
    return 0;
}

int bad_alloc_both(struct stat_buf *b) {
    struct stat_buf *a = malloc(sizeof *a);
    if (!a)
        return -1;
    if (fill_stats(a, b)) {   // expect: memory.leak
        free(a);
        return -1;
    }
    kept = a;
    return 0;
}

struct config { int size; int scale; };

// expect-summary: fill_sized: new memory in (*param1).map if (ret==0 or param2!=0)
int fill_sized(struct config *cfg, struct stat_buf *a, struct stat_buf *b) {
    a->map = malloc(cfg->size);
    if (!a->map)
        return -1;
    if (b) {
        b->map = malloc(cfg->size * cfg->scale);
        if (!b->map)
            return -1;
    }
    return 0;
}

int ok_sized_one(struct config *cfg) {
    struct stat_buf *a = malloc(sizeof *a);
    if (!a)
        return -1;
    if (fill_sized(cfg, a, NULL)) {
        free(a);
        return -1;
    }
    kept = a;
    return 0;
}

int bad_sized_both(struct config *cfg, struct stat_buf *b) {
    struct stat_buf *a = malloc(sizeof *a);
    if (!a)
        return -1;
    if (fill_sized(cfg, a, b)) {   // expect: memory.leak
        free(a);
        return -1;
    }
    kept = a;
    return 0;
}
