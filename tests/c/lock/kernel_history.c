/* Shapes of double locks the kernel fixed, written anew (no kernel code): what hid them was
 * the engine's model of the code around the lock, not the lock operations. */
typedef struct raw_spinlock { unsigned int val; } raw_spinlock_t;
typedef struct spinlock { union { struct raw_spinlock rlock; }; } spinlock_t;
struct mutex { long owner; };
void _raw_spin_lock(raw_spinlock_t *lock);
void _raw_spin_unlock(raw_spinlock_t *lock);
void mutex_lock_nested(struct mutex *lock, unsigned int subclass);
void mutex_unlock(struct mutex *lock);
void panic(const char *msg) __attribute__((noreturn));
static inline void spin_lock(spinlock_t *lock) { _raw_spin_lock(&lock->rlock); }
static inline void spin_unlock(spinlock_t *lock) { _raw_spin_unlock(&lock->rlock); }
#define mutex_lock(l) mutex_lock_nested(l, 0)
#define offsetof(T, m) __builtin_offsetof(T, m)
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
struct list_head { struct list_head *next, *prev; };
#define list_for_each(p, h) for (p = (h)->next; p != (h); p = p->next)

/* A pointer to const is not a const object: the probe points it at a table. Reading through it
 * must not end every path (a null "initial value" did), so the handler returns. */
struct config { int shadow; };
static const struct config *config;
static spinlock_t state_lock, mask_lock;
static unsigned mask_shadow;
static unsigned read_mask(void) {
    unsigned m = 0;
    if (config->shadow) {
        spin_lock(&mask_lock);
        m = mask_shadow;
        spin_unlock(&mask_lock);
    }
    return m;
}
int irq_handler(void) {
    int handled = 0;
    spin_lock(&state_lock);
    if (read_mask())
        handled = 1;
    spin_lock(&state_lock);                          // expect: lock.double-lock
    return handled;
}
void probe(const struct config *c) { config = c; }

/* An extern const defined elsewhere has a value we do not know (not zero). */
struct mask { unsigned long bits[1]; };
extern const struct mask *const online_mask;
static int online(int cpu) { return (online_mask->bits[0] >> cpu) & 1; }
void per_cpu_work(struct mutex *m, int cpu) {
    mutex_lock(m);
    if (online(cpu))
        mutex_unlock(m);
    mutex_lock(m);                                   // expect: lock.double-lock
    mutex_unlock(m);
}

/* A walk over a circular list ends where it started (the empty list included). */
struct entry { int key; struct list_head node; };
struct table { struct mutex lock; struct list_head buckets[32]; };
int lookup(struct table *t, int key) {
    struct list_head *p;
    int slot, found = 0;
    mutex_lock(&t->lock);
    for (slot = 0; slot < 32; slot++)
        list_for_each(p, &t->buckets[slot])
            if (container_of(p, struct entry, node)->key == key)
                found = 1;
    mutex_lock(&t->lock);                            // expect: lock.double-lock
    return found;
}
int ok_lookup(struct table *t, int key) {
    struct list_head *p;
    int found = 0;
    mutex_lock(&t->lock);
    list_for_each(p, &t->buckets[0])
        if (container_of(p, struct entry, node)->key == key)
            found = 1;
    mutex_unlock(&t->lock);
    return found;
}

/* A list whose nodes carry a payload, walked until the cursor is back at the head cast to a
 * node: the havoc pass's unknown cursor may be the head. */
struct buf { struct buf *next, *prev; int owner; };
struct queue { struct buf *next, *prev; int len; spinlock_t lock; };
void drop_owned(struct queue *q, int owner) {
    struct buf *b, *tmp;
    spin_lock(&q->lock);
    for (b = q->next, tmp = b->next; b != (struct buf *)q; b = tmp, tmp = b->next)
        if (b->owner == owner)
            b->owner = 0;
    spin_lock(&q->lock);                             // expect: lock.double-lock
}

/* Loops one after another, each with more iterations than the unrolling: the code after the
 * last is reached; a way out of the loop through panic() does not count as its exit. */
static int counters[8];
int init_all(struct mutex *m) {
    int i;
    unsigned long bits = 0, n = 512;
    mutex_lock(m);
    for (i = 0; i < 8; i++)
        if (counters[i] < 0)
            panic("counter");
    do { bits++; } while (n >> bits);
    mutex_lock(m);                                   // expect: lock.double-lock
    return (int)bits;
}

