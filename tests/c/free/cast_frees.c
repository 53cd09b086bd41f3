// Frees through a cast of the block to another struct type, which no "entry found at a
// list's head" rule may drop: an opaque handle freed as its implementation, a handle type
// sharing a struct's leading fields (libuv's style), and a struct whose first member is a
// union of headers.
#include <stdlib.h>

struct pub;   // opaque to its users
struct impl { int refs; char *name; };

static void impl_free(struct impl *i) {
    free(i->name);
    free(i);
}

void pub_destroy(struct pub *p) { impl_free((struct impl *)p); }

void bad_destroy_twice(struct pub *p) {
    pub_destroy(p);
    pub_destroy(p);   // expect: memory.double-free
}

#define HANDLE_FIELDS int type; void *data;
struct handle { HANDLE_FIELDS };
struct tcp { HANDLE_FIELDS int fd; char *name; };

void handle_free(struct handle *h) { free(h); }

void bad_handle_twice(struct tcp *t) {
    handle_free((struct handle *)t);
    free(t);   // expect: memory.double-free
}

void bad_handle_use(struct tcp *t) {
    handle_free((struct handle *)t);
    t->fd = 0;   // expect: memory.use-after-free
}

struct hdr { int kind; char *name; };
struct other { long x; };
struct msg { union { struct hdr h; struct other o; } u; int extra; };

void hdr_free(struct hdr *h) { free(h); }

void bad_member_twice(struct msg *m) {
    hdr_free(&m->u.h);
    free(m);   // expect: memory.double-free
}

void bad_cast_twice(struct msg *m) {
    hdr_free((struct hdr *)m);
    free(m);   // expect: memory.double-free
}
