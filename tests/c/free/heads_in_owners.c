// A walk between two nodes of a list: from the queue's last entry back to a node the state
// saved (`old_tail`), deleting what it meets. Where the walk passes the queue's head, the
// "entry" it takes there starts inside the state, which holds the head: a struct of another
// type, so no entry. Deleting it never frees the state.
#include <stddef.h>
#include <stdlib.h>

struct list_head { struct list_head *next, *prev; };
#define list_entry(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#define list_for_some_entry_reverse_safe(pos, n, from, to, member)      \
    for (pos = list_entry((from)->prev, typeof(*pos), member),          \
         n = list_entry(pos->member.prev, typeof(*pos), member);        \
         &pos->member != (to);                                          \
         pos = n, n = list_entry(n->member.prev, typeof(*n), member))

static void list_del_init(struct list_head *e) {
    e->next->prev = e->prev;
    e->prev->next = e->next;
    e->next = e;
    e->prev = e;
}

struct event { struct list_head node; char *name; int kind; };
struct state { struct list_head queue; struct list_head *old_tail; unsigned long seen, dropped; };

static void event_delete(struct event *ev) {
    list_del_init(&ev->node);
    free(ev->name);
    free(ev);
}

void ok_drop_new(struct state *st) {
    struct event *ev, *tmp;
    list_for_some_entry_reverse_safe(ev, tmp, &st->queue, st->old_tail, node) {
        st->seen++;
        event_delete(ev);
        st->dropped++;
    }
}

void bad_count_after(struct state *st) {
    struct event *ev = list_entry(st->queue.prev, struct event, node);
    if (&ev->node == &st->queue)
        return;
    event_delete(ev);
    st->seen += ev->kind;   // expect: memory.use-after-free
}
