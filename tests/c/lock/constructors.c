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

/* A driver's probe initialises a static table of locks in a loop longer than the unrolling:
 * the loop's second pass gives the locks it made unknown states, which are never an error
 * already made (a caller of the probe, through its ops table or not, got a double lock). */
struct image { struct mutex lock; void *buf; int size; };
static struct image images[8];
int setup_image(struct image *im);
static int images_probe(void) {
    for (int i = 0; i < 8; i++) {
        mutex_init(&images[i].lock);
        images[i].buf = 0;
        images[i].size = 0;
    }
    for (int i = 0; i < 8; i++)
        if (setup_image(&images[i]))
            return -1;
    return 0;
}
struct bus_driver { int (*probe)(void); };
static struct bus_driver image_driver = { .probe = images_probe };
int ok_bus_probe(struct bus_driver *drv) {
    if (drv->probe)
        return drv->probe();
    return -19;
}
int ok_direct_probe(void) {
    return images_probe();
}
