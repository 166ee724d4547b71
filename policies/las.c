/* las.c: least attained service first (preemptive, non-oracle).
 *
 * Least-attained-service scheduling (Nuyens and Wierman, "The Foreground-
 * Background queue: a survey", Perf. Eval. 2008) with service measured as
 * Tiresias does for DL jobs: GPU-seconds, the product of GPUs and time held
 * (the two-dimensional attained service, 2DAS, of Tiresias's design section;
 * Gu et al., NSDI 2019). At each decision every active job is ranked by
 * attained_service, ties by (submit, id), and GPUs are filled greedily in that
 * order: new jobs run first, and a job that has received more than others is
 * preempted for them.
 *
 * Simplifications and choices:
 * - Continuous LAS: no discretised priority queues, no starvation promotion
 *   (those are Tiresias's own refinements, a separate policy).
 * - Called every round as well as on events (cadence rounds+events), so the
 *   round length is the time quantum: jobs with equal service take turns.
 * - Greedy fill: a job that does not fit is passed over for the next one.
 * - A running job that stays keeps its current GPUs when its type has room;
 *   other jobs go on the fastest type (profiled throughput) with room.
 * - A job larger than every type it may run on is skipped.
 * - It decides from the queued jobs alone (las_schedule_queued, policy.h's
 *   schedule_queued) when they all fit in the free GPUs, each on its first
 *   type: then the full fill would keep every running job (each holds its
 *   request: las plans nothing else) and start the same jobs in the same
 *   order (pu_fill_queued); otherwise, and after a node failure, it asks
 *   for the full view. */
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <stdlib.h>

int las_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    return pu_create_noargs("las", state, args, err, errlen);
}

void las_destroy(void *state)
{
    (void)state;
}

int las_schedule_queued(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)state;
    (void)err;
    (void)errlen;
    if (v->reasons & MLS_WHY_FAULT)
        return MLS_DECIDE_FULL;
    double *served = pu_alloc((size_t)v->n_jobs, sizeof *served);
    int *order = pu_alloc((size_t)v->n_jobs, sizeof *order);
    for (int j = 0; j < v->n_jobs; j++) {
        served[j] = v->jobs[j].attained_service;
        order[j] = j;
    }
    pu_sort(v, served, order, v->n_jobs); /* ranked as las_schedule ranks them */
    int ok = pu_fill_queued(v, order, v->n_jobs, plan);
    free(order);
    free(served);
    return ok ? 0 : MLS_DECIDE_FULL;
}

int las_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)state;
    (void)err;
    (void)errlen;
    double *served = pu_alloc((size_t)v->n_jobs, sizeof *served);
    int *order = pu_alloc((size_t)v->n_jobs, sizeof *order);
    /* the sort starts from the reverse of the view's arrival order: jobs that
     * arrived earlier have mostly been served more, so that is nearly the
     * order sought and the merge sort skips halves already in order (the
     * order is total, so where it starts does not change the result) */
    for (int j = 0; j < v->n_jobs; j++) {
        served[j] = v->jobs[j].attained_service;
        order[v->n_jobs - 1 - j] = j;
    }
    pu_sort(v, served, order, v->n_jobs);
    pu_fill(v, order, v->n_jobs, plan);
    free(order);
    free(served);
    return 0;
}
