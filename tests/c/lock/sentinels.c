// A tree whose leaves point to one global sentinel node: the walk ends where a node it reads
// is the sentinel's address (NOTE [sentinels]), so the normal exit after it is reached, and
// an early return inside the walk that keeps the lock is an ambiguous exit.
#include <pthread.h>

struct node { struct node *left, *right, *parent; int key; };
struct node null_node = { &null_node, &null_node, &null_node, 0 };
#define NIL (&null_node)

struct tree { struct node *root; pthread_mutex_t lock; };
struct node *tree_first(struct tree *t);
struct node *tree_next(struct node *n);
int emit(int k);

void bad_walk(struct tree *t) {
    struct node *n;
    pthread_mutex_lock(&t->lock);
    for (n = tree_first(t); n != NIL; n = tree_next(n)) {
        if (!emit(n->key))
            return;   // expect: lock.ambiguous-exit
    }
    pthread_mutex_unlock(&t->lock);
}

void ok_walk(struct tree *t) {
    struct node *n;
    pthread_mutex_lock(&t->lock);
    for (n = tree_first(t); n != NIL; n = tree_next(n)) {
        if (!emit(n->key))
            break;
    }
    pthread_mutex_unlock(&t->lock);
}
