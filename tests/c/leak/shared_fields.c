// A constructor whose result points to one new block through two fields (flex's buffer:
// `b->yy_ch_buf = alloc(n); b->yy_buf_pos = b->yy_ch_buf;` by a helper) gives its callers one
// block held twice, not two: a caller that moves the second field back onto the first loses
// nothing.
// expect-summary: create: leak: allocator (returns new memory or null); result comes with allocated (*ret).ch; (*ret).pos points to the same block as (*ret).ch; escapees: none
#include <stdlib.h>

struct buf { char *ch; char *pos; int n; };

static void flush(struct buf *b) {
    if (!b)
        return;
    b->pos = b->ch;
    b->n = 0;
}

struct buf *create(int size) {
    struct buf *b = malloc(sizeof *b);
    if (!b)
        return NULL;
    b->ch = malloc(size);
    if (!b->ch) {
        free(b);
        return NULL;
    }
    flush(b);
    return b;
}

static struct buf *current;

void ok_restart(void) {
    if (!current)
        current = create(64);
    flush(current);
}

void destroy(struct buf *b) {
    if (!b)
        return;
    free(b->ch);
    free(b);
}

int bad_drop_buffer(void) {
    struct buf *b = create(16);   // expect: memory.leak
    if (!b)
        return -1;
    free(b);
    return 0;
}
