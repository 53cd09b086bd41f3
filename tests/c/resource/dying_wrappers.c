// A wrapper that dies when realloc fails, unless it was asked for no bytes, is never null for a
// size above 0, and a size made of string lengths is never 0: no string is as long as the
// address space, so `strlen(a) + 12 + strlen(b)` cannot wrap (nano's safe_tempfile, whose
// out-stream is opened exactly when it returns its name).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void die(const char *msg) __attribute__((noreturn));

void *nrealloc(void *ptr, size_t howmuch) {
    void *r = realloc(ptr, howmuch);
    if (r == NULL && howmuch != 0)
        die("out of memory");
    return r;
}

char *safe_tempfile(FILE **stream, char *dir, const char *extension) {
    char *name = nrealloc(dir, strlen(dir) + 12 + strlen(extension));
    int descriptor;
    strcat(name, "nano.XXXXXX");
    strcat(name, extension);
    descriptor = mkstemps(name, strlen(extension));
    *stream = (descriptor > 0) ? fdopen(descriptor, "r+b") : NULL;
    if (*stream == NULL) {
        if (descriptor > 0)
            close(descriptor);
        free(name);
        return NULL;
    }
    return name;
}

int ok_write_temp(char *dir, const char *text) {
    FILE *stream;
    char *name = safe_tempfile(&stream, dir, ".txt");
    if (name == NULL)
        return -1;
    fputs(text, stream);
    fclose(stream);
    unlink(name);
    free(name);
    return 0;
}

int bad_forgets_stream(char *dir, const char *text) {
    FILE *stream;
    char *name = safe_tempfile(&stream, dir, ".txt");   // expect: resource.leak
    if (name == NULL)
        return -1;
    if (fputs(text, stream) < 0) {
        free(name);
        return -1;
    }
    fclose(stream);
    free(name);
    return 0;
}
