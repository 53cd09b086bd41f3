// NOTE [read-only-callees]: an unknown function whose every pointer parameter points to const
// and whose result is no pointer keeps nothing it is given: a key passed to a comparator behind
// a function pointer, or to a bodiless lookup, still leaks where the caller returns without
// freeing it. A callee given a plain `void *` may keep it (ok_keep).
#include <stdlib.h>
#include <string.h>
struct tree { int (*cmp)(const void *, const void *); void *root; };
struct keep { void (*put)(void *); };
int lookup_ext(const char *key, size_t n);
void *find_node(struct tree *t, const void *key) {
    if (t->cmp(key, t->root) == 0)
        return t->root;
    return NULL;
}
int bad_find(struct tree *t, const char *name) {
    char *key = strdup(name);   // expect: memory.leak
    if (!key)
        return -1;
    if (!find_node(t, key))
        return -1;
    free(key);
    return 0;
}
int bad_ext(const char *name) {
    char *key = strdup(name);   // expect: memory.leak
    if (!key)
        return -1;
    if (lookup_ext(key, 3) < 0)
        return -1;
    free(key);
    return 0;
}
int ok_keep(struct keep *k, const char *name) {
    char *key = strdup(name);
    if (!key)
        return -1;
    k->put(key);
    return 0;
}
