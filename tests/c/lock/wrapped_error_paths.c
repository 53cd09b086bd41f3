/* NOTE [held-on-error] through wrappers certain of their effect: a striped lock taken and
 * released by helpers (a cache's item_lock(hv) / item_unlock(hv)), and an error return
 * between them that forgets the release. */
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t item_locks[16];
static unsigned int hashmask = 15;
static int counts[16];

void item_lock(unsigned int hv) { pthread_mutex_lock(&item_locks[hv & hashmask]); }
void item_unlock(unsigned int hv) { pthread_mutex_unlock(&item_locks[hv & hashmask]); }

int lookup(unsigned int hv);

int ok_get(unsigned int hv)
{
    item_lock(hv);
    if (lookup(hv) < 0) {
        item_unlock(hv);
        return -1;
    }
    counts[hv & 15]++;
    item_unlock(hv);
    return 0;
}

int bad_get(unsigned int hv)
{
    item_lock(hv);
    if (lookup(hv) < 0)
        return -1;                         // expect: lock.held-on-error
    counts[hv & 15]++;
    item_unlock(hv);
    return 0;
}

/* A wrapper that may fail to take the lock: its callers' error paths hold nothing. */
struct table { pthread_mutex_t lock; int *slots; };

int table_enter(struct table *t)
{
    if (t->slots == NULL)
        return -1;
    pthread_mutex_lock(&t->lock);
    return 0;
}

void table_leave(struct table *t) { pthread_mutex_unlock(&t->lock); }

int ok_enter_failed(struct table *t)
{
    if (table_enter(t) < 0)
        return -1;
    t->slots[0]++;
    table_leave(t);
    return 0;
}

/* Held where it succeeds, released where it fails: the caller unlocks what it got. */
int *ok_get_locked(struct table *t)
{
    if (table_enter(t) < 0)
        return NULL;
    if (t->slots[0] < 0) {
        table_leave(t);
        return NULL;
    }
    return t->slots;
}
