// A function whose action code says what it reads (an editor's undo-record updater that reads
// the global cut buffer only for the actions that cut) uses the buffer only for those codes: a
// caller that pastes the buffer's lines into the file, freeing its top node, and records the
// paste before restoring the buffer reads no freed node; recording a cut there would.
#include <stdlib.h>

enum { ADD, CUT, ZAP, PASTE };
struct line { struct line *next; char *data; long lineno; };
struct undo { int type; long head, tail; struct line *lines; };
struct file { struct undo *undotop; struct line *current; };
extern struct file *openfile;
extern struct line *cutbuffer;

void update_undo(int action) {
    struct undo *u = openfile->undotop;
    switch (action) {
    case CUT:
    case ZAP:
        u->lines = cutbuffer;
        u->tail = cutbuffer->lineno;
        break;
    case PASTE:
        u->tail = openfile->current->lineno;
        break;
    default:
        break;
    }
}
// expect-summary: update_undo: free: uses *cutbuffer if param0 is 1 or 2, *(*openfile).current if param0 is 3, *(*openfile).undotop, *openfile

// The paste takes the buffer's top node into the file and frees it.
void ingraft(struct line *top) {
    openfile->current->next = top->next;
    free(top->data);
    free(top);
}

void ok_paste(void) {
    ingraft(cutbuffer);
    update_undo(PASTE);
    cutbuffer = NULL;
}

void bad_recut(void) {
    ingraft(cutbuffer);
    update_undo(CUT);   // expect: memory.use-after-free
    cutbuffer = NULL;
}
