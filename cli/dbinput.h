/* dbinput.h: the database(s) a report or a figure reads.
 *
 * `report --db A --db B` and `plot --db live.db` take results databases and
 * live state databases (live/export.h). One results database is read where
 * it is; anything else (several files, or a live state) is first folded
 * into one temporary results database — the results ones merged as `mlsched
 * merge` does, each live one exported as a run labelled "live" — which
 * db_input_close() removes. So a live run and simulated runs of the same
 * trace land in one table and one figure. */
#ifndef MLS_DBINPUT_H
#define MLS_DBINPUT_H

#include "model/util.h"

#include <stddef.h>

typedef struct db_input {
    char path[4096]; /* the results database to read */
    int temp;        /* 1: a temporary file, removed by db_input_close */
} db_input_t;

/* Returns 0, or -1 with a message naming the file that could not be read. */
int db_input_open(const char *const *paths, size_t n, db_input_t *in, mls_err_t *err);
void db_input_close(db_input_t *in);

/* The --runs LO:HI option of report and plot (an opt_call_fn, cli/opts.h):
 * the run range of the result_filter_t (sim/results.h) at off in base.
 * Returns 0, or -1 unless 1 <= LO <= HI. */
int db_input_parse_runs(void *base, size_t off, const char *s, const char *who);

#endif
