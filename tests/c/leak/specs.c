/* Library allocation functions, bit-level correlation, out-parameters, allocated fields. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bad_realloc_failure(char *buf, size_t n) {
    char *p = malloc(16);                    // expect: memory.leak
    if (!p) return;
    p = realloc(p, n);                       /* on failure the old block is lost */
    free(p);
    (void)buf;
}

void ok_realloc_checked(size_t n) {
    char *p = malloc(16);
    char *q;
    if (!p) return;
    q = realloc(p, n);
    if (!q) { free(p); return; }
    free(q);
}

void ok_bit_level(unsigned char flags) {
    char *p = 0;
    if (flags & 0x80) p = malloc(8);
    if (flags >= 128) free(p);
}

void bad_bit_level(signed char flags) {
    char *p = 0;
    if (flags & 0x80) p = malloc(8);         // expect: memory.leak
    if (flags >= 0) free(p);
}

void ok_getline(FILE *f) {
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) { }
    free(line);
}

void bad_getline(FILE *f) {
    char *line = NULL;
    size_t cap = 0;
    if (getline(&line, &cap, f) < 0)         // expect: memory.leak
        return;
    free(line);
}

int bad_asprintf(int v) {
    char *s;
    if (asprintf(&s, "%d", v) < 0)           // expect: memory.leak
        return -1;
    return (int)strlen(s);
}

/* A wrapper that hands new memory out through a parameter. */
int make_name(char **out, int id) {
    return asprintf(out, "n%d", id);
}
// expect-summary: make_name: leak: not an allocator; new memory through *param0 exactly when ret>=0; escapees: none

void bad_make_name_user(void) {
    char *name;
    if (make_name(&name, 3) < 0)             // expect: memory.leak
        return;
    name[0] = 'x';
}

void ok_make_name_user(void) {
    char *name;
    if (make_name(&name, 3) < 0)
        return;
    free(name);
}

/* An allocator whose result comes with a field it allocated. */
struct rec { char *label; int n; };
struct rec *rec_new(const char *label) {
    struct rec *r = malloc(sizeof *r);
    if (!r) return NULL;
    r->label = strdup(label);
    r->n = 0;
    return r;
}
// expect-summary: rec_new: leak: allocator (returns new memory or null); result comes with allocated (*ret).label

void rec_free(struct rec *r) {
    if (!r) return;
    free(r->label);
    free(r);
}

void ok_rec(void) {
    struct rec *r = rec_new("a");
    rec_free(r);
}

void bad_rec_frees_only_struct(void) {
    struct rec *r = rec_new("a");            // expect: memory.leak
    free(r);
}

/* Kept only in a local array: counted as escaped (§2.7). */
void ok_local_array(void) {
    char *slots[4];
    slots[1] = malloc(4);
    (void)slots;
}

char *global_keep;
void ok_global(void) { global_keep = malloc(3); }

/* Address arithmetic (alignment) keeps the block: zlib-ng's zng_alloc_aligned. */
#include <stdint.h>
void *alloc_aligned(unsigned size, unsigned align) {
    void *ptr = malloc(sizeof(void *) + size + align);
    uintptr_t ret;
    if (!ptr) return NULL;
    ret = (uintptr_t)ptr + align - ((uintptr_t)ptr % align);
    memcpy((void *)(ret - sizeof(void *)), &ptr, sizeof(void *));
    return (void *)ret;
}

/* A callee changes only what its summary says it modifies (zlib-ng's gz_open and gz_reset). */
struct st { char *path; int mode; };
static void st_reset(struct st *s) { s->mode = 0; }
struct st *st_open(void) {
    struct st *s = malloc(sizeof *s);
    if (!s) return NULL;
    s->path = malloc(4);
    if (!s->path) { free(s); return NULL; }
    st_reset(s);
    return s;
}
