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
 * rates come from the perf model's scaling model, perf.h). */
typedef struct trace_extrap {
    const char *model;    /* the perf model's source */
    const char *ref_name; /* the reference GPU type */
    long jobs;            /* extrapolated jobs */
    long unknown;         /* jobs whose workload the model lacks (not judged) */
    double gpu_hours;     /* their traced GPU-hours (jobs with a duration) */
    int max_gpus;         /* the largest of them */
} trace_extrap_t;

/* Fills *x for trace t under perf model pm on reference type ref. */
void trace_extrap_count(const mls_trace_t *t, const mls_perf_t *pm, int ref, const char *ref_name,
                        trace_extrap_t *x);

/* x may be NULL (no extrapolation line). */
void trace_stats_print(const mls_trace_t *t, FILE *out, int json, const trace_extrap_t *x);

#endif
