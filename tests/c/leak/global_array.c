/* A block stored in a global array at a variable index (drivers/tty/vt's vc_cons[i].d), then
 * more allocation: malloc does not change the program's globals, so the block stays held. */
#include <stdlib.h>
struct vc { char *buf; };
struct cons { struct vc *d; int x; } vc_cons[63];

int ok_alloc_vc(int i) {
    struct vc *v = calloc(1, sizeof *v);
    if (!v)
        return -12;
    vc_cons[i].d = v;
    v->buf = malloc(10);
    if (!v->buf)
        return -12;
    return 0;
}

int bad_alloc_vc(int i) {
    struct vc *v = calloc(1, sizeof *v);       // expect: memory.leak
    if (!v)
        return -12;
    v->buf = malloc(10);
    if (!v->buf)
        return -12;
    vc_cons[i].d = v;
    return 0;
}
