/* The kernel's allocators and frees (declared here as the kernel's headers would). */
typedef unsigned long size_t;
typedef unsigned int gfp_t;
#define GFP_KERNEL 0u
#define NULL ((void *)0)
void *kmalloc(size_t size, gfp_t flags);
void *kzalloc(size_t size, gfp_t flags);
void kfree(const void *p);
void kvfree(const void *p);
struct kmem_cache;
void *kmem_cache_alloc(struct kmem_cache *c, gfp_t flags);
void kmem_cache_free(struct kmem_cache *c, void *p);
void *ERR_PTR(long error);

struct dev_priv {
    char *buf;
    int users;
};

static struct kmem_cache *priv_cache;

int probe_error_path(int fail)
{
    struct dev_priv *p = kzalloc(sizeof(*p), GFP_KERNEL);
    if (!p)
        return -12;
    p->buf = kmalloc(64, GFP_KERNEL);
    if (!p->buf)
        goto err_free;
    if (fail) {
        kfree(p->buf);
        goto err_free_buf;
    }
    return 0;
err_free_buf:
    kfree(p->buf);                             // expect: memory.double-free
err_free:
    kfree(p);
    return -12;
}

int ok_probe_error_path(int fail)
{
    struct dev_priv *p = kzalloc(sizeof(*p), GFP_KERNEL);
    if (!p)
        return -12;
    p->buf = kmalloc(64, GFP_KERNEL);
    if (!p->buf)
        goto err_free;
    if (fail)
        goto err_free_buf;
    return 0;
err_free_buf:
    kfree(p->buf);
err_free:
    kfree(p);
    return -12;
}

void cache_twice(void)
{
    struct dev_priv *p = kmem_cache_alloc(priv_cache, GFP_KERNEL);
    if (!p)
        return;
    kmem_cache_free(priv_cache, p);
    kmem_cache_free(priv_cache, p);            // expect: memory.double-free
}

int users_after_free(struct dev_priv *p)
{
    kvfree(p);
    return p->users;                           // expect: memory.use-after-free
}

static void priv_release(struct dev_priv *p)
{
    kfree(p->buf);
    kfree(p);
}

void ok_release(void)
{
    struct dev_priv *p = kzalloc(sizeof(*p), GFP_KERNEL);
    if (!p)
        return;
    priv_release(p);
}

void ok_error_pointers(void)
{
    void *a = ERR_PTR(-12);
    void *b = ERR_PTR(-12);
    kfree(a);
    kfree(b);
}

/* Emptying a list whose entries start with their link (`list` the first field): a pointer to
 * the link cast to the entry is that entry, so the walk's next node is not the one freed. */
struct list_head { struct list_head *next, *prev; };
_Bool __list_del_entry_valid(struct list_head *entry);   /* CONFIG_DEBUG_LIST */
static inline void __list_del(struct list_head *prev, struct list_head *next)
{
    next->prev = prev;
    *(volatile struct list_head **)&prev->next = next;
}
static inline void list_del(struct list_head *entry)
{
    if (__list_del_entry_valid(entry))
        __list_del(entry->prev, entry->next);
    entry->next = (void *)0x100;
    entry->prev = (void *)0x122;
}
#define list_entry(p, T) ((T *)((char *)(p) - __builtin_offsetof(T, list)))
struct stamp { struct list_head list; long ts; };
struct session { int id; struct list_head stamps; };

void ok_empty_list(struct session *s)
{
    struct stamp *pos, *n;
    for (pos = list_entry(s->stamps.next, struct stamp), n = list_entry(pos->list.next, struct stamp);
         &pos->list != &s->stamps;
         pos = n, n = list_entry(n->list.next, struct stamp)) {
        list_del(&pos->list);
        kfree(pos);
    }
}

/* Linux 6.1's walks test the end with a function: its result is the comparison of the
 * caller's own pointers (NOTE [result-summaries]), so the walk ends where the list does. */
static inline int list_is_head(const struct list_head *list, const struct list_head *head)
{
    return list == head;
}
// expect-summary: list_is_head: result: param0 == param1
struct res { struct list_head list; int number; };
struct bridge { int id; struct list_head resources; void *priv; };

void ok_release_all(struct bridge *b)
{
    struct list_head *pos, *next;
    for (pos = b->resources.next, next = pos->next; !list_is_head(pos, &b->resources);
         pos = next, next = pos->next) {
        struct res *r = list_entry(pos, struct res);
        list_del(pos);
        kfree(r);
    }
    kfree(b->priv);
    kfree(b);
}
