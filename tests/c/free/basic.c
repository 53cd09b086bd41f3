/* Double frees and correct frees within one function. */
#include <stdlib.h>
#include <string.h>

void twice(void)
{
    char *p = malloc(16);
    free(p);
    free(p);                                   // expect: memory.double-free
}

void ok_null_after_free(void)
{
    char *p = malloc(16);
    free(p);
    p = NULL;
    free(p);
}

void through_alias(void)
{
    char *p = malloc(16);
    char *q = p;
    free(q);
    free(p);                                   // expect: memory.double-free
}

void ok_two_blocks(void)
{
    char *p = malloc(16);
    char *q = malloc(16);
    free(p);
    free(q);
}

void ok_correlated(int c)
{
    char *p = malloc(16);
    if (c)
        free(p);
    if (!c)
        free(p);
}

void correlated_wrong(int c)
{
    char *p = malloc(16);
    if (c > 3)
        free(p);
    if (c > 2)
        free(p);                               // expect: memory.double-free
}

void ok_flag(int n)
{
    char *p = malloc(n);
    int freed = 0;
    if (n > 10) {
        free(p);
        freed = 1;
    }
    if (!freed)
        free(p);
}

void in_a_loop(void)
{
    char *p = malloc(4);
    int i;
    for (i = 0; i < 3; i++)
        free(p);                               // expect: memory.double-free
}

void ok_loop_fresh(int n)
{
    int i;
    for (i = 0; i < n; i++) {
        char *p = malloc(4);
        free(p);
    }
}

void ok_loop_over_array(char **items, int n)
{
    int i;
    for (i = 0; i < n; i++)
        free(items[i]);
}

void ok_local_array(void)
{
    char *a[4];
    int i;
    for (i = 0; i < 4; i++)
        a[i] = malloc(8);
    for (i = 0; i < 4; i++)
        free(a[i]);
}

struct node { struct node *next; int value; };

void ok_list(struct node *n)
{
    while (n) {
        struct node *next = n->next;
        free(n);
        n = next;
    }
}

void error_path(int fail)
{
    char *p = malloc(32);
    if (!p)
        return;
    if (fail) {
        free(p);
        goto out;
    }
    strcpy(p, "x");
out:
    free(p);                                   // expect: memory.double-free
}

void ok_error_path(int fail)
{
    char *p = malloc(32);
    if (!p)
        return;
    if (fail) {
        free(p);
        return;
    }
    strcpy(p, "x");
    free(p);
}

void ok_realloc_failure(char *p, size_t n)
{
    char *q = realloc(p, n);
    if (!q) {
        free(p);
        return;
    }
    free(q);
}

void realloc_then_free_old(char *p, size_t n)
{
    char *q = realloc(p, n);
    if (!q)
        return;
    free(p);                                   // expect: memory.double-free
    free(q);
}

void ok_realloc_grow(char *p, size_t n)
{
    p = realloc(p, n);
    free(p);
}

struct pair { char *a; char *b; };

void field_twice(struct pair *s)
{
    free(s->a);
    free(s->a);                                // expect: memory.double-free
}

void ok_fields(struct pair *s)
{
    free(s->a);
    s->a = NULL;
    free(s->b);
    free(s->a);
}
