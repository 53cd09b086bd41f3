// The C library's locks beyond pthread mutexes (checkers/library/libc.toml): POSIX semaphores
// used as locks (made with a count of 1), rwlocks' timed forms, and stdio's stream locks,
// which their holder may take again.
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

static sem_t guard;
static sem_t ready;
static int counter;

void setup(void) {
    sem_init(&guard, 0, 1);   // a lock
    sem_init(&ready, 0, 0);   // a signal: no lock
}

void bad_sem_twice(void) {
    sem_wait(&guard);
    counter++;
    sem_wait(&guard);   // expect: lock.double-lock
    sem_post(&guard);
}

void ok_sem(void) {
    sem_wait(&guard);
    counter++;
    sem_post(&guard);
}

void ok_signal(void) {
    sem_post(&ready);
    sem_post(&ready);
}

int still_wanted(void);

void bad_sem_error_path(sem_t *s) {
    sem_wait(s);
    if (!still_wanted())
        return;   // expect: lock.ambiguous-exit
    counter++;
    sem_post(s);
}

void ok_stream_lock_nests(FILE *f) {
    flockfile(f);
    flockfile(f);
    fputs("x", f);
    funlockfile(f);
    funlockfile(f);
}

void bad_stream_error_path(FILE *f, const char *s) {
    flockfile(f);
    if (s == NULL)
        return;   // expect: lock.ambiguous-exit
    fputs(s, f);
    funlockfile(f);
}

static pthread_rwlock_t table_lock = PTHREAD_RWLOCK_INITIALIZER;

int bad_timed_write_twice(const struct timespec *t) {
    if (pthread_rwlock_timedwrlock(&table_lock, t) != 0)
        return -1;
    pthread_rwlock_wrlock(&table_lock);   // expect: lock.double-lock
    pthread_rwlock_unlock(&table_lock);
    return 0;
}

/* A lock taken returns 0: with a trylock beside it, the result tells the two apart
 * (libevent's evthread_posix_lock). */
int ok_lock_or_try(unsigned mode, pthread_mutex_t *m) {
    if (mode & 1)
        return pthread_mutex_trylock(m);
    return pthread_mutex_lock(m);
}

/* A release returns 0 too: an error return comes only from the test before it (libsodium's
 * sodium_crit_leave). */
static pthread_mutex_t crit = PTHREAD_MUTEX_INITIALIZER;
static int locked;

int ok_crit_leave(void) {
    if (locked == 0)
        return -1;
    locked = 0;
    return pthread_mutex_unlock(&crit);
}
