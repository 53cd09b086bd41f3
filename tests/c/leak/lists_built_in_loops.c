/* A list built in a loop, then freed node by node (dnsmasq's option lists): freeing one node
 * leaves the others as they were, though which node a pointer names depends on how many times
 * the loop ran. Forgetting a node's fields when only another may have been freed lost the
 * names the later frees read. */
#include <stdlib.h>
#include <string.h>

struct node { char *name; struct node *next; };
struct node *kept;

int build_then_free_on_error(const char **names, unsigned n, int bad) {
    struct node *h = NULL, *li;
    for (unsigned i = 0; i < n; i++) {
        li = malloc(sizeof *li);
        if (!li)
            break;
        li->next = h;
        h = li;
        li->name = strdup(names[i]);
    }
    if (bad) {
        for (; h; h = li) {
            li = h->next;
            free(h->name);
            free(h);
        }
        return 0;
    }
    kept = h;
    return 1;
}

int build_then_drop_names(const char **names, unsigned n) {
    struct node *h = NULL, *li;
    for (unsigned i = 0; i < n; i++) {
        li = malloc(sizeof *li);
        if (!li)
            break;
        li->next = h;
        h = li;
        li->name = strdup(names[i]);            // expect: memory.leak
    }
    for (; h; h = li) {
        li = h->next;
        free(h);
    }
    return 0;
}
