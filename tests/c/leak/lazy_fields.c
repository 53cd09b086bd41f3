/* A handler that fills a field of the configuration only where it is still null
 * (`if (!conf->overrides) conf->overrides = alloc();`), called once per line of a file: the
 * second call keeps the block the first one made, so nothing is lost. */
#include <stdlib.h>

struct entry { int id; };
struct config { struct entry *overrides; int lines; };

static int overrides_handler(struct config *conf) {
    if (!conf->overrides)
        conf->overrides = calloc(1, sizeof(struct entry));
    if (!conf->overrides)
        return 1;
    return 0;
}
// expect-summary: overrides_handler: leak: not an allocator; new memory in (*param0).overrides if ret==0 and it was null, else as it was

int read_line(char *buf);

int ok_process(struct config *conf, char *buf) {
    int r = 0;
    while (read_line(buf)) {
        conf->lines++;
        if (buf[0] == 'o')
            r += overrides_handler(conf);
    }
    return r;
}

int bad_local(char *buf) {
    struct config conf = { 0 };
    int r = overrides_handler(&conf);          // expect: memory.leak
    if (buf[0])
        r += overrides_handler(&conf);         // expect: memory.leak
    return r;
}
