/* Examples from the other papers in ../shared/seeds. */
typedef struct { int raw; } spinlock_t;
struct mutex { int owner; };
void spin_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);

/* EBA (Abal et al.), Linux d7e9711: a lock taken again inside a callee only when two
   conditions both fail. */
struct dev { spinlock_t lock; int a; int b; int cnt; };
static void dev_reset(struct dev *d) {
    if (!d->a && !d->b) {
        spin_lock(&d->lock);
        d->cnt = 0;
        spin_unlock(&d->lock);
    }
}
void dev_irq(struct dev *d) {
    spin_lock(&d->lock);
    dev_reset(d);                            // expect: lock.double-lock
    spin_unlock(&d->lock);
}

/* Fischer-Nielsen: ubifs orphan_delete releases a lock its caller releases again. */
struct ubifs_info { spinlock_t orphan_lock; int cnt; };
struct orphan { int del; int cmt; };
static void orphan_delete(struct ubifs_info *c, struct orphan *o) {
    if (o->del) {
        spin_unlock(&c->orphan_lock);
        return;
    }
    if (o->cmt) {
        o->del = 1;
        spin_unlock(&c->orphan_lock);
        return;
    }
    c->cnt -= 1;                             // expect: lock.ambiguous-exit
}
void ubifs_delete_orphan(struct ubifs_info *c, struct orphan *o) {
    spin_lock(&c->orphan_lock);
    orphan_delete(c, o);
    /* Unlocked twice where orphan_delete released it: reported once, as orphan_delete's
       ambiguous exit above (NOTE [vague-callees]), not again here. */
    spin_unlock(&c->orphan_lock);
}
