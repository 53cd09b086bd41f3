/* Kernel allocation idioms as preprocessing leaves them: kmalloc/kzalloc are static inlines over
 * __kmalloc, error pointers, devm_ memory owned by the device. */
typedef unsigned long size_t;
typedef unsigned int gfp_t;
struct device { int id; };
void *__kmalloc(size_t size, gfp_t flags);
void kfree(const void *objp);
void *vmalloc(unsigned long size);
void vfree(const void *addr);
void *kvmalloc_node(size_t size, gfp_t flags, int node);
void kvfree(const void *addr);
char *kstrdup(const char *s, gfp_t gfp);
void *kmemdup(const void *src, size_t len, gfp_t gfp);
void *devm_kmalloc(struct device *dev, size_t size, gfp_t gfp);
int register_thing(void *p);

static inline __attribute__((__always_inline__)) void *kmalloc(size_t size, gfp_t flags)
{ return __kmalloc(size, flags); }
static inline __attribute__((__always_inline__)) void *kzalloc(size_t size, gfp_t flags)
{ return kmalloc(size, flags | 0x100u); }
static inline void *kvmalloc(size_t size, gfp_t flags) { return kvmalloc_node(size, flags, -1); }
static inline void *devm_kzalloc(struct device *dev, size_t size, gfp_t gfp)
{ return devm_kmalloc(dev, size, gfp | 0x100u); }
static inline void * __attribute__((__warn_unused_result__)) ERR_PTR(long error)
{ return (void *) error; }
static inline long __attribute__((__warn_unused_result__)) PTR_ERR(const void *ptr)
{ return (long) ptr; }
static inline _Bool __attribute__((__warn_unused_result__)) IS_ERR(const void *ptr)
{ return __builtin_expect(!!((unsigned long)(void *)(ptr) >= (unsigned long)-4095), 0); }

struct buf { char *data; int len; };

int bad_error_path(int n) {
    char *p = kmalloc(n, 0xcc0);                 // expect: memory.leak
    if (!p)
        return -12;
    if (n > 4096)
        return -22;
    kfree(p);
    return 0;
}

int ok_kzalloc(int n) {
    struct buf *b = kzalloc(sizeof(*b), 0xcc0);
    if (!b)
        return -12;
    b->len = n;
    kfree(b);
    return 0;
}

int bad_vmalloc(int n) {
    void *v = vmalloc(n);                         // expect: memory.leak
    return v != 0;
}

int ok_kvmalloc(int n) {
    void *v = kvmalloc(n, 0xcc0);
    if (!v)
        return -12;
    kvfree(v);
    return 0;
}

int bad_kstrdup(const char *s) {
    char *copy = kstrdup(s, 0xcc0);               // expect: memory.leak
    return copy ? 0 : -12;
}

int ok_devm(struct device *dev) {
    struct buf *b = devm_kzalloc(dev, sizeof(*b), 0xcc0);
    if (!b)
        return -12;
    return register_thing(b) ? -5 : 0;
}

/* Returns new memory or an error pointer. */
static struct buf *buf_create(int n) {
    struct buf *b = kzalloc(sizeof(*b), 0xcc0);
    if (!b)
        return ERR_PTR(-12);
    if (n < 0) {
        kfree(b);
        return ERR_PTR(-22);
    }
    b->len = n;
    return b;
}

int ok_err_ptr(int n) {
    struct buf *b = buf_create(n);
    if (IS_ERR(b))
        return PTR_ERR(b);
    kfree(b);
    return 0;
}

int bad_err_ptr(int n) {
    struct buf *b = buf_create(n);                // expect: memory.leak
    if (IS_ERR(b))
        return PTR_ERR(b);
    return b->len;
}

int ok_kmemdup(const void *src, struct buf *out) {
    void *c = kmemdup(src, 16, 0xcc0);
    if (!c)
        return -12;
    out->data = c;
    return 0;
}