/* A read lock taken again where its release was meant: read locks nest across calls, but not
 * twice by the same function on one path. */
typedef struct { unsigned int cnts; } rwlock_t;
void _raw_read_lock(rwlock_t *lock);
void _raw_read_unlock(rwlock_t *lock);
static rwlock_t table_rwlock;
static int table_size;
void resize_table(int n) {
    _raw_read_lock(&table_rwlock);
    if (table_size < n)
        table_size = n;
    _raw_read_lock(&table_rwlock);                  // expect: lock.double-lock
}
int ok_read_twice(void) {
    int n;
    _raw_read_lock(&table_rwlock);
    n = table_size;
    _raw_read_unlock(&table_rwlock);
    _raw_read_lock(&table_rwlock);                  /* released between */
    n += table_size;
    _raw_read_unlock(&table_rwlock);
    return n;
}

/* A lock in a block that a function without a body returned: its state is unknown, as an
 * input's is, and taking it twice is a double lock from either state. */
struct card { spinlock_t queue_lock; unsigned regs; };
void *get_drvdata(const void *dev);
long store_gpio(const void *dev, const char *buf, long count) {
    struct card *card = get_drvdata(dev);
    spin_lock(&card->queue_lock);
    if (buf[0] == '1')
        card->regs |= 1;
    else
        count = -22;
    spin_lock(&card->queue_lock);                    // expect: lock.double-lock
    return count;
}
long ok_store_gpio(const void *dev, const char *buf, long count) {
    struct card *card = get_drvdata(dev);
    spin_lock(&card->queue_lock);
    if (buf[0] == '1')
        card->regs |= 1;
    spin_unlock(&card->queue_lock);
    return count;
}

/* A hand-made recursive mutex: an owner field says whether this thread holds it already. Its
 * wrappers' exits are ambiguous to the checker (reported there); their callers are not told
 * again that the lock they took through them may be released twice. */
struct task;
struct task *get_current(void);
int mutex_trylock(struct mutex *lock);
struct rec_mutex { struct mutex mutex; struct task *owner; int level; };
static inline void rec_lock(struct rec_mutex *m) {
    if (mutex_trylock(&m->mutex))
        m->owner = get_current();
    else if (m->owner != get_current()) {
        mutex_lock(&m->mutex);
        m->owner = get_current();
    }
    m->level++;                                      // expect: lock.ambiguous-exit
}
static inline void rec_unlock(struct rec_mutex *m) {
    if (--m->level > 0)
        return;                                      // expect: lock.ambiguous-exit
    m->owner = 0;
    mutex_unlock(&m->mutex);
}
struct device { struct rec_mutex cs; struct mutex vm; int state; };
void ok_rec_user(struct device *d) {
    mutex_lock(&d->vm);
    rec_lock(&d->cs);
    d->state++;
    rec_unlock(&d->cs);
    mutex_unlock(&d->vm);
}
void remove_mapping(struct device *d) {
    mutex_lock(&d->vm);
    rec_lock(&d->cs);
    d->state--;
    rec_unlock(&d->cs);
    mutex_lock(&d->vm);                              // expect: lock.double-lock
}

/* A driver's private state lives right after its switch struct (`(void *)(ds + 1)`): the lock
 * a helper takes there is the lock its caller holds. */
struct dsa_switch { int index; };
struct priv_state { struct mutex smi_mutex; int stats[4]; };
static inline void *ds_to_priv(struct dsa_switch *ds) { return (void *)(ds + 1); }
int reg_read(struct dsa_switch *ds, int reg) {
    struct priv_state *ps = ds_to_priv(ds);
    int v;
    mutex_lock(&ps->smi_mutex);
    v = ps->stats[reg & 3];
    mutex_unlock(&ps->smi_mutex);
    return v;
}
static int reg_read_locked(struct dsa_switch *ds, int reg) {
    struct priv_state *ps = ds_to_priv(ds);
    return ps->stats[reg & 3];
}
void get_stats(struct dsa_switch *ds, int *data) {
    struct priv_state *ps = ds_to_priv(ds);
    mutex_lock(&ps->smi_mutex);
    data[0] = reg_read_locked(ds, 0);
    data[1] = reg_read(ds, 1);                       // expect: lock.double-lock
    mutex_unlock(&ps->smi_mutex);
}
void ok_get_stats(struct dsa_switch *ds, int *data) {
    struct priv_state *ps = ds_to_priv(ds);
    mutex_lock(&ps->smi_mutex);
    data[0] = reg_read_locked(ds, 0);
    mutex_unlock(&ps->smi_mutex);
    data[1] = reg_read(ds, 1);
}

