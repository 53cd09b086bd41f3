// Locking callbacks: a function that takes or releases a lock as its caller asks, one test of
// a parameter choosing the operation (OpenSSL's CRYPTO_set_locking_callback, SQLite's and
// libcurl's share callbacks). No path does both, so the caller's protocol decides, not this
// function; the paper's lock and unlock under two different tests stay a bug.
#include <pthread.h>

#define CRYPTO_LOCK 1
#define CRYPTO_READ 4

static pthread_mutex_t locks[16];
static pthread_rwlock_t rw;

void ok_locking_callback(int mode, int n, const char *file, int line) {
    (void) file; (void) line;
    if (mode & CRYPTO_LOCK)
        pthread_mutex_lock(&locks[n]);
    else
        pthread_mutex_unlock(&locks[n]);
}

void ok_given_mutex(int mode, pthread_mutex_t *m) {
    if (mode & 1)
        pthread_mutex_lock(m);
    else
        pthread_mutex_unlock(m);
}

void ok_owned_callback(int lock) {
    static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
    if (lock)
        pthread_mutex_lock(&mutex);
    else
        pthread_mutex_unlock(&mutex);
}

void ok_rw_callback(int mode) {
    if (!(mode & CRYPTO_LOCK))
        pthread_rwlock_unlock(&rw);
    else if (mode & CRYPTO_READ)
        pthread_rwlock_rdlock(&rw);
    else
        pthread_rwlock_wrlock(&rw);
}

void bad_two_tests(int c, pthread_mutex_t *m) {
    if (c & 0x80)
        pthread_mutex_lock(m);
    if (c >= 0)
        pthread_mutex_unlock(m);   // expect: lock.double-unlock
}

void bad_callback_twice(int mode, int n) {
    if (mode & CRYPTO_LOCK)
        pthread_mutex_lock(&locks[n]);
    pthread_mutex_lock(&locks[n]);   // expect: lock.double-lock
    pthread_mutex_unlock(&locks[n]);
}
