// An out-allocation made only where `*p` was null on entry gives a caller's non-null `*p` back
// as it was, but only if the callee left it so: one that sets `*p = NULL` first (c-ares's
// ares__get_hostent) drops the old value, whatever it allocates.
#include <stdlib.h>

struct conn { int fd; };

int reopen(struct conn **p) {
    struct conn *old = *p;
    *p = NULL;
    if (old)
        return 1;
    *p = malloc(sizeof **p);
    return *p ? 0 : 2;
}

int open_once(struct conn **p) {
    if (*p)
        return 1;
    *p = malloc(sizeof **p);
    return *p ? 0 : 2;
}

// expect-summary: reopen: leak: not an allocator; new memory through *param0 exactly when ret==0; escapees: none
// expect-summary: open_once: leak: not an allocator; new memory through *param0 if ret==0 and *param0 was null
