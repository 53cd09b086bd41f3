/* Reads and writes of freed memory within one function. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fitem { int id; char *name; };

int read_after(void)
{
    int *p = malloc(sizeof *p);
    if (!p)
        return 0;
    *p = 3;
    free(p);
    return *p;                                 // expect: memory.use-after-free
}

void write_after(void)
{
    char *p = malloc(8);
    if (!p)
        return;
    free(p);
    p[1] = 'x';                                // expect: memory.use-after-free
}

int field_after(struct fitem *it)
{
    free(it);
    return it->id;                             // expect: memory.use-after-free
}

void library_after(void)
{
    char *p = malloc(8);
    if (!p)
        return;
    free(p);
    strcpy(p, "hello");                        // expect: memory.use-after-free
}

extern void consume(char *p);

void unknown_after(void)
{
    char *p = malloc(8);
    free(p);
    consume(p);                                // expect: memory.use-after-free
}

int ok_read_before(void)
{
    int *p = malloc(sizeof *p);
    int v;
    if (!p)
        return 0;
    *p = 3;
    v = *p;
    free(p);
    return v;
}

void ok_reassigned(void)
{
    char *p = malloc(8);
    free(p);
    p = malloc(8);
    if (p)
        p[0] = 'a';
    free(p);
}

int ok_compare_after(char *p, char *q)
{
    free(p);
    return p == q;
}

void ok_other_branch(int c)
{
    char *p = malloc(8);
    if (!p)
        return;
    if (c)
        free(p);
    else
        p[0] = 'x';
    if (!c)
        free(p);
}

void ok_free_field_then_struct(struct fitem *it)
{
    free(it->name);
    free(it);
}

void struct_then_field(struct fitem *it)
{
    free(it);
    free(it->name);                            // expect: memory.use-after-free
}

void ok_loop_next(struct fitem **items, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        free(items[i]->name);
        free(items[i]);
    }
}
