// saturn-xfail: list_add_tail writes the head's next only where the list is empty (through `prev->next` with prev the head), so its summary leaves the caller's head->next unknown once the list has a node; a list built of two nodes and then freed on the error path takes a third, freed node (Linux drivers/staging's fake_init, tsi148_probe, atomisp_alloc_css_stat_bufs)
// A bridge builds a list of eight resources and, when an allocation fails, frees the ones it
// built. Each node is freed once.
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
