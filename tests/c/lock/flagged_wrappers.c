/* A critical section whose leave function releases the mutex only where a global flag says it
 * is held (libsodium's sodium_crit_enter/leave): what the leave does depends on a flag its
 * callers do not see, so a caller that enters and leaves on every path makes no ambiguous
 * exit. */
#include <pthread.h>

static pthread_mutex_t crit = PTHREAD_MUTEX_INITIALIZER;
static volatile int locked;
static int initialized;

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

int init_once(void) {
    if (crit_enter() != 0)
        return -1;
    if (initialized != 0) {
        if (crit_leave() != 0)
            return -1;
        return 1;
    }
    initialized = 1;
    if (crit_leave() != 0)
        return -1;
    return 0;
}
