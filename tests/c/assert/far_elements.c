// saturn-xfail: a symbolic index reaches only elements below MAX_TRACKED_INDEX (NOTE [array-elements]); element 15000, written by a constant index, is not overwritten by big[i]
#include <assert.h>

void bad_symbolic_index_far_element(int i) {
    static int big[20000];
    big[15000] = 1;
    big[i] = 5;
    assert(big[15000] == 1);   // expect: assert.violation
}
