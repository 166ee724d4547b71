/* srtf.c: shortest remaining time first (oracle, preemptive).
 *
 * The clairvoyant SRTF baseline of Tiresias's evaluation (Gu et al., NSDI
 * 2019), which it uses as the near-optimal reference for average JCT when job
 * lengths are known. At each decision every active job is ranked by its
 * remaining time, remaining_work / throughput on its requested GPUs of the
 * fastest type that can run it, and GPUs are filled greedily in that order. A
 * running job that no longer makes the cut is preempted by shorter ones.
 *
 * Simplifications and choices:
 * - Oracle: it reads remaining_work. The result is marked oracle.
 * - Remaining time uses the profiled rate of the fastest type, not the rate on
 *   the job's current type, so moving a job between types never changes its
 *   rank. Jobs of unknown throughput sort last; ties by (submit, id).
 * - Greedy fill: a job that does not fit is passed over for the next one.
 * - A running job that stays keeps its current GPUs when its type has room (no
 *   restart cost) even if a faster type is free; other jobs go on the fastest
 *   type with room.
 * - The restart overhead is not weighed against the gain of preempting
 *   (the mechanism charges it).
 * - Called on arrivals and completions: between events a running job's rank
 *   only improves, so no round is needed.
 * - A job larger than every type it may run on is skipped. */
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <stdlib.h>

int srtf_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    return pu_create_noargs("srtf", state, args, err, errlen);
}

void srtf_destroy(void *state)
{
    (void)state;
}

int srtf_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)state;
    (void)err;
    (void)errlen;
    double *left = pu_alloc((size_t)v->n_jobs, sizeof *left);
    int *order = pu_alloc((size_t)v->n_jobs, sizeof *order);
    for (int j = 0; j < v->n_jobs; j++) {
        left[j] = v->jobs[j].remaining_work / pu_best_rate(v, j);
        order[j] = j;
    }
    pu_sort(v, left, order, v->n_jobs);
    pu_fill(v, order, v->n_jobs, plan);
    free(order);
    free(left);
    return 0;
}
