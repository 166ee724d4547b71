/* batch.c: the batch control file (see batch.h): strict line-by-line parse
 * over a bounded buffer, atomic write. */
#include "batch.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define BATCH_MAGIC "mlsched-batch 1"

enum { K_BATCH, K_ACCUM, K_SINCE, K_N };
static const char *const keys[K_N] = {"batch", "accum", "since"};

/* One "key value" line (NUL-terminated, trailing space cut). */
static int parse_line(char *line, const char *path, int ln, live_batch_t *out, int *seen,
                      mls_err_t *err)
{
    char *sp = strchr(line, ' ');
    const char *val = sp ? sp + 1 : "";
    if (sp)
        *sp = '\0';
    int k = 0;
    while (k < K_N && strcmp(line, keys[k]))
        k++;
    if (k == K_N)
        return mls_fail(err, "%s:%d: '%s': unknown key (batch, accum, since)", path, ln, line);
    if (seen[k])
        return mls_fail(err, "%s:%d: %s: given twice", path, ln, keys[k]);
    seen[k] = 1;
    long v;
    double t;
    if (k == K_SINCE) {
        if (mls_parse_double(val, &t) < 0 || !isfinite(t) || t < 0)
            return mls_fail(err, "%s:%d: since: '%s' is not a wall-clock time", path, ln, val);
        out->since = t;
        return 0;
    }
    if (mls_parse_long(val, &v) < 0 || v < (k == K_ACCUM ? -1 : 0) || v > 1 << 30)
        return mls_fail(err, "%s:%d: %s: '%s' is not %s", path, ln, keys[k], val,
                        k == K_ACCUM ? "a step count >= -1" : "a batch size >= 0");
    if (k == K_BATCH)
        out->batch = (int)v;
    else
        out->accum = (int)v;
    return 0;
}

int live_batch_parse(const char *text, size_t len, const char *path, live_batch_t *out,
                     mls_err_t *err)
{
    *out = (live_batch_t){0, -1, NAN};
    if (len == 0 || len > LIVE_BATCH_MAX_FILE || memchr(text, '\0', len))
        return mls_fail(err, "%s: empty, over %d bytes or binary: not a batch file", path,
                        LIVE_BATCH_MAX_FILE);
    char buf[LIVE_BATCH_MAX_FILE + 1];
    memcpy(buf, text, len);
    buf[len] = '\0';
    int seen[K_N] = {0}, ln = 0, magic = 0;
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
        if (!magic) {
            if (strcmp(line, BATCH_MAGIC))
                return mls_fail(err, "%s:%d: the first line is not '%s'", path, ln, BATCH_MAGIC);
            magic = 1;
            continue;
        }
        if (n == 0 || line[0] == '#')
            continue;
        if (parse_line(line, path, ln, out, seen, err) < 0)
            return -1;
    }
    for (int k = 0; k < K_N; k++)
        if (!seen[k])
            return mls_fail(err, "%s: %s: missing", path, keys[k]);
    return 0;
}

int live_batch_write(const char *path, const live_batch_t *b, mls_err_t *err)
{
    mls_atomic_file_t af;
    if (mls_atomic_open(&af, path, err) < 0)
        return -1;
    fprintf(af.fp, "%s\nbatch %d\naccum %d\nsince %.6f\n", BATCH_MAGIC, b->batch, b->accum,
            b->since);
    return mls_atomic_commit(&af, err);
}

int live_batch_read(const char *path, live_batch_t *out, mls_err_t *err)
{
    *out = (live_batch_t){0, -1, NAN};
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 1;
        return mls_fail(err, "%s: cannot read: %s", path, strerror(errno));
    }
    char buf[LIVE_BATCH_MAX_FILE + 1];
    size_t n = fread(buf, 1, sizeof buf, f);
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return mls_fail(err, "%s: cannot read", path);
    return live_batch_parse(buf, n, path, out, err);
}
