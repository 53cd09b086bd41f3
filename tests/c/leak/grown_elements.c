// A callee that keeps a structure keeps what the caller reached through it, links the caller
// only read included: the slot array a callee shrank in place (`realloc`) inside a group
// found through two vectors, all freed by the last call. The caller never wrote the links it
// followed to the group, and they were missed, so the shrunk array seemed lost at the return.
#include <stdlib.h>

struct vec { int n; void **slot; };
struct group { int host; struct vec *paths; };
struct adapter { struct vec *groups; };

void del_slot(struct vec *v, int at) {
    if (!v || at < 0 || at >= v->n)
        return;
    for (int i = at + 1; i < v->n; i++)
        v->slot[i - 1] = v->slot[i];
    v->n--;
    if (v->n == 0) {
        free(v->slot);
        v->slot = NULL;
        return;
    }
    void **slot = realloc(v->slot, sizeof(void *) * v->n);
    if (slot)
        v->slot = slot;
}

void vec_free(struct vec *v) {
    if (!v)
        return;
    free(v->slot);
    free(v);
}

void free_groups(struct vec *groups) {
    for (int i = 0; i < groups->n; i++) {
        struct group *g = groups->slot[i];
        vec_free(g->paths);
        free(g);
    }
    vec_free(groups);
}

void free_adapters(struct vec *adapters) {
    for (int i = 0; i < adapters->n; i++) {
        struct adapter *a = adapters->slot[i];
        free_groups(a->groups);
        free(a);
    }
    vec_free(adapters);
}

int store(struct vec *v, void *p);

int ok_restore(struct vec *adapters, struct vec *back) {
    for (int i = 0; i < adapters->n; i++) {
        struct adapter *a = adapters->slot[i];
        for (int j = 0; j < a->groups->n; j++) {
            struct group *g = a->groups->slot[j];
            while (g->paths->n > 0) {
                store(back, g->paths->slot[0]);
                del_slot(g->paths, 0);
            }
        }
    }
    free_adapters(adapters);
    return 1;
}
