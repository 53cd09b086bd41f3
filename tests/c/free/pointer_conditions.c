// A release that frees only where a pointer it is given besides the block is not null (a
// list it unlinks from): a caller passing an address frees the block there, and reading it
// after is a use after free.
#include <stdlib.h>

struct msg { int qos; char *payload; struct msg *next; };
struct queue { struct msg *head; int count; };

void remove_msg(struct queue *q, struct msg *item) {
    if (!q || !item)
        return;
    q->count--;
    free(item->payload);
    free(item);
}

int bad_expire(struct queue *q, struct msg *m) {
    remove_msg(q, m);
    return m->qos;   // expect: memory.use-after-free
}

int bad_expire_local(struct msg *m) {
    struct queue q = { 0, 1 };
    remove_msg(&q, m);
    return m->qos;   // expect: memory.use-after-free
}

int ok_expire(struct queue *q, struct msg *m) {
    int qos = m->qos;
    remove_msg(q, m);
    return qos;
}
