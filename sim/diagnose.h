/* diagnose.h: why a run's numbers look the way they do, from its rows in a
 * results database (sim/store.h) or from the engine's results in memory.
 *
 * A surprising makespan or average JCT usually has one of a few causes that
 * the summary hides: a few jobs that ran far slower than they would alone
 * (a slow GPU type, a placement spread over nodes, packing, preemptions), a
 * single late job that sets the makespan, a cluster that never caught up
 * (the queue still growing when the arrivals stop), or GPUs left idle while
 * jobs wait (fragmentation, gang constraints). run_diagnose() measures each
 * from the jobs and timeline tables, run_diagnose_result() from the engine's
 * results before (or without) reading them back: the same computation, the
 * same numbers; callers (simulate, the HTML report) word them.
 * Simplification: time a job spent spread over nodes is not in the database
 * (the engine does not record placements), so it is not diagnosed here. */
#ifndef MLS_DIAGNOSE_H
#define MLS_DIAGNOSE_H

#include "model/util.h"
#include "sim/metrics.h"

#include <stddef.h>
#include <stdint.h>

/* Slow: held GPUs for more than this many times its isolated run time. */
#define DIAG_SLOW_RATIO 3.0
#define DIAG_TOP 3

typedef struct diag_job {
    int64_t id;
    int gpus, preemptions;
    double submit, queue_delay, run_time, isolated, finish; /* s */
} diag_job_t;

typedef struct run_diag {
    int64_t run_id;
    int jobs, unfinished;        /* measured jobs finished / not */
    double utilization;          /* busy GPU-s / (GPUs x makespan) */
    double makespan, p99_finish; /* s */
    diag_job_t last;             /* the measured job that finished last (id -1: none) */
    int n_slow;                  /* measured jobs with run_time > DIAG_SLOW_RATIO x isolated */
    diag_job_t slow[DIAG_TOP];   /* the slowest by that ratio */
    double last_submit;          /* s: the last measured arrival */
    double q_half, q_end;        /* queued jobs (least-squares line) at half and at the end
                                    of the arrival window */
    double q_peak, drained;      /* most jobs queued; s when the queue last became empty
                                    after the last arrival (NAN: never) */
    int burst;                   /* arrivals end before a quarter of the makespan: a batch
                                    of work that then drains, not a steady load */
    int saturated;               /* steady load, and the queue grew over the arrivals'
                                    second half */
    double idle_waiting;         /* share of the run's time with jobs queued while at least a
                                    quarter of the GPUs were idle */
} run_diag_t;

/* Diagnoses run `run_id` of the database at db_path. Returns 0, or -1 with a
 * message naming the file. */
int run_diagnose(const char *db_path, int64_t run_id, run_diag_t *d, mls_err_t *err);

/* Diagnoses a run from the engine's results (res after metrics_summarize):
 * exactly what run_diagnose() gives once store_write_run() has stored res as
 * run `run_id`. */
void run_diagnose_result(const sim_result_t *res, int64_t run_id, run_diag_t *d);

#endif
