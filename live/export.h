/* export.h: a live run in the results database's schema.
 *
 * The daemon's state database (live/state.h) holds every job it ran: spec,
 * submit, first start, finish, GPU time held, preemptions. live_export()
 * writes them as one run of a results database (sim/store.h), so that
 * `mlsched report` and `mlsched plot` put a live run beside simulated runs
 * of the same trace in one table and one figure. Reading never writes to the
 * state (read-only SQLite), so it is safe while the daemon runs.
 * Simplifications: a job's isolated time is not known live, so finish-time
 * fairness (rho) is left empty; the timeline counts a job as running from
 * its first start to its finish (time preempted inside that span counts as
 * running), as queued from its submission to its first start; times count
 * from the first arrival (daemon time starts with the daemon, before it),
 * as a trace's first job arrives at 0. */
#ifndef MLS_LIVE_EXPORT_H
#define MLS_LIVE_EXPORT_H

#include "model/util.h"

#include <stdint.h>

/* 1 when the SQLite file at path is a live state database, else 0. */
int live_is_state_db(const char *path);

/* Appends the live run of state_path to the results database results_path
 * (created when absent) with label "live"; its run id in *run_id. Returns 0,
 * or -1 with a message naming the file. */
int live_export(const char *state_path, const char *results_path, int64_t *run_id, mls_err_t *err);

#endif
