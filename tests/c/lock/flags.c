/* A lock chosen by a flag in a struct (sound/core's snd_pcm_stream_lock: a mutex when the
 * stream is non-atomic, a spinlock otherwise): the summaries carry the flag, so callers that
 * lock and unlock the same stream are consistent. */
typedef struct { int raw; } spinlock_t;
struct mutex { long owner; };
void spin_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);

struct pcm { int nonatomic; };
struct group { spinlock_t lock; struct mutex mutex; };
struct substream { struct pcm *pcm; struct group self_group; int state; };

static void group_lock(struct group *g, int nonatomic) {
    if (nonatomic) mutex_lock(&g->mutex); else spin_lock(&g->lock);
}
static void group_unlock(struct group *g, int nonatomic) {
    if (nonatomic) mutex_unlock(&g->mutex); else spin_unlock(&g->lock);
}
void stream_lock(struct substream *s) { group_lock(&s->self_group, s->pcm->nonatomic); }
void stream_unlock(struct substream *s) { group_unlock(&s->self_group, s->pcm->nonatomic); }
// expect-summary: stream_lock: lock (*param0).self_group.lock: [unlocked -> unlocked if (*(*param0).pcm).nonatomic != 0]

int ok_reset(struct substream *s) {
    stream_lock(s);
    s->state = 0;
    stream_unlock(s);
    return 0;
}

void bad_twice(struct substream *s) {
    stream_lock(s);
    stream_lock(s);                             // expect: lock.double-lock
    stream_unlock(s);
}

/* The same with the flag compared against a constant (fs/fat's fat_lock_build_inode). */
struct opts { int nfs; };
struct sbi { struct opts options; struct mutex build_lock; int n; };
static inline void lock_build(struct sbi *s) { if (s->options.nfs == 2) mutex_lock(&s->build_lock); }
static inline void unlock_build(struct sbi *s) { if (s->options.nfs == 2) mutex_unlock(&s->build_lock); }
// expect-summary: lock_build: lock (*param0).build_lock: [unlocked -> locked if (*param0).options.nfs == 2]

int ok_build(struct sbi *s) {
    lock_build(s);
    s->n++;
    unlock_build(s);
    return 0;
}

/* A flag read only by callees is the caller's flag too (sound/core's snd_pcm_action): it
 * releases the stream lock the flag picks only on one path, and its caller, holding that
 * lock, must not be told it may release the other one. */
int spin_trylock(spinlock_t *l);
int mutex_trylock(struct mutex *m);
struct linked { struct pcm *pcm; struct group self_group; struct group *group; int on; int state; };
static void linked_lock(struct linked *s) { group_lock(&s->self_group, s->pcm->nonatomic); }
static void linked_unlock(struct linked *s) { group_unlock(&s->self_group, s->pcm->nonatomic); }

static struct group *group_ref(struct linked *s) {
    int nonatomic = s->pcm->nonatomic;
    struct group *g;
    if (!s->on)
        return 0;
    g = s->group;
    if (nonatomic ? mutex_trylock(&g->mutex) : spin_trylock(&g->lock))
        return g;
    linked_unlock(s);       /* lock order: the group's, then the stream's */
    group_lock(g, nonatomic);
    linked_lock(s);
    return g;
}
static void group_unref(struct group *g, struct linked *s) {
    if (g)
        group_unlock(g, s->pcm->nonatomic);
}
static int action(struct linked *s, int state) {
    struct group *g = group_ref(s);
    s->state = g ? state : 0;
    group_unref(g, s);
    return 0;
}
int stop(struct linked *s, int state) { return action(s, state); }
// expect-summary: stop: lock (*param0).self_group.mutex: [unlocked -> error (release) if (*(*param0).pcm).nonatomic != 0 and ret == 0]

int ok_stop_locked(struct linked *s) {
    linked_lock(s);
    stop(s, 1);
    linked_unlock(s);
    return 0;
}

void bad_stop_unlocked(struct linked *s) {
    linked_lock(s);
    linked_unlock(s);
    stop(s, 1);                                 // expect: lock.double-unlock
}
