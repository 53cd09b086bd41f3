// A robust mutex's lock returns EOWNERDEAD with the mutex held (its last owner died), so the
// recovery function a project writes is called with the mutex held exactly when the code it
// is given says so, and releases it when recovery fails (lmdb's mdb_mutex_failed): the code
// is a proposition of its summary, and its exits are no ambiguity. Its callers keep the
// contract; one that returns an error still holding the mutex does not.
#include <errno.h>
#include <pthread.h>

struct env { pthread_mutex_t wmutex; int txnid; int fatal; };

int reader_check(struct env *env);

static int mutex_failed(struct env *env, pthread_mutex_t *mutex, int rc) {
    if (rc == EOWNERDEAD) {
        int rc2;
        rc = 0;
        if (env->fatal)
            rc = -30795;
        rc2 = reader_check(env);
        if (rc2 == 0)
            rc2 = pthread_mutex_consistent(mutex);
        if (rc || (rc = rc2))
            pthread_mutex_unlock(mutex);
    }
    return rc;
}

int ok_lock_env(struct env *env) {
    int rc = pthread_mutex_lock(&env->wmutex);
    if (rc && (rc = mutex_failed(env, &env->wmutex, rc)))
        return rc;
    env->txnid++;
    pthread_mutex_unlock(&env->wmutex);
    return 0;
}

/* The command code chooses the operation: no ambiguity for the caller to resolve. */
enum { OP_ENTER = 7, OP_LEAVE = 9 };
static pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER;

int big_lock(int op) {
    if (op == OP_ENTER)
        return pthread_mutex_lock(&big);
    if (op == OP_LEAVE)
        return pthread_mutex_unlock(&big);
    return -1;
}

int ok_under_big(int *counter) {
    if (big_lock(OP_ENTER) != 0)
        return -1;
    (*counter)++;
    big_lock(OP_LEAVE);
    return 0;
}

int bad_twice_under_big(int *counter) {
    big_lock(OP_ENTER);
    (*counter)++;
    big_lock(OP_ENTER);   // expect: lock.double-lock
    big_lock(OP_LEAVE);
    return 0;
}
