// A node on two lists through an array of links (the kernel's DAPM paths, `list_node[dir]`),
// walked with container_of of an element at a variable index: `offsetof(S, list_node[dir])`
// is the array's offset plus dir elements, so each walk finds the path that holds the link,
// and freeing every path of a widget, then the widget, frees each once.
#include <stddef.h>
#include <stdlib.h>

struct link { struct link *next, *prev; };

#define entry_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

static inline void unlink_node(struct link *l) {
    l->next->prev = l->prev;
    l->prev->next = l->next;
}

enum { DIR_IN, DIR_OUT, DIRS };
struct path { int weight; struct link list_node[DIRS]; struct link list; };
struct widget { int id; struct link edges[DIRS]; struct link list; char *name; };

static void free_path(struct path *p) {
    unlink_node(&p->list_node[DIR_IN]);
    unlink_node(&p->list_node[DIR_OUT]);
    unlink_node(&p->list);
    free(p);
}

void ok_free_widget(struct widget *w) {
    struct path *p, *n;
    int dir;
    unlink_node(&w->list);
    for (dir = 0; dir < DIRS; dir++) {
        for (p = entry_of(w->edges[dir].next, struct path, list_node[dir]),
             n = entry_of(p->list_node[dir].next, struct path, list_node[dir]);
             &p->list_node[dir] != &w->edges[dir];
             p = n, n = entry_of(n->list_node[dir].next, struct path, list_node[dir]))
            free_path(p);
    }
    free(w->name);
    free(w);
}

int bad_first_weight(struct widget *w, int dir) {
    struct path *p = entry_of(w->edges[dir].next, struct path, list_node[dir]);
    free_path(p);
    return p->weight;   // expect: memory.use-after-free
}

// A callee given the outgoing link frees the path that holds it: its summary names the path
// as the container of the link's element, which the caller finds again.
static void free_out_link(struct link *l) {
    free(entry_of(l, struct path, list_node[DIR_OUT]));
}

int bad_out_link(struct path *p) {
    free_out_link(&p->list_node[DIR_OUT]);
    return p->weight;   // expect: memory.use-after-free
}

int ok_out_link(struct path *p) {
    int weight = p->weight;
    free_out_link(&p->list_node[DIR_OUT]);
    return weight;
}
