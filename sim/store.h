/* store.h: the results database (SQLite).
 *
 * One database holds many runs. Tables (created when absent):
 *   meta(key, value)            schema version
 *   runs(run_id, ...)           what was run: policy, parameters, oracle flag,
 *                               trace path and checksum, cluster, perf model,
 *                               seed, round, overhead, window, mlsched version,
 *                               wall time
 *   jobs(run_id, job_id, ...)   one row per trace job: submit, first start,
 *                               finish, JCT, queueing delay, GPU-seconds,
 *                               preemptions, restarts, isolated time, rho, ...
 *   timeline(run_id, t, ...)    busy GPUs, running and queued jobs over time
 *   summary(run_id, ...)        the per-run metrics
 *   run_summary (view)          runs JOIN summary: one row per run, so that
 *                               one SELECT compares runs.
 *   extrapolation(run_id, ...)  jobs whose GPU count is above what the perf
 *                               model measured for their workload on the
 *                               cluster's GPU types (their rates are
 *                               extrapolated, perf.h): how many, their
 *                               GPU-seconds and share of the run's
 *   extrapolated_jobs(run_id, job_id, measured_gpus)  one row per such job
 *   early_feedback(run_id, job_id, work, seconds)  each job's time from its
 *                               submission to its first `work` work units
 *                               (Gandiva's early-feedback metric)
 *   run_settings(run_id, key, value)  engine settings without a runs column
 *                               (placement; like: the peer --like mimics)
 * The last four tables were added without a schema version bump: they are new
 * tables (CREATE TABLE IF NOT EXISTS), no existing table changes, so a
 * version-1 database written before them opens and gets them on its next
 * run, and `merge` copies them as it copies any table with a run_id (creating
 * them in an output that lacks them). A run with no extrapolation row was
 * written by an mlsched older than them (unknown), not a run without any.
 * A run is written in one transaction: an interrupted run leaves no rows. */
#ifndef MLS_STORE_H
#define MLS_STORE_H

#include "model/trace.h"
#include "model/util.h"
#include "sim/metrics.h"

#include <stdint.h>

typedef struct run_info {
    const char *policy;
    const char *params; /* "k=v,k=v" or "" */
    int oracle;
    const char *trace_path;
    const char *trace_checksum;
    const char *cluster_source;
    const char *cluster_json;
    int n_gpus;
    const char *perf_source;
    uint64_t seed;
    double round_len;
    const char *cadence;
    double restart_overhead;
    const char *measure; /* "lo:hi" or "all" */
    const char *label;   /* free text, e.g. a sweep point; may be NULL */
    const char *faults;  /* fault settings, NULL = none */
    const char *overheads; /* overheads file, NULL = --restart-overhead for all */
    /* per result job (res->jobs[k]): the largest GPU count measured for its
     * workload when its GPUs are above it (extrapolated), else 0; NULL: not
     * known, no extrapolation rows written */
    const int *extrapolated;
    double feedback_work; /* the early-feedback mark of the run; <= 0: no rows */
    /* run_settings rows: key, value, key, value, ..., NULL; NULL: none */
    const char *const *settings;
} run_info_t;

#define MLS_SCHEMA_VERSION 1

/* Appends one run; returns 0 and its id in *run_id, or -1. */
/* A results database opened read-only (60 s busy timeout), or NULL with
 * "PATH: cannot open: REASON" in err. Close with sqlite3_close. */
struct sqlite3;
struct sqlite3 *store_open_ro(const char *db_path, mls_err_t *err);

int store_write_run(const char *db_path, const run_info_t *info, const mls_trace_t *trace,
                    const sim_result_t *res, int64_t *run_id, mls_err_t *err);

#endif
