/* Where the analysis loses track of a pointer, the block it held is not leaked (NOTE
 * [forgotten-values]); where the program overwrites it, it is. Shapes of drivers/staging. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct desc { void *info; int len; };
struct ring { struct desc *descs; int n; };

/* A loop of more iterations than the unrolling, storing a block in each element. */
int ok_init_ring(struct ring *r) {
    int i;
    for (i = 0; i < r->n; i++) {
        r->descs[i].info = calloc(1, 32);
        if (!r->descs[i].info)
            return -12;
    }
    return 0;
}

/* A function we know nothing of may keep what a global points to. */
static char *table;
void load_firmware_parts(void);
int ok_global_then_unknown(void) {
    table = malloc(64);
    if (!table)
        return -12;
    load_firmware_parts();
    return 0;
}

/* A library write into one member changes that member only. */
struct fb_info { char id[16]; char *screen; };
int ok_write_member(struct fb_info *info, int n) {
    info->screen = malloc(4096);
    if (!info->screen)
        return -12;
    snprintf(info->id, sizeof info->id, "fb%d", n);
    return 0;
}
int bad_overwrite_member(struct fb_info *info) {
    info->screen = malloc(4096);              // expect: memory.leak
    if (!info->screen)
        return -12;
    memset(info, 0, sizeof *info);
    return 0;
}

/* A private area after the device struct, reached through a helper: never "nowhere". */
struct net_device { int flags; };
struct priv { char *challenge; };
static inline void *netdev_priv(struct net_device *dev) { return (char *)dev + 64; }
void ok_private_area(struct net_device *dev) {
    struct priv *p = netdev_priv(dev);
    p->challenge = malloc(128);
}

/* Handed out only when it returns 0: a caller that gets an error has nothing to free. */
int stage_create(char **out) {
    char *s = malloc(16);
    if (!s)
        return -12;
    *out = s;
    return 0;
}
int ok_stage_user(char **list) {
    char *stage = NULL;
    int err = stage_create(&stage);
    if (err)
        return err;
    list[0] = stage;
    return 0;
}

/* An empty body in a header that takes a pointer stands in for what another configuration
 * does: the block is handed over. (An empty function of the file itself does nothing.) */
#include "octeon_stubs.h"
void ok_fill_pool(int n) {
    int i;
    for (i = 0; i < n; i++) {
        char *buf = malloc(256);
        if (!buf)
            break;
        fpa_free(buf, 0);
    }
}
