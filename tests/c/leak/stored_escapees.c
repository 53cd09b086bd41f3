// A helper that appends an item to an array only where it could grow the array, through a
// callee that stores it and frees nothing (NOTE [stored-escapees]): where the helper fails the
// item is still its caller's, who loses it by returning. A callee that frees its argument
// (a release under its own condition) takes it on every path, as before.
#include <stdlib.h>

struct vec { int n; void **slot; };
struct path { char dev[8]; int refs; };

void vec_set(struct vec *v, void *x) {
    if (!v)
        return;
    v->slot[v->n - 1] = x;
}

int vec_grow(struct vec *v) {
    void **s = realloc(v->slot, (v->n + 1) * sizeof *s);
    if (!s)
        return 0;
    v->slot = s;
    v->n++;
    return 1;
}

int store_path(struct vec *v, struct path *pp) {
    if (!pp->dev[0])
        return 1;
    if (!vec_grow(v))
        return 1;
    vec_set(v, pp);
    return 0;
}

int bad_store_fails(struct vec *v) {
    struct path *pp = calloc(1, sizeof *pp);   // expect: memory.leak
    if (!pp)
        return 1;
    if (store_path(v, pp))
        return 1;
    return 0;
}

int ok_store_fails_freed(struct vec *v) {
    struct path *pp = calloc(1, sizeof *pp);
    if (!pp)
        return 1;
    if (store_path(v, pp)) {
        free(pp);
        return 1;
    }
    return 0;
}

void path_put(struct path *pp) {
    if (--pp->refs == 0)
        free(pp);
}

int drop_path(struct vec *v, struct path *pp) {
    if (v->n > 4) {
        path_put(pp);
        return 1;
    }
    vec_set(v, pp);
    return 0;
}

int ok_dropped(struct vec *v) {
    struct path *pp = calloc(1, sizeof *pp);
    if (!pp)
        return 1;
    pp->refs = 1;
    if (drop_path(v, pp))
        return 1;
    return 0;
}
