// A block handed out as a pointer to its member (`return &box->data;`) and released by a
// function that frees the container of what it is given: the caller's error path that gives
// it back leaks nothing; one that forgets to leaks the block.
#include <stdlib.h>
#include <stddef.h>

struct node {
    struct node *next;
    int value;
};

struct box {
    int type;
    unsigned mark;
    struct node data;
};

void *box_new(void) {
    struct box *b = malloc(sizeof *b);
    if (!b)
        return NULL;
    b->type = 1;
    b->mark = 0xbeef;
    b->data.next = NULL;
    return &b->data;
}

void box_free(void *data) {
    struct box *b = (void *)((char *)data - offsetof(struct box, data));
    free(b);
}

int fill(struct node **out, int bad) {
    struct node *n = box_new();
    if (!n)
        return -1;
    if (bad) {
        box_free(n);
        return -2;
    }
    *out = n;
    return 0;
}

int fill_badly(struct node **out, int bad) {
    struct node *n = box_new();   // expect: memory.leak
    if (!n)
        return -1;
    if (bad)
        return -2;
    *out = n;
    return 0;
}
