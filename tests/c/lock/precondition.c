// saturn-xfail: a lockdep_assert_held precondition is an assumption (paths without the lock are dropped), so a caller that breaks it is not reported; it would need an "unlocked -> error" row whose report says "not held" rather than double-unlock
struct lockdep_map { int key; };
struct lmutex { long owner; struct lockdep_map dep_map; };
int lock_is_held_type(const void *lock, int read);
void lmutex_unlock(struct lmutex *m) __attribute__((context(m,1,0)));
struct ldev { struct lmutex m; int state; };

void ldev_drop(struct ldev *d) {
    (void)(lock_is_held_type(&(&d->m)->dep_map, -1) != 0);
    d->state = 0;
    lmutex_unlock(&d->m);
}

void bad_ldev(struct ldev *d) {
    ldev_drop(d);
    ldev_drop(d);                               // expect: lock.double-unlock
}
