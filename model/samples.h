/* samples.h: a column of positive integer samples read from a CSV file (for
 * example the job durations from which Tiresias's simulator builds its Gittins
 * table, yarn-gput1000.csv's `duration` column), or one number per job keyed by
 * the job's id (a predictor's output).
 *
 * The idea: a policy that takes an empirical distribution as a parameter
 * names the file; reading and checking it is the model layer's business, so
 * the policy receives numbers and never opens a file itself. */
#ifndef MLS_SAMPLES_H
#define MLS_SAMPLES_H

#include "model/util.h"

#include <stdint.h>

/* Reads the column named `column` of the CSV file at path (a header line,
 * then one record per line; other columns are ignored) into a new array of
 * *n values, in file order. Every value must be a decimal integer >= 1.
 * Returns 0, or -1 with err naming the file, line and field (a missing
 * file or column, a bad value, a NUL byte, an unclosed quote, no rows). The
 * caller frees *out. */
int samples_read(const char *path, const char *column, long **out, long *n, mls_err_t *err);

/* Per-job samples (for example each job's predicted duration, as Helios's
 * QSSF estimator reads them from its Philly_lgb.csv: jobname, priority):
 * reads the columns id_column (a job id, a decimal integer, each id once)
 * and column (a decimal integer, of any sign: a prediction's error can make
 * it negative) into new arrays *ids and *out of *n rows, in file order.
 * Returns 0, or -1 with err naming the file, line and field (as
 * samples_read; a repeated id names both lines). The caller frees both. */
int samples_read_keyed(const char *path, const char *id_column, const char *column, int64_t **ids,
                       long **out, long *n, mls_err_t *err);

#endif
