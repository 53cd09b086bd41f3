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

/* The same protocol chosen by a command code the caller passes in a parameter: the message's
 * type in the top bits of its id. */
#define MSG_TYPE(id) ((unsigned int)(id) >> 24)
enum { MSG_DATA = 1, MSG_PAUSE = 20, MSG_RESUME = 21 };
struct chan { pthread_mutex_t sync; int pending; };
int wait_slot(struct chan *c);
int ok_queue_sync(struct chan *c, int msgid) {
    if (MSG_TYPE(msgid) != MSG_RESUME)
        pthread_mutex_lock(&c->sync);
    if (wait_slot(c))
        c->pending++;
    if (MSG_TYPE(msgid) != MSG_PAUSE)
        pthread_mutex_unlock(&c->sync);
    return 0;
}

/* Compared by sign, the parameter does not name a contract. */
void bad_by_sign(struct chan *c, int delta) {
    if (delta < 0)
        pthread_mutex_lock(&c->sync);
    if (delta >= -5)
        pthread_mutex_unlock(&c->sync);
    pthread_mutex_unlock(&c->sync);     // expect: lock.double-unlock
}

/* A list of handles, each with a flag that says whether it holds its shared object's mutex
 * (the flag is the caller's bookkeeping). Release the later ones, take our own, take the later
 * ones back: a flag read before the first operation on a lock is the caller's choice for that
 * lock, though the function already operated on other locks. */
struct shared { pthread_mutex_t *mutex; };
struct handle { struct shared *sh; struct handle *next; int locked; int want; };
static void handle_lock(struct handle *h) { pthread_mutex_lock(h->sh->mutex); h->locked = 1; }
static void handle_unlock(struct handle *h) { pthread_mutex_unlock(h->sh->mutex); h->locked = 0; }
void ok_relock_in_order(struct handle *h) {
    struct handle *later;
    if (pthread_mutex_trylock(h->sh->mutex) == 0) {
        h->locked = 1;
        return;
    }
    for (later = h->next; later; later = later->next)
        if (later->locked)
            handle_unlock(later);
    handle_lock(h);
    for (later = h->next; later; later = later->next)
        if (later->want)
            handle_lock(later);
}

/* The flag read after the function's own operation on that lock decides nothing for the
 * caller. */
void bad_flag_after_release(struct handle *h) {
    handle_unlock(h);
    if (h->want)
        handle_lock(h);
    handle_unlock(h);                   // expect: lock.double-unlock
}

/* The protocol's message read from a slot the caller hands over, after a dispatch on the same
 * type with many cases that touch no lock (vchiq's parse_message): the tests that decide
 * which entry state errs are the PAUSE and RESUME cases, not the first ones met. */
struct header { int msgid; int size; };
struct slots { pthread_mutex_t slot; int counts[10]; int state; };
static int send_holding(struct slots *s) {
    pthread_mutex_lock(&s->slot);        /* released when the RESUME comes */
    s->state = 2;
    return 0;
}
void ok_parse_message(struct slots *s, struct header *h) {
    int type = MSG_TYPE(h->msgid);
    switch (type) {
    case 1: s->counts[1]++; break;
    case 2: s->counts[2] += h->size; break;
    case 3: s->counts[3]--; break;
    case 4: s->counts[4] = h->size; break;
    case 5: s->counts[5]++; break;
    case 6: s->counts[6] += 2; break;
    case 7: s->counts[7] = 0; break;
    case 8: s->counts[8]++; break;
    default: break;
    }
    switch (type) {
    case MSG_PAUSE:
        send_holding(s);
        break;
    case MSG_RESUME:
        pthread_mutex_unlock(&s->slot);
        break;
    default:
        break;
    }
}
