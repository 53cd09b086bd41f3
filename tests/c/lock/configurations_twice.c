// saturn-xfail: after a call through a table of methods whose targets differ on a lock, its state is vague (NOTE [alternative-targets]), so a second acquire through the table is not paired with the first
#include <pthread.h>
typedef struct mtx { pthread_mutex_t mutex; } mtx;
struct methods { void (*enter)(mtx *); };
static void pth_enter(mtx *p) { pthread_mutex_lock(&p->mutex); }
static void noop_enter(mtx *p) { (void)p; }
static const struct methods pth = { pth_enter };
static const struct methods noop = { noop_enter };
struct methods config;
void choose(int threads) { config = threads ? pth : noop; }
void bad_entered_twice(mtx *p) {
    config.enter(p);
    config.enter(p);                     // expect: lock.double-lock
}
