// A callee that pops a list's head returns the head it found and leaves the next one in the
// list: its result is the entry value of `b->first`, not the value it stored there. jq's
// `while ((dep = block_take(body))) inst_free(dep);` frees each node once and never reads a
// freed one through `body->first`.
#include <stdlib.h>

struct inst { struct inst *next, *prev; int op; };
struct block { struct inst *first, *last; };

static struct inst *take(struct block *b) {
    if (b->first == 0)
        return 0;
    struct inst *i = b->first;
    if (i->next) {
        i->next->prev = 0;
        b->first = i->next;
        i->next = 0;
    } else {
        b->first = 0;
        b->last = 0;
    }
    return i;
}

int ok_drain_while(struct block *b) {
    int n = 0;
    while (b->first && b->first->op == 1) {
        struct inst *i = take(b);
        n += i->op;
        free(i);
    }
    return n;
}

void ok_drain_all(struct block *b) {
    struct inst *i;
    while ((i = take(b)) != 0)
        free(i);
}

int bad_read_popped(struct block *b) {
    struct inst *i = take(b);
    if (!i)
        return 0;
    free(i);
    return i->op;   // expect: memory.use-after-free
}
