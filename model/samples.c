/* samples.c: a column of positive integer samples from a CSV file, or one
 * integer per job keyed by its id (see samples.h). One pass with the shared
 * streaming CSV reader, so the checks on quoting, line ends and NUL bytes
 * are the trace format's. */
#include "model/samples.h"

#include "model/csv.h"

#include <stdlib.h>
#include <string.h>

/* What one read collects: the values, and for a keyed read the ids and the
 * line each came from (for the repeated-id message). */
typedef struct rows {
    long *vals;
    int64_t *ids;
    long *lines;
    long n, cap;
} rows_t;

static void push(rows_t *o, int keyed, long v, long id, long line)
{
    if (o->n == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 1024;
        o->vals = xrealloc(o->vals, (size_t)o->cap * sizeof *o->vals);
        if (keyed) {
            o->ids = xrealloc(o->ids, (size_t)o->cap * sizeof *o->ids);
            o->lines = xrealloc(o->lines, (size_t)o->cap * sizeof *o->lines);
        }
    }
    o->vals[o->n] = v;
    if (keyed) {
        o->ids[o->n] = id;
        o->lines[o->n] = line;
    }
    o->n++;
}

/* id_col < 0: a plain column of values >= 1; else keyed, values of any sign. */
static int read_rows(csv_reader_t *r, const char *path, const char *id_column, long id_col,
                     const char *column, long col, rows_t *o, mls_err_t *err)
{
    int got;
    while ((got = csv_next(r)) > 0) {
        long v, id = 0;
        if (id_col >= 0 &&
            ((size_t)id_col >= r->n_fields || mls_parse_long(r->fields[id_col], &id) < 0))
            return mls_fail(err, "%s:%ld: field '%s': want a job id (an integer)", path, r->line_no,
                            id_column);
        if ((size_t)col >= r->n_fields || mls_parse_long(r->fields[col], &v) < 0 ||
            (id_col < 0 && v < 1))
            return mls_fail(err, "%s:%ld: field '%s': want an integer%s", path, r->line_no, column,
                            id_col < 0 ? " >= 1" : "");
        push(o, id_col >= 0, v, id, r->line_no);
    }
    if (got < 0)
        return csv_fail(r, path, err);
    if (o->n == 0)
        return mls_fail(err, "%s: no rows under the header", path);
    return 0;
}

/* Sorts idx by (id, position): a stable merge sort (qsort is neither stable
 * nor given the ids). */
static void sort_by_id(long *idx, long *tmp, long n, const int64_t *ids)
{
    if (n < 2)
        return;
    long h = n / 2;
    sort_by_id(idx, tmp, h, ids);
    sort_by_id(idx + h, tmp, n - h, ids);
    long i = 0, j = h, k = 0;
    while (i < h || j < n)
        tmp[k++] = j >= n || (i < h && ids[idx[i]] <= ids[idx[j]]) ? idx[i++] : idx[j++];
    memcpy(idx, tmp, (size_t)n * sizeof *idx);
}

/* Each id once: a repeated one names both lines. */
static int check_unique(const char *path, const char *id_column, const rows_t *o, mls_err_t *err)
{
    long *idx = xmalloc((size_t)o->n * sizeof *idx), *tmp = xmalloc((size_t)o->n * sizeof *tmp);
    for (long i = 0; i < o->n; i++)
        idx[i] = i;
    sort_by_id(idx, tmp, o->n, o->ids);
    int rc = 0;
    for (long i = 1; i < o->n && rc == 0; i++)
        if (o->ids[idx[i]] == o->ids[idx[i - 1]])
            rc = mls_fail(err, "%s:%ld: field '%s': job %lld is already on line %ld", path,
                          o->lines[idx[i]], id_column, (long long)o->ids[idx[i]],
                          o->lines[idx[i - 1]]);
    free(idx);
    free(tmp);
    return rc;
}

static int read_file(const char *path, const char *id_column, const char *column, rows_t *o,
                     mls_err_t *err)
{
    memset(o, 0, sizeof *o);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return mls_fail(err, "%s: cannot open it", path);
    csv_reader_t r;
    csv_open(&r, fp, ',');
    int got = csv_next(&r), rc = -1;
    long col, id_col = -1;
    if (got < 0)
        csv_fail(&r, path, err);
    else if (got == 0 || (col = csv_column(&r, column)) < 0 ||
             (id_column && (id_col = csv_column(&r, id_column)) < 0))
        mls_fail(err, "%s:1: want a header with %s%s%s'%s' column%s", path, id_column ? "'" : "",
                 id_column ? id_column : "", id_column ? "' and " : "a ", column,
                 id_column ? "s" : "");
    else
        rc = read_rows(&r, path, id_column, id_col, column, col, o, err);
    csv_close(&r);
    fclose(fp);
    if (rc == 0 && id_column)
        rc = check_unique(path, id_column, o, err);
    free(o->lines);
    o->lines = NULL;
    if (rc < 0) {
        free(o->vals);
        free(o->ids);
        memset(o, 0, sizeof *o);
    }
    return rc;
}

int samples_read(const char *path, const char *column, long **out, long *n, mls_err_t *err)
{
    rows_t o;
    int rc = read_file(path, NULL, column, &o, err);
    *out = o.vals;
    *n = o.n;
    return rc;
}

int samples_read_keyed(const char *path, const char *id_column, const char *column, int64_t **ids,
                       long **out, long *n, mls_err_t *err)
{
    rows_t o;
    int rc = read_file(path, id_column, column, &o, err);
    *ids = o.ids;
    *out = o.vals;
    *n = o.n;
    return rc;
}
