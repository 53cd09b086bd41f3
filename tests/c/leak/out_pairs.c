/* A function that hands out two blocks through out-parameters, both there exactly when it
 * returns non-null: where the first failed to allocate or the second did, it frees what it
 * made and returns null (mosquitto's mosquitto_property_read_string_pair). A caller testing
 * the two pointers, not the result, knows both are there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct prop { int id; const char *name; const char *value; };
const struct prop *find_prop(const struct prop *list, int id);

const struct prop *read_pair(const struct prop *list, int id, char **name, char **value)  // expect-summary: read_pair: leak: not an allocator; new memory through *param2 exactly when ret!=0; new memory through *param3 exactly when ret!=0; escapees: *param0
{
    const struct prop *p;
    if (name)
        *name = NULL;
    if (value)
        *value = NULL;
    p = find_prop(list, id);
    if (!p)
        return NULL;
    if (name) {
        *name = strdup(p->name);
        if (!*name)
            return NULL;
    }
    if (value) {
        *value = strdup(p->value);
        if (!*value) {
            if (name) {
                free(*name);
                *name = NULL;
            }
            return NULL;
        }
    }
    return p;
}

void ok_print_pair(const struct prop *list)
{
    char *name = NULL, *value = NULL;
    read_pair(list, 38, &name, &value);
    if (name == NULL || value == NULL)
        return;
    printf("%s=%s\n", name, value);
    free(name);
    free(value);
}

void bad_value_kept(const struct prop *list)
{
    char *name = NULL, *value = NULL;
    if (read_pair(list, 38, &name, &value) != NULL)   // expect: memory.leak
        printf("%s\n", name);
    free(name);
}
