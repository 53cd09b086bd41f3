// A call through a pointer whose one target is known keeps the statements before it: the
// second block allocated in the same straight line is still there to leak.
#include <stdlib.h>

void (*hook_free)(void *ptr) = free;

void bad_second_block(size_t n) {
    char *first = malloc(n);
    char *second = malloc(n);   // expect: memory.leak
    hook_free(first);
}

void ok_both(size_t n) {
    char *first = malloc(n);
    char *second = malloc(n);
    hook_free(first);
    hook_free(second);
}
