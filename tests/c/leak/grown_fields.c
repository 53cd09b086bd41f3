// A helper that replaces a field with a bigger block only when the old one is too small, and
// leaves it as it was otherwise (NOTE [grown-fields]): its callers own what the field holds
// after it, through the helpers that call it too. A caller's own array in the field stays its
// own.
#include <stdlib.h>
#include <string.h>

typedef struct { int sign; size_t n; unsigned long *p; } num;

void num_init(num *x) { x->sign = 1; x->n = 0; x->p = NULL; }

void num_free(num *x) {
    if (x == NULL)
        return;
    free(x->p);
    x->n = 0;
    x->p = NULL;
}

int num_grow(num *x, size_t limbs) {
    unsigned long *p;
    if (limbs > 10000)
        return -1;
    if (x->n < limbs) {
        if ((p = calloc(limbs, sizeof *p)) == NULL)
            return -2;
        if (x->p != NULL) {
            memcpy(p, x->p, x->n * sizeof *p);
            free(x->p);
        }
        x->n = limbs;
        x->p = p;
    }
    return 0;
}

int num_copy(num *x, const num *y) {
    size_t i;
    int ret = 0;
    if (x == y || y->n == 0)
        return 0;
    for (i = y->n - 1; i > 0; i--)
        if (y->p[i] != 0)
            break;
    i++;
    if (x->n < i) {
        if ((ret = num_grow(x, i)) != 0)
            return ret;
    } else {
        memset(x->p + i, 0, (x->n - i) * sizeof *x->p);
    }
    memcpy(x->p, y->p, i * sizeof *x->p);
    return 0;
}

int check(int k);

int bad_grow_then_return(int k) {
    num a;
    int ret;
    num_init(&a);
    if ((ret = num_grow(&a, 4)) != 0)   // expect: memory.leak
        goto cleanup;
    a.p[0] = k;
    if (check(k))
        return -5;                      // a.p is lost here
    ret = 0;
cleanup:
    num_free(&a);
    return ret;
}

int bad_copy_then_return(const num *y, int k) {
    num t;
    int ret;
    num_init(&t);
    if ((ret = num_copy(&t, y)) != 0)   // expect: memory.leak
        goto cleanup;
    if (check(k))
        return -5;
cleanup:
    num_free(&t);
    return ret;
}

int ok_grow_twice(int k) {
    num a;
    int ret;
    num_init(&a);
    if ((ret = num_grow(&a, 4)) != 0)
        goto cleanup;
    if ((ret = num_grow(&a, 8)) != 0)
        goto cleanup;
    a.p[0] = k;
    ret = check(k);
cleanup:
    num_free(&a);
    return ret;
}

int ok_copy(const num *y, int k) {
    num t;
    int ret;
    num_init(&t);
    if ((ret = num_copy(&t, y)) == 0)
        ret = check(k);
    num_free(&t);
    return ret;
}

int ok_own_limbs(int k) {
    num a;
    unsigned long limbs[8];
    a.n = 8;
    a.p = limbs;
    if (num_grow(&a, 4))
        return -1;
    a.p[0] = k;
    return check((int)a.p[0]);
}

void ok_grow_in_place(num *x, int k) {
    if (num_grow(x, 16) == 0)
        x->p[0] = k;
}

unsigned long *pool_get(size_t n);   /* no body here: what it returns is unknown */

int num_attach(num *x) {
    unsigned long *q = pool_get(x->n);
    if (q)
        x->p = q;
    return q ? 0 : -1;
}

/* After num_attach the limbs are the stack's or the pool's, which this function cannot see
 * into: a grow keeps them (mbedtls's ecp_mod_p448 shifting a sum held in a stack array). */
int ok_unknown_then_grown(int k) {
    num a;
    unsigned long limbs[8];
    a.n = 8;
    a.p = limbs;
    if (num_attach(&a))
        return -1;
    if (num_grow(&a, 4))
        return -1;
    a.p[0] = k;
    return check(k);
}

/* A cache made on first use: the array is the new block; the current entry points into it and
 * the current bucket is held by the array too, so neither is a block of its own to callers
 * (gdbm's _gdbm_init_cache). Moving the current entry loses nothing. */
typedef struct { unsigned long addr; char *bucket; } entry;
struct db { entry *cache; entry *current; char *bucket; size_t size; };

int db_init_cache(struct db *d, size_t n) {
    size_t i;
    if (d->cache == NULL) {
        d->cache = calloc(n, sizeof(entry));
        if (d->cache == NULL)
            return -1;
        for (i = 0; i < n; i++)
            d->cache[i].bucket = malloc(64);
        d->size = n;
        d->bucket = d->cache[0].bucket;
        d->current = &d->cache[0];
    }
    return 0;
}

int ok_get_bucket(struct db *d, size_t k) {
    if (d->cache == NULL && db_init_cache(d, 8) == -1)
        return -1;
    d->current = &d->cache[k % d->size];
    d->bucket = d->current->bucket;
    return 0;
}
