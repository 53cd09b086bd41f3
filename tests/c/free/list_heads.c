// A doubly linked list whose first node has no predecessor: the code that unlinks a node moves
// the head to the next node exactly where the node has none (`if (n->prev) n->prev->next =
// n->next; else head = n->next;`). The node the head points to therefore has no predecessor,
// so freeing the head after that unlink leaves the head on a live node. A hash table built
// with macros over a handle inside each element (uthash's HASH_ITER and HASH_DELETE) unlinks
// the same way; emptying it frees every element and, with the last one, the table.
#include <stddef.h>
#include <stdlib.h>

struct table { unsigned count; };

typedef struct handle {
    struct table *tbl;
    void *prev, *next;   // the elements before and after, not their handles
} handle;

typedef struct item {
    int key;
    char *name;
    handle hh;
} item;

#define DELETE(head, delptr) do {                                              \
    handle *del_ = &(delptr)->hh;                                              \
    if (del_->prev == NULL && del_->next == NULL) {                            \
        free((head)->hh.tbl);                                                  \
        (head) = NULL;                                                         \
    } else {                                                                   \
        if (del_->prev != NULL)                                                \
            ((item *) del_->prev)->hh.next = del_->next;                       \
        else do {   /* as uthash's DECLTYPE_ASSIGN */                          \
            (head) = (item *) del_->next;                                      \
        } while (0);                                                           \
        if (del_->next != NULL)                                                \
            ((item *) del_->next)->hh.prev = del_->prev;                       \
        (head)->hh.tbl->count--;                                               \
    }                                                                          \
} while (0)

#define ITER(head, el, tmp)                                                    \
    for ((el) = (head), (tmp) = (el) ? (item *) (el)->hh.next : NULL;          \
         (el) != NULL;                                                         \
         (el) = (tmp), (tmp) = (tmp) ? (item *) (tmp)->hh.next : NULL)

void ok_clear_table(item **items) {
    item *el, *tmp;
    ITER(*items, el, tmp) {
        DELETE(*items, el);
        free(el->name);
        free(el);
    }
}

struct registry { int flags; item *items; };

void ok_clear_registry(struct registry *r) {
    item *el, *tmp;
    ITER(r->items, el, tmp) {
        free(el->name);
        DELETE(r->items, el);
        free(el);
    }
}

// Freeing every element without unlinking it leaves the head on the freed first element.
void bad_free_unlinked(item **items) {
    item *el, *tmp;
    ITER(*items, el, tmp) {
        free(el);
    }
    (*items)->hh.tbl->count = 0;   // expect: memory.use-after-free
}

typedef struct node { struct node *prev, *next; char *data; } node;
typedef struct list { node *head; int size; } list;

void ok_clear_list(list *l) {
    while (l->head != NULL) {
        node *n = l->head;
        if (n->prev)
            n->prev->next = n->next;
        else
            l->head = n->next;
        if (n->next)
            n->next->prev = n->prev;
        l->size--;
        free(n->data);
        free(n);
    }
}

// Unlinking from the wrong end: the head is never moved, so the next round frees it again.
void bad_clear_list(list *l) {
    while (l->head != NULL) {
        node *n = l->head;
        l->size--;
        free(n);   // expect: memory.double-free
    }
}
