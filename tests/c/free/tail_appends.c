// A list appended to at its tail through the head's back-link (the kernel's list_add_tail:
// `prev->next = n` with `prev = h->prev` writes `h->next` only where the list is empty), then
// freed node by node when an allocation fails (Linux drivers/staging's fake_init,
// tsi148_probe): the head keeps its first node across the second append, so the clean-up
// frees each node once.
#include <stdlib.h>

struct link { struct link *next, *prev; };
#define entry_of(p, T, m) ((T *)((char *)(p) - __builtin_offsetof(T, m)))

static inline void init_head(struct link *h) { h->next = h; h->prev = h; }
static inline void add_tail(struct link *n, struct link *h) {
    struct link *prev = h->prev;
    h->prev = n;
    n->next = h;
    n->prev = prev;
    prev->next = n;
}
static inline void unlink_node(struct link *e) {
    e->next->prev = e->prev;
    e->prev->next = e->next;
    e->next = 0;
    e->prev = 0;
}

struct resource { int number; struct link list; };
struct bridge { int id; struct link resources; };

int ok_build(struct bridge *b) {
    int i;
    init_head(&b->resources);
    for (i = 0; i < 8; i++) {
        struct resource *r = malloc(sizeof *r);
        if (!r)
            goto err;
        r->number = i;
        add_tail(&r->list, &b->resources);
    }
    return 0;
err:
    for (struct link *p = b->resources.next, *n = p->next; p != &b->resources;
         p = n, n = p->next) {
        unlink_node(p);
        free(entry_of(p, struct resource, list));
    }
    return -1;
}

int bad_build(struct bridge *b) {
    struct resource *r = malloc(sizeof *r), *s;
    if (!r)
        return -1;
    init_head(&b->resources);
    add_tail(&r->list, &b->resources);
    s = malloc(sizeof *s);
    if (s)
        add_tail(&s->list, &b->resources);
    free(r);
    for (struct link *p = b->resources.next, *n = p->next;   // expect: memory.use-after-free
         p != &b->resources; p = n, n = p->next) {   // expect: memory.use-after-free
        unlink_node(p);   // expect-also: memory.use-after-free
        free(entry_of(p, struct resource, list));   // expect-also: memory.double-free
    }
    return 0;
}
