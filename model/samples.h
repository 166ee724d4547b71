/* samples.h: a column of positive integer samples read from a CSV file (for
 * example the job durations from which Tiresias's simulator builds its Gittins
 * table, yarn-gput1000.csv's `duration` column).
 *
 * The idea: a policy that takes an empirical distribution as a parameter
 * names the file; reading and checking it is the model layer's business, so
 * the policy receives numbers and never opens a file itself. */
#ifndef MLS_SAMPLES_H
#define MLS_SAMPLES_H

#include "model/util.h"

/* Reads the column named `column` of the CSV file at path (a header line,
 * then one record per line; other columns are ignored) into a new array of
 * *n values, in file order. Every value must be a decimal integer >= 1.
 * Returns 0, or -1 with err naming the file, line and field (a missing
 * file or column, a bad value, a NUL byte, an unclosed quote, no rows). The
 * caller frees *out. */
int samples_read(const char *path, const char *column, long **out, long *n, mls_err_t *err);

#endif
