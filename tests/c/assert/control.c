#include <assert.h>
void abort_now(void) __attribute__((noreturn));

int ok_merge(int c) {
    int x;
    if (c) x = 1; else x = 2;
    assert(x == 1 || x == 2);
    if (c) assert(x == 1);
    return x;
}

void bad_merge(int c) {
    int x = 0;
    if (c > 10) x = 5;
    assert(x == 5);   // expect: assert.violation
}

void ok_switch_fallthrough(int x) {
    int r = 0;
    switch (x) {
    case 1: r = 1;
    case 2: r += 2; break;
    case 3 ... 5: r = 10; break;
    default: r = 7;
    }
    if (x == 1) assert(r == 3);
    if (x == 2) assert(r == 2);
    if (x == 4) assert(r == 10);
}

void bad_switch_default(int x) {
    int r = 0;
    switch (x) { case 1: r = 1; break; default: r = 2; }
    assert(r == 1);   // expect: assert.violation
}

void ok_goto(int x) {
    int y = 0;
    if (x < 0) goto negative;
    y = 1;
    goto done;
negative:
    y = -1;
done:
    if (x < 0) assert(y == -1); else assert(y == 1);
}

void ok_short_circuit(int *p) {
    if (p && *p == 3) assert(*p == 3);
}

int ok_ternary(int a) {
    int m = a > 0 ? a : -a;
    if (a == -5) assert(m == 5);
    return m;
}

void ok_noreturn(int x) {
    if (x == 0) abort_now();
    assert(x != 0);
}

/* GNU statement expressions: the value is the last expression's, also when that expression is
 * itself a statement expression (the kernel's trylock macros nest three deep). */
void touch(void);
void ok_statement_expressions(int c) {
    int seven = ({ ({ touch(); 7; }); });
    int r = ({ ({ c ? ({ touch(); 1; }) : 0; }); });
    assert(seven == 7);
    if (c) assert(r == 1); else assert(r == 0);
    assert(r == 1);                              // expect: assert.violation
}
