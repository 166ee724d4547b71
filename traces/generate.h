/* generate.h: synthetic traces with Gavel's job mix.
 *
 * Poisson arrivals at a given rate; each job's workload is drawn uniformly
 * from the perf model's workloads that run alone on the reference GPU at the
 * job's scale factor; its duration is 60·10^U(1.5,3) s with probability 0.8,
 * else 60·10^U(3,4) s (Gavel's generator); with multi-GPU jobs the scale
 * factor is 1/2/4/8 at 70/10/15/5 %, else 1. Total work = duration × the
 * workload's isolated throughput on the reference GPU at that scale factor,
 * so a job alone on its request takes its duration. One GSL generator
 * (mt19937) seeded by the caller makes the trace reproducible. */
#ifndef MLS_GENERATE_H
#define MLS_GENERATE_H

#include "model/perf.h"
#include "model/trace.h"

#include <stdint.h>

typedef struct gen_config {
    long jobs;
    double rate_per_hour;
    uint64_t seed;
    int multi_gpu;
    const char *reference_gpu; /* default "v100" */
    double duration_scale;     /* multiplies every duration, default 1 */
    int users;                 /* jobs get one of this many users, default 1 */
} gen_config_t;

void gen_config_defaults(gen_config_t *g);
int trace_generate(mls_trace_t *t, const mls_perf_t *pm, const gen_config_t *g, mls_err_t *err);

#endif
