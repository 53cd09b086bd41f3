/* Double frees and correct frees within one function. */
#include <stdlib.h>
#include <string.h>

void twice(void)
{
    char *p = malloc(16);
    free(p);
    free(p);                                   // expect: memory.double-free
}

void ok_null_after_free(void)
{
    char *p = malloc(16);
    free(p);
    p = NULL;
    free(p);
}

void through_alias(void)
{
    char *p = malloc(16);
    char *q = p;
    free(q);
    free(p);                                   // expect: memory.double-free
}

void ok_two_blocks(void)
{
    char *p = malloc(16);
    char *q = malloc(16);
    free(p);
    free(q);
}

void ok_correlated(int c)
{
    char *p = malloc(16);
    if (c)
        free(p);
    if (!c)
        free(p);
}

void correlated_wrong(int c)
{
    char *p = malloc(16);
    if (c > 3)
        free(p);
    if (c > 2)
        free(p);                               // expect: memory.double-free
}

void ok_flag(int n)
{
    char *p = malloc(n);
    int freed = 0;
    if (n > 10) {
        free(p);
        freed = 1;
    }
    if (!freed)
        free(p);
}

void in_a_loop(void)
{
    char *p = malloc(4);
    int i;
    for (i = 0; i < 3; i++)
        free(p);                               // expect: memory.double-free
}

void ok_loop_fresh(int n)
{
    int i;
    for (i = 0; i < n; i++) {
        char *p = malloc(4);
        free(p);
    }
}

void ok_loop_over_array(char **items, int n)
{
    int i;
    for (i = 0; i < n; i++)
        free(items[i]);
}

void ok_local_array(void)
{
    char *a[4];
    int i;
    for (i = 0; i < 4; i++)
        a[i] = malloc(8);
    for (i = 0; i < 4; i++)
        free(a[i]);
}

struct fnode { struct fnode *next; int value; };

void ok_list(struct fnode *n)
{
    while (n) {
        struct fnode *next = n->next;
        free(n);
        n = next;
    }
}

void error_path(int fail)
{
    char *p = malloc(32);
    if (!p)
        return;
    if (fail) {
        free(p);
        goto out;
    }
    strcpy(p, "x");
out:
    free(p);                                   // expect: memory.double-free
}

void ok_error_path(int fail)
{
    char *p = malloc(32);
    if (!p)
        return;
    if (fail) {
        free(p);
        return;
    }
    strcpy(p, "x");
    free(p);
}

void ok_realloc_failure(char *p, size_t n)
{
    char *q = realloc(p, n);
    if (!q) {
        free(p);
        return;
    }
    free(q);
}

void realloc_then_free_old(char *p, size_t n)
{
    char *q = realloc(p, n);
    if (!q)
        return;
    free(p);                                   // expect: memory.double-free
    free(q);
}

void ok_realloc_grow(char *p, size_t n)
{
    p = realloc(p, n);
    free(p);
}

struct fpair { char *a; char *b; };

void field_twice(struct fpair *s)
{
    free(s->a);
    free(s->a);                                // expect: memory.double-free
}

void ok_fields(struct fpair *s)
{
    free(s->a);
    s->a = NULL;
    free(s->b);
    free(s->a);
}

struct refobj { int ref; char *name; };

static void put(struct refobj *o)
{
    if (--o->ref == 0) {
        free(o->name);
        free(o);
    }
}

void ok_get_put(struct refobj *o)
{
    o->ref++;
    put(o);
    put(o);
}

static void xfree(void **pp)
{
    free(*pp);
    *pp = NULL;
}

void ok_xfree_twice(void)
{
    char *p = malloc(3);
    xfree((void **)&p);
    xfree((void **)&p);
}

void ok_swapped(void)
{
    char *a = malloc(1), *b = malloc(1), *t;
    t = a;
    a = b;
    b = t;
    free(a);
    free(b);
}

void ok_realloc_in_loop(int n)
{
    char *buf = NULL;
    int i;
    for (i = 0; i < n; i++) {
        char *nb = realloc(buf, i + 1);
        if (!nb) {
            free(buf);
            return;
        }
        buf = nb;
    }
    free(buf);
}

static char *keep_or_free(char *s, int keep)
{
    if (!keep) {
        free(s);
        return NULL;
    }
    return s;
}

void ok_kept(char *s)
{
    char *r = keep_or_free(s, 1);
    if (r)
        free(r);
}

struct node2 { struct node2 *next; char *data; };
struct list2 { struct node2 *head; };

void ok_unlink(struct list2 *l, struct node2 *target)
{
    struct node2 **pp = &l->head;
    while (*pp) {
        if (*pp == target) {
            struct node2 *dead = *pp;
            *pp = dead->next;
            free(dead->data);
            free(dead);
            return;
        }
        pp = &(*pp)->next;
    }
}
