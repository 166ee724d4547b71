/* deeppool.c: DeepPool's scheduler (Park, Fried, Kim, Alizadeh and Belay,
 * "Efficient Strong Scaling Through Burst Parallel Training", MLSys 2022).
 *
 * The idea. Strong scaling (a fixed, small global batch spread over many
 * GPUs) leaves GPUs underused: layers that parallelise well speed up, the rest
 * do not, and data parallelism also pays an all-reduce of every parameter.
 * DeepPool gives a *foreground* job many GPUs in bursts (burst parallelism: per
 * layer, as many GPUs as that layer profits from, so its throughput curve
 * scales better than data parallelism's) and lets *background* jobs soak up
 * the cycles the bursts leave idle, at low priority, with a small slowdown of
 * the foreground (GPU multiplexing). The paper reports 1.2-2.3x the cluster
 * throughput of plain data parallelism.
 *
 * Followed: the two ideas of the paper's design (burst parallelism, GPU
 * multiplexing with foreground priority) and the evaluation's setting of one
 * foreground job at a fixed global batch with background jobs beside it. The
 * paper's full text was not at hand: the formulation follows its abstract and
 * issue 15, and no section numbers are claimed.
 *
 * What the policy does, at every arrival and completion:
 * 1. Foreground jobs (priority > fg_priority, default: priority > 1), in
 *    arrival order, get GPUs first: one that holds GPUs keeps them; a waiting
 *    one gets as many GPUs as it may use (max_gpus, a burst allocation) on the
 *    fastest type with room, or the most it can get there when at least
 *    min_gpus. Background jobs holding those GPUs are preempted (first).
 * 2. Multiplexing (multiplex=1): each foreground allocation of g GPUs takes
 *    one background job that can run on g GPUs (min_gpus <= g <= max_gpus)
 *    and whose pair rate the perf model gives (view->perf->pair_throughput:
 *    under a model with a "multiplex" section, the foreground's rate x (1 -
 *    interference) and the background's solo rate x the foreground's idle
 *    fraction; see sim/view_perf.h): its current partner when it still has
 *    one, else the oldest waiting background job, else the oldest one running
 *    alone (which restarts). The two name each other in pack_with.
 * 3. The other background jobs run alone on the GPUs left, on their
 *    requested count: first those that hold that count keep it (background
 *    jobs do not preempt each other), then waiting ones in arrival order,
 *    skipping those that do not fit.
 *
 * Simplifications (every one):
 * - The burst-parallel plan (which layer runs on how many GPUs) is not made
 *   here: it is in the perf model, as the foreground workload's throughput
 *   curve and idle fractions (docs/reproducing.md "DeepPool"; scripts/deeppool.sh writes
 *   them from an Amdahl-style per-layer model). The policy only picks the
 *   foreground's GPU count; DeepPool's per-layer GPU assignment, its planner's
 *   search and its activation transfers are folded into that curve.
 * - One background job per foreground allocation, spread over all g of its
 *   GPUs (the mechanism pairs two allocations on the same GPUs); DeepPool runs
 *   a background job per GPU. A background job therefore must accept g GPUs.
 * - Multiplexing is a rate model, not kernel-level priority: the foreground
 *   loses a fixed interference fraction, the background gets exactly the idle
 *   fraction of its solo rate (no memory check beyond what the perf model
 *   refuses; no adaptive throttling of the background).
 * - The shared mechanism restarts both jobs of a pair at any change of the
 *   pair (sim/mechanism.c, mark_kept), so a foreground pays its restart
 *   overhead each time a new background job joins it; DeepPool's foreground
 *   keeps running. scripts/deeppool.sh runs without restart overhead.
 * - Foreground jobs do not preempt each other and are not resized once
 *   running; a waiting foreground does not block later ones (no head-of-line
 *   blocking); a foreground job that never fits is skipped.
 * - Foreground vs background comes from the trace's priority column only. */
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct dp_state {
    double fg_priority;
    int multiplex;
} dp_state_t;

int deeppool_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    static const char *const known[] = {"fg_priority", "multiplex", NULL};
    *state = NULL;
    if (policy_args_check(args, known, "deeppool", err, errlen) < 0)
        return -1;
    double fg;
    long mux;
    if (policy_arg_double(args, "fg_priority", 1, &fg, err, errlen) < 0 ||
        policy_arg_long(args, "multiplex", 1, &mux, err, errlen) < 0)
        return -1;
    if (!isfinite(fg) || (mux != 0 && mux != 1)) {
        snprintf(err, errlen, "deeppool: fg_priority must be a number and multiplex 0 or 1");
        return -1;
    }
    dp_state_t *s = pu_alloc(1, sizeof *s);
    *s = (dp_state_t){fg, (int)mux};
    *state = s;
    return 0;
}

