/* Calls through function pointers go to the functions the program stores in their slot: a
 * local, a parameter every caller gives a known function, a field of a static table, or, where
 * nothing says more, the few address-taken functions of the call's type. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>


static void print_sink(char *data) { puts(data); }
static void free_sink(char *data) { puts(data); free(data); }

void bad_local(void) {
    char *data = malloc(16);                    // expect: memory.leak
    void (*sink)(char *) = print_sink;
    if (!data)
        exit(1);
    strcpy(data, "x");
    sink(data);
}

void ok_local(void) {
    char *data = malloc(16);
    void (*sink)(char *) = free_sink;
    if (!data)
        exit(1);
    strcpy(data, "x");
    sink(data);
}

/* A parameter every caller of the static function gives the same known function. */
static void run_with(char *data, void (*sink)(char *)) { sink(data); }

void bad_param(void) {
    char *data = malloc(16);                    // expect: memory.leak
    if (data)
        run_with(data, print_sink);
}

void bad_param_again(void) {
    char *data = malloc(16);                    // expect: memory.leak
    if (data)
        run_with(data, print_sink);
}

static void run_freeing(char *data, void (*sink)(char *)) { sink(data); }

void ok_param(void) {
    char *data = malloc(16);
    if (data)
        run_freeing(data, free_sink);
}

/* A static table of operations. */
struct sink_ops { void (*consume)(char *); };
static const struct sink_ops printing = { .consume = print_sink };

void bad_table(void) {
    char *data = malloc(16);                    // expect: memory.leak
    if (data)
        printing.consume(data);
}

/* An element of an array of pointers the analysis does not follow: the type's address-taken
 * functions, each an alternative; one of them keeps the block, so some path leaks it. */
typedef int (*keeper_fn)(long *);
static long *kept;
static int keep(long *p) { kept = p; return 0; }
static int look(long *p) { return (int)*p; }
keeper_fn keepers[4] = { keep, look };

int bad_through_type(int i) {
    long *p = malloc(sizeof *p);                // expect: memory.leak
    if (!p)
        return -1;
    *p = 1;
    return keepers[i & 3](p);
}
