// A parser fills an event whose data is a union of one struct per event kind, each beginning
// with its anchor (libyaml's yaml_event_t). The loader frees the anchor through the member of
// the event's kind, while the parser wrote it through another: both are one field, so each
// round frees the block this round's parse made.
#include <stdlib.h>
#include <string.h>

typedef struct {
    int type;
    union {
        struct { char *anchor; } alias;
        struct { char *anchor; char *tag; int plain; } scalar;
    } data;
} event_t;

int parse(event_t *e) {
    memset(e, 0, sizeof *e);
    e->type = 1;
    e->data.scalar.anchor = strdup("anchor");
    return e->data.scalar.anchor != NULL;
}

void ok_load(void) {
    event_t ev;
    for (int i = 0; i < 3; i++) {
        if (!parse(&ev))
            return;
        free(ev.data.alias.anchor);
    }
}

void bad_load(void) {
    event_t ev;
    if (!parse(&ev))
        return;
    free(ev.data.scalar.anchor);
    free(ev.data.alias.anchor);   // expect: memory.double-free
}