/* A semaphore has no owner: its trylock while this task holds it fails (printk trylocks the
 * console semaphore its caller may hold), and a function that re-initialises it on one path
 * says nothing of the lock before that. */
struct semaphore { int count; };
void down(struct semaphore *sem);
void up(struct semaphore *sem);
int down_trylock(struct semaphore *sem);
void sema_init(struct semaphore *sem, int val);
static struct semaphore console_sem;
static int oops_in_progress, pending;
static int console_trylock(void) {
    if (down_trylock(&console_sem))
        return 0;
    return 1;
}
void print_line(void) {
    if (oops_in_progress)
        sema_init(&console_sem, 1);   /* zap the lock */
    pending++;
    if (console_trylock())
        up(&console_sem);
}
void ok_register(void) {
    down(&console_sem);
    pending = 0;
    up(&console_sem);
    print_line();
}
void ok_print_while_holding(void) {
    down(&console_sem);
    if (console_trylock())        /* fails: this task holds it */
        up(&console_sem);
    up(&console_sem);
}

/* A lock taken again after this function released it: other threads may have changed what it
 * protects in between (`con_start != log_end` after the loop broke on their equality). */
static spinlock_t logbuf_lock;
static unsigned con_start, log_end;
void flush_console(void) {
    unsigned retry = 0;
again:
    for (;;) {
        spin_lock(&logbuf_lock);                     // expect: lock.double-lock
        if (con_start == log_end)
            break;
        con_start = log_end;
        spin_unlock(&logbuf_lock);
    }
    spin_unlock(&logbuf_lock);
    spin_lock(&logbuf_lock);
    if (con_start != log_end)
        retry = 1;
    if (retry)
        goto again;
    spin_unlock(&logbuf_lock);
}
void ok_flush_console(void) {
    unsigned retry = 0;
again:
    for (;;) {
        spin_lock(&logbuf_lock);
        if (con_start == log_end)
            break;
        con_start = log_end;
        spin_unlock(&logbuf_lock);
    }
    spin_unlock(&logbuf_lock);
    spin_lock(&logbuf_lock);
    if (con_start != log_end)
        retry = 1;
    spin_unlock(&logbuf_lock);
    if (retry)
        goto again;
}

/* Two locks of one class held together (NOTE [lock-classes]): the two requests' contexts may
 * be one context, and a callee that reaches the engine through a descriptor's channel may take
 * the engine lock its caller holds. */
struct io_context { spinlock_t lock; int nr; };
struct request { struct io_context *ctx; int sector; };
static inline void double_lock(spinlock_t *l1, spinlock_t *l2, int l1_first) {
    if (l1_first) { spin_lock(l1); spin_lock(l2); }
    else { spin_lock(l2); spin_lock(l1); }
}
static inline void double_unlock(spinlock_t *l1, spinlock_t *l2) {
    spin_unlock(l1);
    spin_unlock(l2);
}
void merge_requests(struct request *req, struct request *next) {
    struct io_context *rioc = req->ctx, *nioc = next->ctx;
    double_lock(&rioc->lock, &nioc->lock, req->sector < next->sector);   // expect: lock.double-lock
    rioc->nr += nioc->nr;
    double_unlock(&rioc->lock, &nioc->lock);
}
void ok_merge_same(struct request *req) {
    struct io_context *ioc = req->ctx;
    spin_lock(&ioc->lock);
    ioc->nr++;
    spin_unlock(&ioc->lock);
}

struct engine { spinlock_t lock; int slots; };
struct channel { struct engine *engine; struct list_head queue; };
struct dma_chan { int id; };
struct desc { struct dma_chan *chan; struct list_head node; };
struct dchannel { struct dma_chan chan; struct engine *engine; };
static int xfer(struct desc *d) {
    struct dchannel *dc = container_of(d->chan, struct dchannel, chan);
    struct engine *e = dc->engine;
    int busy;
    spin_lock(&e->lock);
    busy = e->slots;
    spin_unlock(&e->lock);
    return busy;
}
void issue_pending(struct channel *c) {
    struct engine *e = c->engine;
    spin_lock(&e->lock);
    if (c->queue.next != &c->queue)
        xfer(container_of(c->queue.next, struct desc, node));   // expect: lock.double-lock
    spin_unlock(&e->lock);
}
void ok_issue_pending(struct channel *c) {
    struct engine *e = c->engine;
    int empty;
    spin_lock(&e->lock);
    empty = c->queue.next == &c->queue;
    spin_unlock(&e->lock);
    if (!empty)
        xfer(container_of(c->queue.next, struct desc, node));
}

