// saturn-xfail: a node whose list has a head is in a ring of three at least; the links of the
// node's neighbour are not known to lead to the head, so after unlinking the node its
// neighbour may be its own next and merging it with its next frees it.
#include <stddef.h>
#include <stdlib.h>

struct link { struct link *next, *prev; };

#define entry_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

static inline void unlink_node(struct link *l) {
    l->next->prev = l->prev;
    l->prev->next = l->next;
}

struct range { long start, pages; struct link list; int is_free; };
struct pool { struct link all; };

static struct range *merge(struct range *keep, struct range *gone) {
    keep->pages += gone->pages;
    unlink_node(&gone->list);
    free(gone);
    return keep;
}

void ok_release_both_ways(struct pool *p, struct range *r) {
    if (r->list.prev != &p->all) {
        struct range *prev = entry_of(r->list.prev, struct range, list);
        if (prev->is_free && prev->start + prev->pages == r->start)
            r = merge(prev, r);
    }
    if (r->list.next != &p->all) {
        struct range *next = entry_of(r->list.next, struct range, list);
        if (next->is_free && r->start + r->pages == next->start)
            r = merge(r, next);
    }
    r->is_free = 1;
}
