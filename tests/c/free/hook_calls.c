// A call through a pointer whose one target is known (a global hook set to free) is that call,
// in its place: the statements before it in its block still run (walking a list and freeing
// each node through the hook frees each node once).
#include <stdlib.h>

void (*hook_free)(void *ptr) = free;

struct cname { struct cname *next; char *alias; char *name; };

void ok_free_list(struct cname *head) {
    struct cname *current;
    while (head) {
        current = head;
        head = head->next;
        hook_free(current->alias);
        hook_free(current->name);
        hook_free(current);
    }
}

int bad_use_after_hook(struct cname *c) {
    struct cname *next = c->next;
    hook_free(c);
    return next != 0 && c->alias != 0;   // expect: memory.use-after-free
}