void deeppool_destroy(void *state)
{
    free(state);
}

static int is_fg(const dp_state_t *s, const view_job_t *j)
{
    return j->priority > s->fg_priority;
}

/* A waiting foreground job: the most GPUs it may use (up to max_gpus) on
 * the fastest type with at least min_gpus free. 1 when placed. */
static int start_burst(const view_t *v, pu_room_t *r, plan_t *p, int job)
{
    const view_job_t *j = &v->jobs[job];
    int *order = pu_alloc((size_t)(v->n_types ? v->n_types : 1), sizeof *order);
    int n = pu_type_order(v, job, order), placed = 0;
    for (int i = 0; i < n && !placed; i++) {
        int t = order[i], g = j->max_gpus < r->room[t] ? j->max_gpus : r->room[t];
        if (g >= j->min_gpus && g > 0) {
            plan_run(p, job, t, g);
            r->room[t] -= g;
            placed = 1;
        }
    }
    free(order);
    return placed;
}

/* 1 when background job b may share foreground allocation a. */
static int can_share(const view_t *v, const plan_alloc_t *a, int b)
{
    const view_job_t *jb = &v->jobs[b];
    double r[2] = {0, 0};
    const view_perf_t *pf = v->perf;
    return jb->min_gpus <= a->gpus && a->gpus <= jb->max_gpus && pf && pf->pair_throughput &&
           pf->pair_throughput(pf->ctx, &v->jobs[a->job], jb, a->type, a->gpus, r) == 0 &&
           r[0] > 0 && r[1] > 0;
}

/* The background partner of foreground allocation a: its current partner,
 * else the oldest waiting one, else the oldest running alone; -1 none. */
static int pick_partner(const dp_state_t *s, const view_t *v, const plan_t *p,
                        const plan_alloc_t *a, const int *arrival)
{
    int cur = v->jobs[a->job].cur_partner;
    if (cur >= 0 && cur < v->n_jobs && !is_fg(s, &v->jobs[cur]) && plan_find(p, cur) < 0 &&
        can_share(v, a, cur))
        return cur;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < v->n_jobs; i++) {
            int b = arrival[i];
            if (is_fg(s, &v->jobs[b]) || pu_holds(&v->jobs[b]) != pass || plan_find(p, b) >= 0 ||
                !pu_ever_fits(v, b))
                continue;
            if (pass == 1 && v->jobs[b].cur_partner >= 0)
                continue; /* paired with another foreground, which keeps it */
            if (can_share(v, a, b))
                return b;
        }
    return -1;
}

/* Step 2: one background job on the idle cycles of each foreground allocation. */
static void multiplex(const dp_state_t *s, const view_t *v, plan_t *p, const int *arrival, int n_fg)
{
    for (int k = 0; k < n_fg; k++) {
        int b = pick_partner(s, v, p, &p->allocs[k], arrival);
        if (b < 0)
            continue;
        int kb = plan_run(p, b, p->allocs[k].type, p->allocs[k].gpus);
        p->allocs[kb].pack_with = p->allocs[k].job;
        p->allocs[k].pack_with = b;
    }
}

int deeppool_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const dp_state_t *s = state;
    int *arrival = pu_alloc((size_t)(v->n_jobs ? v->n_jobs : 1), sizeof *arrival);
    pu_arrival_order(v, arrival);
    pu_room_t r;
    pu_room_init(&r, v);
    for (int i = 0; i < v->n_jobs; i++) { /* 1. foreground bursts */
        int j = arrival[i];
        if (is_fg(s, &v->jobs[j]) && pu_ever_fits(v, j) && !pu_keep(v, &r, plan, j))
            start_burst(v, &r, plan, j);
    }
    if (s->multiplex) /* 2. background jobs on the foregrounds' idle cycles */
        multiplex(s, v, plan, arrival, plan->n);
    for (int pass = 0; pass < 2; pass++) /* 3. background jobs alone: running ones first */
        for (int i = 0; i < v->n_jobs; i++) {
            int j = arrival[i];
            const view_job_t *jb = &v->jobs[j];
            if (is_fg(s, jb) || plan_find(plan, j) >= 0 || !pu_ever_fits(v, j))
                continue;
            if (pass == 0 && jb->cur_gpus == jb->gpus_requested)
                pu_keep(v, &r, plan, j);
            else if (pass == 1)
                pu_start(v, &r, plan, j);
        }
    pu_room_free(&r);
    free(arrival);
    return 0;
}
