/* import_prod.h: what the production-trace CSV readers share (internal to
 * traces/). A reader describes each CSV layout it knows by its header
 * columns; prod_read_csv() streams the file, picks the layout whose required
 * columns the header has, maps the columns once, and hands every row to the
 * layout's parser with errors as FILE:LINE: field. */
#ifndef MLS_IMPORT_PROD_H
#define MLS_IMPORT_PROD_H

#include "model/csv.h"
#include "traces/records.h"

enum { PROD_MAX_COLS = 24 };

typedef struct prod_ctx prod_ctx_t;

typedef struct prod_layout {
    const char *name;
    /* column names; a leading '?' marks an optional one (index -1 when absent) */
    const char *cols[PROD_MAX_COLS];
    int clock_epoch; /* its times are dates */
    /* Parses one row into *rec (blank on entry); -1 with err set for a bad row. */
    int (*row)(prod_ctx_t *c, const csv_reader_t *r, import_record_t *rec, mls_err_t *err);
} prod_layout_t;

struct prod_ctx {
    import_records_t *rs;
    const char *path;
    const prod_layout_t *layout;
    int col[PROD_MAX_COLS]; /* header index of layout->cols[i], -1 when absent */
    double clock;           /* running submit time for interval-based layouts */
};

/* Reads a CSV whose header selects one of `layouts`. `format` names the
 * format in messages. */
int prod_read_csv(import_records_t *rs, const char *path, const prod_layout_t *const *layouts,
                  int n_layouts, const char *format, unsigned flags, long *skipped,
                  mls_err_t *err);

/* Field i of the layout (its text; "" when the column is absent). */
const char *prod_field(const prod_ctx_t *c, const csv_reader_t *r, int i);
/* Number in field i: finite, >= lo. */
int prod_num(const prod_ctx_t *c, const csv_reader_t *r, int i, double lo, double *out,
             mls_err_t *err);
/* A date-time in field i (rec_parse_time). */
int prod_time(const prod_ctx_t *c, const csv_reader_t *r, int i, double *out, mls_err_t *err);
int prod_fail(const prod_ctx_t *c, const csv_reader_t *r, int i, const char *why, mls_err_t *err);

/* The DIR-LAB layout (JSSPP'24 normalised Philly and Helios files). */
extern const prod_layout_t prod_dirlab;

#endif
