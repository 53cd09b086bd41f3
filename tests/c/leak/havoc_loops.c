/* Loops whose bound the unrolled iterations do not reach are havocked (§2.6.6): what the
   unrolled iterations freed or stored stays escaped (NOTE [descriptors]'s on_forget, and
   #escaped kept through the havoc). */
#include <stdlib.h>

void ok_alloc_free_each_time(void)
{
    int i;
    for (i = 0; i < 10; i++) {
        char *p = malloc(4);
        free(p);
    }
}

void ok_array_filled_then_freed(void)
{
    char *a[8];
    int i;
    for (i = 0; i < 8; i++)
        a[i] = malloc(4);
    for (i = 0; i < 8; i++)
        free(a[i]);
}

void leak_each_time(void)
{
    int i;
    for (i = 0; i < 10; i++) {
        char *p = malloc(4);                   // expect: memory.leak
        if (!p)
            return;
        p[0] = 0;
    }
}
