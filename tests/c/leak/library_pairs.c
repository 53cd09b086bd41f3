// The C library's pairs beyond malloc and free (checkers/library/libc.toml): what each makes
// is lost on the paths marked, and freed by its own release on the others.
#define _GNU_SOURCE
#include <glob.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netdb.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int bad_addrinfo(const char *host, int strict) {
    struct addrinfo *res;
    if (getaddrinfo(host, "80", NULL, &res) != 0)   // expect: memory.leak
        return -1;
    if (strict && res->ai_next != NULL)
        return -2;
    freeaddrinfo(res);
    return 0;
}

int ok_addrinfo(const char *host) {
    struct addrinfo *res;
    if (getaddrinfo(host, "80", NULL, &res) != 0)
        return -1;
    int family = res->ai_family;
    freeaddrinfo(res);
    return family;
}

int bad_ifaddrs(void) {
    struct ifaddrs *all;
    if (getifaddrs(&all) != 0)   // expect: memory.leak
        return -1;
    return all != NULL;
}

size_t bad_realpath(const char *path) {
    char *full = realpath(path, NULL);   // expect: memory.leak
    return full ? strlen(full) : 0;
}

size_t ok_realpath_buffer(const char *path) {
    char buf[PATH_MAX];
    char *full = realpath(path, buf);
    return full ? strlen(full) : 0;
}

size_t ok_realpath_freed(const char *path) {
    char *full = realpath(path, NULL);
    size_t n = full ? strlen(full) : 0;
    free(full);
    return n;
}

size_t bad_glob(const char *pattern) {
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0)   // expect: memory.leak
        return 0;
    return g.gl_pathc;
}

size_t ok_glob(const char *pattern) {
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0)
        return 0;
    size_t n = g.gl_pathc;
    globfree(&g);
    return n;
}

int bad_regex(const char *pattern, const char *text) {
    regex_t re;
    if (regcomp(&re, pattern, REG_EXTENDED) != 0)   // expect: memory.leak
        return -1;
    return regexec(&re, text, 0, NULL, 0) == 0;
}

int ok_regex(const char *pattern, const char *text) {
    regex_t re;
    int found;
    if (regcomp(&re, pattern, REG_EXTENDED) != 0)
        return -1;
    found = regexec(&re, text, 0, NULL, 0) == 0;
    regfree(&re);
    return found;
}

char *ok_strndup_returned(const char *s) {
    return strndup(s, 8);
}

int bad_strndup(const char *s) {
    char *copy = strndup(s, 8);   // expect: memory.leak
    return copy != NULL && copy[0] == 'x';
}
