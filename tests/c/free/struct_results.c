// A function that returns a struct by value gives new field values at every call: gdbm's
// `datum key = gdbm_nextkey(db, key)` walk frees each key and each fetched value once, though
// the calls' results go through one temporary.
#include <stdlib.h>

typedef struct { char *dptr; int dsize; } datum;
struct db { int n; };

datum firstkey(struct db *db) { datum d; d.dptr = malloc(8); d.dsize = d.dptr ? 8 : 0; (void) db; return d; }
datum nextkey(struct db *db, datum k) { datum d; d.dptr = db->n-- > 0 ? malloc(8) : NULL; d.dsize = k.dsize; return d; }
datum fetch(struct db *db, datum k) { datum d; d.dptr = malloc(16); d.dsize = k.dsize + db->n; return d; }
int use(const char *p);

void ok_dump(struct db *db) {
    datum key = firstkey(db);
    while (key.dptr) {
        datum data = fetch(db, key);
        use(key.dptr);
        use(data.dptr);
        datum next = nextkey(db, key);
        free(key.dptr);
        free(data.dptr);
        key = next;
    }
}

int bad_free_twice(struct db *db) {
    datum d = firstkey(db);
    datum e = fetch(db, d);
    free(d.dptr);
    free(e.dptr);
    free(d.dptr);   // expect: memory.double-free
    return 0;
}
