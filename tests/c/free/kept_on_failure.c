/* NOTE [copied-pointers]: an out-parameter a callee fills only where it succeeds keeps what
 * the caller had there where it fails (c-ares's ares_expand_name leaves *s as it was, or
 * null, when the name is bad). Freed at the end of one iteration, the caller's pointer is
 * freed again on the next iteration's error path. */
#include <stdlib.h>
#include <string.h>

int expand(const char *in, char **s)
{
    if (in[0] == '\0')
        return 1;                  /* bad name: *s not written */
    *s = malloc(strlen(in) + 1);
    if (*s == NULL)
        return 2;
    strcpy(*s, in);
    return 0;
}

int bad_parse_names(const char **names, int n)
{
    char *name = NULL;
    for (int i = 0; i < n; i++) {
        if (expand(names[i], &name) != 0) {
            free(name);            // expect: memory.double-free
            return -1;
        }
        free(name);
    }
    return 0;
}

int ok_parse_names(const char **names, int n)
{
    char *name;
    for (int i = 0; i < n; i++) {
        name = NULL;
        if (expand(names[i], &name) != 0) {
            free(name);
            return -1;
        }
        free(name);
    }
    return 0;
}
