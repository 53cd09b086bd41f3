// A user's allocator hook stands in for malloc where the same function calls malloc with the
// same arguments when no hook is set (libevent's event_mm_malloc_): the wrapper is an
// allocator, and a block it gives that an error path drops is a leak.
#include <stdlib.h>

static void *(*mm_malloc_fn_)(size_t sz) = NULL;

void event_set_mem_functions(void *(*malloc_fn)(size_t sz)) {
    mm_malloc_fn_ = malloc_fn;
}

void *event_mm_malloc_(size_t sz) {
    if (sz == 0)
        return NULL;
    if (mm_malloc_fn_)
        return mm_malloc_fn_(sz);
    else
        return malloc(sz);
}

int read_input(void);

static int fill(char *buf) {
    buf[0] = (char) read_input();
    return buf[0] == 0 ? -1 : 0;
}

int bad_drops_on_error(void) {
    char *buf = event_mm_malloc_(64);   // expect: memory.leak
    if (buf == NULL)
        return -1;
    if (fill(buf) < 0)
        return -1;
    free(buf);
    return 0;
}

int ok_frees_on_error(void) {
    char *buf = event_mm_malloc_(64);
    if (buf == NULL)
        return -1;
    if (fill(buf) < 0) {
        free(buf);
        return -1;
    }
    free(buf);
    return 0;
}
// expect-summary: event_mm_malloc_: leak: allocator (returns new memory or null)
