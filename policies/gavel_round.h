/* gavel_round.h: Gavel's round-based mechanism, on the policy side.
 *
 * Gavel (Narayanan et al., OSDI 2020, section 5) turns an allocation X (the
 * fraction of time each job, or pair of jobs, should spend on each GPU type)
 * into concrete per-round decisions:
 *   - priority[r][t] = X[r][t] / (time r received on t / time since the
 *     allocation was recomputed); a row that has received nothing on t yet
 *     gets X[r][t] * 1e9 (huge, so that new allocations start at once);
 *   - per GPU type, fastest type first (heterogeneity-agnostic policies:
 *     a shuffled type order each round, from a generator seeded with the
 *     run's seed, as Gavel shuffles for them), rows sorted by (priority, deficit,
 *     X) descending fill that type's GPUs greedily: a row is taken when none
 *     of its jobs is already scheduled this round and its GPUs fit; rows
 *     with X = 0 come last (priority 0), so leftover GPUs are not left idle;
 *   - placement: jobs that keep last round's type and count are listed
 *     first (the mechanism then keeps them on their GPUs: lease extension),
 *     new ones by GPU count descending (large jobs placed first);
 *   - the allocation is recomputed only when the set of active jobs changed
 *     (an arrival or a completion) or a job changed its batch (dynamic
 *     adaptation: its throughput changed; Shockwave's scheduler sets
 *     _need_to_update_allocation then too), and at least `min_interval`
 *     seconds have passed since the last recompute (Gavel: 1920 s).
 * Time received is credited from the module's own memory of what it
 * scheduled at its previous call (now - previous call, to that row and type).
 * One departure from Gavel by default: jobs that arrived after the last
 * recompute (no row yet) may take leftover GPUs at priority 0. Gavel's
 * placement (and Shockwave's, scheduler.py _schedule_jobs_on_workers: a job
 * not in the allocation is skipped) gives them no workers: its selection
 * counts them against the free GPUs and then leaves those GPUs idle, so they
 * wait for the next recompute; new_jobs=wait does that.
 * A second one: Gavel's code (and Shockwave's, scheduler.py add_job and
 * _reset_time_run_so_far) starts every job's received time on each type at
 * half a round when it arrives and at each recompute, and the type's total
 * at the sum of those, so the share is never 0 and the X * 1e9 rule never
 * fires for a single job: priority is X / (received + round / 2) over a
 * denominator common to every row. received_start=half_round does that
 * (received_start=zero, the default, is the paper's rule above).
 * rules=gavel adds the rules of Gavel's simulator (scheduler.py) that the
 * paper does not state (rules=paper, the default, has none of them):
 *   - a row is credited the time its jobs progressed since the previous call
 *     (their work done in between over their rate, the longer of a pair's,
 *     rounded as Gavel's (t0 + steps / rate) - t0, added to a sum that starts
 *     at half a round under received_start=half_round, as Gavel's
 *     _job_time_so_far, so that near-ties fall as in Gavel; _done_callback),
 *     not the time between the calls: under Gavel's rounds
 *     (engine round_end steps) a job stops once it has run its steps for the
 *     round, and a round that failed credits nothing;
 *   - a recompute at time 0 does not start the interval (Gavel tests
 *     _last_reset_time == 0 for "never reset", and a reset at 0 leaves it 0);
 *   - ties in priority go to the larger deficit summed over the recomputes
 *     (each adds the time the row's allocation promised since the previous
 *     one less the time it got; Gavel's _deficits), not the deficit since
 *     the last recompute;
 *   - types not shuffled are visited in Gavel's fixed order (v100, p100,
 *     k80, then the others), not fastest first;
 *   - a second call at the same instant while no job runs (the engine's call
 *     once every job has arrived and the cluster is idle) recomputes whatever
 *     the interval (Gavel sets _last_reset_time = 0 then).
 *
 * Usage per schedule() call: gr_begin (credits the last round), then, when
 * gr_need_recompute says so, the policy computes X and hands it over with
 * gr_set_allocation, then gr_fill writes the plan. Deterministic. */
