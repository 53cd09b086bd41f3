// A callee that stores a new block in an out-parameter writes that block, not the one the
// out-parameter held before: a caller that freed the old one and calls again (c-ares's
// same_questions: ares_expand_name(..., &q.name, ...) in a loop that frees q.name) uses
// nothing freed. And a callee that sets `*host = NULL` first allocates into `*host` whatever
// it held (c-ares's ares__get_hostent), so the block freed at the end of one pass is gone
// from `*host` in the next.
#include <stdlib.h>
#include <string.h>

int read_byte(void);

int expand_name(const char *src, char **s, long *len) {
    size_t n = strlen(src);
    char *q;
    *s = malloc(n + 1);
    if (!*s)
        return 15;
    q = *s;
    while (*src)
        *q++ = *src++;
    *q = 0;
    *len = (long) n;
    return 0;
}

int ok_each_name(const char **names, int count) {
    char *name;
    long len;
    int i, total = 0;
    for (i = 0; i < count; i++) {
        if (expand_name(names[i], &name, &len) != 0)
            return -1;
        total += (int) len;
        free(name);
    }
    return total;
}

struct hostent { char *h_name; };

int get_hostent(struct hostent **host) {
    struct hostent *h;
    *host = NULL;
    if (read_byte() < 0)
        return 1;
    h = malloc(sizeof *h);
    if (!h)
        return 2;
    h->h_name = NULL;
    *host = h;
    return 0;
}

int ok_lookup(const char *name, struct hostent **host) {
    int status;
    while ((status = get_hostent(host)) == 0) {
        if ((*host)->h_name && strcmp((*host)->h_name, name) == 0)
            break;
        free(*host);
    }
    if (status != 0)
        *host = NULL;
    return status;
}

int bad_use_after_free(struct hostent **host) {
    if (get_hostent(host) != 0)
        return -1;
    free(*host);
    return (*host)->h_name != NULL;   // expect: memory.use-after-free
}
