/* Functions nothing returns to (NOTE [entry-points]): thread start routines. A lock they take
 * and leave held is never released; a lock handed to a handle made in the function, even in a
 * function-local static, is the function's own. main's return ends the process: a lock it
 * holds then blocks no one. */
#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t work_lock = PTHREAD_MUTEX_INITIALIZER;
static int jobs;

static void *worker(void *arg) {
    pthread_mutex_lock(&work_lock);               // expect: lock.not-released
    jobs++;
    return arg;
}

static void *ok_worker(void *arg) {
    pthread_mutex_lock(&work_lock);
    jobs++;
    pthread_mutex_unlock(&work_lock);
    return arg;
}

/* Not a start routine: its caller may release the lock (a lock wrapper). */
void take_work_lock(void) { pthread_mutex_lock(&work_lock); }

typedef struct { pthread_mutex_t mutex; int count; } *handle_t;
int handle_create(handle_t *h) {
    *h = malloc(sizeof **h);
    if (*h == NULL)
        return 0;
    pthread_mutex_init(&(*h)->mutex, NULL);
    (*h)->count = 0;
    return 1;
}
void handle_acquire(handle_t h) { pthread_mutex_lock(&h->mutex); }
void handle_release(handle_t h) { pthread_mutex_unlock(&h->mutex); }

void bad_release_unheld(void) {
    static handle_t h = NULL;
    if (!handle_create(&h))
        exit(1);
    handle_release(h);                            // expect: lock.double-unlock
}
void bad_never_released(void) {
    static handle_t h = NULL;
    if (!handle_create(&h))
        exit(1);
    handle_acquire(h);                            // expect: lock.not-released
}
void ok_pair(void) {
    static handle_t h = NULL;
    if (!handle_create(&h))
        exit(1);
    handle_acquire(h);
    h->count++;
    handle_release(h);
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, NULL);
    pthread_create(&t2, NULL, ok_worker, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    take_work_lock();                             // held at exit: the process ends
    return jobs;
}
