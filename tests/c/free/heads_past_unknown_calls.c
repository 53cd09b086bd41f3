// Heads of lists inside a struct, set up, then passed (a pointer into the struct) to a call
// Saturn cannot see: what it may write there is unknown, so the head's next is an unknown node,
// and the nodes after it may lead back to the head. Releasing the lists walks past their last
// node back to the head; a callee's summary that names the node two links past the head does
// not free the struct that holds it, nor does it free one struct twice.
#include <stdlib.h>
struct list_head { struct list_head *next, *prev; };
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - __builtin_offsetof(type, member)))
#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_for_each_entry_safe(pos, n, head, member) \
    for (pos = list_entry((head)->next, __typeof__(*pos), member), \
         n = list_entry(pos->member.next, __typeof__(*pos), member); &pos->member != (head); \
         pos = n, n = list_entry(n->member.next, __typeof__(*n), member))
static inline void INIT_LIST_HEAD(struct list_head *l) { l->next = l; l->prev = l; }
static inline void __list_add(struct list_head *new, struct list_head *prev, struct list_head *next) {
    next->prev = new; new->next = next; new->prev = prev; prev->next = new;
}
static inline void list_add(struct list_head *new, struct list_head *head) { __list_add(new, head, head->next); }
static inline void __list_del(struct list_head *prev, struct list_head *next) { next->prev = prev; prev->next = next; }
static inline void list_del(struct list_head *entry) { __list_del(entry->prev, entry->next); entry->next = 0; entry->prev = 0; }

struct tx_sdu { struct list_head list; char *buf; int len; };
struct rx_c { struct list_head free_list; char *buf; };
struct tx { int lock; struct list_head free_list; int count; };
struct rx { int lock; struct list_head free_list; int count; };
struct udev { int id; struct tx tx; struct rx rx; };

extern void lock_init(int *l);

static struct tx_sdu *alloc_sdu(void) {
    struct tx_sdu *t = calloc(1, sizeof(*t));
    if (!t) return 0;
    t->buf = malloc(64);
    if (!t->buf) { free(t); return 0; }
    return t;
}
static void free_sdu(struct tx_sdu *t) { if (t) { free(t->buf); free(t); } }
static struct rx_c *alloc_rx(void) {
    struct rx_c *r = calloc(1, sizeof(*r));
    if (!r) return 0;
    r->buf = malloc(64);
    if (!r->buf) { free(r); return 0; }
    return r;
}
static void free_rx(struct rx_c *r) { if (r) { free(r->buf); free(r); } }

static void release(struct udev *u) {
    struct tx_sdu *t, *tt;
    struct rx_c *r, *rt;
    list_for_each_entry_safe(t, tt, &u->tx.free_list, list) { list_del(&t->list); free_sdu(t); }
    list_for_each_entry_safe(r, rt, &u->rx.free_list, free_list) { list_del(&r->free_list); free_rx(r); }
}

int ok_fill(struct udev *u) {
    int i;
    INIT_LIST_HEAD(&u->tx.free_list);
    INIT_LIST_HEAD(&u->rx.free_list);
    lock_init(&u->tx.lock);
    for (i = 0; i < 16; i++) {
        struct tx_sdu *t = alloc_sdu();
        if (!t) goto fail;
        list_add(&t->list, &u->tx.free_list);
    }
    return 0;
fail:
    release(u);
    return -1;
}

int bad_fill_keep_first(struct udev *u) {
    struct tx_sdu *first = 0;
    INIT_LIST_HEAD(&u->tx.free_list);
    INIT_LIST_HEAD(&u->rx.free_list);
    lock_init(&u->tx.lock);
    for (int i = 0; i < 16; i++) {
        struct tx_sdu *t = alloc_sdu();
        if (!t) goto fail;
        if (!first) first = t;
        list_add(&t->list, &u->tx.free_list);
    }
    return 0;
fail:
    release(u);
    free_sdu(first);   // expect: memory.double-free
    return -1;
}
