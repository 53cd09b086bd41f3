// A node unlinked from a doubly linked list by a helper, then the list renumbered from its old
// neighbour: the helper left the neighbour's back-link on the node before the freed one, so
// renumbering reads no freed node. Without the unlink the back-link still points at it.
#include <stdlib.h>

typedef struct line {
    struct line *prev, *next;
    char *data;
    long lineno;
} line;

void unlink_node(line *l) {
    if (l->prev != NULL)
        l->prev->next = l->next;
    if (l->next != NULL)
        l->next->prev = l->prev;
    free(l->data);
    free(l);
}

void renumber_from(line *l) {
    long number = (l->prev == NULL) ? 0 : l->prev->lineno;
    while (l != NULL) {
        l->lineno = ++number;
        l = l->next;
    }
}

line *find(line *top, const char *text);

void forget(line **top, const char *text) {
    line *same = find(*top, text);
    if (same) {
        line *after = same->next;
        if (same == *top)
            *top = after;
        unlink_node(same);
        renumber_from(after);
    }
}

void forget_badly(line *same) {
    line *after = same->next;
    free(same->data);
    free(same);
    renumber_from(after);   // expect: memory.use-after-free
}
