// A read lock held on one exit and released on another, under the same return condition, is
// an ambiguous exit as a write lock is.
#include <pthread.h>

struct table { int n; pthread_rwlock_t lock; };
int emit(int k);

void bad_dump(struct table *t) {
    pthread_rwlock_rdlock(&t->lock);
    if (!emit(t->n))
        return;   // expect: lock.ambiguous-exit
    pthread_rwlock_unlock(&t->lock);
}

void ok_dump(struct table *t) {
    pthread_rwlock_rdlock(&t->lock);
    if (emit(t->n))
        emit(0);
    pthread_rwlock_unlock(&t->lock);
}
