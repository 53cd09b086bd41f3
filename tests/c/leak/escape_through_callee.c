/* The port info (a local) escapes into a function whose summary keeps it; the record its
 * callback struct points to escapes with it (sound/core/seq's create_port). */
#include <stdlib.h>
struct callback { void *private_data; };
struct port_info { int id; struct callback *kernel; };
extern void *registry;
static int client_ctl(int cmd, void *arg) { registry = arg; return cmd; }
struct rec { int port; };

struct rec *create_port(int client) {
    struct rec *r = calloc(1, sizeof *r);
    struct callback cb = { 0 };
    struct port_info info = { 0 };
    if (!r)
        return NULL;
    cb.private_data = r;
    info.kernel = &cb;
    if (client_ctl(client, &info) < 0) {
        free(r);
        return NULL;
    }
    return r;
}
// expect-summary: create_port: leak: not an allocator

int ok_register(int client) {
    return create_port(client) ? 0 : -12;
}
