#include <stdlib.h>
char *make_string(char *data);
void bad_elsewhere(void) {
    char *data = NULL;
    data = make_string(data);            // expect: memory.leak
    data[0] = 'x';
}
void ok_elsewhere(void) {
    char *data = make_string(NULL);
    free(data);
}
