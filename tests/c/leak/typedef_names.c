// A parameter named like a typedef (`int (*handler)(int)` beside `typedef int
// (handler)(int)`) is the parameter in the function's body: its file is analysed, and the
// call through it is a call of the parameter.
#include <stdlib.h>

typedef int (handler)(int);
static handler *saved;

int bad_dispatch(int (*handler)(int), int n) {
    char *buf = malloc(n);   // expect: memory.leak
    if (!buf)
        return -1;
    saved = handler;
    if (handler(n) < 0)
        return -1;
    free(buf);
    return 0;
}

int ok_dispatch(int (* const handler)(int), int n) {
    char *buf = malloc(n);
    if (!buf)
        return -1;
    int r = handler(n);
    free(buf);
    return r;
}
