#include <pthread.h>
#include <stdlib.h>
struct lk { pthread_mutex_t m; int users; };
struct lk *lk_new(void);
void lk_take(struct lk *l);
void lk_give(struct lk *l);
int lk_try(struct lk *l);
