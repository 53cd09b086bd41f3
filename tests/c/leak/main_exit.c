// NOTE [main-exit]: main's return ends the process; what its variables still hold then is
// taken back by the system. What it lost before, while running, is a leak.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    char *settings = malloc(64);            // held until the end: no leak
    FILE *log = fopen("run.log", "w");      // closed by the exit
    char *name = strdup(argv[0]);           // expect: memory.leak
    name = strdup("default");               // the first copy is lost here
    for (int i = 1; i < argc; i++) {
        char *arg = malloc(16);             // expect: memory.leak
        if (arg != NULL)
            arg[0] = argv[i][0];            // each iteration's block is dropped by the next
    }
    return settings != NULL && log != NULL && name != NULL;
}
