/* NOTE [held-on-error]: an error return (negative, or null) that still holds a lock the
 * function took itself, where its successful paths release it. */
#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static int table[16];

int parse(const char *s);

int bad_error_return(const char *s) {
    pthread_mutex_lock(&table_lock);
    int k = parse(s);
    if (k < 0)
        return -1;                                 // expect: lock.held-on-error
    table[k & 15]++;
    pthread_mutex_unlock(&table_lock);
    return 0;
}

struct entry { pthread_mutex_t lock; int *slots; };

int *bad_null_return(struct entry *e) {
    pthread_mutex_lock(&e->lock);
    int *copy = malloc(16 * sizeof *copy);
    if (copy == NULL)
        return NULL;                               // expect: lock.held-on-error
    copy[0] = e->slots ? e->slots[0] : 0;
    pthread_mutex_unlock(&e->lock);
    return copy;
}

int ok_error_released(const char *s) {
    pthread_mutex_lock(&table_lock);
    int k = parse(s);
    if (k < 0) {
        pthread_mutex_unlock(&table_lock);
        return -1;
    }
    table[k & 15]++;
    pthread_mutex_unlock(&table_lock);
    return 0;
}

/* Held where it succeeds, released where it fails: the caller unlocks what it got. */
struct entry *ok_lock_and_get(struct entry *e) {
    pthread_mutex_lock(&e->lock);
    if (e->slots == NULL) {
        pthread_mutex_unlock(&e->lock);
        return NULL;
    }
    return e;
}

/* A wrapper that never releases: its callers' contract. */
int ok_try_wrapper(struct entry *e) {
    if (pthread_mutex_trylock(&e->lock) != 0)
        return -1;
    return 0;
}

/* Errors before the lock is taken hold nothing. */
int ok_error_before(const char *s) {
    int k = parse(s);
    if (k < 0)
        return -1;
    pthread_mutex_lock(&table_lock);
    table[k & 15]++;
    pthread_mutex_unlock(&table_lock);
    return 0;
}

/* An input the function tests after taking the lock decides the error. */
struct device { pthread_mutex_t lock; int removed; int users; };

int bad_error_on_input(struct device *d) {
    pthread_mutex_lock(&d->lock);
    if (d->removed)
        return -19;                                // expect: lock.held-on-error
    d->users++;
    pthread_mutex_unlock(&d->lock);
    return 0;
}

/* NOTE [held-on-error]: where the inputs that decide the release (a mode the caller set up,
 * vchiq's srvstate OPENSYNC and service->sync) make the function return the lock held on
 * success too, holding it on an error under the same inputs is that contract, not a
 * forgotten release. */
struct service { pthread_mutex_t sync_lock; int mode; int sync; };

int finish(struct service *s);

int ok_held_by_mode(struct service *s) {
    if (s->mode == 3)
        pthread_mutex_lock(&s->sync_lock);
    if (s->sync)
        pthread_mutex_unlock(&s->sync_lock);
    return finish(s);
}
