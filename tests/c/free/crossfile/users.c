/* Callers of sinks.c's helpers. */
#include <stdlib.h>

struct record { char *name; int *counts; };
void record_free(struct record *r);
int record_total(const struct record *r);

int total_after_free(struct record *r)
{
    record_free(r);
    return record_total(r);                    // expect: memory.use-after-free
}

void name_twice(struct record *r)
{
    char *name = r->name;
    record_free(r);
    free(name);                                // expect: memory.double-free
}

int ok_total_then_free(struct record *r)
{
    int t = record_total(r);
    record_free(r);
    return t;
}
