/* import.h: turning peers' and production trace formats into the canonical
 * trace. One function per format, one table of formats (traces/import.c).
 * Each reads its inputs as streams, validates every row and reports a bad one
 * as FILE:LINE: field; with IMPORT_SKIP_BAD it skips bad rows and counts them
 * instead. The result is sorted by (submit, id) and given fresh ids 0..n-1
 * when the format has none. */
#ifndef MLS_IMPORT_H
#define MLS_IMPORT_H

#include "model/trace.h"
#include "traces/records.h"

enum { IMPORT_SKIP_BAD = 1 };

/* A format sets either `read` (it yields jobs: gavel) or `read_records`
 * (production traces: it yields records that the pipeline of mapping.h
 * filters and maps to workloads). Readers append; *skipped counts the bad
 * rows skipped under IMPORT_SKIP_BAD. */
typedef struct import_format {
    const char *name, *summary;
    int (*read)(mls_trace_t *t, const char *path, unsigned flags, long *skipped,
                mls_err_t *err);
    int (*read_records)(import_records_t *rs, const char *path, unsigned flags, long *skipped,
                        mls_err_t *err);
} import_format_t;

const import_format_t *import_find(const char *name);
size_t import_count(void);
const import_format_t *import_at(size_t i);

/* A row that failed to read: counted in *skipped under IMPORT_SKIP_BAD
 * (returns 0: read on), else -1 (the read fails with the row's error). */
int import_bad_row(unsigned flags, long *skipped);

/* Sorts by (submit, id) and renumbers ids 0..n-1 in that order. */
void import_sort_renumber(mls_trace_t *t);

int import_gavel(mls_trace_t *t, const char *path, unsigned flags, long *skipped,
                 mls_err_t *err);
int import_philly(import_records_t *rs, const char *path, unsigned flags, long *skipped,
                  mls_err_t *err);
int import_helios(import_records_t *rs, const char *path, unsigned flags, long *skipped,
                  mls_err_t *err);
int import_itp(import_records_t *rs, const char *path, unsigned flags, long *skipped,
               mls_err_t *err);

#endif
