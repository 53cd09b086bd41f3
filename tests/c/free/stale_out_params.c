// An out-parameter a callee leaves alone only where it returns 0 (kpartx's dm_find_part returns
// early before it writes *part_uuid) and nulls where it fails otherwise: a caller that reads it
// only where the call returned non-zero reads what the call wrote, and one that reads it after
// every call reads, where the call returned 0, the block it freed in the previous iteration.
#include <stdlib.h>
#include <string.h>

static int present(const char *name, char **uuid) {
    *uuid = NULL;
    if (!name[0])
        return 0;
    *uuid = strdup(name);
    return *uuid ? 1 : -1;
}

int find_part(const char *name, size_t len, char **uuid) {
    if (len > 8)
        return 0;
    return present(name, uuid);
}

int ok_found_only(const char **names, const size_t *lens, int n) {
    int found = 0;
    for (int i = 0; i < n; i++) {
        char *uuid;
        if (!find_part(names[i], lens[i], &uuid))
            continue;
        if (uuid) {
            found++;
            free(uuid);
        }
    }
    return found;
}

int bad_every_call(const char **names, const size_t *lens, int n) {
    int found = 0;
    for (int i = 0; i < n; i++) {
        char *uuid;
        find_part(names[i], lens[i], &uuid);
        if (uuid) {
            found++;
            free(uuid);   // expect: memory.double-free
        }
    }
    return found;
}
