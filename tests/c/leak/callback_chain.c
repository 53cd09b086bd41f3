/* A block handed to an unknown function two structs deep (sound/core/seq's create_port: the
 * record goes into a callback struct whose address goes into the port info): it escapes. */
#include <stdlib.h>
struct callback { void *private_data; void (*fn)(void *); };
struct port_info { int id; struct callback *kernel; };
int register_port(int client, struct port_info *info);

struct rec { int port; };

struct rec *create_port(int client) {
    struct rec *r = calloc(1, sizeof *r);
    struct callback cb = { 0 };
    struct port_info info = { 0 };
    if (!r)
        return NULL;
    cb.private_data = r;
    info.kernel = &cb;
    if (register_port(client, &info) < 0) {
        free(r);
        return NULL;
    }
    r->port = info.id;
    return r;
}
// expect-summary: create_port: leak: not an allocator

int ok_register(int client) {
    struct rec *r = create_port(client);
    return r ? 0 : -12;
}
