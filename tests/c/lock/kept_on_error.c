// A callee that changes a field only where it succeeds (vchiq's queue_message sets the
// service's state to CLOSESENT just before `return 0`) leaves the field as it was where it
// fails: a caller that took a lock by the field's value and releases it on the error path by
// the same value (NOTE [kept-on-result]) keeps no lock held.
struct mutex { int x; };
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);
enum { OPEN = 1, OPENSYNC = 2, CLOSESENT = 3 };
struct state { struct mutex sync_mutex; int busy; };
struct service { int srvstate; int sync; struct state *state; };
int send(struct state *s);

static int queue_close(struct state *st, struct service *service)
{
    if (st->busy)
        return -11;
    if (send(st))
        return -5;
    service->srvstate = CLOSESENT;
    return 0;
}

int ok_close(struct service *service)
{
    struct state *state = service->state;
    int status;
    switch (service->srvstate) {
    case OPENSYNC:
        mutex_lock(&state->sync_mutex);
        /* fall through */
    case OPEN:
        status = queue_close(state, service);
        if (status) {
            if (service->srvstate == OPENSYNC)
                mutex_unlock(&state->sync_mutex);
            return status;
        }
        if (service->sync)
            mutex_unlock(&state->sync_mutex);
        return 0;
    }
    return -22;
}

int bad_close(struct service *service)
{
    struct state *state = service->state;
    int status;
    mutex_lock(&state->sync_mutex);
    status = queue_close(state, service);
    if (status)
        return status;   // expect: lock.held-on-error
    mutex_unlock(&state->sync_mutex);
    return 0;
}
