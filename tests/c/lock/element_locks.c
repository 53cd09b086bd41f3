// A table of buckets, each with its own lock, walked by index: an early exit taken from
// either unrolled iteration releases the bucket that iteration locked (`a[i]` is `a[0]` or
// `a[1]` there, not a third element), so only a return that keeps it is reported.
#include <pthread.h>
#include <stddef.h>

struct bucket { pthread_mutex_t lock; int count; };
struct table { size_t size; struct bucket **slots; };
int emit(struct bucket *b);

int ok_dump(struct table *t) {
    size_t i;
    for (i = 0; i < t->size; i++) {
        pthread_mutex_lock(&t->slots[i]->lock);
        if (!emit(t->slots[i])) {
            pthread_mutex_unlock(&t->slots[i]->lock);
            return 0;
        }
        pthread_mutex_unlock(&t->slots[i]->lock);
    }
    return 1;
}

int ok_count(struct table *t) {
    size_t i;
    for (i = 0; i < t->size; i++) {
        pthread_mutex_lock(&t->slots[i]->lock);
        if (t->slots[i]->count == 3) {
            pthread_mutex_unlock(&t->slots[i]->lock);
            return 0;
        }
        pthread_mutex_unlock(&t->slots[i]->lock);
    }
    return 1;
}

int bad_dump(struct table *t) {
    size_t i;
    for (i = 0; i < t->size; i++) {
        pthread_mutex_lock(&t->slots[i]->lock);
        if (!emit(t->slots[i]))
            return 1;   // expect: lock.ambiguous-exit
        pthread_mutex_unlock(&t->slots[i]->lock);
    }
    return 1;
}
