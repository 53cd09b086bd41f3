/* fs/fat's `fat_lock_build_inode(MSDOS_SB(sb))`: a lock reached through a `void *` field, handed
   to callees whose parameters are typed. The callees' summaries name the field with its struct
   (NOTE [view-steps]), so the caller finds the lock in its untyped block; before, the lock and its
   condition were lost at some calls and not others, and the pairing below was reported as an
   ambiguous exit. */
#include <pthread.h>
#include <stddef.h>
struct sb { void *s_fs_info; };
struct opts { int nfs; };
struct info { struct opts options; pthread_mutex_t nfs_lock; pthread_mutex_t hash_lock; int n; };

static struct info *MSDOS_SB(struct sb *sb) { return sb->s_fs_info; }
static void lk(struct info *s) { if (s->options.nfs == 2) pthread_mutex_lock(&s->nfs_lock); }
static void ul(struct info *s) { if (s->options.nfs == 2) pthread_mutex_unlock(&s->nfs_lock); }

void *iget(struct sb *sb) {
    struct info *s = MSDOS_SB(sb);
    pthread_mutex_lock(&s->hash_lock);
    s->n++;
    pthread_mutex_unlock(&s->hash_lock);
    return NULL;
}

void *build(struct sb *sb) {
    void *r;
    lk(MSDOS_SB(sb));
    r = iget(sb);
    ul(MSDOS_SB(sb));
    return r;
}

void *build_void_args(struct sb *sb) {
    void *r;
    lk(sb->s_fs_info);
    r = iget(sb);
    ul(sb->s_fs_info);
    return r;
}

void locks_twice(struct sb *sb) {
    pthread_mutex_lock(&MSDOS_SB(sb)->hash_lock);
    iget(sb); // expect: lock.double-lock
}

void unlocks_twice(struct sb *sb) {
    lk(sb->s_fs_info);
    ul(sb->s_fs_info);
    ul(MSDOS_SB(sb)); // expect: lock.double-unlock
}
