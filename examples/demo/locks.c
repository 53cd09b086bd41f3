/* Lock wrappers and their users: one real double lock, one correct trylock user. */
#include <pthread.h>

struct account { pthread_mutex_t lock; long balance; };

static void account_lock(struct account *a) { pthread_mutex_lock(&a->lock); }
static void account_unlock(struct account *a) { pthread_mutex_unlock(&a->lock); }

/* Returns non-zero exactly when it took the lock. */
static int account_try(struct account *a) { return pthread_mutex_trylock(&a->lock) == 0; }

void deposit(struct account *a, long amount) {
    account_lock(a);
    if (amount < 0) {
        account_lock(a);            /* bug: the lock is already held */
        return;
    }
    a->balance += amount;
    account_unlock(a);
}

long peek(struct account *a) {
    long b = -1;
    if (account_try(a)) {
        b = a->balance;
        account_unlock(a);
    }
    return b;
}
