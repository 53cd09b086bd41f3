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

// Wrappers over the rwlock: a summary starts from unlocked or locked, and the unlock wrapper's
// release of a held lock gives back a read-held one too.
int rd_lock(pthread_rwlock_t *l) { pthread_rwlock_rdlock(l); return 1; }
int rd_unlock(pthread_rwlock_t *l) { pthread_rwlock_unlock(l); return 1; }

void ok_wrapped_dump(struct table *t) {
    rd_lock(&t->lock);
    emit(t->n);
    rd_unlock(&t->lock);
}

void bad_wrapped_dump(struct table *t) {
    rd_lock(&t->lock);
    if (!emit(t->n))
        return;   // expect: lock.ambiguous-exit
    rd_unlock(&t->lock);
}

void ok_wrapped_sometimes(struct table *t) {
    if (emit(0)) {
        rd_lock(&t->lock);
        emit(t->n);
        rd_unlock(&t->lock);
    }
}
