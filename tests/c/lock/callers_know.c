/* A pure helper called twice with one argument around a lock and its unlock agrees with
 * itself (NOTE [result-summaries]). */
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int helper(int a) { if (a > 5) return a; return 0; }

void ok_constant_argument(void) {
    if (helper(10) > 1) pthread_mutex_lock(&m);
    if (helper(10) > 1) pthread_mutex_unlock(&m);
}

void ok_same_variable(int x) {
    if (helper(x) > 1) pthread_mutex_lock(&m);
    if (helper(x) > 1) pthread_mutex_unlock(&m);
}

void bad_changed_variable(int x) {
    if (helper(x) > 1) pthread_mutex_lock(&m);
    x++;
    if (helper(x) > 1) pthread_mutex_unlock(&m);   // expect: lock.double-unlock
}
