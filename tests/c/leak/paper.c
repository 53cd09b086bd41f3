/* The examples of §2.6 (Xie's thesis). */
#include <stdlib.h>
#include <string.h>

struct item { char *data; int n; };

char *bad_error_path(int error_condition) {
    char *p = malloc(10);                    // expect: memory.leak
    if (error_condition)
        return NULL;
    return p;
}

void ok_free_if_not_null(int n) {
    char *p = malloc(n);
    if (p != NULL)
        free(p);
}

void ok_fastbuf(int len) {
    char fastbuf[10], *p;
    if (len < 10)
        p = fastbuf;
    else
        p = (char *)malloc(len);
    if (p)
        p[0] = 0;
    if (p != fastbuf)
        free(p);
}

struct node { char *name; struct node *next; struct node *prev; };
void push_on_stack(struct node *p);
void ok_strdup_push(struct node *p, const char *string) {
    p->name = strdup(string);
    push_on_stack(p);
}

void bad_circular(void) {
    struct node *s = malloc(sizeof *s);      // expect: memory.leak
    if (!s) return;
    s->next = malloc(sizeof *s);             // expect: memory.leak
    if (!s->next) { free(s); return; }
    s->next->prev = s;
}

void insert_after(struct node *head, struct node *new) {
    new->next = head->next;
    head->next = new;
}
// expect-summary: insert_after: leak: not an allocator; escapees: *(*param0).next, *param1

void ok_insert(struct node *head) {
    struct node *n = malloc(sizeof *n);
    if (!n) return;
    insert_after(head, n);
}

/* An allocator that does not look like one. */
char *get_longfilename(const char *dir, const char *name) {
    char *full = malloc(strlen(dir) + strlen(name) + 2);
    if (!full) return NULL;
    strcpy(full, dir);
    strcat(full, "/");
    strcat(full, name);
    return full;
}
// expect-summary: get_longfilename: leak: allocator (returns new memory or null); escapees: none

void bad_ignores_allocator(const char *d) {
    char *f = get_longfilename(d, "x");      // expect: memory.leak
    if (f) f[0] = 0;
}

/* Its name says it frees; it does not. */
struct pass { char *secret; };
int trusted_domain_password_delete(struct pass *p) {
    return p->secret != NULL;
}
void bad_trusted(void) {
    struct pass *p = malloc(sizeof *p);      // expect: memory.leak
    if (!p) return;
    p->secret = NULL;
    trusted_domain_password_delete(p);
}

/* The `struct sub` inheritance idiom: returning a field keeps the block. */
struct super { int kind; };
struct sub { int value; struct super super; };
struct super *make_super(int v) {
    struct sub *p = malloc(sizeof *p);
    if (!p) return NULL;
    p->value = v;
    return &p->super;
}

/* Fig. 2.18: BN_copy returns its first argument or null. */
struct bn { int top; };
struct bn *BN_new(void) { return malloc(sizeof(struct bn)); }
struct bn *BN_copy(struct bn *a, const struct bn *b) {
    if (a == b) return a;
    if (!b) return NULL;
    a->top = b->top;
    return a;
}
// expect-summary: BN_copy: leak: returns param0 or null; escapees: none
void BN_free(struct bn *a) { free(a); }
// expect-summary: BN_free: leak: not an allocator; escapees: *param0
struct bn *ok_bn_dup(const struct bn *b) {
    struct bn *t = BN_new();
    if (t == NULL) return NULL;
    if (BN_copy(t, b) == NULL) { BN_free(t); return NULL; }
    return t;
}
// expect-summary: ok_bn_dup: leak: allocator (returns new memory or null); escapees: none

void bad_bn_copy_then_drop(const struct bn *b) {
    struct bn *t = BN_new();                 // expect: memory.leak
    if (t == NULL) return;
    BN_copy(t, b);
}
