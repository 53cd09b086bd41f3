/* The project's own CI tree: its known reports are in saturn-baseline.json. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct store { pthread_mutex_t lock; char *name; int count; };

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

struct store *store_new(const char *name) {
    struct store *s = malloc(sizeof *s);
    if (!s)
        return NULL;
    s->name = strdup(name);
    if (!s->name)
        return NULL;                           /* known: s leaks here */
    pthread_mutex_init(&s->lock, NULL);
    s->count = 0;
    return s;
}

void store_free(struct store *s) {
    if (!s)
        return;
    free(s->name);
    free(s);
}

int store_add(struct store *s, int n) {
    pthread_mutex_lock(&s->lock);
    if (n < 0)
        return -1;                             /* known: returns with the lock held */
    s->count += n;
    pthread_mutex_unlock(&s->lock);
    return s->count > 1000 ? -1 : 0;
}

void registry_touch(void) {
    pthread_mutex_lock(&registry_lock);
    pthread_mutex_unlock(&registry_lock);
}
