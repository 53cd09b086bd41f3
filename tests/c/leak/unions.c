// NOTE [union-members]: a union's pointer members are one pointer, whatever they point to
// (c-ares's `union { unsigned char *as_uchar; char *as_char; } name`, filled through one member
// and freed through the other).
#include <stdlib.h>

int make(unsigned char **out) { *out = malloc(4); return *out ? 0 : 1; }
void release(void *p) { free(p); }

void ok_filled_through_a_call(void) {
    union { unsigned char *as_uchar; char *as_char; } name;
    if (make(&name.as_uchar) != 0)
        return;
    release(name.as_char);
}

void ok_stored_directly(void) {
    union { unsigned char *bytes; char *text; } name;
    name.bytes = malloc(4);
    release(name.text);
}

void bad_other_union(void) {
    union { unsigned char *bytes; char *text; } a, b;
    a.bytes = malloc(4);   // expect: memory.leak
    b.bytes = 0;
    release(b.text);
}
