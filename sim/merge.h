/* merge.h: folding the runs of several results databases into one.
 *
 * Every run of every input (in argument order, then by run_id) is appended to
 * the output with a new run_id, together with its rows in every table that has
 * a run_id column (jobs, timeline, summary, and any table a later schema
 * adds), all in ONE transaction: a failed merge leaves the output as it was.
 * The output's schema is created from the first input's when absent. An input
 * whose meta.schema_version differs from MLS_SCHEMA_VERSION (or from the
 * output's) is refused with a message naming the file and both versions. */
#ifndef MLS_MERGE_H
#define MLS_MERGE_H

#include "model/util.h"

#include <stddef.h>
#include <stdint.h>

typedef struct merge_stats {
    int64_t first_run, last_run; /* new run ids in the output; 0, 0 when none */
    long runs;                   /* runs copied */
    long rows;                   /* rows copied, all tables */
} merge_stats_t;

/* Merges inputs[0..n) into out_path. Returns 0, or -1 with a message. */
int merge_dbs(const char *out_path, const char *const *inputs, size_t n, merge_stats_t *st,
              mls_err_t *err);

#endif
