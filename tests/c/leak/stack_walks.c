/* A stack kept as `start`/`top` pointers in one struct (libyaml's STACK macros), emptied by
 * walking `top` back to `start`, then freed: `start` and `top` may be one address, so the walk
 * ends and the destructor frees what `start` points to. */
#include <stdlib.h>
#include <string.h>

struct item { char *tag; };
struct doc { struct { struct item *start, *end, *top; } items; char *version; };

static void doc_delete(struct doc *d) {
    while (d->items.start != d->items.top) {
        struct item it = *(--d->items.top);
        free(it.tag);
    }
    free(d->items.start);
    free(d->version);
    memset(d, 0, sizeof(*d));
}
// expect-summary: doc_delete: leak: not an allocator; escapees: *(*((*param0).items.top+?)).tag, *(*param0).items.start, *(*param0).version

int ok_load(int n) {
    struct doc d;
    memset(&d, 0, sizeof d);
    d.items.start = d.items.top = malloc(16 * sizeof(struct item));
    if (!d.items.start)
        return -1;
    d.items.end = d.items.start + 16;
    if (n > 3) {
        doc_delete(&d);
        return -1;
    }
    doc_delete(&d);
    return 0;
}
