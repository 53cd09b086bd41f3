/* Kernel code as preprocessing leaves it: spin_lock is a static inline over _raw_spin_lock,
 * spin_lock_irqsave a macro over _raw_spin_lock_irqsave, locks reached through container_of. */
typedef struct raw_spinlock { unsigned int val; } raw_spinlock_t;
typedef struct spinlock { union { struct raw_spinlock rlock; }; } spinlock_t;
struct mutex { long owner; };
struct rw_semaphore { long count; };
void _raw_spin_lock(raw_spinlock_t *lock);
void _raw_spin_unlock(raw_spinlock_t *lock);
unsigned long _raw_spin_lock_irqsave(raw_spinlock_t *lock);
void _raw_spin_unlock_irqrestore(raw_spinlock_t *lock, unsigned long flags);
void mutex_lock_nested(struct mutex *lock, unsigned int subclass);
void mutex_unlock(struct mutex *lock);
void down_read(struct rw_semaphore *sem);
void up_read(struct rw_semaphore *sem);
void down_write(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);
int lock_is_held_type(const void *lock, int read);

static inline __attribute__((__always_inline__)) void spin_lock(spinlock_t *lock)
{ _raw_spin_lock(&lock->rlock); }
static inline __attribute__((__always_inline__)) void spin_unlock(spinlock_t *lock)
{ _raw_spin_unlock(&lock->rlock); }
#define spin_lock_irqsave(lock, flags) \
    do { flags = _raw_spin_lock_irqsave(&(lock)->rlock); } while (0)
#define spin_unlock_irqrestore(lock, flags) _raw_spin_unlock_irqrestore(&(lock)->rlock, flags)
#define mutex_lock(l) mutex_lock_nested(l, 0)
#define offsetof(T, m) __builtin_offsetof(T, m)
#define container_of(ptr, type, member) ({ \
    void *__mptr = (void *)(ptr); \
    _Static_assert(__builtin_types_compatible_p(typeof(*(ptr)), typeof(((type *)0)->member)), \
                   "pointer type mismatch"); \
    ((type *)(__mptr - offsetof(type, member))); })
#define lockdep_assert_held(l) \
    do { (void)(lock_is_held_type(&(l)->dep_map, -1) != 0); } while (0)

struct list_head { struct list_head *next, *prev; };
struct dev {
    int id;
    struct list_head node;          /* container_of lands at offset 8 */
    spinlock_t lock;
    struct mutex mtx;
    struct rw_semaphore sem;
    int count;
};

void ok_irqsave(struct dev *d) {
    unsigned long flags;
    spin_lock_irqsave(&d->lock, flags);
    d->count++;
    spin_unlock_irqrestore(&d->lock, flags);
}

void bad_double_lock(struct dev *d) {
    spin_lock(&d->lock);
    spin_lock(&d->lock);                        // expect: lock.double-lock
    spin_unlock(&d->lock);
}

/* The lock taken through the list node is the lock released through the struct. */
void ok_container_of(struct list_head *n, struct dev *d) {
    struct dev *owner = container_of(n, struct dev, node);
    spin_lock(&owner->lock);
    owner->count++;
    spin_unlock(&owner->lock);
}

void bad_container_of(struct list_head *n) {
    struct dev *owner = container_of(n, struct dev, node);
    spin_lock(&owner->lock);
    if (owner->count)
        return;                                 // expect: lock.ambiguous-exit
    spin_unlock(&owner->lock);
}

static struct dev *node_to_dev(struct list_head *n) { return container_of(n, struct dev, node); }

void bad_container_of_pair(struct list_head *n) {
    spin_lock(&node_to_dev(n)->lock);
    spin_lock(&node_to_dev(n)->lock);           // expect: lock.double-lock
    spin_unlock(&node_to_dev(n)->lock);
}

void ok_mutex_macro(struct dev *d) {
    mutex_lock(&d->mtx);
    d->count = 0;
    mutex_unlock(&d->mtx);
}

void ok_rwsem(struct dev *d) {
    down_read(&d->sem);
    d->count++;
    up_read(&d->sem);
}

void bad_rwsem(struct dev *d) {
    down_write(&d->sem);
    if (d->count > 3)
        return;                                 // expect: lock.ambiguous-exit
    up_write(&d->sem);
}

