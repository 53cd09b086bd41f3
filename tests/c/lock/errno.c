/* 0 or -errno: a lock helper that holds the lock exactly when it returns 0, used with
 * `if (err < 0) return err;` (sound/core's snd_pcm_buffer_access_lock). The summary only tells
 * ret != 0 apart; the engine adds that the result is never positive. */
struct mutex { long owner; };
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);
int busy(void);
struct runtime { struct mutex buffer_mutex; char *area; };

static int access_lock(struct runtime *r) {
    if (busy())
        return -16;
    mutex_lock(&r->buffer_mutex);
    return 0;
}

int ok_set_silence(struct runtime *r) {
    int err = access_lock(r);
    if (err < 0)
        return err;
    if (r->area)
        r->area[0] = 0;
    mutex_unlock(&r->buffer_mutex);
    return 0;
}

int bad_set_silence(struct runtime *r) {
    int err = access_lock(r);
    if (err > 0)
        return err;
    mutex_unlock(&r->buffer_mutex);             // expect: lock.double-unlock
    return 0;
}
