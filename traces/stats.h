/* stats.h: what the papers print about a trace — jobs, users, GPU-hours,
 * arrival rate over time, GPU-count histogram, duration percentiles and
 * per-user shares — as aligned text or JSON — and how much of it runs beyond
 * the perf model's measured GPU counts (extrapolated rates). */
#ifndef MLS_STATS_H
#define MLS_STATS_H

#include "model/perf.h"
#include "model/trace.h"

#include <stdio.h>

/* Extrapolation against a perf model: jobs whose GPU count is above the
 * largest count measured for their workload on the reference GPU type (their
 * rates come from the perf model's scaling model, perf.h); and jobs whose
 * duration there is far from the traced one. */
typedef struct trace_extrap {
    const char *model;    /* the perf model's source */
    const char *ref_name; /* the reference GPU type */
    long jobs;            /* extrapolated jobs */
    long unknown;         /* jobs whose workload the model lacks (not judged) */
    double gpu_hours;     /* their traced GPU-hours (jobs with a duration) */
    int max_gpus;         /* the largest of them */
    /* Simulated against traced duration: a job with a traced duration whose
     * workload the model rates on the reference type runs work / rate there
     * (alone: on one node, or 8-GPU nodes beyond the measured counts). An
     * importer derives work from the duration on its reference GPU, so a job
     * far from its traced duration (over TRACE_FAR_FACTOR either way and
     * TRACE_FAR_EXCESS s apart) means another reference GPU (--reference-gpu),
     * another perf model, or work given apart from the duration: every run of
     * it will be off as much. */
    long judged;         /* jobs compared */
    long far;            /* of them, far from their traced duration */
    int64_t worst_id;    /* the farthest (by the larger ratio either way) */
    long worst_line;     /* its trace line, 0 unknown */
    double worst_traced; /* its traced duration, s */
    double worst_sim;    /* its simulated duration on the reference type, s */
} trace_extrap_t;

#define TRACE_FAR_FACTOR 2.0
#define TRACE_FAR_EXCESS 600.0

/* Fills *x for trace t under perf model pm on reference type ref. */
void trace_extrap_count(const mls_trace_t *t, const mls_perf_t *pm, int ref, const char *ref_name,
                        trace_extrap_t *x);

/* x may be NULL (no extrapolation line). */
void trace_stats_print(const mls_trace_t *t, FILE *out, int json, const trace_extrap_t *x);

#endif
