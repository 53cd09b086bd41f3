/* The kernel's list helpers, as Linux 6.1 defines them with CONFIG_DEBUG_LIST: a loop that
 * takes the first entry of a list, unlinks it and frees it, until the list is empty, frees
 * each entry once. list_del leaves the head's `next` on the entry after the one it unlinked
 * (NOTE [copied-pointers]), list_empty is the comparison of the caller's own pointers, and
 * the integrity check that guards the unlink fails only on a list already corrupt. */
typedef unsigned long size_t;
#define NULL ((void *)0)
void kfree(const void *p);

struct list_head { struct list_head *next, *prev; };
_Bool __list_del_entry_valid(struct list_head *entry);
static inline void __list_del(struct list_head *prev, struct list_head *next)
{
    next->prev = prev;
    *(volatile struct list_head **)&prev->next = next;
}
static inline void list_del(struct list_head *entry)
{
    if (!__list_del_entry_valid(entry))
        return;
    __list_del(entry->prev, entry->next);
    entry->next = (void *)0x100;
    entry->prev = (void *)0x122;
}
static inline int list_empty(const struct list_head *head)
{
    return *(volatile struct list_head *const *)&head->next == head;
}
// expect-summary: list_empty: result: param0 == (*param0).next
#define list_entry(p, T) ((T *)((char *)(p) - __builtin_offsetof(T, list)))
struct stamp { struct list_head list; long ts; };
struct session { int id; struct list_head stamps; };

void ok_pop_all(struct session *s)
{
    while (!list_empty(&s->stamps)) {
        struct stamp *st = list_entry(s->stamps.next, struct stamp);
        list_del(&st->list);
        kfree(st);
    }
}

long ok_pop_two(struct session *s)
{
    struct stamp *a, *b;
    long ts;
    if (list_empty(&s->stamps))
        return 0;
    a = list_entry(s->stamps.next, struct stamp);
    list_del(&a->list);
    ts = a->ts;
    kfree(a);
    if (list_empty(&s->stamps))
        return ts;
    b = list_entry(s->stamps.next, struct stamp);
    ts += b->ts;
    list_del(&b->list);
    kfree(b);
    return ts;
}

long bad_read_after_pop(struct session *s)
{
    struct stamp *a;
    if (list_empty(&s->stamps))
        return 0;
    a = list_entry(s->stamps.next, struct stamp);
    list_del(&a->list);
    kfree(a);
    return a->ts;                              // expect: memory.use-after-free
}
