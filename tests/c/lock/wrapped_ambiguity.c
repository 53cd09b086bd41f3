#include <pthread.h>
pthread_mutex_t m;
int ready(void);
void take(void) { pthread_mutex_lock(&m); }
void bad_maybe_taken(void) {
    if (ready())
        take();   // expect: lock.ambiguous-exit
}
