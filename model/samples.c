/* samples.c: a column of positive integer samples from a CSV file (see
 * samples.h). One pass with the shared streaming CSV reader, so the checks
 * on quoting, line ends and NUL bytes are the trace format's. */
#include "model/samples.h"

#include "model/csv.h"

#include <stdlib.h>
#include <string.h>

static int read_rows(csv_reader_t *r, const char *path, const char *column, long col,
                     long **out, long *n, mls_err_t *err)
{
    long cap = 0;
    int got;
    while ((got = csv_next(r)) > 0) {
        long v;
        if ((size_t)col >= r->n_fields || mls_parse_long(r->fields[col], &v) < 0 || v < 1)
            return mls_fail(err, "%s:%ld: field '%s': want an integer >= 1", path,
                            r->line_no, column);
        if (*n == cap) {
            cap = cap ? 2 * cap : 1024;
            *out = xrealloc(*out, (size_t)cap * sizeof **out);
        }
        (*out)[(*n)++] = v;
    }
    if (got < 0)
        return csv_fail(r, path, err);
    if (*n == 0)
        return mls_fail(err, "%s: no rows under the header", path);
    return 0;
}

int samples_read(const char *path, const char *column, long **out, long *n, mls_err_t *err)
{
    *out = NULL;
    *n = 0;
    FILE *fp = fopen(path, "r");
    if (!fp)
        return mls_fail(err, "%s: cannot open it", path);
    csv_reader_t r;
    csv_open(&r, fp, ',');
    int got = csv_next(&r), rc = -1;
    long col;
    if (got < 0)
        csv_fail(&r, path, err);
    else if (got == 0 || (col = csv_column(&r, column)) < 0)
        mls_fail(err, "%s:1: want a header with a '%s' column", path, column);
    else
        rc = read_rows(&r, path, column, col, out, n, err);
    csv_close(&r);
    fclose(fp);
    if (rc < 0) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return rc;
}
