/* Frees and uses across calls: destructors, conditional frees, sinks, helpers that return
   freed pointers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fbuf { char *data; int len; };

static void buf_destroy(struct fbuf *b)    // expect-summary: buf_destroy: free: frees *param0, *(*param0).data; uses *param0
{
    free(b->data);
    free(b);
}

void destroy_twice(struct fbuf *b)
{
    buf_destroy(b);
    free(b);                                   // expect: memory.double-free
}

void ok_destroy_once(void)
{
    struct fbuf *b = malloc(sizeof *b);
    if (!b)
        return;
    b->data = malloc(10);
    buf_destroy(b);
}

void free_then_destroy(struct fbuf *b)
{
    free(b->data);
    buf_destroy(b);                            // expect: memory.double-free
}

static void sink(char *d)
{
    free(d);
}

void freed_then_sunk(void)
{
    char *d = malloc(64);
    if (!d)
        exit(1);
    free(d);
    sink(d);                                   // expect: memory.double-free
}

void ok_sunk_once(void)
{
    char *d = malloc(64);
    if (!d)
        exit(1);
    sink(d);
}

static void show(const char *s)           // expect-summary: show: free: uses *param0
{
    if (s)
        printf("%s\n", s);
}

void shown_after_free(void)
{
    char *s = malloc(8);
    if (!s)
        return;
    strcpy(s, "x");
    free(s);
    show(s);                                   // expect: memory.use-after-free
}

void ok_shown_before_free(void)
{
    char *s = malloc(8);
    if (!s)
        return;
    strcpy(s, "x");
    show(s);
    free(s);
}

/* Frees its argument only when asked to. */
static void release(char *p, int why)     // expect-summary: release: free: frees *param0 if param1 != 0
{
    if (why)
        free(p);
}

void ok_release_said_no(char *p)
{
    release(p, 0);
    free(p);
}

void release_then_free(char *p)
{
    release(p, 1);
    free(p);                                   // expect: memory.double-free
}

static int drop(char *p, int n)           // expect-summary: drop: free: frees *param0 if ret == 0
{
    if (n > 4) {
        free(p);
        return 0;
    }
    return 1;
}

void ok_drop_checked(char *p, int n)
{
    if (drop(p, n) != 0)
        free(p);
}

void drop_unchecked(char *p, int n)
{
    if (drop(p, n) == 0)
        free(p);                               // expect: memory.double-free
}

static int dropped_flag;

static void maybe_sink(char *d)
{
    if (dropped_flag)
        free(d);
}

void flag_set_then_sunk(char *d)
{
    free(d);
    dropped_flag = 1;
    maybe_sink(d);                             // expect: memory.double-free
}

static char *make_and_drop(void)
{
    char *d = malloc(10);
    if (!d)
        exit(1);
    free(d);
    return d;
}

void dangling_result(void)
{
    char *d = make_and_drop();
    free(d);                                   // expect: memory.double-free
}

static char *make(void)
{
    char *d = malloc(10);
    if (!d)
        exit(1);
    return d;
}

void ok_result(void)
{
    char *d = make();
    free(d);
}

static void shrink(char **pp, size_t n)
{
    char *q = realloc(*pp, n);
    if (q)
        *pp = q;
}

void ok_shrunk(char *p)
{
    shrink(&p, 4);
    free(p);
}

/* An empty function of the file itself does nothing with what it is given. */
static void ignore(char *data) { }

void ok_freed_then_ignored(void)
{
    char *d = malloc(8);
    if (!d)
        return;
    free(d);
    ignore(d);
}