/* lockdep_assert_held with lockdep configured in: a precondition, so no report in ldev_drop
 * (its summary starts from "locked"); see precondition.c for callers that break it. */
struct lockdep_map { int key; };
struct lmutex { long owner; struct lockdep_map dep_map; };
void lmutex_lock(struct lmutex *m) __attribute__((context(m,0,1)));
void lmutex_unlock(struct lmutex *m) __attribute__((context(m,1,0)));
void dev_unlock_later(struct dev *d) __attribute__((context(&d->lock,1,0)));
struct ldev { struct lmutex m; int state; };

void ldev_drop(struct ldev *d) {
    lockdep_assert_held(&d->m);
    d->state = 0;
    lmutex_unlock(&d->m);
}

void ok_ldev(struct ldev *d) {
    lmutex_lock(&d->m);
    ldev_drop(d);
}

/* `__acquires`/`__releases` (sparse's context attributes) act as specs for bodiless functions. */
void bad_annotated(struct ldev *d) {
    lmutex_lock(&d->m);
    lmutex_lock(&d->m);                         // expect: lock.double-lock
    lmutex_unlock(&d->m);
}

void bad_annotated_field(struct dev *d) {
    spin_lock(&d->lock);
    dev_unlock_later(d);
    dev_unlock_later(d);                        // expect: lock.double-unlock
}

/* Scope-based guards (cleanup attribute): the destructor unlocks at every exit of the scope. */
typedef struct { spinlock_t *lock; } class_spinlock_t;
static inline void class_spinlock_destructor(class_spinlock_t *_T) { if (_T->lock) spin_unlock(_T->lock); }
static inline class_spinlock_t class_spinlock_constructor(spinlock_t *l)
{ class_spinlock_t _t = { .lock = l }; spin_lock(_t.lock); return _t; }
#define guard_spinlock(l) \
    class_spinlock_t __guard __attribute__((__cleanup__(class_spinlock_destructor))) = \
        class_spinlock_constructor(l)

int ok_guard(struct dev *d) {
    guard_spinlock(&d->lock);
    if (d->count)
        return 1;
    d->count++;
    return 0;
}

void ok_scoped_guard(struct dev *d) {
    for (class_spinlock_t scope __attribute__((__cleanup__(class_spinlock_destructor))) =
             class_spinlock_constructor(&d->lock), *done = 0; !done; done = (void *)1) {
        if (d->count)
            break;
        d->count = 1;
    }
    spin_lock(&d->lock);
    spin_unlock(&d->lock);
}

void bad_guard(struct dev *d) {
    guard_spinlock(&d->lock);
    spin_lock(&d->lock);                        // expect: lock.double-lock
}

/* Returns the object locked, or an error pointer (drivers/tty's tty_init_dev): on failure no
 * lock is handed out, so the exit is not ambiguous and callers unlock only on success. */
struct tty { struct mutex legacy_mutex; int count; };
void *kzalloc_tty(void);
void kfree_tty(void *p);
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline _Bool IS_ERR(const void *ptr) { return (unsigned long)ptr >= (unsigned long)-4095; }

struct tty *tty_init(int fail) {
    struct tty *t = kzalloc_tty();
    if (!t)
        return ERR_PTR(-12);
    mutex_lock(&t->legacy_mutex);
    if (fail) {
        mutex_unlock(&t->legacy_mutex);
        kfree_tty(t);
        return ERR_PTR(-5);
    }
    return t;
}

int ok_open(int fail) {
    struct tty *t = tty_init(fail);
    if (IS_ERR(t))
        return -1;
    t->count++;
    mutex_unlock(&t->legacy_mutex);
    return 0;
}

/* local_irq_* mask interrupts; they are neither locks nor memory writes. */
void local_irq_disable(void);
void local_irq_enable(void);
struct irqdev { spinlock_t lock; int pending; } the_irqdev;

void ok_irq_masking(void) {
    local_irq_disable();
    spin_lock(&the_irqdev.lock);
    the_irqdev.pending = 0;
    local_irq_enable();
    spin_unlock(&the_irqdev.lock);
}

void bad_irq_masking(void) {
    local_irq_disable();
    spin_lock(&the_irqdev.lock);
    local_irq_enable();
    spin_lock(&the_irqdev.lock);                // expect: lock.double-lock
}

