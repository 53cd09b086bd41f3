#include "obj.h"

char *make_copy(const char *s) {
    char *c = malloc(strlen(s) + 1);
    if (c) strcpy(c, s);
    return c;
}
// expect-summary: make_copy: leak: allocator (returns new memory or null); escapees: none

static void inner_free(struct inner *in) {
    if (!in) return;
    free(in->buf);
    free(in);
}
// expect-summary: inner_free: leak: not an allocator; escapees: *(*param0).buf, *param0

void outer_free(struct outer *o) {
    if (!o) return;
    inner_free(o->in);
    free(o->tag);
    free(o);
}
// expect-summary: outer_free: leak: not an allocator; escapees: *(*(*param0).in).buf, *(*param0).in, *(*param0).tag, *param0
