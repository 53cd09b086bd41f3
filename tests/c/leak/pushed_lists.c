// A callee that pushes a new node onto a list its caller passes by address (unbound's add_open,
// port_insert, cfg_strlist_insert) links the old head behind the new node: the old head goes
// wherever the new node goes, which the caller's view of "new memory in *list" does not show,
// so it escapes. Where the push fails the list is left exactly as it was, so the caller still
// holds the old head there, and a caller that then drops its list leaks it.
#include <stdlib.h>

struct port { int fd; struct port *next; };

int push(struct port **list, int fd) {  // expect-summary: push: escapees: **param0 if ret==1
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

// The same push onto a list head in a field of the struct the caller passes (unbound's
// listen_cp_insert): where it fails the field is left as it was.
struct item { struct item *next; void *c; };
struct front { struct item *cps; };

static int insert(void *c, struct front *f) {
    struct item *item = malloc(sizeof *item);
    if (!item)
        return 0;
    item->c = c;
    item->next = f->cps;
    f->cps = item;
    return 1;
}

static void front_delete(struct front *f) {
    struct item *p = f->cps, *n;
    while (p) {
        n = p->next;
        free(p);
        p = n;
    }
    free(f);
}

struct front *ok_front_create(void *a, void *b) {
    struct front *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    if (!insert(a, f) || !insert(b, f)) {
        front_delete(f);
        return NULL;
    }
    return f;
}
