/* Doubly linked lists (NOTE [list-back-links]): the node x->next points to has x as its prev. */
#include <assert.h>
#include <stddef.h>
struct list_head { struct list_head *next, *prev; };
struct inode { int n; struct list_head lru; };

void ok_next_then_prev(struct inode *ino) {
    struct list_head *first = ino->lru.next;
    assert(first->prev == &ino->lru);
    assert(first->next->prev == first);
}

void ok_prev_then_next(struct list_head *h) {
    assert(h->prev->next == h);
}

/* list_del of the first node, inline: its prev is the head, so the head's next is rewritten.
   (Through a call the head's next is only havocked: summaries carry what is modified, not the
   new values.) */
void ok_removal_through_the_head(struct inode *ino) {
    struct list_head *first = ino->lru.next, *second = first->next;
    first->next->prev = first->prev;
    first->prev->next = first->next;
    assert(ino->lru.next == second && second->prev == &ino->lru);
}

/* What the function wrote wins over the assumption. */
void bad_written_prev(struct list_head *h, struct list_head *other) {
    h->next->prev = other;
    assert(h->next->prev == h);   // expect: assert.violation
}

/* Only lists: a `prev` of another type says nothing. */
struct other { int x; };
struct pair { struct pair *next; struct other *prev; };
void bad_not_a_list(struct pair *p) {
    assert(p->next->prev != NULL);   // expect: assert.violation
}
