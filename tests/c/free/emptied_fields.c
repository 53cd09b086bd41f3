// A defaults filler gives a field a new block where it held none and keeps the caller's block
// otherwise; where it fails it frees what the field holds and clears it (c-ares's
// init_by_defaults). Its caller's clean-up after the failure finds null there, not the block
// the filler freed.
#include <stdlib.h>
#include <string.h>

struct channel { char *lookups; char *servers; int ndots; };

static int fill_defaults(struct channel *ch) {
    int rc = 0;
    if (!ch->lookups) {
        ch->lookups = strdup("fb");
        if (!ch->lookups)
            rc = -1;
    }
    if (ch->ndots < 0)
        rc = -2;
    if (rc) {
        if (ch->lookups) {
            free(ch->lookups);
            ch->lookups = NULL;
        }
    }
    return rc;
}

struct channel *ok_init(const char *lookups, int ndots) {
    struct channel *ch = calloc(1, sizeof *ch);
    if (!ch)
        return NULL;
    ch->ndots = ndots;
    if (lookups)
        ch->lookups = strdup(lookups);
    if (fill_defaults(ch) != 0) {
        if (ch->lookups)
            free(ch->lookups);
        free(ch);
        return NULL;
    }
    return ch;
}

struct channel *bad_init(const char *lookups, int ndots) {
    struct channel *ch = calloc(1, sizeof *ch);
    char *mine;
    if (!ch)
        return NULL;
    ch->ndots = ndots;
    if (lookups)
        ch->lookups = strdup(lookups);
    mine = ch->lookups;
    if (fill_defaults(ch) != 0) {
        free(mine);                  // expect: memory.double-free
        free(ch);
        return NULL;
    }
    return ch;
}
