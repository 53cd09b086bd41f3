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

