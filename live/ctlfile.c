/* ctlfile.c: bounded reading and line splitting of the live control files
 * (see ctlfile.h). */
#include "live/ctlfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_lines(char *buf, const char *path, const char *magic, ctl_line_fn fn,
                       void *arg, mls_err_t *err)
{
    int ln = 0, have_magic = 0;
    char *next = NULL;
    for (char *line = buf; line; line = next) {
        char *nl = strchr(line, '\n');
        next = nl ? nl + 1 : NULL;
        if (nl)
            *nl = '\0';
        ln++;
        size_t n = strlen(line);
        while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (!have_magic) {
            if (strcmp(line, magic))
                return mls_fail(err, "%s:%d: the first line is not '%s'", path, ln, magic);
            have_magic = 1;
            continue;
        }
        if (n == 0 || line[0] == '#')
            continue;
        if (fn(line, ln, arg, err) < 0)
            return -1;
    }
    return 0;
}

int ctl_parse(const char *text, size_t len, size_t max, const char *path, const char *magic,
              const char *what, ctl_line_fn fn, void *arg, mls_err_t *err)
{
    if (len > max)
        return mls_fail(err, "%s: more than %zu bytes: not a %s file", path, max, what);
    if (len == 0)
        return mls_fail(err, "%s: empty: not a %s file", path, what);
    if (memchr(text, '\0', len))
        return mls_fail(err, "%s: holds a NUL byte: not a %s file", path, what);
    char *buf = xmalloc(len + 1);
    memcpy(buf, text, len);
    buf[len] = '\0';
    int rc = parse_lines(buf, path, magic, fn, arg, err);
    free(buf);
    return rc;
}

int ctl_read(const char *path, size_t max, char **text, size_t *len, mls_err_t *err)
{
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 1;
        return mls_fail(err, "%s: cannot read: %s", path, strerror(errno));
    }
    char *buf = xmalloc(max + 1);
    size_t n = fread(buf, 1, max + 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return mls_fail(err, "%s: cannot read", path);
    }
    *text = buf;
    *len = n;
    return 0;
}