#ifndef MLS_GAVEL_ROUND_H
#define MLS_GAVEL_ROUND_H

#include "policies/policy.h"

#include <stdint.h>

typedef struct gr_state gr_state_t;

/* The huge priority of a row that has received nothing yet (times X). */
#define GR_NEW_PRIORITY 1e9

gr_state_t *gr_create(void);
/* Options of the mechanism, from the policy parameters new_jobs=run|wait
 * (wait: jobs without an allocation row never run, Gavel's placement),
 * received_start=zero|half_round and rules=paper|gavel (see above). */
typedef struct gr_opts {
    int new_jobs_wait;
    int half_round;
    int gavel_rules;  /* rules=gavel */
    int no_shortcuts; /* shortcuts=0: no replay, no rates kept across calls, every queue built
                         (the same plans, slower: for tests) */
} gr_opts_t;

/* Parses the options (defaults run, zero, paper, shortcuts=1); -1 with err
 * set on a bad value. */
int gr_opts_parse(const policy_args_t *args, const char *policy, gr_opts_t *o, char *err,
                  size_t errlen);
void gr_set_opts(gr_state_t *s, const gr_opts_t *o);
/* Type orders drawn as Gavel's scheduler draws them: Python's shuffle
 * (policies/pyrandom.h) of [v100, p100, k80] from random.Random(seed) at
 * every fill that shuffles (Gavel seeds it with its seed + 5). */
void gr_set_python_shuffle(gr_state_t *s, uint64_t seed);
/* Gavel's packing policies (gandiva): GPUs left after the allocation's rows
 * may also go to a pair of equal-sized jobs that has no row (priority 0,
 * deficit 0, ordered with the other priority-0 rows), as Gavel's priority
 * list holds every such pair; under new_jobs=wait only a pair of jobs active
 * at the last recompute runs. */
void gr_set_leftover_pairs(gr_state_t *s, int on);
void gr_destroy(gr_state_t *s);

/* Credits the time since the previous call to the rows scheduled then. */
void gr_begin(gr_state_t *s, const view_t *v);
/* 1 when no allocation exists yet, or the set of active jobs or the batch of
 * one changed since the last recompute and at least min_interval s have
 * passed. */
int gr_need_recompute(gr_state_t *s, const view_t *v, double min_interval);
/* A new allocation: n_rows rows, each one job (jobs[r][1] = -1) or a pair,
 * as indices into v->jobs, with x[r * n_types + t]. Resets received time. */
void gr_set_allocation(gr_state_t *s, const view_t *v, int n_rows, const int (*jobs)[2],
                       const double *x);
/* Chooses this round's rows and writes the plan. skip_zero: rows with
 * priority 0 are never scheduled (Gavel's rule for FIFO). shuffle_types:
 * visit the types in a random order (Gavel's rule for agnostic policies). */
void gr_fill(gr_state_t *s, const view_t *v, plan_t *plan, int skip_zero, int shuffle_types);

/* pu_rate() of view job j on type t, as gr_fill asks it: once per call, or
 * once for as long as the job's workload and batch stay the same when the
 * perf model's rates are fixed (view_perf_t.rates_fixed). After gr_begin. */
double gr_rate(gr_state_t *s, const view_t *v, int j, int t);

/* For tests: the priority of job j's single row on type t at the last
 * gr_fill (NAN when the job has no row). */
double gr_priority(const gr_state_t *s, int64_t job_id, int type);
/* Seconds job_id's single row has received on type t since the recompute. */
double gr_received(const gr_state_t *s, int64_t job_id, int type);

/* For tests: the round state inside a Gavel policy's state (gavel.c). */
const gr_state_t *gavel_round_state(const void *policy_state);

#endif
