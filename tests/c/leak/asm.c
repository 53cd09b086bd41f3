/* A block given to inline assembly may be kept by it: the kernel's cmpxchg() publishes a new
 * block into a shared pointer (drivers/tty's tty_audit_buf_get). */
void *kmalloc(unsigned long size, unsigned flags);
void kfree(const void *p);
struct audit_buf { int n; };
struct signal { struct audit_buf *buf; };

#define cmpxchg(ptr, old, new) ({ \
    __typeof__(*(ptr)) __ret; __typeof__(*(ptr)) __old = (old); __typeof__(*(ptr)) __new = (new); \
    asm volatile("lock cmpxchgq %2,%1" : "=a" (__ret), "+m" (*(ptr)) : "r" (__new), "0" (__old) \
                 : "memory"); \
    __ret; })

struct audit_buf *get_buf(struct signal *sig) {
    struct audit_buf *buf = kmalloc(sizeof(*buf), 0);
    if (!buf)
        return 0;
    if (cmpxchg(&sig->buf, 0, buf) != 0)
        kfree(buf);
    return sig->buf;
}

int bad_counter(int *out) {
    int *n = kmalloc(sizeof(*n), 0);         // expect: memory.leak
    if (!n)
        return -1;
    asm volatile("incl %0" : "+m" (*n));     /* an int operand, not the block's address */
    *out = *n;
    return 0;
}
