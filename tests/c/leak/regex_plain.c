// regcomp and regfree without _GNU_SOURCE, where regex_t's member is spelled `__buffer`: the
// spec names both spellings (checkers/library/libc.toml).
#include <regex.h>
#include <stddef.h>

int bad_match(const char *pattern, const char *text, int strict) {
    regex_t re;
    if (regcomp(&re, pattern, 0) != 0)   // expect: memory.leak
        return -1;
    if (strict && regexec(&re, "", 0, NULL, 0) == 0)
        return -2;
    regfree(&re);
    return regexec(&re, text, 0, NULL, 0);
}

int ok_match(const char *pattern, const char *text) {
    regex_t re;
    int r;
    if (regcomp(&re, pattern, 0) != 0)
        return -1;
    r = regexec(&re, text, 0, NULL, 0);
    regfree(&re);
    return r;
}
