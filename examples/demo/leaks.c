/* An allocator and a leak on an error path. */
#include <stdlib.h>
#include <string.h>

char *join_path(const char *dir, const char *name) {
    char *p = malloc(strlen(dir) + strlen(name) + 2);
    if (!p)
        return NULL;
    strcpy(p, dir);
    strcat(p, "/");
    strcat(p, name);
    return p;
}

int path_length(const char *dir, const char *name) {
    char *p = join_path(dir, name);
    int n;
    if (!p)
        return -1;
    n = (int)strlen(p);
    if (n > 4096)
        return -1;                  /* bug: p is not freed on this path */
    free(p);
    return n;
}
