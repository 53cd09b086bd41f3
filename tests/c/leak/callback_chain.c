/* A block handed away two structs deep (sound/core/seq's create_port: the record goes into a
 * callback struct whose address goes into the port info) escapes, whether the function it goes
 * to is unknown (register_port) or has a summary that keeps its argument (client_ctl). */
#include <stdlib.h>
struct callback { void *private_data; void (*fn)(void *); };
struct port_info { int id; struct callback *kernel; };
int register_port(int client, struct port_info *info);
extern void *registry;
static int client_ctl(int cmd, void *arg) { registry = arg; return cmd; }
struct rec { int port; };

#define CREATE_PORT(name, hand_over)                  \
    struct rec *name(int client) {                    \
        struct rec *r = calloc(1, sizeof *r);         \
        struct callback cb = { 0 };                   \
        struct port_info info = { 0 };                \
        if (!r)                                       \
            return NULL;                              \
        cb.private_data = r;                          \
        info.kernel = &cb;                            \
        if (hand_over(client, &info) < 0) {           \
            free(r);                                  \
            return NULL;                              \
        }                                             \
        r->port = info.id;                            \
        return r;                                     \
    }

CREATE_PORT(create_port, register_port)
// expect-summary: create_port: leak: not an allocator
CREATE_PORT(create_kept_port, client_ctl)
// expect-summary: create_kept_port: leak: not an allocator

int ok_register(int client) {
    struct rec *r = create_port(client);
    return r ? 0 : -12;
}

int ok_register_kept(int client) {
    return create_kept_port(client) ? 0 : -12;
}
