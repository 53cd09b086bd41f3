#include <assert.h>

void ok_loop_within_bound(void) {
    int i, s = 0;
    for (i = 0; i < 2; i++) s += i;
    assert(s == 1);
}

void bad_loop_within_bound(void) {
    int i, s = 0;
    for (i = 0; i < 2; i++) s += 2;
    assert(s == 3);   // expect: assert.violation
}

/* Beyond the unroll bound, the havoc pass still reaches the code after the loop. */
void bad_after_long_loop(void) {
    int i;
    for (i = 0; i < 100; i++) { }
    assert(i == 0);   // expect: assert.violation
}

void ok_loop_keeps_untouched(int n) {
    int i, k = 7;
    for (i = 0; i < n; i++) { }
    assert(k == 7);
}

void ok_while_break(int n) {
    int found = 0;
    while (1) {
        if (n > 3) { found = 1; break; }
        n++;
        if (n > 100) break;
    }
    (void)found;
}

void ok_do_while(void) {
    int i = 0;
    do { i++; } while (0);
    assert(i == 1);
}
