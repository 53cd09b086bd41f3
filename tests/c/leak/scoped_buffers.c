// A buffer on the stack freed by its cleanup attribute when it goes out of scope, the
// attribute written after the struct's name (`struct strbuf __attribute__((cleanup(f))) b`,
// a string-builder macro's form) as well as after the declarator. A buffer whose string is
// stolen (the pointer returned, the field cleared) hands the block to the caller of the steal:
// the result is the field's old value, null exactly where the field was null.
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
    return 0;
}

int emit(const char *s);

char *steal_strbuf_str(struct strbuf *b) {
    char *p = b->buf;
    b->buf = NULL;
    b->size = b->offs = 0;
    return p;
}

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

int ok_assemble(int v, char **out) {
    STRBUF_ON_STACK(line);
    if (append(&line, v ? "on" : "off") < 0)
        return 1;
    *out = steal_strbuf_str(&line);
    return 0;
}

char *ok_stolen(const char *s) {
    struct strbuf line = { 0 };
    if (append(&line, s) < 0)
        return NULL;
    return steal_strbuf_str(&line);
}

size_t bad_stolen_dropped(const char *s) {
    struct strbuf line = { 0 };
    if (append(&line, s) < 0)   // expect: memory.leak
        return 0;
    return strlen(steal_strbuf_str(&line));
}
