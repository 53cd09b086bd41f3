// saturn-xfail: an ambiguous exit is reported only for a lock the function operates on itself (NOTE [vague-callees]); one taken only through a wrapper under a condition is missed
#include <pthread.h>
pthread_mutex_t m;
int ready(void);
void take(void) { pthread_mutex_lock(&m); }
void bad_maybe_taken(void) {
    if (ready())
        take();   // expect: lock.ambiguous-exit
}
