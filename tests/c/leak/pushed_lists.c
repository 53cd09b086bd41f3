// A callee that pushes a new node onto a list its caller passes by address (unbound's add_open,
// port_insert, cfg_strlist_insert) links the old head behind the new node: the old head goes
// wherever the new node goes, which the caller's view of "new memory in *list" does not show,
// so it escapes. Where the push fails the list is left exactly as it was, so the caller still
// holds the old head there, and a caller that then drops its list leaks it.
#include <stdlib.h>

struct port { int fd; struct port *next; };

int push(struct port **list, int fd) {  // expect-summary: push: escapees: **param0 if ret>=0 and ret!=0
    struct port *n = malloc(sizeof *n);
    if (!n)
        return 0;
    n->fd = fd;
    n->next = *list;
    *list = n;
    return 1;
}

void ports_free(struct port *p) {
    while (p) {
        struct port *next = p->next;
        free(p);
        p = next;
    }
}

struct port *ok_open_two(void) {
    struct port *l = NULL;
    if (!push(&l, 1)) {
        ports_free(l);
        return NULL;
    }
    if (!push(&l, 2)) {
        ports_free(l);
        return NULL;
    }
    return l;
}

struct port *ok_first_kept(void) {
    struct port *l = malloc(sizeof *l);
    if (!l)
        return NULL;
    l->next = NULL;
    if (!push(&l, 2)) {
        free(l);
        return NULL;
    }
    return l;
}

struct port *bad_dropped_on_error(void) {
    struct port *l = NULL;
    if (!push(&l, 1))   // expect: memory.leak
        return NULL;
    if (!push(&l, 2))
        return NULL;
    return l;
}
