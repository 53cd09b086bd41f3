/* NOTE [constant-offsets]: the bytes at different constant offsets past a pointer the function
 * is given are different bytes. A DNS-style parser reads a count from two of them; when they
 * were one object, `count == 1` could never hold and the leak after it was on a dead path
 * (c-ares's ares_parse_*_reply, whose every path then returned "bad response"). The leak is
 * where the caller asked for no tidying up. The same holds past a cursor at an offset the
 * function does not know (`aptr = buf + skip(buf)`): the record's type is two bytes of it. */
#include <stdlib.h>
#include <string.h>

#define COUNT16(p) ((unsigned short)((((unsigned int)(p)[0]) << 8) | ((unsigned int)(p)[1])))

int parse_record(const unsigned char *buf, int len, char **out, int tidy)
{
    int count;
    char *name;
    if (len < 8)
        return -1;
    count = COUNT16(buf + 4);
    if (count != 1)
        return -1;
    name = malloc(16);                             // expect: memory.leak
    if (name == NULL)
        return -1;
    if (buf[6] == 0) {
        if (tidy)
            free(name);
        return -2;
    }
    memcpy(name, buf + 7, 1);
    *out = name;
    return 0;
}

int skip_name(const unsigned char *p);

int parse_answer(const unsigned char *buf, int len, char **out, int tidy)
{
    const unsigned char *aptr = buf + 12;
    char *copy;
    if (len < 32)
        return -1;
    aptr += skip_name(aptr);
    if (COUNT16(aptr) != 5 || COUNT16(aptr + 2) != 1)   /* a CNAME of class IN */
        return -1;
    copy = malloc(16);                             // expect: memory.leak
    if (copy == NULL)
        return -1;
    if (aptr[4] == 0) {
        if (tidy)
            free(copy);
        return -2;
    }
    memcpy(copy, aptr + 5, 1);
    *out = copy;
    return 0;
}

int parse_indexed(const unsigned char *buf, int at, char **out, int tidy)
{
    char *copy;
    if (at < 0 || at > 64)
        return -1;
    if (COUNT16(buf + at) != 5 || buf[at + 2] != 1)
        return -1;
    copy = malloc(16);                             // expect: memory.leak
    if (copy == NULL)
        return -1;
    if (buf[at + 3] == 0) {
        if (tidy)
            free(copy);
        return -2;
    }
    *out = copy;
    return 0;
}
