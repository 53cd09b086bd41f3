// saturn-xfail: a global flag that mirrors whether the mutex is held (set after the lock, cleared before the unlock) is not an invariant the analysis knows, so `(void) leave(); enter();` seems to lock twice from a held entry state where the flag says free; libsodium's sodium_misuse
#include <pthread.h>

static pthread_mutex_t crit = PTHREAD_MUTEX_INITIALIZER;
static volatile int locked;

int crit_enter(void) {
    int ret;
    if ((ret = pthread_mutex_lock(&crit)) == 0)
        locked = 1;
    return ret;
}

int crit_leave(void) {
    if (locked == 0)
        return -1;
    locked = 0;
    return pthread_mutex_unlock(&crit);
}

void misuse(void (*handler)(void)) {
    (void) crit_leave();
    if (crit_enter() == 0 && handler != 0)
        handler();
}
