/* What a result says about the memory handed out. A reader that hands out a block through a
 * parameter and says so by returning non-null (mosquitto's property readers): when it returns NULL it allocated nothing, so a caller that
 * returns on NULL leaks nothing; one that drops the block it got on success leaks it. */
#include <stdlib.h>
#include <string.h>

struct prop { int id; const char *text; struct prop *next; };

static const struct prop *read_string(const struct prop *p, int id, char **value) {
    for (; p; p = p->next) {
        if (p->id == id) {
            *value = strdup(p->text);
            if (!*value)
                return NULL;
            return p;
        }
    }
    return NULL;
}
// expect-summary: read_string: leak: not an allocator; new memory through *param2 exactly when ret!=0

int ok_when_absent(const struct prop *props) {
    char *name;
    if (!read_string(props, 3, &name))
        return 0;
    int n = (int)strlen(name);
    free(name);
    return n;
}

int bad_length(const struct prop *props) {
    char *name;
    if (read_string(props, 3, &name) == NULL)   // expect: memory.leak
        return 0;
    return (int)strlen(name);
}

/* One for success, zero for failure (libyaml's convention): "ret>=0" holds either way, so the
 * summary must say "ret!=0" too. */
static int process(int bad, char **out) {
    char *v = malloc(8);
    if (!v)
        return 0;
    if (bad) {
        free(v);
        return 0;
    }
    *out = v;
    return 1;
}
// expect-summary: process: leak: not an allocator; new memory through *param1 exactly when ret==1

int ok_on_failure(int bad) {
    char *v = NULL;
    if (!process(bad, &v))
        return 0;
    free(v);
    return 1;
}
