/* A callee that reaches a lock through a cast of its argument (the kernel's and Lua's
   `container`-free downcasts: gco2th(o)->ci). Its summary names the field through the struct it
   cast to (NOTE [view-steps] in saturn/symex/interface.py), so a caller sees the effect whether
   or not its own code made that cast before the call. */
#include <pthread.h>
struct hdr { int tag; };
struct obj { int tag; pthread_mutex_t lock; };
union any { struct hdr h; struct obj o; };

void lock_it(struct hdr *h) { pthread_mutex_lock(&((struct obj *)h)->lock); }
void unlock_it(struct hdr *h) { pthread_mutex_unlock(&((union any *)h)->o.lock); }

void cast_after_call(struct hdr *h) {
    lock_it(h);
    pthread_mutex_lock(&((struct obj *)h)->lock); // expect: lock.double-lock
}

void cast_before_call(struct hdr *h) {
    struct obj *o = (struct obj *)h;
    o->tag = 1;
    lock_it(h);
    pthread_mutex_lock(&o->lock); // expect: lock.double-lock
}

void through_a_union(struct hdr *h) {
    lock_it(h);
    unlock_it(h);
    pthread_mutex_unlock(&((struct obj *)h)->lock); // expect: lock.double-unlock
}

void balanced(struct hdr *h) {
    lock_it(h);
    unlock_it(h);
}
