// saturn-xfail: an "alternative" lock in a summary carries no error to callers (NOTE [alternative-targets]): which target the wrapper's call through the table took is not known there, so the pthreads configuration's double lock one call up is missed
#include <pthread.h>
typedef struct mtx { pthread_mutex_t mutex; int cnt; } mtx;
struct methods { void (*enter)(mtx *); };
static void pth_enter(mtx *p) { pthread_mutex_lock(&p->mutex); }
static void noop_enter(mtx *p) { p->cnt++; }
static const struct methods pth = { pth_enter };
static const struct methods noop = { noop_enter };
struct methods config;
void choose(int threads) { config = threads ? pth : noop; }
void enter(mtx *p) { config.enter(p); }
void bad_held_then_wrapped(mtx *p) {
    pthread_mutex_lock(&p->mutex);
    enter(p);                            // expect: lock.double-lock
    pthread_mutex_unlock(&p->mutex);
}
