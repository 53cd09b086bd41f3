// Half-built objects on error paths: a constructor whose helpers fill the object's fields
// (summaries: "new memory in (*param0).name if ret==0"), and whose error path frees only the
// object, leaks what the fields already hold.
#include <stdlib.h>
#include <string.h>

struct obj { char *name; char *buf; };

static int obj_set_name(struct obj *o, const char *n) {
    o->name = strdup(n);
    return o->name ? 0 : -1;
}

static int obj_set_buf(struct obj *o) {
    o->buf = malloc(100);
    return o->buf ? 0 : -1;
}

void obj_free(struct obj *o) {
    if (!o)
        return;
    free(o->name);
    free(o->buf);
    free(o);
}

struct obj *bad_obj_new(const char *n) {
    struct obj *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    if (obj_set_name(o, n))   // expect: memory.leak
        goto fail;
    if (obj_set_buf(o))
        goto fail;
    return o;
fail:
    free(o);
    return NULL;
}

struct obj *ok_obj_new(const char *n) {
    struct obj *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    if (obj_set_name(o, n))
        goto fail;
    if (obj_set_buf(o))
        goto fail;
    return o;
fail:
    obj_free(o);
    return NULL;
}

/* An array the function owns: each element filled, the array freed alone on failure. */
int bad_fill(char ***out, int n) {
    char **items = calloc(n, sizeof *items);
    if (!items)
        return -1;
    for (int i = 0; i < n; i++) {
        items[i] = malloc(10);   // expect: memory.leak
        if (!items[i]) {
            free(items);
            return -1;
        }
    }
    *out = items;
    return 0;
}

/* A helper that grows a buffer only when it is too small keeps what the field held otherwise
 * (a caller's stack buffer): its summary does not say the field is new memory. */
typedef struct { int n; unsigned long *p; } mpi;

static int mpi_grow(mpi *x, int limbs) {
    if (x->n < limbs) {
        unsigned long *p = calloc(limbs, sizeof *p);
        if (!p)
            return -1;
        if (x->p) {
            memcpy(p, x->p, x->n * sizeof *p);
            free(x->p);
        }
        x->n = limbs;
        x->p = p;
    }
    return 0;
}

int ok_stack_buffer(void) {
    mpi m;
    unsigned long limbs[8];
    m.n = 8;
    m.p = limbs;
    if (mpi_grow(&m, 4))
        return -1;
    return (int)m.p[0];
}
