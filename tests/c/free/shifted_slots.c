// A vector whose delete shifts the later elements down (`v->slot[i - 1] = v->slot[i]`, at an
// offset the callee does not know): a caller that frees an element, deletes its slot and reads
// the same slot again reads the next element, not the freed one. A caller that frees the element
// and reads the slot with no delete between reads the freed block.
#include <stdlib.h>
#include <string.h>

struct vec { int n; void **slot; };

void vec_del(struct vec *v, int at) {
    if (!v || at < 0 || at >= v->n)
        return;
    for (int i = at + 1; i < v->n; i++)
        v->slot[i - 1] = v->slot[i];
    v->n--;
}

struct item { char *name; };

void item_free(struct item *it) {
    if (!it)
        return;
    free(it->name);
    free(it);
}

void ok_filter(struct vec *v, const char *keep) {
    for (int i = 0; v && i < v->n; i++) {
        struct item *it = v->slot[i];
        if (strcmp(it->name, keep) != 0) {
            item_free(it);
            vec_del(v, i);
            i--;
        }
    }
}

void ok_first_two(struct vec *v) {
    if (v->n < 2)
        return;
    item_free(v->slot[0]);
    vec_del(v, 0);
    item_free(v->slot[0]);
    vec_del(v, 0);
}

void bad_no_delete(struct vec *v) {
    if (v->n < 1)
        return;
    item_free(v->slot[0]);
    item_free(v->slot[0]);   // expect: memory.double-free
}

struct entry { struct item *it; int tag; };
struct table { int n; struct entry *e; };

void table_del(struct table *t, int at) {
    for (int i = at + 1; i < t->n; i++)
        t->e[i - 1].it = t->e[i].it;
    t->n--;
}

void ok_table_drop_first(struct table *t) {
    if (t->n < 2)
        return;
    item_free(t->e[0].it);
    table_del(t, 0);
    item_free(t->e[0].it);
}

// A delete that also shrinks the slots with realloc: the caller's next read of a slot is of
// the new block (what it holds is the callee's, shifted), or of the old one, shifted in place
// where realloc failed.
void vec_del_shrink(struct vec *v, int at) {
    if (!v || !v->n || at < 0 || at >= v->n)
        return;
    for (int i = at + 1; i < v->n; i++)
        v->slot[i - 1] = v->slot[i];
    v->n--;
    if (v->n <= 0) {
        free(v->slot);
        v->slot = NULL;
        v->n = 0;
    } else {
        void *fewer = realloc(v->slot, sizeof(void *) * v->n);
        if (!fewer)
            v->n++;
        else
            v->slot = fewer;
    }
}

void ok_filter_shrunk(struct vec *v) {
    struct item *it;
    int i;
    for (i = 0; v && i < v->n && (it = v->slot[i]); i++) {
        if (!it->name) {
            item_free(it);
            vec_del_shrink(v, i);
            i--;
        }
    }
    if (v && v->n > 0 && v->slot[0])
        free(((struct item *)v->slot[0])->name);
}

void bad_shrunk_no_delete(struct vec *v) {
    if (v->n < 2)
        return;
    vec_del_shrink(v, 0);
    item_free(v->slot[0]);
    item_free(v->slot[0]);   // expect: memory.double-free
}
