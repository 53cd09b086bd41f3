// A callee that frees a field and stores something else in it (NULL, realloc's new block, or
// zeroes over the whole struct) leaves the caller a field that no longer holds the freed
// block: calling it twice frees nothing twice. gdbm's error setter (`free(dbf->last_errstr);
// dbf->last_errstr = NULL;`), libyaml's buffer growth through realloc and its
// delete-then-memset destructors are called this way.
#include <stdlib.h>
#include <string.h>

struct db { char *errstr; int err; char *buf; };

void set_error(struct db *db, int e) {
    free(db->errstr);
    db->errstr = NULL;
    db->err = e;
}

int ok_two_errors(struct db *db) {
    set_error(db, 1);
    set_error(db, 2);
    return 0;
}

int grow(struct db *db, size_t n) {
    char *p = realloc(db->buf, n);
    if (!p)
        return 0;
    db->buf = p;
    return 1;
}

int ok_grow_twice(struct db *db) {
    if (!grow(db, 10))
        return -1;
    if (!grow(db, 20))
        return -1;
    db->buf[0] = 0;
    return 0;
}

void reset(struct db *db) {
    free(db->buf);
    memset(db, 0, sizeof *db);
}

void ok_reset_twice(struct db *db) {
    reset(db);
    reset(db);
}

void forget_error(struct db *db) {
    free(db->errstr);
    db->err = 0;
}

void bad_forget_twice(struct db *db) {
    forget_error(db);
    forget_error(db);   // expect: memory.double-free
}

void bad_use_after_reset(struct db *db) {
    char *b = db->buf;
    reset(db);
    b[0] = 1;   // expect: memory.use-after-free
}

// A callee whose summary has too many changes to list (more than 64: gdbm_store) may have
// stored a new block in the field the first call freed, though this function only read it.
struct big { char *errstr; int a[80]; };
#define W4(b) s->a[b] = k; s->a[b + 1] = k; s->a[b + 2] = k; s->a[b + 3] = k;
#define W20(b) W4(b) W4(b + 4) W4(b + 8) W4(b + 12) W4(b + 16)
char *make_error(int k);
void drop_big_error(struct big *s) { free(s->errstr); }
void reload_all(struct big *s, int k) {
    W20(0) W20(20) W20(40) W20(60)
    s->errstr = make_error(k);
}

void ok_drop_reload_drop(struct big *s) {
    drop_big_error(s);
    reload_all(s, 1);
    drop_big_error(s);
}
