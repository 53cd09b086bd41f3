/* An allocator whose parameter is overwritten (`data = source(data)`), that exits when the
 * allocation fails and uses the block before returning it: the parameter is the callee's own
 * copy, so assigning it is no escape. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_line(const char *s) { printf("%s\n", s); }

static char *source(char *data) {
    data = (char *)malloc(100);
    if (data == NULL)
        exit(-1);
    strcpy(data, "A String");
    print_line(data);
    return data;
}
// expect-summary: source: leak: allocator (returns new memory or null); escapees: none

void bad_source(void) {
    char *data = NULL;
    data = source(data);                 // expect: memory.leak
    print_line(data);
}

void ok_source(void) {
    char *data = NULL;
    data = source(data);
    print_line(data);
    free(data);
}

/* Storing through the parameter does hand the block out. */
static void keep(char **slot) { *slot = malloc(8); }
void ok_keep(char **slot) { keep(slot); }

/* A realloc-like allocator that frees and returns NULL for a size of 0 (lua's l_alloc): a call
 * with size 0 is a free, and makes no block. */
static void *my_realloc(void *ud, void *ptr, unsigned long osize, unsigned long nsize) {
    (void)ud; (void)osize;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, nsize);
}
// expect-summary: my_realloc: result: null where param3 is 0

void ok_free_through_allocator(void *block, unsigned long size) {
    my_realloc(NULL, block, size, 0);
}

void bad_allocated_through_allocator(unsigned long n) {
    char *p = my_realloc(NULL, NULL, 0, n + 1);     // expect: memory.leak
    if (p)
        p[0] = 1;
}
