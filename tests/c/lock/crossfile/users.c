#include "lk.h"

void ok_balanced(struct lk *l) {
    lk_take(l);
    lk_give(l);
}

void bad_twice(struct lk *l) {
    lk_take(l);
    lk_take(l);                    // expect: lock.double-lock
}

void ok_try(struct lk *l) {
    if (lk_try(l))
        lk_give(l);
}

void bad_never_released(void) {
    struct lk *l = lk_new();
    if (!l)
        return;
    lk_take(l);                    // expect: lock.not-released
}

void bad_release_unacquired(void) {
    struct lk *l = lk_new();
    if (l)
        lk_give(l);                // expect: lock.double-unlock
}

void ok_constructed(void) {
    struct lk *l = lk_new();
    if (!l)
        return;
    lk_take(l);
    lk_give(l);
}
