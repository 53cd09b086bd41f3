// A node of a circular list merged into its neighbour (a buffer allocator joining free ranges):
// the neighbour read as an entry is never the node itself, so freeing the node and going on
// with the neighbour uses no freed block. A list with one node would make the node its own
// neighbour; code that takes a neighbour for an entry knows there is more than one.
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

void ok_release(struct pool *p, struct range *r) {
    if (r->list.prev != &p->all) {
        struct range *prev = entry_of(r->list.prev, struct range, list);
        if (prev->is_free && prev->start + prev->pages == r->start)
            r = merge(prev, r);
    }
    r->is_free = 1;
}

void bad_release(struct pool *p, struct range *r) {
    if (r->list.prev != &p->all) {
        struct range *prev = entry_of(r->list.prev, struct range, list);
        if (prev->is_free) {
            merge(r, prev);
            prev->is_free = 0;   // expect: memory.use-after-free
        }
    }
}

// The node itself freed before its neighbour is read: the read is of a freed block.
void bad_alone(struct range *r) {
    struct range *next;
    free(r);
    next = entry_of(r->list.next, struct range, list);   // expect: memory.use-after-free
    next->is_free = 1;
}
