// A function that ends what a begin started releases the writer's mutex only for the kind of
// transaction it is given: a top-level write transaction (no parent, not read-only, not
// finished). Those flag bits and the parent pointer are the caller's, read before the release,
// so they are the summary's conditions and its two exits are no ambiguity (lmdb's
// mdb_txn_end). A renew that keeps the read-only bit and marks the transaction finished on
// failure says so to its callers, which then know which transactions the end releases for.
#include <pthread.h>
#include <stdlib.h>

#define TXN_FINISHED 0x01
#define TXN_RDONLY 0x20000
#define END_FREE 0x20

struct shared { pthread_mutex_t wmutex[1]; int txnid; };
struct env { struct shared *txns; struct txn *txn0; };
struct txn { struct env *env; struct txn *parent; unsigned flags; int *pages; int id; };

void dbis_update(struct txn *txn, int keep);

static void txn_end(struct txn *txn, unsigned mode) {
    struct env *env = txn->env;
    dbis_update(txn, mode & 0x10);
    if (txn->flags & TXN_RDONLY) {
        txn->flags |= TXN_FINISHED;
    } else if (!(txn->flags & TXN_FINISHED)) {
        txn->flags = TXN_FINISHED;
        if (!txn->parent) {
            mode = 0;
            if (env->txns)
                pthread_mutex_unlock(env->txns->wmutex);
        } else {
            free(txn->pages);
        }
    }
    if (mode & END_FREE)
        free(txn);
}

void ok_abort(struct txn *txn) {
    txn_end(txn, END_FREE);
}

static int renew(struct txn *txn) {
    struct env *env = txn->env;
    unsigned flags = txn->flags;
    if ((flags &= TXN_RDONLY) == 0) {
        if (pthread_mutex_lock(env->txns->wmutex))
            return -1;
        txn->id = env->txns->txnid + 1;
    }
    txn->flags = flags;
    if (txn->id < 0) {
        txn_end(txn, 0);
        return -2;
    }
    return 0;
}

/* After a failed renew, the transaction is finished or as it was: the end releases nothing
   the renew did not take. */
int ok_snapshot(struct env *env, struct txn *txn) {
    int rc;
    txn_end(txn, 0);
    rc = renew(txn);
    if (rc == 0)
        txn->id++;
    txn_end(txn, END_FREE);
    return rc;
}

void bad_release_after_end(struct env *env, struct txn *t) {
    t->env = env;
    t->parent = NULL;
    t->flags = 0;
    pthread_mutex_lock(env->txns->wmutex);
    txn_end(t, 0);
    pthread_mutex_unlock(env->txns->wmutex);   // expect: lock.double-unlock
}

void ok_nested_end(struct env *env, struct txn *t, struct txn *parent) {
    if (!parent)
        return;
    t->env = env;
    t->parent = parent;
    t->flags = 0;
    pthread_mutex_lock(env->txns->wmutex);
    txn_end(t, 0);
    pthread_mutex_unlock(env->txns->wmutex);
}

/* A successful renew of a write transaction holds the mutex and leaves it unfinished: the
   end releases it again. */
int bad_unlock_then_end(struct env *env, struct txn *txn) {
    txn->env = env;
    txn->parent = NULL;
    txn->flags = 0;
    if (renew(txn) != 0)
        return -1;
    pthread_mutex_unlock(env->txns->wmutex);
    txn_end(txn, 0);   // expect: lock.double-unlock
    return 0;
}
