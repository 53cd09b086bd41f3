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

/* The lock calls around the store change no memory, so the table keeps the block
 * (drivers/tty/vt/keyboard.c's key_maps[map] = new_map under kbd_event_lock). */
typedef struct { int raw; } spinlock_t;
void spin_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);
spinlock_t table_lock;
unsigned short *key_maps[256];

int ok_set_map(int map) {
    unsigned short *m = malloc(100);
    if (!m)
        return -12;
    spin_lock(&table_lock);
    if (!key_maps[map])
        key_maps[map] = m;
    else
        free(m);
    spin_unlock(&table_lock);
    return 0;
}

/* An unknown function after the store may change the table, and so may keep the block. */
int capable(int cap);

int ok_set_map_checked(int map) {
    unsigned short *m = malloc(100);
    if (!m)
        return -12;
    if (!key_maps[map])
        key_maps[map] = m;
    else
        free(m);
    return capable(21) ? 0 : -1;
}
