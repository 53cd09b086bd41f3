// A parameter and a field of another parameter's block that points to a struct of the
// parameter's type may be one address (NOTE [input-pointers-meet]): a callee asserting that
// the buffer it queues belongs to the broker it is given (`assert(buf->owner == b)`) has a
// path past the assertion, so its summary says it keeps the buffer.
#include <assert.h>
#include <stdlib.h>

struct broker;
struct buf { struct broker *owner; struct buf *next; int len; };
struct broker { struct buf *queue; int count; };

void broker_enqueue(struct broker *b, struct buf *buf) {   // expect-summary: broker_enqueue: , *param1
    assert(buf->owner == b);
    buf->next = b->queue;
    b->queue = buf;
    b->count++;
}

int ok_request(struct broker *b, int len) {
    struct buf *buf = calloc(1, sizeof *buf);
    if (!buf)
        return -1;
    buf->owner = b;
    buf->len = len;
    broker_enqueue(b, buf);
    return 0;
}

int bad_request(struct broker *b, int len) {
    struct buf *buf = calloc(1, sizeof *buf);   // expect: memory.leak
    if (!buf)
        return -1;
    buf->owner = b;
    if (len < 0)
        return -1;
    buf->len = len;
    broker_enqueue(b, buf);
    return 0;
}
