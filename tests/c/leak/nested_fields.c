// A constructor's result comes with blocks two fields down: ctx->env is new, and so is
// ctx->env->zones. A caller's error path that frees ctx->env and ctx but not the zones leaks
// them; one that frees every level does not; a back pointer from env to ctx is no new field.
#include <stdlib.h>

struct env { int *opts; int *zones; struct ctx *owner; };
struct ctx { struct env *env; int fd; };
int make_pipe(void);

struct ctx *ctx_new(void) {
    struct ctx *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->env = calloc(1, sizeof(*c->env));
    if (!c->env) {
        free(c);
        return NULL;
    }
    c->env->owner = c;
    c->env->opts = malloc(16);
    if (!c->env->opts) {
        free(c->env);
        free(c);
        return NULL;
    }
    c->env->zones = malloc(16);
    if (!c->env->zones) {
        free(c->env->opts);
        free(c->env);
        free(c);
        return NULL;
    }
    return c;
}

struct ctx *bad_ctx_open(void) {
    struct ctx *c = ctx_new();   // expect: memory.leak
    if (!c)
        return NULL;
    if (make_pipe() < 0) {
        free(c->env->opts);
        free(c->env);
        free(c);
        return NULL;
    }
    return c;
}

struct ctx *ok_ctx_open(void) {
    struct ctx *c = ctx_new();
    if (!c)
        return NULL;
    if (make_pipe() < 0) {
        free(c->env->zones);
        free(c->env->opts);
        free(c->env);
        free(c);
        return NULL;
    }
    return c;
}
