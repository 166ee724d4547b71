/* import_rows.h: what the production-trace readers of pai2020, openb2023,
 * pollux/sia and tiresias share: a row loop over one CSV file, columns found
 * by header name, and field parsers whose errors name FILE:LINE: field.
 *
 * The loop calls a row function per record; a row function that fails makes
 * the whole read fail, unless IMPORT_SKIP_BAD is given, in which case the row
 * is counted in *skipped and the loop goes on. A bad header is never
 * skippable. Missing values ("", "NaN", "nan", "None") are read as NAN only
 * where a field allows them (ROWS_MISSING_OK). */
#ifndef MLS_IMPORT_ROWS_H
#define MLS_IMPORT_ROWS_H

#include "model/csv.h"
#include "model/util.h"

typedef struct rows_ctx {
    const char *path;
    const csv_reader_t *r;
    mls_err_t *err;
} rows_ctx_t;

typedef int (*rows_fn)(void *state, const rows_ctx_t *row);

/* Reads PATH (separator ','), handing the first record to `header` when it is
 * not NULL and every other record to `row`. Returns 0, or -1 with err. */
int rows_each(const char *path, rows_fn header, rows_fn row, void *state, unsigned flags,
              long *skipped, mls_err_t *err);

/* Finds each of `names` (n of them) in the header record; idx[i] = column or
 * -1. Names in `required` (a bit per name) must be present. */
int rows_columns(const rows_ctx_t *hdr, const char *const *names, int *idx, int n,
                 unsigned required);

enum {
    ROWS_MISSING_OK = 1, /* empty / NaN / None give NAN */
    ROWS_NONNEG = 2,     /* >= 0 */
    ROWS_POSITIVE = 4,   /* > 0 */
    ROWS_INTEGER = 8,    /* a whole number (1.0 is accepted: PAI writes counts as floats) */
};

/* The number in column col (named `name` in messages), checked per `opts`. */
int rows_num(const rows_ctx_t *row, int col, const char *name, unsigned opts, double *out);
/* The field must exist and not be empty. */
int rows_str(const rows_ctx_t *row, int col, const char *name, const char **out);
/* Exactly n fields. */
int rows_nfields(const rows_ctx_t *row, size_t n, const char *what);
int rows_is_missing(const char *s);

/* The perf-model GPU type (Gavel's names: k80, p100, v100, t4, ...) of an
 * Alibaba GPU model name (V100M32, MISC, ...), and its memory in GB (NAN
 * unknown); NULL for models the traces do not disclose (openb's G2, G3),
 * which the cluster emitter gives the reference GPU. */
const char *rows_gpu_model(const char *alibaba_name, double *mem_gb);

#endif
