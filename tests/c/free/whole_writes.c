// A parser that clears the whole event it is given (`memset(e, 0, sizeof *e)`, libyaml's
// yaml_parser_parse) before filling it writes every field of it, though it names none: the
// loader that frees the last round's anchor and parses again frees a new anchor next round.
// The callee that clears the event is one call further down, too.
#include <stdlib.h>
#include <string.h>

typedef struct { int type; char *anchor; } event_t;
char *make_anchor(void);

int clear_event(event_t *e) {
    memset(e, 0, sizeof *e);
    return 1;
}

int parse(event_t *e) {
    if (!clear_event(e))
        return 0;
    e->type = 1;
    return 1;
}

int peek(event_t *e) {
    return e->type;
}

void ok_load(void) {
    event_t ev;
    ev.anchor = make_anchor();
    for (int i = 0; i < 3; i++) {
        free(ev.anchor);
        if (!parse(&ev))
            return;
    }
}

void bad_load(void) {
    event_t ev;
    ev.anchor = make_anchor();
    for (int i = 0; i < 3; i++) {
        free(ev.anchor);   // expect: memory.double-free
        if (!peek(&ev))
            return;
    }
}

// The x86 kernel spells it `__memset` (`#define memset __memset`).
void *__memset(void *s, int c, unsigned long n);
struct resource { char *name; unsigned long start; };

void ok_rename(struct resource *r, int k) {
    free(r->name);
    __memset(r, 0, sizeof *r);
    if (r->name == NULL)
        r->name = make_anchor();
    if (r->name != NULL)
        r->name[0] = (char) k;
}
