// calloc's memory is zero (NOTE [zeroed-blocks]): a field of a calloc'ed struct is null until
// written, so a helper that fills a field only where it was null does fill it there, and a
// caller that then frees the struct alone loses the field's block. The same with malloc and
// an explicit null, through a `void *` the helper's parameter type gives a shape to. A field
// whose contents are unknown (malloc's, never written) may already hold a block: nothing new.
#include <stdlib.h>

struct sock { int fd; char *addr; };
void use(struct sock *s);

int sock_fill(struct sock *s, int n) {
    if (!s->addr) {
        s->addr = malloc(n);
        if (!s->addr)
            return -1;
    }
    return 0;
}

int bad_calloc_then_fill(int n) {
    struct sock *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    if (sock_fill(s, n) != 0) {   // expect: memory.leak
        free(s);
        return -1;
    }
    if (n > 10) {
        free(s);
        return -2;
    }
    use(s);
    return 0;
}

int ok_calloc_then_fill(int n) {
    struct sock *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    if (sock_fill(s, n) != 0) {
        free(s);
        return -1;
    }
    if (n > 10) {
        free(s->addr);
        free(s);
        return -2;
    }
    use(s);
    return 0;
}

int bad_null_then_fill(int n) {
    void *block = malloc(sizeof(struct sock));
    struct sock *s = block;
    if (!s)
        return -1;
    s->addr = NULL;
    if (sock_fill(block, n) != 0) {   // expect: memory.leak
        free(s);
        return -1;
    }
    if (n > 10) {
        free(s);
        return -2;
    }
    use(s);
    return 0;
}

int ok_unknown_field(int n) {
    struct sock *s = malloc(sizeof *s);
    if (!s)
        return -1;
    if (sock_fill(s, n) != 0) {
        free(s);
        return -1;
    }
    use(s);
    return 0;
}

int ok_zeroed_field_freed(void) {
    struct sock *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    free(s->addr);   // free(NULL)
    free(s);
    return 0;
}

// A wrapper that returns calloc's block untouched hands its zeroes on; a constructor that
// writes into its block does not (its caller does not see those writes as zeroes).
void *zalloc(size_t n) {   // expect-summary: zalloc: allocator (returns new memory or null, its bytes zero)
    return calloc(1, n);
}

struct sock *sock_new(void) {   // expect-summary: sock_new: allocator (returns new memory or null);
    struct sock *s = calloc(1, sizeof *s);
    if (s)
        s->fd = -1;
    return s;
}

int bad_zalloc_then_fill(int n) {
    struct sock *s = zalloc(sizeof *s);
    if (!s)
        return -1;
    if (sock_fill(s, n) != 0) {   // expect: memory.leak
        free(s);
        return -1;
    }
    if (n > 10) {
        free(s);
        return -2;
    }
    use(s);
    return 0;
}

// Writes the analysis follows only for the objects it met leave the rest of the block
// unknown, not zero: a library function's (memcpy), an unknown callee's, one at an unknown
// index. Each caller loses `t` only where a field it never wrote is not zero.
#include <string.h>
void sock_fill_unknown(struct sock *s);

int bad_after_memcpy(const struct sock *src) {
    struct sock *s = calloc(1, sizeof *s);
    char *t = malloc(4);   // expect: memory.leak
    if (!s || !t) {
        free(s);
        free(t);
        return -1;
    }
    memcpy(s, src, sizeof *s);
    if (s->fd != 0) {
        free(s);
        return 1;
    }
    free(t);
    free(s);
    return 0;
}

int bad_after_unknown_callee(void) {
    struct sock *s = calloc(1, sizeof *s);
    char *t = malloc(4);   // expect: memory.leak
    if (!s || !t) {
        free(s);
        free(t);
        return -1;
    }
    sock_fill_unknown(s);
    if (s->fd != 0) {
        free(s);
        return 1;
    }
    free(t);
    free(s);
    return 0;
}

int bad_after_unknown_index(int i) {
    int *a = calloc(4, sizeof *a);
    char *t = malloc(4);   // expect: memory.leak
    if (!a || !t) {
        free(a);
        free(t);
        return -1;
    }
    a[i] = 1;
    if (a[0] != 0) {
        free(a);
        return 1;
    }
    free(t);
    free(a);
    return 0;
}

struct sock *sock_copy(const struct sock *src) {   // expect-summary: sock_copy: allocator (returns new memory or null);
    struct sock *s = calloc(1, sizeof *s);
    if (s)
        memcpy(s, src, sizeof *s);
    return s;
}
