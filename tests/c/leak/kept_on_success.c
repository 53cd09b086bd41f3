// A callee that keeps what it is given only where it succeeds (a list that links the item in)
// says so: "escapees: *param1 if ret==0". Its caller still owns the block where the call
// failed.
#include <stdlib.h>
#include <string.h>

struct node { void *item; struct node *next; };
struct list { struct node *head; };

int list_add(struct list *l, void *item) {   // expect-summary: list_add: escapees: *(*param0).head if ret==0, *param1 if ret==0
    struct node *n = malloc(sizeof *n);
    if (!n)
        return -1;
    n->item = item;
    n->next = l->head;
    l->head = n;
    return 0;
}

int bad_add_name(struct list *l, const char *s) {
    char *name = strdup(s);   // expect: memory.leak
    if (!name)
        return -1;
    if (list_add(l, name) != 0)
        return -1;
    return 0;
}

int ok_add_name(struct list *l, const char *s) {
    char *name = strdup(s);
    if (!name)
        return -1;
    if (list_add(l, name) != 0) {
        free(name);
        return -1;
    }
    return 0;
}

/* A release that says whether the count fell to zero frees where it did: its callers, which
 * do not test that, have given the block back (a condition on the free is no condition on
 * keeping it). */
struct arg { int ref; char *s; };

int arg_unref(struct arg *a) {   // expect-summary: arg_unref: escapees: *(*param0).s, *param0
    if (--a->ref > 0)
        return 1;
    free(a->s);
    free(a);
    return 0;
}

int ok_unref(const char *s) {
    struct arg *a = calloc(1, sizeof *a);
    if (!a)
        return -1;
    a->ref = 1;
    a->s = strdup(s);
    arg_unref(a);
    return 0;
}
