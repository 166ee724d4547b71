/* progress.h: reading a training job's progress from its output lines.
 *
 * The mlsched progress protocol (profiler/README.md): one line per iteration,
 *
 *   mlsched-progress iter=<int> samples=<int> iter_time=<s> batch=<int> [gns=<x>] [mem=<bytes>]
 *
 * keys in any order, unknown keys ignored, the marker anywhere in the line (so
 * launchers' "[rank0]: " prefixes do no harm). A known key whose value is not
 * a number makes the line malformed (an error, never a silent skip).
 *
 * Jobs that print their own format are read with a POSIX extended regular
 * expression whose named groups say what each capture is: (?<iter>...),
 * (?<iter_time>...) in seconds, (?<iter_time_ms>...) in milliseconds,
 * (?<samples>...), (?<batch>...), (?<mem>...) in bytes ((?P<name>...) is
 * accepted too). progress_regex_compile() rewrites the names away (POSIX has no
 * named groups) and remembers which group index holds what. A line that
 * matches without an iteration time is an iteration whose time the caller
 * measures by the clock. */
#ifndef MLS_PROGRESS_H
#define MLS_PROGRESS_H

#include "model/util.h"

#include <regex.h>

enum { PG_ITER, PG_ITER_TIME, PG_ITER_TIME_MS, PG_SAMPLES, PG_BATCH, PG_MEM, PG_N };

typedef struct progress_line {
    int has[PG_N]; /* which of the values below the line gave */
    double value[PG_N];
} progress_line_t;

typedef struct progress_regex {
    regex_t re;
    int group[PG_N]; /* capture index of each named group, 0 = absent */
    int n_groups;
    int compiled;
} progress_regex_t;

/* 1 and *out filled when the line is a progress line, 0 when it is not, -1
 * (with err) when it is one but malformed. */
int progress_parse(const char *line, progress_line_t *out, mls_err_t *err);

int progress_regex_compile(progress_regex_t *pr, const char *pattern, mls_err_t *err);
/* As progress_parse(), for a compiled regex: 0 when the line does not match,
 * -1 when a named capture is not a number. */
int progress_regex_parse(const progress_regex_t *pr, const char *line, progress_line_t *out,
                         mls_err_t *err);
void progress_regex_free(progress_regex_t *pr);

/* The iteration time a line gives in seconds, or -1 when it gives none. */
double progress_iter_time(const progress_line_t *pl);

#endif
