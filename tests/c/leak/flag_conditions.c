/* A flag the callee sets exactly when it allocates, which the caller tests before freeing
 * (lmdb's mdb_fname_init and mn_alloced; jq's sort_items and too_deep): the block exists only
 * where the flag says so. */
#include <stdlib.h>
#include <string.h>

struct name { size_t len; char *val; int alloced; };

static int name_init(const char *path, int no_suffix, struct name *n) {
    n->alloced = 0;
    n->len = strlen(path);
    if (no_suffix)
        n->val = (char *)path;
    else if ((n->val = malloc(n->len + 5)) != NULL) {
        n->alloced = 1;
        strcpy(n->val, path);
    } else
        return 12;
    return 0;
}
// expect-summary: name_init: leak: not an allocator; new memory in (*param2).val if ret==0 and (*param2).alloced!=0

int ok_destroy(const char *path, int flags) {
    struct name n;
    int rc = name_init(path, flags & 1, &n);
    if (rc)
        return rc;
    rc = (int)n.len;
    if (n.alloced)
        free(n.val);
    return rc;
}

int bad_forgets(const char *path, int flags) {
    struct name n;
    int rc = name_init(path, flags & 1, &n);   // expect: memory.leak
    if (rc)
        return rc;
    return (int)n.len;
}

static int *sorted(int n, int bad, int *too_deep) {
    *too_deep = 0;
    int *entries = malloc(sizeof(int) * (size_t)n);
    if (!entries)
        return NULL;
    if (bad) {
        free(entries);
        *too_deep = 1;
        return NULL;
    }
    return entries;
}
// expect-summary: sorted: leak: allocator (returns new memory or null), new only if *param2==0

int ok_sort(int n, int bad) {
    int too_deep = 0;
    int *entries = sorted(n, bad, &too_deep);
    if (too_deep)
        return -1;
    int first = entries ? entries[0] : 0;
    free(entries);
    return first;
}
