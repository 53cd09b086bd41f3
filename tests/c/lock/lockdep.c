/* A kernel configured with lockdep (CONFIG_DEBUG_LOCK_ALLOC): the nesting annotations are
 * calls, and a class or subclass set at init splits a lock's class (NOTE [lock-classes]). */
struct lockdep_map { const char *name; void *key; };
struct lock_class_key { int k; };
struct mutex { long owner; struct lockdep_map dep_map; };
void mutex_lock_nested(struct mutex *lock, unsigned int subclass);
void mutex_unlock(struct mutex *lock);
void lockdep_init_map_type(struct lockdep_map *lock, const char *name, void *key, int subclass);
#define mutex_lock(l) mutex_lock_nested(l, 0)
#define lockdep_set_subclass(lock, sub) \
    lockdep_init_map_type(&(lock)->dep_map, (lock)->dep_map.name, (lock)->dep_map.key, sub)

/* The two ends of a pair: the slave's mutex gets its own subclass where the pair is made. */
struct tty { struct mutex legacy; struct tty *link; };
void tty_set_lock_subclass(struct tty *tty) { lockdep_set_subclass(&tty->legacy, 1); }
void ok_pair(struct tty *tty) {
    mutex_lock(&tty->legacy);
    mutex_lock(&tty->link->legacy);
    mutex_unlock(&tty->link->legacy);
    mutex_unlock(&tty->legacy);
}

/* A list of streams each taken at its own depth. */
struct stream { struct mutex m; struct stream *next; };
void ok_linked(struct stream *first) {
    int depth = 1;
    struct stream *s;
    mutex_lock(&first->m);
    for (s = first->next; s; s = s->next)
        mutex_lock_nested(&s->m, depth++);
    for (s = first->next; s; s = s->next)
        mutex_unlock(&s->m);
    mutex_unlock(&first->m);
}

/* No class set anywhere, no annotation: two ports may be one (idioms.c without lockdep; here
 * `mutex_lock` is lockdep's `mutex_lock_nested(l, 0)`). */
struct port { struct mutex m; int open; };
void bad_two_ports(struct port *a, struct port *b) {
    mutex_lock(&a->m);
    mutex_lock(&b->m);                          // expect: lock.double-lock
    mutex_unlock(&b->m);
    mutex_unlock(&a->m);
}

/* Held at a subclass of its own, a lock is not of the class a plain acquire takes. */
void ok_nested_then_plain(struct stream *a, struct stream *b) {
    mutex_lock_nested(&a->m, 1);
    mutex_lock(&b->m);
    mutex_unlock(&b->m);
    mutex_unlock(&a->m);
}
