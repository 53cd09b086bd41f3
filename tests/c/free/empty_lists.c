// A callee that empties a circular list (the kernel's list_for_each_entry_safe with list_del
// and kfree) frees the nodes after the head. Its summary names them through the head's link;
// in a caller whose list may be empty that link points back at the head, inside the owner,
// and the owner is no node the callee freed: tearing the owner down after draining its list
// frees it once.
#include <stddef.h>
#include <stdlib.h>

struct link { struct link *next, *prev; };

#define entry_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

static inline void unlink_node(struct link *l) {
    l->next->prev = l->prev;
    l->prev->next = l->next;
}

struct item { int value; struct link node; };
struct owner { int state; struct link items; int users; };

static void drain(struct owner *o) {
    struct link *pos = o->items.next, *n = pos->next;
    for (; pos != &o->items; pos = n, n = pos->next) {
        unlink_node(pos);
        free(entry_of(pos, struct item, node));
    }
}

void ok_teardown(struct owner *o) {
    drain(o);
    o->users = 0;
    free(o);
}

void bad_teardown(struct owner *o) {
    free(o);
    drain(o);   // expect: memory.use-after-free
}

// Filled with one node, then drained: the drain's second node past the head is the head again,
// reached through the first node's link, and the owner is none of the nodes it freed.
static void add_first(struct link *new, struct link *head) {
    head->next->prev = new;
    new->next = head->next;
    new->prev = head;
    head->next = new;
}

int ok_fill_then_drain(struct owner *o) {
    struct item *it;
    o->items.next = o->items.prev = &o->items;
    it = malloc(sizeof *it);
    if (!it)
        return -1;
    add_first(&it->node, &o->items);
    drain(o);
    free(o);
    return 0;
}
