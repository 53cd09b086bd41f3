// A global hook the program never sets itself (a setter stores what a user passes), called
// where the same function otherwise calls the C library with the same arguments, does that
// function's job: libevent's `if (mm_free_fn_) mm_free_fn_(ptr); else free(ptr);`.
#include <stdlib.h>

static void (*mm_free_fn_)(void *p) = NULL;
static void (*log_fn)(const char *msg) = NULL;

void event_set_mem_functions(void (*free_fn)(void *ptr)) {
    mm_free_fn_ = free_fn;
}

void event_set_log_callback(void (*cb)(const char *msg)) {
    log_fn = cb;
}

void event_mm_free_(void *ptr) {
    if (mm_free_fn_)
        mm_free_fn_(ptr);
    else
        free(ptr);
}

struct request { int ns; struct request *next; };

int bad_read_after_finish(struct request *req) {
    event_mm_free_(req);
    return req->ns;   // expect: memory.use-after-free
}

int ok_read_before_finish(struct request *req) {
    int ns = req->ns;
    event_mm_free_(req);
    return ns;
}

/* A hook beside a library call with other arguments stands in for nothing. */
int puts(const char *s);
void log_msg(const char *msg, struct request *req) {
    if (log_fn)
        log_fn(msg);
    else
        puts(msg);
    (void) req;
}

int ok_log_then_read(struct request *req) {
    log_msg("finished", req);
    return req->ns;
}