/* Calls through function pointers (NOTE [indirect-calls]): a callback another function stored
 * in a struct, an operations table initialised statically, a local pointer. */
struct codec_priv {
    struct mutex accdet_lock;
    int jackdet;
    void (*mic_id_cb)(struct codec_priv *data, int status);
    struct codec_priv *mic_id_cb_data;
};
static void micd_stop(struct codec_priv *p) {
    if (!p->jackdet)
        return;
    mutex_lock(&p->accdet_lock);
    p->jackdet = 0;
    mutex_unlock(&p->accdet_lock);
}
static void mic_id(struct codec_priv *data, int status) {
    if (status & 0xfc)
        micd_stop(data);
}
void mic_detect(struct codec_priv *p) {
    p->mic_id_cb = mic_id;
    p->mic_id_cb_data = p;
}
void mic_work(struct codec_priv *p, int status) {
    mutex_lock(&p->accdet_lock);
    p->mic_id_cb(p->mic_id_cb_data, status);          // expect: lock.double-lock
    mutex_unlock(&p->accdet_lock);
}
void ok_mic_work(struct codec_priv *p, int status) {
    mutex_lock(&p->accdet_lock);
    status = p->jackdet ? status : 0;
    mutex_unlock(&p->accdet_lock);
    p->mic_id_cb(p->mic_id_cb_data, status);
}

struct port { struct mutex lock; int open; };
struct port_ops { void (*start)(struct port *); void (*stop)(struct port *); };
static void port_start(struct port *p) { mutex_lock(&p->lock); p->open = 1; mutex_unlock(&p->lock); }
static void port_stop(struct port *p) { p->open = 0; }
static const struct port_ops default_ops = { .start = port_start, .stop = port_stop };
void restart(struct port *p, const struct port_ops *ops) {
    mutex_lock(&p->lock);
    ops->stop(p);
    ops->start(p);                                     // expect: lock.double-lock
    mutex_unlock(&p->lock);
}
void ok_restart(struct port *p, const struct port_ops *ops) {
    mutex_lock(&p->lock);
    ops->stop(p);
    mutex_unlock(&p->lock);
    ops->start(p);
}
void restart_default(struct port *p) {
    void (*start)(struct port *) = port_start;
    mutex_lock(&p->lock);
    start(p);                                          // expect: lock.double-lock
    mutex_unlock(&p->lock);
}

/* A call through a table that would call back into its caller is not resolved to this file's
 * own entry (a line discipline writes to the tty below it, not to its own): resolved, it made
 * a cycle in which `data_kick` had not yet its callee `data_sweep`'s summary. */
struct tty;
struct tty_ops { int (*write)(struct tty *t, int n); };
struct tty { const struct tty_ops *ops; };
struct mux { spinlock_t tx_lock; int tx_bytes; struct tty *tty; };
static int mux_output(struct mux *m, int n) { return m->tty->ops->write(m->tty, n); }
void data_sweep(struct mux *m) {
    spin_lock(&m->tx_lock);
    if (m->tx_bytes < 8192)
        mux_output(m, m->tx_bytes);
    spin_unlock(&m->tx_lock);
}
void data_kick(struct mux *m) {
    spin_lock(&m->tx_lock);
    if (m->tx_bytes < 2048)
        data_sweep(m);                                 // expect: lock.double-lock
    spin_unlock(&m->tx_lock);
}
static struct mux *the_mux;
static int mux_tty_write(struct tty *t, int n) { data_kick(the_mux); return n; }
static const struct tty_ops mux_tty_ops = { .write = mux_tty_write };

/* A release through pointers an unknown function changed (`swap(&a, &b)` with no body) may be
 * the release of the locks of their class held here: no ambiguous exit for them. */