/* EXPORT_SYMBOL(f) declares `extern typeof(f) f;` after f: still f, so later calls use its
 * summary (sound/core's relink_to_local unlocked through an exported function). */
void dev_unlock_exported(struct dev *d) { spin_unlock(&d->lock); }
extern typeof(dev_unlock_exported) dev_unlock_exported;

void ok_exported(struct dev *d) {
    spin_lock(&d->lock);
    d->count++;
    dev_unlock_exported(d);
}

void bad_exported(struct dev *d) {
    spin_lock(&d->lock);
    dev_unlock_exported(d);
    dev_unlock_exported(d);                     // expect: lock.double-unlock
}

/* The same with a constructor: the allocator initialises the mutex (tty_init_dev's
 * alloc_tty_struct). An error pointer hands out no lock, initialised or not. */
void __mutex_init(struct mutex *lock, const char *name, void *key);
static struct tty *alloc_tty(void) {
    struct tty *t = kzalloc_tty();
    if (!t)
        return 0;
    __mutex_init(&t->legacy_mutex, "legacy", 0);
    return t;
}

struct tty *tty_init_made(int fail) {
    struct tty *t = alloc_tty();
    if (!t)
        return ERR_PTR(-12);
    mutex_lock(&t->legacy_mutex);
    if (fail) {
        mutex_unlock(&t->legacy_mutex);
        kfree_tty(t);
        return ERR_PTR(-5);
    }
    return t;
}
// expect-summary: tty_init_made: lock constructor (*ret).legacy_mutex: [any -> locked if param0 == 0 and ret != 0]

int ok_open_made(int fail) {
    struct tty *t = tty_init_made(fail);
    if (IS_ERR(t))
        return -1;
    t->count++;
    mutex_unlock(&t->legacy_mutex);
    return 0;
}

/* tty_open_by_driver: the tty it hands out was found and locked (from unlocked; locked before,
 * its own double lock) or made locked. tty_open retries after a failed open, unlocking first.
 * The tty is new to the caller, so the callee's row from "locked" is no double lock here. */
struct tty *tty_lookup(int idx);
struct tty *tty_find_or_make(int idx, int fail) {
    struct tty *t = tty_lookup(idx);
    if (t) {
        mutex_lock(&t->legacy_mutex);
        return t;
    }
    return tty_init_made(fail);
}

int tty_device_open(struct tty *t);

int ok_open_retry(int idx, int fail) {
    struct tty *t;
retry:
    t = tty_find_or_make(idx, fail);
    if (IS_ERR(t))
        return -1;
    if (tty_device_open(t)) {
        mutex_unlock(&t->legacy_mutex);
        goto retry;
    }
    mutex_unlock(&t->legacy_mutex);
    return 0;
}

int bad_open_relock(int idx, int fail) {
    struct tty *t = tty_find_or_make(idx, fail);
    if (IS_ERR(t))
        return -1;
    mutex_lock(&t->legacy_mutex);               // expect: lock.double-lock
    mutex_unlock(&t->legacy_mutex);
    return 0;
}

/* serial8250_console_write: under oops_in_progress only try the lock, and unlock only if it was
 * taken. The trylock's result reaches `locked` through nested statement expressions. */
int _raw_spin_trylock(raw_spinlock_t *lock);
#define __cond_lock(x, c) ((c) ? ({ __context__(x, 1); 1; }) : 0)
#define raw_spin_trylock(lock) __cond_lock(lock, _raw_spin_trylock(lock))
#define raw_spin_trylock_irqsave(lock, flags) \
    ({ flags = 0; raw_spin_trylock(lock) ? 1 : ({ flags = 1; 0; }); })
#define spin_trylock_irqsave(lock, flags) ({ raw_spin_trylock_irqsave(&(lock)->rlock, flags); })
extern int oops_in_progress;

void ok_console_write(struct dev *d) {
    unsigned long flags;
    int locked = 1;
    if (oops_in_progress)
        locked = spin_trylock_irqsave(&d->lock, flags);
    else
        spin_lock_irqsave(&d->lock, flags);
    d->count++;
    if (locked)
        spin_unlock_irqrestore(&d->lock, flags);
}
