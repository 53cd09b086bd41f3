/* Calls through one pointer to a static table of operations take that one table's functions
 * (NOTE [table-calls]): a stream action checks with `pre` and, where that passes, runs `post`;
 * only the table whose `pre` always refuses has a `post` that takes the stream's lock. */
#include <pthread.h>
struct stream { pthread_mutex_t lock; int state; };
struct action_ops {
    int (*pre)(struct stream *s);
    void (*post)(struct stream *s);
};
static int pre_ready(struct stream *s) { return s->state > 0 ? 0 : 1; }
static int pre_refuse(struct stream *s) { (void)s; return -1; }
static void post_mark(struct stream *s) { s->state = 2; }
static void post_locked_mark(struct stream *s) {
    pthread_mutex_lock(&s->lock);
    s->state = 3;
    pthread_mutex_unlock(&s->lock);
}
static const struct action_ops start_ops = { pre_ready, post_mark };
static const struct action_ops close_ops = { pre_refuse, post_locked_mark };
static const struct action_ops idle_ops = { pre_ready, 0 };

int ok_action(const struct action_ops *ops, struct stream *s) {
    int res;
    pthread_mutex_lock(&s->lock);
    res = ops->pre(s);
    if (res < 0)
        goto out;
    if (ops->post)
        ops->post(s);
out:
    pthread_mutex_unlock(&s->lock);
    return res;
}

int use_tables(struct stream *s) {
    return ok_action(&start_ops, s) + ok_action(&close_ops, s) + ok_action(&idle_ops, s);
}

/* The same shape where one table's `pre` lets its locking `post` run. */
struct reset_ops {
    int (*pre)(struct stream *s);
    void (*post)(struct stream *s);
};
static const struct reset_ops quiet_reset = { pre_refuse, post_mark };
static const struct reset_ops locked_reset = { pre_ready, post_locked_mark };

int bad_reset(const struct reset_ops *ops, struct stream *s) {
    int res;
    pthread_mutex_lock(&s->lock);
    res = ops->pre(s);
    if (res >= 0)
        ops->post(s);                           // expect: lock.double-lock
    pthread_mutex_unlock(&s->lock);
    return res;
}

int use_resets(struct stream *s) {
    return bad_reset(&quiet_reset, s) + bad_reset(&locked_reset, s);
}

/* Only the tables calls dispatch on may be what a given pointer points to: a comparison of
 * the program's own with another global is as before (no object given is a global's). */
struct hooks { void (*run)(struct stream *s); };
static struct hooks spare_hooks;
void set_spare(void (*run)(struct stream *)) { spare_hooks.run = run; }
void ok_not_the_spare(const struct hooks *h, struct stream *s) {
    pthread_mutex_lock(&s->lock);
    if (h == &spare_hooks)
        pthread_mutex_lock(&s->lock);
    pthread_mutex_unlock(&s->lock);
}
