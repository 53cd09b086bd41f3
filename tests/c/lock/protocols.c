/* A lock held from one call to the next by a protocol the caller keeps, chosen by state in
 * the memory it passes (vchiq's PAUSE leaves slot_mutex held, RESUME releases it): the two
 * entry states err on the two sides of a branch the caller decides, so neither is a bug of
 * this function (NOTE [caller-decides]). */
#include <pthread.h>

enum { CONNECTED = 1, PAUSING = 3, RESUMING = 6 };
struct link { int state; int sent; pthread_mutex_t m; };

void ok_protocol(struct link *s) {
    switch (s->state) {
    case PAUSING:
        pthread_mutex_lock(&s->m);      /* held until RESUMING */
        s->sent++;
        break;
    case RESUMING:
        pthread_mutex_unlock(&s->m);
        break;
    default:
        break;
    }
}

/* Read after the lock was taken, the state is no longer the caller's choice. */
void bad_decided_inside(struct link *s) {
    pthread_mutex_lock(&s->m);
    if (s->state == RESUMING)
        pthread_mutex_unlock(&s->m);
    pthread_mutex_unlock(&s->m);        // expect: lock.double-unlock
}

/* An error whatever the caller chose. */
void bad_every_state(struct link *s) {
    if (s->state == PAUSING)
        pthread_mutex_lock(&s->m);
    pthread_mutex_unlock(&s->m);
    pthread_mutex_unlock(&s->m);        // expect: lock.double-unlock
}
