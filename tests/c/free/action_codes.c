// A function whose action code says what it frees (an editor's undo-record updater that
// reallocates the record's text for ADD, BACK and DEL, and makes a new copy for ENTER) frees
// only for those codes: a caller that freed the text and calls it with ENTER frees nothing
// twice; with BACK it may.
#include <stdlib.h>
#include <string.h>

enum { ADD, ENTER, BACK, DEL };
struct undo { int type; char *strdata; long x; };
struct file { struct undo *undotop; const char *cur; long cx; };
extern struct file *openfile;
void die(const char *m) __attribute__((noreturn));
char *copy_of(const char *s);

void update_undo(int action) {
    struct undo *u = openfile->undotop;
    if (u->type != action)
        die("mismatch");
    switch (u->type) {
    case ADD:
        u->strdata = realloc(u->strdata, 10);
        if (!u->strdata)
            die("out of memory");
        break;
    case ENTER:
        u->strdata = copy_of(openfile->cur);
        break;
    case BACK:
    case DEL:
        if (openfile->cx == u->x) {
            u->strdata = realloc(u->strdata, 20);
            if (!u->strdata)
                die("out of memory");
        }
        break;
    }
}
// expect-summary: update_undo: free: frees *(*(*openfile).undotop).strdata perhaps if param0 is 0 or 2 or 3; uses *(*openfile).cur if param0 is 1, *(*openfile).undotop, *openfile

void ok_enter(void) {
    free(openfile->undotop->strdata);
    update_undo(ENTER);
}

void bad_back(void) {
    free(openfile->undotop->strdata);
    update_undo(BACK);   // expect: memory.double-free
}
