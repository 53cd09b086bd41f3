// saturn-xfail: a callee's errors are not split by the flags of what it is given (mosquitto's in_callback, set while a user's callback runs under the callback mutex): carried through every caller of the packet queue, such a flag took a third more lock-summary time on the client library, so ok_connack is reported
// A client library calls the user's callbacks with its callback mutex held and marks the
// client as in a callback first; what a callback may call (subscribe) writes out its packet,
// taking that mutex, only where the client is not in a callback (mosquitto's in_callback).
#include <pthread.h>

struct client {
    pthread_mutex_t callback_mutex, out_mutex;
    int in_callback, threaded, queued;
    void (*on_connect)(struct client *);
};

static int packet_write(struct client *c) {
    pthread_mutex_lock(&c->callback_mutex);
    c->queued = 0;
    pthread_mutex_unlock(&c->callback_mutex);
    return 0;
}

static int packet_queue(struct client *c) {
    pthread_mutex_lock(&c->out_mutex);
    c->queued++;
    pthread_mutex_unlock(&c->out_mutex);
    if (c->in_callback == 0 && c->threaded == 0)
        return packet_write(c);
    return 0;
}

int subscribe(struct client *c) {
    return packet_queue(c);
}

static void on_connect(struct client *c) {
    subscribe(c);
}

void client_init(struct client *c) {
    c->on_connect = on_connect;
}

void ok_connack(struct client *c) {
    pthread_mutex_lock(&c->callback_mutex);
    if (c->on_connect) {
        c->in_callback = 1;
        c->on_connect(c);
        c->in_callback = 0;
    }
    pthread_mutex_unlock(&c->callback_mutex);
}

void bad_subscribe_held(struct client *c) {
    pthread_mutex_lock(&c->callback_mutex);
    c->in_callback = 0;
    c->threaded = 0;
    subscribe(c);                       // expect: lock.double-lock
    pthread_mutex_unlock(&c->callback_mutex);
}
