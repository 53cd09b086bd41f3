// A lock handed out with the object it guards, told apart by what the caller sees: a pointer
// result that is the entry given (unbound's lruhash_insert_or_retrieve returns the entry it
// found, or the one it was given, each locked) or an out-parameter that is null or not (an
// object handed out locked where *out is not null).
#include <pthread.h>
#include <stddef.h>

struct entry { pthread_mutex_t lock; int key; struct entry *next; };
struct table { pthread_mutex_t lock; struct entry *first; };

struct entry *insert_or_retrieve(struct table *t, struct entry *e) {
    struct entry *found;
    pthread_mutex_lock(&t->lock);
    found = t->first;
    if (found && found->key == e->key) {
        pthread_mutex_lock(&found->lock);
        pthread_mutex_unlock(&t->lock);
        return found;
    }
    pthread_mutex_lock(&e->lock);
    e->next = t->first;
    t->first = e;
    pthread_mutex_unlock(&t->lock);
    return e;
}

void ok_insert(struct table *t, struct entry *e) {
    struct entry *got = insert_or_retrieve(t, e);
    got->key++;
    pthread_mutex_unlock(&got->lock);
}

struct zone { pthread_mutex_t lock; int n; };
struct zone *lookup(int n);

int find_zone(int n, struct zone **z_out) {
    struct zone *z = lookup(n);
    if (!z) {
        *z_out = NULL;
        return 0;
    }
    pthread_mutex_lock(&z->lock);
    if (z->n != n) {
        pthread_mutex_unlock(&z->lock);
        *z_out = NULL;
        return 0;
    }
    *z_out = z;
    return 0;
}

int ok_zone(int n) {
    struct zone *z;
    find_zone(n, &z);
    if (!z)
        return -1;
    n = z->n;
    pthread_mutex_unlock(&z->lock);
    return n;
}

void bad_zone_twice(int n) {
    struct zone *z;
    find_zone(n, &z);
    if (!z)
        return;
    pthread_mutex_unlock(&z->lock);
    pthread_mutex_unlock(&z->lock);   // expect: lock.double-unlock
}
