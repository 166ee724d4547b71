/* pollux.h: the parts of the Pollux policy (policies/pollux.c) that have a
 * meaning of their own, exposed so that tests check them by hand.
 *
 * Promises: each function reads only its arguments (and the view's perf
 * callbacks) and is deterministic. */
#ifndef MLS_POLLUX_POLICY_H
#define MLS_POLLUX_POLICY_H

#include "policies/policy.h"

/* Pollux's FITNESS_p: the power mean (1/n sum (s_i + eps)^p)^(1/p) of the n
 * speedups, eps = 1e-3 so that a job given nothing (speedup 0) counts with
 * p < 0; p = 0 is the geometric mean of max(s_i, eps). */
double pollux_fitness(const double *speedup, int n, double p);

/* The re-allocation penalty (Pollux §4.2) a job whose allocation changes
 * multiplies its speedup by: max(age - restarts x delay, 0) / (age + delay). */
double pollux_restart_factor(double age, int restarts, double delay);

/* PolluxAgent (§4.1): the per-GPU micro-batch *batch and accumulation steps
 * *accum that maximise view->perf->goodput of job j on `gpus` GPUs of `type`
 * over `nodes` nodes, among 50 total batches spaced geometrically from
 * max(M0, min_local x gpus) to the largest batch (each split into
 * micro-batches that fit the GPU; one GPU above M0 accumulates at least once).
 * Returns that goodput; 0 (batch and accum 0) when the perf model has no
 * batch limits or goodput for the job, or no configuration fits. */
double pollux_agent_batch(const view_t *v, const view_job_t *j, int type, int gpus, int nodes,
                          int *batch, int *accum);

/* The GA's threads (parameter threads=N, 1..32; 0, the default: the online
 * CPUs, at most 8): a decision's generations start on one thread, and the others
 * join once a generation has taken `us` microseconds (250 by default; 0:
 * from the first). The plans do not depend on either. */
void pollux_lanes_from(void *state, double us);

/* The threads that made the last decision's children (1: one). */
int pollux_lanes_used(const void *state);

/* A decision's first goodput entries (those its warm start asks) are made
 * on the GA's threads at once where the view's perf model allows it
 * (view_perf_t.concurrent) and at least `entries` of them search a batch
 * grid (32 by default); pollux_warm_used: the threads that made the last
 * decision's (1: one). The plans depend on neither. */
void pollux_warm_from(void *state, int entries);
int pollux_warm_used(const void *state);

#endif
