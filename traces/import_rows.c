/* import_rows.c: the row loop and field parsers of the production-trace
 * readers (see import_rows.h). */
#include "traces/import_rows.h"

#include "traces/import.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int rows_each(const char *path, rows_fn header, rows_fn row, void *state, unsigned flags,
              long *skipped, mls_err_t *err)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return mls_fail(err, "%s: cannot open: %s", path, strerror(errno));
    csv_reader_t r;
    csv_open(&r, fp, ',');
    rows_ctx_t ctx = {path, &r, err};
    int rc = 0, got, first = 1;
    while (rc == 0 && (got = csv_next(&r)) != 0) {
        if (got < 0) {
            rc = csv_fail(&r, path, err);
            break;
        }
        if (first && header) {
            first = 0;
            rc = header(state, &ctx);
            continue;
        }
        first = 0;
        if (row(state, &ctx) < 0)
            rc = import_bad_row(flags, skipped);
    }
    if (rc == 0 && first && header)
        rc = mls_fail(err, "%s: empty file (no header line)", path);
    csv_close(&r);
    fclose(fp);
    return rc;
}

int rows_columns(const rows_ctx_t *hdr, const char *const *names, int *idx, int n,
                 unsigned required)
{
    const csv_reader_t *r = hdr->r;
    for (int i = 0; i < n; i++) {
        idx[i] = -1;
        for (size_t c = 0; c < r->n_fields; c++)
            if (!strcmp(r->fields[c], names[i])) {
                idx[i] = (int)c;
                break;
            }
        if (idx[i] < 0 && (required >> i & 1))
            return mls_fail(hdr->err, "%s:%ld: header: no column '%s'", hdr->path, r->line_no,
                            names[i]);
    }
    return 0;
}

int rows_is_missing(const char *s)
{
    return !*s || !strcmp(s, "NaN") || !strcmp(s, "nan") || !strcmp(s, "NAN") || !strcmp(s, "None");
}

int rows_num(const rows_ctx_t *row, int col, const char *name, unsigned opts, double *out)
{
    const csv_reader_t *r = row->r;
    if (col < 0 || (size_t)col >= r->n_fields)
        return mls_fail(row->err, "%s:%ld: field '%s': missing (%zu fields)", row->path, r->line_no,
                        name, r->n_fields);
    const char *s = r->fields[col];
    if (rows_is_missing(s)) {
        if (opts & ROWS_MISSING_OK) {
            *out = NAN;
            return 0;
        }
        if (!*s)
            return mls_fail(row->err, "%s:%ld: field '%s': empty", row->path, r->line_no, name);
        return mls_fail(row->err, "%s:%ld: field '%s': '%s' marks a missing value, and it is "
                                  "required",
                        row->path, r->line_no, name, s);
    }
    double v;
    if (mls_parse_double(s, &v) < 0)
        return mls_fail(row->err, "%s:%ld: field '%s': '%s' %s", row->path, r->line_no, name, s,
                        mls_number_why(s));
    if ((opts & ROWS_NONNEG) && v < 0)
        return mls_fail(row->err, "%s:%ld: field '%s': %g is negative", row->path, r->line_no, name,
                        v);
    if ((opts & ROWS_POSITIVE) && !(v > 0))
        return mls_fail(row->err, "%s:%ld: field '%s': %g, must be > 0", row->path, r->line_no,
                        name, v);
    if ((opts & ROWS_INTEGER) && (v != floor(v) || fabs(v) > 1e9))
        return mls_fail(row->err, "%s:%ld: field '%s': %g is not a whole number", row->path,
                        r->line_no, name, v);
    *out = v;
    return 0;
}

int rows_str(const rows_ctx_t *row, int col, const char *name, const char **out)
{
    const csv_reader_t *r = row->r;
    if (col < 0 || (size_t)col >= r->n_fields)
        return mls_fail(row->err, "%s:%ld: field '%s': missing (%zu fields)", row->path, r->line_no,
                        name, r->n_fields);
    if (!*r->fields[col])
        return mls_fail(row->err, "%s:%ld: field '%s': empty", row->path, r->line_no, name);
    *out = r->fields[col];
    return 0;
}

int rows_nfields(const rows_ctx_t *row, size_t n, const char *what)
{
    if (row->r->n_fields != n)
        return mls_fail(row->err, "%s:%ld: %zu fields; %s has %zu", row->path, row->r->line_no,
                        row->r->n_fields, what, n);
    return 0;
}

const char *rows_gpu_model(const char *alibaba_name, double *mem_gb)
{
    /* PAI 2020 (NSDI'22 Table 1) and openb 2023 (ATC'23) GPU names. MISC is
     * PAI's bucket of older GPUs (K40m, K80, M60...): k80 stands for it. */
    static const struct {
        const char *name, *type;
        double mem_gb;
    } models[] = {{"V100", "v100", 16}, {"V100M16", "v100", 16}, {"V100M32", "v100", 32},
                  {"P100", "p100", 16}, {"T4", "t4", 16},        {"A10", "a10", 24},
                  {"MISC", "k80", NAN}};
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (!strcmp(models[i].name, alibaba_name)) {
            *mem_gb = models[i].mem_gb;
            return models[i].type;
        }
    *mem_gb = NAN;
    return NULL;
}
