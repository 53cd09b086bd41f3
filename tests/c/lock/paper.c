/* The examples of §2.5 (Xie's thesis): Fig. 2.8, 2.11, 2.12 and the pair of §2.8.1. */
typedef struct { int raw; } spinlock_t;
void spin_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);
int spin_trylock(spinlock_t *l);

void my_lock(spinlock_t *l) { spin_lock(l); }
// expect-summary: my_lock: lock *param0: [unlocked -> locked] [locked -> error (acquire)]

int my_trylock(spinlock_t *l) { return spin_trylock(l); }
// expect-summary: my_trylock: lock *param0: [unlocked -> locked if ret != 0] [unlocked -> unlocked if ret == 0] [locked -> error (acquire)]

void complex_wrapper(spinlock_t *l, int flag, int *success) {
    if (flag) *success = spin_trylock(l);
    else { spin_unlock(l); *success = 1; }
}
// expect-summary: complex_wrapper: lock *param0: [unlocked -> locked if param1 != 0 and *param2 != 0] [unlocked -> unlocked if param1 != 0 and *param2 == 0] [unlocked -> error (release) if param1 == 0 and *param2 != 0] [locked -> error (acquire) if param1 != 0] [locked -> unlocked if param1 == 0 and *param2 != 0]

/* Fig. 2.11: a lock taken again one call deep. */
struct sscape_info { spinlock_t lock; int dma_allocated; };
static void sscape_write(struct sscape_info *devc, int reg, int data) {
    spin_lock(&devc->lock);
    (void)reg; (void)data;
    spin_unlock(&devc->lock);
}
// expect-summary: sscape_write: lock (*param0).lock: [unlocked -> unlocked] [locked -> error (acquire)]

static void sscape_coproc_close(struct sscape_info *devc, int sub_device) {
    spin_lock(&devc->lock);
    if (devc->dma_allocated) {
        sscape_write(devc, 1, 0x20);   // expect: lock.double-lock
    }
    spin_unlock(&devc->lock);
    (void)sub_device;
}

/* Fig. 2.12: two -EBUSY returns, one holding the lock. */
struct dev { spinlock_t lock; int busy; int open; };
int dev_open(struct dev *d) {
    spin_lock(&d->lock);
    if (d->busy) {
        spin_unlock(&d->lock);
        return -16;
    }
    if (d->open)
        return -16;                       // expect: lock.ambiguous-exit
    d->open = 1;
    spin_unlock(&d->lock);
    return 0;
}

/* §2.8.1: correlated conditions are fine; two names for one lock are not. */
struct P { spinlock_t lock; };
void ok_correlated(struct P *p, int x) {
    if (x) spin_lock(&p->lock);
    if (x) spin_unlock(&p->lock);
}

void bad_alias(struct P *p) {
    spinlock_t *l = &p->lock;
    spin_lock(l);
    spin_lock(&p->lock);                  // expect: lock.double-lock
}
