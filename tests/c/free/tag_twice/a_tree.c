// Two files of one program give one tag two definitions: here `struct lnode` is a tree's
// node (`ln_next`, `ln_child`), no list. What the other file's `struct lnode` is, a list,
// is not this one's, whichever file a worker met first.
#include <stdlib.h>

typedef struct lnode { struct lnode *ln_next; struct lnode *ln_child; } lnode;

int depth(lnode *n) {
    int d = 0;
    while (n) {
        n = n->ln_next;
        d++;
    }
    return d;
}