void swap_contexts(struct io_context **a, struct io_context **b);
static inline void double_unlock_raw(spinlock_t *l1, spinlock_t *l2) {
    _raw_spin_unlock(&l2->rlock);
    _raw_spin_unlock(&l1->rlock);
}
void merge_and_swap(struct request *req, struct request *next) {
    struct io_context *rioc = req->ctx, *nioc = next->ctx;
    if (req->sector < next->sector) {
        double_lock(&rioc->lock, &nioc->lock, 1);   // expect: lock.double-lock
        swap_contexts(&rioc, &nioc);
        double_unlock_raw(&rioc->lock, &nioc->lock);
    }
}

/* A semaphore made with a count other than 1 counts free buffers (or signals): taking it in
 * one function and giving it back in another is no lock left held (NOTE [init-sites]). */
static struct semaphore free_fragments;
void fragments_init(void) { sema_init(&free_fragments, 16); }
int take_fragment(void) {
    down(&free_fragments);
    return 1;
}
void give_fragment(void) { up(&free_fragments); }
void ok_use_fragments(void) {
    if (take_fragment())
        up(&free_fragments);
    give_fragment();
}

/* Two queues whose locks are made at two places are two lockdep classes: holding one while
 * taking the other is no recursive locking. */
struct squeue { spinlock_t lock; int n; };
void __raw_spin_lock_init(raw_spinlock_t *lock, const char *name, void *key);
#define spin_lock_init(l) __raw_spin_lock_init(&(l)->rlock, #l, 0)
struct recv_priv { struct squeue free_q, busy_q; };
void recv_init(struct recv_priv *r) {
    spin_lock_init(&r->free_q.lock);
    spin_lock_init(&r->busy_q.lock);
}
void ok_move_frames(struct squeue *from, struct squeue *to) {
    spin_lock(&from->lock);
    spin_lock(&to->lock);
    to->n += from->n;
    spin_unlock(&to->lock);
    spin_unlock(&from->lock);
}

/* The same, with the lock handed to the initialiser through Linux 6.1's type-check wrapper
 * (`__raw_spin_lock_init(spinlock_check(lock), ...)`): r8188eu's defrag_q and free queue. */
static inline raw_spinlock_t *spinlock_check(spinlock_t *lock) { return &lock->rlock; }
#define spin_lock_init_checked(l) __raw_spin_lock_init(spinlock_check(l), #l, 0)
struct frame_q { spinlock_t lock; int n; };
struct sta_priv { struct frame_q defrag_q; };
struct rx_priv { struct frame_q free_q; };
void sta_init(struct sta_priv *s) { spin_lock_init_checked(&s->defrag_q.lock); }
void rx_init(struct rx_priv *r) { spin_lock_init_checked(&r->free_q.lock); }
void ok_free_defragged(struct frame_q *defrag_q, struct frame_q *free_q) {
    spin_lock(&defrag_q->lock);
    spin_lock(&free_q->lock);
    free_q->n += defrag_q->n;
    spin_unlock(&free_q->lock);
    spin_unlock(&defrag_q->lock);
}

/* Two entries two calls returned are two entries: holding one's lock while taking the
 * other's is no recursive locking of one lock. */
struct pmb_entry { spinlock_t lock; struct pmb_entry *link; };
struct pmb_entry *pmb_alloc(void);
void ok_link_entries(void) {
    struct pmb_entry *a = pmb_alloc(), *b = pmb_alloc();
    spin_lock(&a->lock);
    spin_lock(&b->lock);
    a->link = b;
    spin_unlock(&b->lock);
    spin_unlock(&a->lock);
}

/* A word of flags tells the function whether its caller holds the lock (NOTE [flag-words]). */
#define NO_MUTEX_LOCK 1
#define NO_MUTEX_UNLOCK 2
struct slots { struct mutex slot_mutex; int next; };
int queue_message(struct slots *s, int msg, int flags) {
    if (!(flags & NO_MUTEX_LOCK))
        mutex_lock(&s->slot_mutex);
    s->next = msg;
    if (!(flags & NO_MUTEX_UNLOCK))
        mutex_unlock(&s->slot_mutex);
    return 0;
}
void queue_twice(struct slots *s) {
    queue_message(s, 1, NO_MUTEX_UNLOCK);
    queue_message(s, 2, NO_MUTEX_LOCK);
}
void bad_queue_twice(struct slots *s) {
    queue_message(s, 1, NO_MUTEX_UNLOCK);
    queue_message(s, 2, 0);                          // expect: lock.double-lock
}
