/* What callers know of a callee's result (NOTE [result-summaries]): a pure helper's result is
 * evaluated on the caller's own arguments, so two calls with equal arguments agree; of other
 * results, the bits every path returns alike and that a pointer is never null. */
#include <stdlib.h>

static int always_true(void) { return 1; }
// expect-summary: always_true: result: always 1
static int pick(int a) { return a > 5 ? a : 0; }
// expect-summary: pick: result: computed from param0 alone

void ok_always_true(void) {
    char *p = NULL;
    if (always_true())
        p = malloc(100);
    if (p)
        p[0] = 0;
    if (always_true())
        free(p);
}

void ok_same_argument(int x) {
    char *p = NULL;
    if (pick(x))
        p = malloc(8);
    if (pick(x))
        free(p);
}

void bad_other_argument(int x) {
    char *p = NULL;
    if (pick(x))
        p = malloc(8);                 // expect: memory.leak
    if (pick(x + 1))
        free(p);
}

struct dev { int flags; int *counter; };
static int fallback_counter;
static int status_of(struct dev *d) { return d->flags | 1; }   /* reads memory: bits only */
// expect-summary: status_of: result: bits 0x1 always 0x1
static int *counter_of(struct dev *d) { return d->counter ? d->counter : &fallback_counter; }
// expect-summary: counter_of: result: never null

void ok_known_bit(struct dev *d) {
    char *p = NULL;
    if (status_of(d) & 1)
        p = malloc(8);
    if (status_of(d) & 1)
        free(p);
}

void ok_never_null(struct dev *d) {
    char *m = malloc(4);
    int *c;
    if (!m)
        return;
    c = counter_of(d);
    if (!c)
        return;                        /* cannot happen: no leak of m here */
    *c += 1;
    free(m);
}
