#include "lk.h"

/* A constructor: returns a lock it initialised (or null). */
struct lk *lk_new(void) {
    struct lk *l = malloc(sizeof *l);
    if (!l)
        return NULL;
    pthread_mutex_init(&l->m, NULL);
    l->users = 0;
    return l;
}
// expect-summary: lk_new: lock constructor (*ret).m: [any -> unlocked if ret != 0]

void lk_take(struct lk *l) { pthread_mutex_lock(&l->m); l->users++; }
// expect-summary: lk_take: lock (*param0).m: [unlocked -> locked] [locked -> error (acquire)]
void lk_give(struct lk *l) { l->users--; pthread_mutex_unlock(&l->m); }
int lk_try(struct lk *l) { return pthread_mutex_trylock(&l->m) == 0; }
// expect-summary: lk_try: lock (*param0).m: [unlocked -> locked if ret != 0] [unlocked -> unlocked if ret == 0]
