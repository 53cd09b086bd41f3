#include "obj.h"

void bad_copy_dropped(const char *s) {
    char *c = make_copy(s);                  // expect: memory.leak
    if (c) c[0] = 'x';
}

void ok_copy_freed(const char *s) {
    char *c = make_copy(s);
    free(c);
}

void ok_nested_destructor(void) {
    struct outer *o = malloc(sizeof *o);
    if (!o) return;
    o->in = malloc(sizeof *o->in);
    if (!o->in) { free(o); return; }
    o->in->buf = malloc(16);
    o->tag = make_copy("t");
    outer_free(o);
}

void bad_nested_partial(void) {
    struct outer *o = malloc(sizeof *o);
    if (!o) return;
    o->in = malloc(sizeof *o->in);           // expect: memory.leak
    o->tag = 0;
    free(o);
}
