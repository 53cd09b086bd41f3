/* Helpers another file calls: a destructor and a reader. */
#include <stdio.h>
#include <stdlib.h>

struct record { char *name; int *counts; };

void record_free(struct record *r)
{
    if (!r)
        return;
    free(r->name);
    free(r->counts);
    free(r);
}

int record_total(const struct record *r)
{
    return r->counts[0] + r->counts[1];
}
