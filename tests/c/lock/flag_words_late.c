/* NOTE [flag-words]: a word of flags that comes after other integer parameters still gives
 * its bits to the summary (vchiq's queue_message(state, service, msgid, ..., size, flags):
 * QMFLAGS_NO_MUTEX_UNLOCK returns the slot lock held). Plain integer parameters that no
 * branch tests do not crowd it out. */
#include <pthread.h>
#include <stddef.h>

#define NO_LOCK 1
#define NO_UNLOCK 2

struct channel { pthread_mutex_t slot; int queued; int sent; };

int reserve(struct channel *ch, size_t size);

int send_message(struct channel *ch, int id, size_t size, int flags) {
    if (!(flags & NO_LOCK))
        pthread_mutex_lock(&ch->slot);
    if (reserve(ch, size) < 0) {
        if (!(flags & NO_LOCK))
            pthread_mutex_unlock(&ch->slot);
        return -1;
    }
    ch->queued += id;
    if (!(flags & NO_UNLOCK))
        pthread_mutex_unlock(&ch->slot);
    return 0;
}

/* Keeps the slot lock across the message, as the flag asks, then releases it. */
void ok_send_then_count(struct channel *ch) {
    if (send_message(ch, 1, 8, NO_UNLOCK) == 0) {
        ch->sent++;
        pthread_mutex_unlock(&ch->slot);
    }
}

void bad_release_again(struct channel *ch) {
    send_message(ch, 1, 8, 0);
    pthread_mutex_unlock(&ch->slot);            // expect: lock.double-unlock
}
