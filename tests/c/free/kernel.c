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
