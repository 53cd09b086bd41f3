/* A setter that copies its data into a field only when there is some (mbedtls's
 * psa_set_key_domain_parameters, called with NULL, 0 to clear): called with no data, it leaves
 * nothing to free; called with data, the caller owns the copy. */
#include <stdlib.h>
#include <string.h>

struct attrs { int type; unsigned char *params; size_t size; };

static int set_params(struct attrs *a, int type, const unsigned char *data, size_t len) {
    unsigned char *copy = NULL;
    if (len != 0) {
        copy = malloc(len);
        if (copy == NULL)
            return -1;
        memcpy(copy, data, len);
    }
    free(a->params);
    a->params = copy;
    a->size = len;
    a->type = type;
    return 0;
}
// expect-summary: set_params: leak: not an allocator; new memory in (*param0).params if ret==0 and param3!=0

int ok_clear_type(int type) {
    struct attrs a = { 0, NULL, 0 };
    set_params(&a, type, NULL, 0);
    return a.type;
}

int bad_keep_params(int type, const unsigned char *data, size_t n) {
    struct attrs a = { 0, NULL, 0 };
    if (set_params(&a, type, data, n) != 0)   // expect: memory.leak
        return -1;
    return a.type;
}
