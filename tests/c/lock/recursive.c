/* Recursive mutexes may be taken again by their holder; normal ones may not. */
#include <pthread.h>

void ok_recursive(void) {
    pthread_mutex_t m;
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&m, &a);
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
}

void bad_normal(void) {
    pthread_mutex_t m;
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&m, &a);
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m);                  // expect: lock.double-lock
    pthread_mutex_unlock(&m);
}

void bad_default_attributes(void) {
    pthread_mutex_t m;
    pthread_mutex_init(&m, 0);
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m);                  // expect: lock.double-lock
    pthread_mutex_unlock(&m);
}

void bad_local_never_released(void) {
    pthread_mutex_t m;
    pthread_mutex_init(&m, 0);
    pthread_mutex_lock(&m);                  // expect: lock.not-released
}
