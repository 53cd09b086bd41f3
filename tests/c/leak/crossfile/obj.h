#include <stdlib.h>
#include <string.h>
struct inner { char *buf; };
struct outer { struct inner *in; char *tag; };
struct outer *outer_new(const char *tag);
void outer_free(struct outer *o);
char *make_copy(const char *s);
