/* A library call that only reads what it is given leaves it as it was: the names stored in a
 * global array stay there through qsort (a permutation), where the next call frees them
 * (nano's read_the_list). */
#include <stdlib.h>
#include <string.h>

static char **names;
static size_t count;

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (p == NULL)
        exit(1);
    return p;
}

void free_names(char **list, size_t n)
{
    if (list == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

void ok_read_names(const char *const *given, size_t n)
{
    size_t i = 0;
    free_names(names, count);
    count = n;
    names = xmalloc(count * sizeof(char *));
    while (i < count) {
        if (strlen(given[i]) == 0)
            break;
        names[i] = xmalloc(strlen(given[i]) + 1);
        strcpy(names[i], given[i]);
        i++;
    }
    count = i;
    qsort(names, count, sizeof(char *), by_name);
}

/* Sorted, the array still holds the string; freeing only the array loses it. */
void bad_sorted_then_dropped(const char *a)
{
    char **pair = xmalloc(2 * sizeof(char *));
    pair[0] = strdup(a);                           // expect: memory.leak
    pair[1] = NULL;
    qsort(pair, 2, sizeof(char *), by_name);
    free(pair);
}
