/* batch.c: the batch control file (see batch.h): strict line-by-line parse
 * over a bounded buffer, atomic write. */
#include "live/batch.h"
#include "live/ctlfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH_MAGIC "mlsched-batch 1"

enum { K_BATCH, K_ACCUM, K_SINCE, K_N };
static const char *const keys[K_N] = {"batch", "accum", "since"};

/* One "key value" line (NUL-terminated, trailing space cut). */
typedef struct batch_parse {
    const char *path;
    live_batch_t *out;
    int seen[K_N];
} batch_parse_t;

static int parse_line(char *line, int ln, void *arg, mls_err_t *err)
{
    batch_parse_t *bp = arg;
    const char *path = bp->path;
    live_batch_t *out = bp->out;
    int *seen = bp->seen;
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
    batch_parse_t bp = {path, out, {0}};
    if (ctl_parse(text, len, LIVE_BATCH_MAX_FILE, path, BATCH_MAGIC, "batch", parse_line, &bp,
                  err) < 0)
        return -1;
    for (int k = 0; k < K_N; k++)
        if (!bp.seen[k])
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
    char *text;
    size_t len;
    int rc = ctl_read(path, LIVE_BATCH_MAX_FILE, &text, &len, err);
    if (rc == 0)
        rc = live_batch_parse(text, len, path, out, err);
    free(text);
    return rc;
}
