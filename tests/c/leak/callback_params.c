// saturn-xfail: a parameter given different functions by different callers calls each of them
// under a literal of its own; the callee's escapee summary cannot say "kept when param1 is
// free_sink", so the caller passing print_sink takes its block as kept (a miss, not a false report)
#include <stdio.h>
#include <stdlib.h>

static void print_sink(char *data) { puts(data); }
static void free_sink(char *data) { free(data); }
static void run_with(char *data, void (*sink)(char *)) { sink(data); }

void bad_param(void) {
    char *data = malloc(16);                    // expect: memory.leak
    if (data)
        run_with(data, print_sink);
}

void ok_param(void) {
    char *data = malloc(16);
    if (data)
        run_with(data, free_sink);
}
