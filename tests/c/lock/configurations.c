/* A lock behind a table of methods chosen at start-up (SQLite's mutex methods: pthreads or
 * no-op): the targets of one call through the table are alternatives, so the wrappers are no
 * ambiguous exits and two calls do not pair one table's acquire with the other's release
 * (NOTE [alternative-targets]). A target that takes a lock the caller holds is still found. */
#include <pthread.h>
typedef struct mtx { pthread_mutex_t mutex; int cnt; } mtx;
struct methods { void (*enter)(mtx *); void (*leave)(mtx *); };
static void pth_enter(mtx *p) { pthread_mutex_lock(&p->mutex); }
static void pth_leave(mtx *p) { pthread_mutex_unlock(&p->mutex); }
static void noop_enter(mtx *p) { p->cnt++; }
static void noop_leave(mtx *p) { p->cnt--; }
static const struct methods pth = { pth_enter, pth_leave };
static const struct methods noop = { noop_enter, noop_leave };
struct methods config;
void choose(int threads) { config = threads ? pth : noop; }
void ok_enter(mtx *p) { if (p) config.enter(p); }
void ok_leave(mtx *p) { if (p) config.leave(p); }
mtx *mem_mutex;
int counter;
void ok_counted(void) {
    ok_enter(mem_mutex);
    counter++;
    ok_leave(mem_mutex);
}
void ok_nested_other(mtx *a, mtx *b) {
    ok_enter(a);
    ok_leave(a);
    ok_enter(b);
    ok_leave(b);
}
void bad_held_then_entered(mtx *p) {
    pthread_mutex_lock(&p->mutex);
    config.enter(p);                     // expect: lock.double-lock
    pthread_mutex_unlock(&p->mutex);
}


/* Two locks of one class in one callee: one left as an alternative target left it (vague),
 * the other taken and released. The vague one is not "a lock of its class held here", in the
 * function or where a caller applies its summary (rtl8723bs' resume): as after any call
 * through the table, one configuration's acquire is not paired with what follows. */
typedef struct spinlock { int rlock; } spinlock_t;
void spin_lock_bh(spinlock_t *l);
void spin_unlock_bh(spinlock_t *l);
struct station { spinlock_t hash_lock; struct station *peer; };
struct station_ops { void (*freeze)(struct station *); };
static void hold_freeze(struct station *s) { spin_lock_bh(&s->hash_lock); }
static void noop_freeze(struct station *s) { s->peer = 0; }
static const struct station_ops hold_ops = { hold_freeze };
static const struct station_ops noop_ops = { noop_freeze };
struct station_ops station_cfg;
void pick_station_ops(int hold) { station_cfg = hold ? hold_ops : noop_ops; }
void ok_refresh(struct station *s) {
    station_cfg.freeze(s->peer);
    spin_lock_bh(&s->hash_lock);
    spin_unlock_bh(&s->hash_lock);
}
void ok_resume(struct station *s) {
    ok_refresh(s);
}

/* Devices registered through one table type: the targets of `dev->ops->reg` are every
 * device's, and the PCM device's takes its own register mutex. A timer registered while the
 * PCM device holds that mutex is not the PCM device (sound/core's snd_pcm_dev_register). */
struct device { struct device_ops *ops; void *data; };
struct device_ops { int (*reg)(struct device *); };
static pthread_mutex_t register_mutex;
static int timer_count;
static int pcm_reg(struct device *d) {
    pthread_mutex_lock(&register_mutex);
    d->data = 0;
    pthread_mutex_unlock(&register_mutex);
    return 0;
}
static int timer_reg(struct device *d) { timer_count++; return d->data != 0; }
struct device_ops pcm_ops = { pcm_reg };
struct device_ops timer_ops = { timer_reg };
int device_register(struct device *d) { return d->ops->reg(d); }
void ok_register_timer_under_mutex(struct device *timer) {
    pthread_mutex_lock(&register_mutex);
    device_register(timer);
    pthread_mutex_unlock(&register_mutex);
}
