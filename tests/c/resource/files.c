/* FILE * and DIR * within one function. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

int first_char(const char *path)
{
    FILE *f = fopen(path, "r");                // expect: resource.leak
    if (!f)
        return -1;
    return fgetc(f);
}

int ok_first_char(const char *path)
{
    int c;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    c = fgetc(f);
    fclose(f);
    return c;
}

int error_path(const char *path, char *buf)
{
    FILE *f = fopen(path, "r");                // expect: resource.leak
    if (f == NULL)
        return -1;
    if (!fgets(buf, 16, f))
        return -1;
    fclose(f);
    return 0;
}

int ok_error_path(const char *path, char *buf)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    if (!fgets(buf, 16, f)) {
        fclose(f);
        return -1;
    }
    fclose(f);
    return 0;
}

void ok_closed_if_opened(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f != NULL)
        fclose(f);
}

int count_entries(const char *path)
{
    int n = 0;
    DIR *d = opendir(path);                    // expect: resource.leak
    if (!d)
        return -1;
    while (readdir(d))
        n++;
    return n;
}

int ok_count_entries(const char *path)
{
    int n = 0;
    DIR *d = opendir(path);
    if (!d)
        return -1;
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

void ok_pipe_stream(void)
{
    FILE *p = popen("ls", "r");
    if (p)
        pclose(p);
}

void ok_tmpfile(void)
{
    FILE *t = tmpfile();
    if (!t)
        return;
    fputs("x", t);
    fclose(t);
}

void lost_on_reopen(const char *a, const char *b)
{
    FILE *f = fopen(a, "r");                   // expect: resource.leak
    f = fopen(b, "r");
    if (f)
        fclose(f);
}

FILE *ok_returned(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    setvbuf(f, NULL, _IOFBF, 4096);
    return f;
}

void ok_correlated(const char *path, int keep)
{
    FILE *f = NULL;
    if (keep)
        f = fopen(path, "r");
    if (keep && f)
        fclose(f);
}
