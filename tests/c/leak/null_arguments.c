// An initialiser that fills a cache only when it is given a parent to take blocks from: a
// caller that passes NULL owns nothing new after it, one that passes a parent does.
#include <stdlib.h>

struct block { struct block *next; };
struct alloc { struct alloc *super; struct block *quar; int num; };

static int prealloc(struct alloc *a) {
    int i;
    for (i = 0; i < 4; i++) {
        struct block *b = malloc(sizeof *b);
        if (!b)
            return 0;
        b->next = a->quar;
        a->quar = b;
        a->num++;
    }
    return 1;
}

void alloc_init(struct alloc *a, struct alloc *super, int thread) {
    a->super = super;
    a->quar = NULL;
    a->num = thread;
    if (a->super)
        prealloc(a);
}

struct ctx { struct alloc superalloc; char *name; };

struct ctx *ok_create(void) {
    struct ctx *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    alloc_init(&c->superalloc, NULL, 0);
    c->name = malloc(16);
    if (!c->name) {
        free(c);
        return NULL;
    }
    return c;
}

struct ctx *bad_create(struct alloc *parent) {
    struct ctx *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    alloc_init(&c->superalloc, parent, 0);   // expect: memory.leak
    c->name = malloc(16);
    if (!c->name) {
        free(c);
        return NULL;
    }
    return c;
}
