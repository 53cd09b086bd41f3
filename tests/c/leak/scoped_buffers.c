// A buffer on the stack freed by its cleanup attribute when it goes out of scope, the
// attribute written after the struct's name (`struct strbuf __attribute__((cleanup(f))) b`,
// a string-builder macro's form) as well as after the declarator.
#include <stdlib.h>
#include <string.h>

struct strbuf { char *buf; size_t size; size_t offs; };

void reset_strbuf(struct strbuf *b) {
    free(b->buf);
    b->buf = NULL;
    b->size = b->offs = 0;
}

int append(struct strbuf *b, const char *s) {
    size_t n = strlen(s);
    char *tmp = realloc(b->buf, b->offs + n + 1);
    if (!tmp)
        return -1;
    b->buf = tmp;
    memcpy(b->buf + b->offs, s, n + 1);
    b->offs += n;
    return (int)n;
}

int emit(const char *s);

#define STRBUF_ON_STACK(x) struct strbuf __attribute__((cleanup(reset_strbuf))) (x) = { 0 }

int ok_describe(int v) {
    STRBUF_ON_STACK(line);
    if (append(&line, v ? "on" : "off") < 0)
        return -1;
    if (v > 1 && append(&line, " (forced)") < 0)
        return -1;
    return emit(line.buf);
}

int ok_describe_after(int v) {
    struct strbuf line __attribute__((cleanup(reset_strbuf))) = { 0 };
    if (append(&line, v ? "on" : "off") < 0)
        return -1;
    return emit(line.buf);
}

int bad_describe(int v) {
    struct strbuf line = { 0 };
    append(&line, v ? "on" : "off");   // expect: memory.leak
    return (int)line.offs;
}
