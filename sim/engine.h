/* engine.h: the discrete-event simulator.
 *
 * engine_run() replays a trace on a cluster under one policy. Time jumps from
 * event to event (arrivals, predicted completions, round ticks); between two
 * events every job's rate is constant, so progress is integrated exactly. At
 * the cadence the policy asks for (after arrivals/completions, every round, or
 * both) the engine builds a view (policies/policy.h), calls the policy, checks
 * the plan and applies it: preempted jobs release their GPUs, (re)started jobs
 * pay the restart overhead (no progress while they hold their GPUs), and each
 * running job's completion is (re)predicted. A completion event carries the
 * job's version; a rate change bumps the version, so stale events are dropped
 * when popped (lazy invalidation).
 *
 * Same inputs and seed give the same results: ties are broken by (time,
 * sequence number), and job order by (submit, id). */
#ifndef MLS_ENGINE_H
#define MLS_ENGINE_H

#include "model/cluster.h"
#include "model/perf.h"
#include "model/trace.h"
#include "model/util.h"
#include "policies/policy.h"
#include "sim/faults.h"
#include "sim/metrics.h"
#include "sim/overheads.h"

typedef struct engine_config {
    double round_len;        /* s between round ticks; 0 = event-driven only */
    unsigned cadence;        /* MLS_CADENCE_* bits; 0 = the policy's own */
    double restart_overhead; /* s lost at every (re)start, default 20 */
    uint64_t seed;
    int64_t measure_lo, measure_hi; /* measured job ids [lo, hi); lo >= hi: all */
    double timeline_step;           /* s between timeline samples; <= 0: automatic */
    int no_timeline; /* 1: no timeline samples (nothing reads them): memory in jobs only */
    int progress;                   /* 1: progress lines on stderr */
    const fault_plan_t *faults;     /* failures and stragglers, NULL = none */
    const overheads_t *overheads;   /* per workload; NULL = restart_overhead for all */
    /* Pathways' dispatch of a gang's computations (trace column gang): each
     * start of a computation costs dispatch_latency s more; sequential
     * dispatch starts the i-th computation of a gang after i latencies,
     * parallel (0) all after one. */
    double dispatch_latency;
    int dispatch_sequential;
    /* Gandiva's early feedback: the time each job takes from its submission
     * to its first feedback_work work units (job_result_t.feedback). */
    double feedback_work;
    int placement; /* mech_placement_t (sim/mechanism.h); default auto */
    /* 1: a job runs at its one-node rate over however many nodes it spans
     * (Gavel's, Shockwave's, Tiresias' and Helios' simulators); 0: at the perf
     * model's rate for the nodes it spans (default) */
    int consolidated_rates;
    /* How a round ends (sim/engine.c "Gavel's rounds"): 0 on a fixed grid of
     * round_len s (default); 1 when the last job scheduled in it has run its
     * steps for the round, Gavel's simulator (ENGINE_ROUND_END_STEPS). */
    int round_end;
    /* 1: a job's epoch ends and its completion fall on the nearest whole
     * second (Pollux's simulator rounds the time of each epoch, Job.step in
     * simulator.py: --epoch-times whole, --like pollux); 0: at the exact
     * instant (default). */
    int whole_epochs;
} engine_config_t;

enum { ENGINE_ROUND_END_FIXED = 0, ENGINE_ROUND_END_STEPS = 1 };
/* "fixed" or "steps" (NULL out of range); parse: -1 when unknown. */
const char *engine_round_end_name(int round_end);
int engine_round_end_parse(const char *name);

void engine_config_defaults(engine_config_t *cfg);

/* Checks that every job can run on the cluster (its workload is in the perf
 * model, some GPU type has enough GPUs and a throughput for it). */
int engine_check_trace(const mls_trace_t *trace, const mls_cluster_t *cluster,
                       const mls_perf_t *perf, mls_err_t *err);

int engine_run(const mls_trace_t *trace, const mls_cluster_t *cluster, const mls_perf_t *perf,
               const policy_ops_t *policy, const policy_args_t *args,
               const engine_config_t *cfg, sim_result_t *out, mls_err_t *err);

#endif
