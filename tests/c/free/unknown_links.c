// A callee that unlinks a node (list_del_init) leaves links its summary cannot name, and the
// caller gives them unknown nodes. Such a node is still the next one of the link that holds it,
// not a list head of its own that may be its own next: a safe walk that frees its current node
// never meets it again as the saved next one. A walk that reads the freed node's link does.
#include <stdlib.h>
#include <unistd.h>
struct list_head { struct list_head *next, *prev; };
#define LIST_HEAD(name) struct list_head name = { &(name), &(name) }
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - __builtin_offsetof(type, member)))
#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_for_each_entry(pos, head, member) \
    for (pos = list_entry((head)->next, __typeof__(*pos), member); &pos->member != (head); \
         pos = list_entry(pos->member.next, __typeof__(*pos), member))
#define list_for_each_entry_safe(pos, n, head, member) \
    for (pos = list_entry((head)->next, __typeof__(*pos), member), \
         n = list_entry(pos->member.next, __typeof__(*pos), member); &pos->member != (head); \
         pos = n, n = list_entry(n->member.next, __typeof__(*n), member))
static inline void __list_del(struct list_head *prev, struct list_head *next) { next->prev = prev; prev->next = next; }
static inline void list_del_init(struct list_head *entry) {
    __list_del(entry->prev, entry->next);
    entry->next = entry; entry->prev = entry;
}
static inline void __list_add(struct list_head *new, struct list_head *prev, struct list_head *next) {
    next->prev = new; new->next = next; new->prev = prev; prev->next = new;
}
static inline void list_add_tail(struct list_head *new, struct list_head *head) { __list_add(new, head->prev, head); }

struct client { struct list_head node; int fd; int error; int state; };
static LIST_HEAD(clients);

static void new_client(int sock) {
    int fd = accept(sock, NULL, NULL);
    if (fd == -1) return;
    struct client *c = calloc(1, sizeof(*c));
    if (!c) { close(fd); return; }
    c->node.next = &c->node; c->node.prev = &c->node;
    c->fd = fd;
    list_add_tail(&c->node, &clients);
}

static void dead_client(struct client *c) {
    int fd = c->fd;
    list_del_init(&c->node);
    c->fd = -1;
    free(c);
    close(fd);
}

void ok_safe_walk(void) {
    struct client *c, *tmp;
    list_for_each_entry_safe(c, tmp, &clients, node) {
        if (c->error == -1)
            dead_client(c);
    }
}

void ok_two_walks(int sock) {
    struct client *c, *tmp;
    list_for_each_entry_safe(c, tmp, &clients, node) {
        if (c->error == -1)
            dead_client(c);
    }
    new_client(sock);
    list_for_each_entry_safe(c, tmp, &clients, node) {
        if (c->fd < 0)
            dead_client(c);
    }
}

void bad_unsafe_walk(void) {
    struct client *c;
    list_for_each_entry(c, &clients, node) {   // expect: memory.use-after-free
        if (c->error == -1)
            dead_client(c);   // expect: memory.use-after-free (its node linked to itself)
    }
}
