// NOTE [library-targets]: a project's allocator reached through function pointers that the
// program sets only to the C library's malloc and free (an allocation table a test may swap,
// a parser's memory suite) is malloc and free to the checkers.
#include <stdlib.h>
#include <string.h>

typedef struct { void *(*mallocFn)(size_t); void (*freeFn)(void *); } allocFuncs;
static allocFuncs allocFns = { .mallocFn = malloc, .freeFn = free };

allocFuncs setAllocators(allocFuncs *fns) {
    allocFuncs old = allocFns;
    allocFns = *fns;   // a user's own, to do the same job
    return old;
}

static void *hi_malloc(size_t n) { return allocFns.mallocFn(n); }
static void hi_free(void *p) { allocFns.freeFn(p); }

char *copy_string(const char *s) {
    size_t n = strlen(s);
    char *p = hi_malloc(n + 1);
    if (p == NULL)
        return NULL;
    memcpy(p, s, n + 1);
    return p;
}

int bad_early_return(const char *s, int k) {
    char *p = copy_string(s);   // expect: memory.leak
    if (p == NULL)
        return -1;
    if (k > 3)
        return -2;
    hi_free(p);
    return 0;
}

int ok_freed(const char *s) {
    char *p = copy_string(s);
    if (p == NULL)
        return -1;
    hi_free(p);
    return 0;
}

/* A parser's memory suite: the user's, or the library's by default. */
typedef struct {
    void *(*malloc_fcn)(size_t);
    void (*free_fcn)(void *);
} memory_suite;
struct parser { memory_suite mem; char *buffer; };
#define MALLOC(parser, s) (parser->mem.malloc_fcn((s)))
#define FREE(parser, p) (parser->mem.free_fcn((p)))

void parser_init(struct parser *parser, const memory_suite *suite) {
    if (suite) {
        parser->mem.malloc_fcn = suite->malloc_fcn;
        parser->mem.free_fcn = suite->free_fcn;
    } else {
        parser->mem.malloc_fcn = malloc;
        parser->mem.free_fcn = free;
    }
}

int bad_suite(struct parser *parser, int fail) {
    char *tmp = MALLOC(parser, 64);   // expect: memory.leak
    if (tmp == NULL)
        return -1;
    if (fail)
        return -2;
    FREE(parser, tmp);
    return 0;
}

int ok_suite(struct parser *parser) {
    char *tmp = MALLOC(parser, 64);
    if (tmp == NULL)
        return -1;
    FREE(parser, tmp);
    return 0;
}
