// A callee that frees what a global holds and clears the global (a module's fini) says so in
// its summary ("escapees: *list"): its caller that stored a new block there loses nothing.
// A callee that only clears the global still loses the caller's block.
#include <stdlib.h>

static char **list;
static char *buf;
static int cnt;

void list_fini(void) {
    for (int i = 0; i < cnt; i++)
        free(list[i]);
    free(list);
    cnt = 0;
    list = NULL;
}

int ok_list_init(int n) {
    list = calloc(n, sizeof *list);
    cnt = n;
    for (int i = 0; i < n; i++) {
        if ((list[i] = malloc(10)) == NULL) {
            list_fini();
            return -1;
        }
    }
    return 0;
}

static void buf_forget(void) {
    buf = NULL;
}

static void buf_release(void) {
    free(buf);
    buf = NULL;
}

int bad_buf_init(int n) {
    buf = malloc(n);   // expect: memory.leak
    if (!buf)
        return -1;
    if (n > 4096) {
        buf_forget();
        return -1;
    }
    return 0;
}

int ok_buf_init(int n) {
    buf = malloc(n);
    if (!buf)
        return -1;
    if (n > 4096) {
        buf_release();
        return -1;
    }
    return 0;
}
