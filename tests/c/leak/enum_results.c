/* A lookup that hands out its copy only where it returns its enum's second value (`DMP_OK`,
 * after `DMP_ERR` and before `DMP_NOT_FOUND`): a caller that returns on every other value
 * loses nothing. Taken as "ret>=0 and ret!=0", NOT_FOUND would have handed it out too. */
#include <stdlib.h>
#include <string.h>

enum { DMP_ERR, DMP_OK, DMP_NOT_FOUND };

const char *table_of(const char *name);

int get_map(const char *name, char **out) {
    const char *params = table_of(name);
    if (!params)
        return DMP_NOT_FOUND;
    *out = strdup(params);
    return *out ? DMP_OK : DMP_ERR;
}
// expect-summary: get_map: leak: not an allocator; new memory through *param1 exactly when ret==1

int use(char *params);

int ok_update(const char *name) {
    char *params = NULL;
    int r = get_map(name, &params);
    if (r != DMP_OK)
        return r;
    r = use(params);
    free(params);
    return r;
}

int bad_update(const char *name) {
    char *params = NULL;
    int r = get_map(name, &params);         // expect: memory.leak
    if (r == DMP_NOT_FOUND)
        return r;
    return params ? (int)strlen(params) : 0;
}
