#include <stdlib.h>
/* A constructor reached through a wrapper: the new lock is unlocked whatever the object held. */
struct mutex { long owner; };
void mutex_init(struct mutex *m);
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);
struct entry { struct mutex access; struct entry *parent; int n; };
struct entry *root;
static struct entry *create_entry(struct entry *parent) {
    struct entry *e = calloc(1, sizeof *e);
    if (!e) return 0;
    mutex_init(&e->access);
    e->parent = parent;
    if (parent) { mutex_lock(&parent->access); parent->n++; mutex_unlock(&parent->access); }
    return e;
}
struct entry *create_module_entry(struct entry *parent) {
    if (!parent) parent = root;
    struct entry *e = create_entry(parent);
    if (e) e->n = 1;
    return e;
}
int register_entry(struct entry *e);
void proc_init(void) {
    struct entry *e = create_module_entry(0);
    if (e) {
        if (register_entry(e) < 0) { free(e); e = 0; }
    }
    root = e;
}
// expect-summary: create_module_entry: lock constructor (*ret).access: [any -> unlocked if ret != 0]
