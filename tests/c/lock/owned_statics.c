// Locks no caller can reach: a function-local static lock, or a lock in a block that only a
// function-local static points to, belongs to the function. The lock's state at an entry is
// what the previous call left (unlocked at the first), so a lock held at return that no path
// of the function releases is never released, and a release where no path ever leaves it held
// is a release of an unlocked lock. Reported in the function, wherever it sits in the call
// graph (callers cannot name the lock).
#include <pthread.h>
#include <stdlib.h>

int work(void);

int bad_static_never_released(void) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);   // expect: lock.not-released
    return work();
}

void bad_static_never_acquired(void) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    work();
    pthread_mutex_unlock(&lock);   // expect: lock.double-unlock
}

struct registry { pthread_mutex_t mutex; int n; };

static struct registry *new_registry(void) {
    struct registry *r = malloc(sizeof *r);
    if (r) {
        pthread_mutex_init(&r->mutex, 0);
        r->n = 0;
    }
    return r;
}

int bad_block_never_released(void) {
    static struct registry *reg;
    if (!reg)
        reg = new_registry();
    if (!reg)
        return -1;
    pthread_mutex_lock(&reg->mutex);   // expect: lock.not-released
    return ++reg->n;
}

int ok_block(void) {
    static struct registry *reg;
    int n;
    if (!reg)
        reg = new_registry();
    if (!reg)
        return -1;
    pthread_mutex_lock(&reg->mutex);
    n = ++reg->n;
    pthread_mutex_unlock(&reg->mutex);
    return n;
}

int ok_static(void) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static int calls;
    int n;
    pthread_mutex_lock(&lock);
    n = ++calls;
    pthread_mutex_unlock(&lock);
    return n;
}

/* A lock callback (the caller says which operation): the state the last call left is the one
 * this call expects. */
void ok_lock_callback(int mode) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    if (mode & 1)
        pthread_mutex_lock(&lock);
    else
        pthread_mutex_unlock(&lock);
}

/* The address handed out: the caller releases it. */
pthread_mutex_t *ok_lock_and_get(void) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    return &lock;
}

/* A lock of the file, not of one function: its pair is elsewhere. */
static pthread_mutex_t shared = PTHREAD_MUTEX_INITIALIZER;
void ok_enter(void) { pthread_mutex_lock(&shared); }
void ok_leave(void) { pthread_mutex_unlock(&shared); }

/* Callers of the owners see nothing of their locks. */
int ok_caller(void) {
    return bad_static_never_released() + bad_block_never_released();
}
