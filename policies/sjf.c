/* sjf.c: shortest job first (oracle, non-preemptive).
 *
 * The classic SJF baseline, as in the Tiresias simulator's "sjf" and the
 * evaluation of Tiresias (Gu et al., NSDI 2019), which compares against
 * clairvoyant shortest-first schedulers. A job's length is its isolated
 * duration: total_work / throughput on its requested GPUs of the fastest type
 * that can run it. Waiting jobs start shortest first; a job that holds GPUs
 * keeps them until it finishes (no preemption).
 *
 * Simplifications and choices:
 * - Oracle: it reads total_work, which a real scheduler does not know. The
 *   result is marked oracle.
 * - Greedy fill: a short job that does not fit is passed over for a longer one
 *   that does (no head-of-line blocking, no reservation), so wide jobs can
 *   starve, as in SJF.
 * - The length uses the fastest type's profiled throughput even when the job
 *   then lands on a slower type; jobs of unknown throughput sort last, by
 *   (submit, id). Ties by (submit, id).
 * - Heterogeneous clusters: a job goes on the fastest type with room now.
 * - A job larger than every type it may run on is skipped. */
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <math.h>
#include <stdlib.h>

int sjf_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    return pu_create_noargs("sjf", state, args, err, errlen);
}

void sjf_destroy(void *state)
{
    (void)state;
}

int sjf_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)state;
    (void)err;
    (void)errlen;
    pu_room_t r;
    pu_room_init(&r, v);
    double *len = pu_alloc((size_t)v->n_jobs, sizeof *len);
    int *order = pu_alloc((size_t)v->n_jobs, sizeof *order);
    int n = 0;
    for (int j = 0; j < v->n_jobs; j++) {
        if (pu_keep(v, &r, plan, j))
            continue;
        len[j] = v->jobs[j].total_work / pu_best_rate(v, j);
        if (pu_ever_fits(v, j))
            order[n++] = j;
    }
    pu_sort(v, len, order, n);
    for (int i = 0; i < n; i++)
        pu_start(v, &r, plan, order[i]);
    free(order);
    free(len);
    pu_room_free(&r);
    return 0;
}
