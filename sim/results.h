/* results.h: reading run summaries back from a results database.
 *
 * The one place that knows how to turn the `run_summary` view (sim/store.h)
 * into rows in memory, group them (the same policy over several seeds), take
 * means and 95% confidence intervals (Student t, GSL), relate each group to a
 * baseline policy, and print the comparison table that the Gavel and
 * Shockwave papers print (aligned text, markdown, CSV or JSON). Used by
 * `compare`, `sweep`, `report`, and by the plotting and regression commands.
 *
 * Metrics are indexed by result_metric_t so callers can loop over them; a
 * NULL in the database (a value that does not exist) is NAN in memory and is
 * left out of means. Filters are patterns (SQLite GLOB: * ? [...]) bound as
 * parameters: callers never write SQL. */
#ifndef MLS_RESULTS_H
#define MLS_RESULTS_H

#include "model/util.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum result_metric {
    RES_AVG_JCT,
    RES_P50_JCT,
    RES_P95_JCT,
    RES_P99_JCT,
    RES_MAKESPAN,
    RES_AVG_QUEUE,
    RES_UNFAIR,
    RES_WORST_FTF,
    RES_JAIN,
    RES_UTIL,
    RES_DECISION,
    RES_N_METRICS
} result_metric_t;

typedef enum { RES_KIND_TIME, RES_KIND_FRACTION, RES_KIND_NUMBER, RES_KIND_MS } result_kind_t;

typedef struct result_metric_info {
    const char *key;   /* column of run_summary, e.g. "avg_jct" */
    const char *title; /* table header, e.g. "avg JCT" */
    result_kind_t kind;
} result_metric_info_t;

const result_metric_info_t *results_metric(int m);
/* Index of the metric whose key is `key`, or -1. */
int results_metric_find(const char *key);

typedef struct result_row {
    int64_t run_id;
    char *policy, *params, *trace, *cluster, *label; /* "" where NULL */
    int oracle;
    int64_t seed;
    int jobs;
    double m[RES_N_METRICS]; /* NAN where NULL */
} result_row_t;

typedef struct result_set {
    result_row_t *rows; /* ordered by run_id */
    size_t n, cap;
} result_set_t;

typedef struct result_filter {
    const char *policy, *trace, *cluster, *label; /* GLOB patterns; NULL = any */
    int64_t run_lo, run_hi; /* run ids in [run_lo, run_hi]; run_hi = 0: no bound */
} result_filter_t;

/* Reads the rows of run_summary that pass `f` (NULL = all) into *out (which
 * results_load initializes). Returns 0, or -1 with a message naming the file. */
int results_load(const char *db_path, const result_filter_t *f, result_set_t *out, mls_err_t *err);
void results_free(result_set_t *rs);

/* Grouping: rows with the same policy and the same fields named in `by` form
 * one group (their seeds are the samples). */
enum {
    RES_BY_TRACE = 1,
    RES_BY_CLUSTER = 2,
    RES_BY_LABEL = 4,
    RES_BY_PARAMS = 8,
    RES_BY_ALL = 15,
};

typedef struct result_group {
    const result_row_t *key; /* the group's first row: policy, params, trace, ... */
    size_t n;                /* runs in the group */
    int oracle;
    double mean[RES_N_METRICS];
    double ci95[RES_N_METRICS]; /* half width of the 95% t interval; NAN when < 2 values */
    long base;                  /* index of the baseline group of the same context, -1 none */
} result_group_t;

/* Groups rs (in order of first appearance) into a new array *out of *n. The
 * baseline of a group is the group of policy `baseline` that agrees with it on
 * every field in `by` except params (NULL baseline: none). */
void results_group(const result_set_t *rs, unsigned by, const char *baseline, result_group_t **out,
                   size_t *n);

/* Half width of the 95% confidence interval of the mean of n values with
 * sample standard deviation sd (Student t); NAN when n < 2. */
double results_ci95(double sd, size_t n);

typedef enum { RES_FMT_TABLE, RES_FMT_MARKDOWN, RES_FMT_CSV, RES_FMT_JSON } result_format_t;
/* "table", "markdown", "csv", "json" -> format; -1 when unknown. */
int results_format_parse(const char *s);

typedef struct result_print_opts {
    result_format_t format;
    const int *metrics; /* metrics to show; NULL = the comparison set */
    size_t n_metrics;
    int show_ci;          /* mean ± 95% CI */
    int show_rel;         /* each metric relative to the group's baseline */
    const char *baseline; /* for the header */
    unsigned by;          /* the grouping used (RES_BY_*; 0 = all): key columns shown */
} result_print_opts_t;

void results_print(FILE *out, const result_group_t *g, size_t n, const result_print_opts_t *o);

#endif
