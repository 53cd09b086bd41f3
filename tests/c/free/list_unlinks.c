// A callee that unlinks a node from a doubly linked list and frees it leaves its neighbours
// linked to each other: the caller's `line->next` is the node after the freed one (the
// callee copied it there: NOTE [copied-pointers]). An editor joining lines (nano's
// concat_paragraph over unlink_node) reads only live nodes.
#include <stdlib.h>
#include <string.h>

typedef struct line { char *data; struct line *next; struct line *prev; int anchor; } line_t;

void delete_node(line_t *line) {
    free(line->data);
    free(line);
}

void unlink_node(line_t *line) {
    if (line->prev != NULL)
        line->prev->next = line->next;
    if (line->next != NULL)
        line->next->prev = line->prev;
    delete_node(line);
}

void ok_join_lines(line_t *line, unsigned long count) {
    while (count > 1 && line->next) {
        line_t *next = line->next;
        line->data = realloc(line->data, strlen(line->data) + strlen(next->data) + 1);
        if (!line->data)
            return;
        strcat(line->data, next->data);
        line->anchor |= next->anchor;
        unlink_node(next);
        count--;
    }
}

void ok_drop_after(line_t *line) {
    while (line->next)
        unlink_node(line->next);
}

// A node an unknown function returns is in a list too: its neighbours link back to it.
line_t *line_from_number(long n);

void renumber_from(line_t *line) {
    long number = line->prev == NULL ? 0 : (long) line->prev->anchor;
    while (line != NULL) {
        line->anchor = (int) ++number;
        line = line->next;
    }
}

void ok_undo_join(long n) {
    line_t *line = line_from_number(n);
    if (!line->next)
        return;
    unlink_node(line->next);
    renumber_from(line);
}

int bad_read_unlinked(line_t *line) {
    line_t *next = line->next;
    if (!next)
        return 0;
    unlink_node(next);
    return next->anchor;   // expect: memory.use-after-free
}
