/* The allocator of allocator_shapes.c in a file of its own. */
#include <stdlib.h>
#include <string.h>
char *make_string(char *data) {
    data = (char *)malloc(64);
    if (data == NULL)
        exit(1);
    strcpy(data, "text");
    return data;
}
// expect-summary: make_string: leak: allocator (returns new memory or null); escapees: none
