// The list this program calls `struct lnode` (tree.c has another): a drain loop that unlinks
// each item before freeing it never meets a freed one again.
#include <stddef.h>
#include <stdlib.h>

typedef struct lnode { struct lnode *ln_next; struct lnode *ln_prev; } lnode;
typedef struct llist { lnode ll_head; size_t ll_offset; } llist;

#define NODE(l, it) ((lnode *) (void *) (((char *) (it)) + (l)->ll_offset))
#define ITEM(l, n) ((void *) (((char *) (n)) - (l)->ll_offset))

void *llist_first(const llist *l) {
    lnode *n = l->ll_head.ln_next;
    if (n == &l->ll_head)
        return NULL;
    return ITEM(l, n);
}

void llist_remove(llist *l, void *item) {
    lnode *n = NODE(l, item);
    n->ln_prev->ln_next = n->ln_next;
    n->ln_next->ln_prev = n->ln_prev;
    n->ln_next = NULL;
    n->ln_prev = NULL;
}

struct header { char *name; char *value; lnode node; };

void ok_drain(llist *hdrs) {
    struct header *h;
    while ((h = llist_first(hdrs)) != NULL) {
        llist_remove(hdrs, h);
        free(h->name);
        free(h->value);
        free(h);
    }
}
