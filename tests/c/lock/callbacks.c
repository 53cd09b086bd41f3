/* A callback stored into a struct by a setter that takes it as a parameter is one of the
 * functions the setter's callers pass (NOTE [indirect-calls]): here it takes the lock that its
 * caller holds (vchiq-mmal's port_disable -> port->buffer_cb -> a submit that locks the port). */
#include <pthread.h>

struct port { pthread_mutex_t m; int queued; void (*cb)(struct port *); };

static void requeue(struct port *p) {
    pthread_mutex_lock(&p->m);
    p->queued++;
    pthread_mutex_unlock(&p->m);
}

void port_set_callback(struct port *p, void (*cb)(struct port *)) { p->cb = cb; }

void setup(struct port *p) { port_set_callback(p, requeue); }

void bad_drain(struct port *p) {
    pthread_mutex_lock(&p->m);
    if (p->cb)
        p->cb(p);                       // expect: lock.double-lock
    pthread_mutex_unlock(&p->m);
}

void ok_drain(struct port *p) {
    void (*cb)(struct port *) = p->cb;
    pthread_mutex_lock(&p->m);
    p->queued = 0;
    pthread_mutex_unlock(&p->m);
    if (cb)
        cb(p);
}
