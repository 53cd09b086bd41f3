// A callee that writes more objects than a summary lists (a hash's final step storing its
// output byte by byte) says which arrays it writes inside (NOTE [whole-arrays]); its caller
// keeps what it knows of the rest: the key block beside the buffer is still the one it frees.
#include <stdlib.h>

struct hash_ctx { unsigned char buf[80]; unsigned char *key; };

#define W(i) out[i] = (unsigned char)(c->buf[i] ^ (i));
#define W10(b) W(b + 0) W(b + 1) W(b + 2) W(b + 3) W(b + 4) W(b + 5) W(b + 6) W(b + 7) \
    W(b + 8) W(b + 9)

void hash_finish(struct hash_ctx *c, unsigned char *out) {
    W10(0) W10(10) W10(20) W10(30) W10(40) W10(50) W10(60)
    c->buf[0] = 0;
}

/* Reads the key pointer before the finish, so it met it: without the arrays named, the finish
 * changed it too, and its caller's block was lost there. */
int hash_run(struct hash_ctx *c, unsigned char *out) {
    if (c->key == NULL)
        return -1;
    hash_finish(c, out);
    return 0;
}

int ok_keyed_hash(unsigned char *out) {
    struct hash_ctx c;
    c.key = malloc(32);
    if (!c.key)
        return -1;
    hash_run(&c, out);
    free(c.key);
    return 0;
}

int bad_keyed_hash(unsigned char *out, int fail) {
    struct hash_ctx c;
    c.key = malloc(32);   // expect: memory.leak
    if (!c.key)
        return -1;
    hash_run(&c, out);
    if (fail)
        return -2;
    free(c.key);
    return 0;
}
