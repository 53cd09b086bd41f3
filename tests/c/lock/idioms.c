/* Idioms that must give no report, and their broken variants. */
#include <pthread.h>
typedef struct { int raw; } spinlock_t;
struct mutex { int owner; };
struct rwlock { int cnt; };
void spin_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);
int mutex_lock_interruptible(struct mutex *m);
void read_lock(struct rwlock *l);
void read_unlock(struct rwlock *l);
void write_lock(struct rwlock *l);

pthread_mutex_t global_m;
struct mutex dev_mutex;

int ok_interruptible(void) {
    if (mutex_lock_interruptible(&dev_mutex))
        return -4;
    mutex_unlock(&dev_mutex);
    return 0;
}

void ok_bit_level(unsigned char c) {
    if (c & 0x80) pthread_mutex_lock(&global_m);
    if (c >= 128) pthread_mutex_unlock(&global_m);
}

void bad_bit_level(signed char c) {
    if (c & 0x80) pthread_mutex_lock(&global_m);
    if (c >= 0) pthread_mutex_unlock(&global_m);   // expect: lock.double-unlock
}

/* Holds the lock exactly when it returns non-zero: no report, here or in the caller. */
int lock_if_ready(struct mutex *m, int ready) {
    if (!ready) return 0;
    mutex_lock(m);
    return 1;
}

void ok_user_of_conditional(struct mutex *m, int ready) {
    if (lock_if_ready(m, ready))
        mutex_unlock(m);
}

void bad_user_of_conditional(struct mutex *m) {
    lock_if_ready(m, m->owner);
    mutex_unlock(m);                          // expect: lock.double-unlock
}

void ok_read_locks_nest(struct rwlock *l) {
    read_lock(l);
    read_lock(l);
    read_unlock(l);
}

void ok_balanced_loop(struct mutex *m, int n) {
    int i;
    for (i = 0; i < n; i++) {
        mutex_lock(m);
        mutex_unlock(m);
    }
}

void bad_loop(struct mutex *m, int n) {
    int i;
    for (i = 0; i < n; i++) {
        mutex_lock(m);                        // expect: lock.double-lock
    }
}

/* Two locks of one class (NOTE [lock-classes]): a and b may be one object, and lockdep calls
   it recursive locking unless the second is annotated as nested; pthread mutexes have no
   classes. */
struct obj { struct mutex lock; int v; };
void mutex_lock_nested(struct mutex *m, unsigned int subclass);
void bad_two_objects(struct obj *a, struct obj *b) {
    mutex_lock(&a->lock);
    mutex_lock(&b->lock);                     // expect: lock.double-lock
    mutex_unlock(&b->lock);
    mutex_unlock(&a->lock);
}
void ok_two_objects_nested(struct obj *a, struct obj *b) {
    mutex_lock(&a->lock);
    mutex_lock_nested(&b->lock, 1);
    mutex_unlock(&b->lock);
    mutex_unlock(&a->lock);
}
struct pobj { pthread_mutex_t lock; int v; };
void ok_two_pthread_objects(struct pobj *a, struct pobj *b) {
    pthread_mutex_lock(&a->lock);
    pthread_mutex_lock(&b->lock);
    pthread_mutex_unlock(&b->lock);
    pthread_mutex_unlock(&a->lock);
}

void ok_pthread_trylock(void) {
    if (pthread_mutex_trylock(&global_m) == 0)
        pthread_mutex_unlock(&global_m);
}

void bad_pthread_trylock(void) {
    if (pthread_mutex_trylock(&global_m) != 0)
        pthread_mutex_unlock(&global_m);      // expect: lock.double-unlock
}

/* Leaves the lock held on purpose: a lock wrapper, not a bug. */
void take_dev(void) { mutex_lock(&dev_mutex); }
// expect-summary: take_dev: lock dev_mutex: [unlocked -> locked] [locked -> error (acquire)]
void give_dev(void) { mutex_unlock(&dev_mutex); }
// expect-summary: give_dev: lock dev_mutex: [unlocked -> error (release)] [locked -> unlocked]

void ok_wrapper_pair(void) { take_dev(); give_dev(); }
void bad_wrapper_pair(void) { take_dev(); take_dev(); }   // expect: lock.double-lock

void ok_write_then_read_other(struct rwlock *a, struct rwlock *b) {
    write_lock(a);
    read_lock(b);
}
