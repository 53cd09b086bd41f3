// A program that defines the C11 lock functions itself (a threads emulation over pthreads,
// whose thrd_success is 1): its calls still take and release the lock, and what they return
// is what the definitions say, so the paths after them stay alive.
#include <pthread.h>

typedef pthread_mutex_t mtx_t;
enum { thrd_error = 0, thrd_success = 1 };

int mtx_lock(mtx_t *mtx) {
    return pthread_mutex_lock(mtx) == 0 ? thrd_success : thrd_error;
}

int mtx_unlock(mtx_t *mtx) {
    return pthread_mutex_unlock(mtx) == 0 ? thrd_success : thrd_error;
}

struct queue { mtx_t lock; struct queue *forward; int len; };
int serve(struct queue *q);

int bad_serve(struct queue *q) {
    mtx_lock(&q->lock);
    if (q->forward) {
        mtx_unlock(&q->lock);
        int ret = serve(q->forward);
        mtx_unlock(&q->lock);   // expect: lock.double-unlock
        return ret;
    }
    mtx_unlock(&q->lock);
    return 0;
}

int ok_len(struct queue *q) {
    int n;
    if (mtx_lock(&q->lock) != thrd_success)
        return -1;
    n = q->len;
    mtx_unlock(&q->lock);
    return n;
}
