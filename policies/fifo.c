/* fifo.c: first in, first out with strict head-of-line blocking.
 *
 * The baseline of every DL-scheduling paper: YARN-CS in the evaluation of
 * Tiresias (Gu et al., NSDI 2019) and the "fifo" baseline of Gavel's evaluation
 * (Narayanan et al., OSDI 2020). Jobs start in arrival order, (submit, id);
 * when the oldest waiting job does not fit in the free GPUs, nobody behind it
 * starts, even a job that would fit. Non-preemptive: a job that holds GPUs
 * stays in the plan on its current allocation until it finishes.
 *
 * Simplifications and choices:
 * - Rigid jobs: exactly gpus_requested GPUs of one type, placed by the
 *   mechanism (packed on the fewest nodes).
 * - Heterogeneous clusters: the job goes on the fastest type (profiled
 *   throughput on its request) that has room now; a job never waits for a
 *   faster type that is busy. Types of unknown speed come after known ones,
 *   ties by type index.
 * - A job that cannot fit even in the empty cluster (larger than every type it
 *   may run on) is skipped rather than blocking the queue forever; the
 *   simulator rejects such traces up front anyway.
 * - A running job whose type lost capacity (node failure) and no longer fits is
 *   left out (preempted) and waits at its arrival position.
 * - It reads no job's progress (registry: progress_unread), so the simulator
 *   need not bring the view's progress to now for jobs that did not change.
 * - It decides from the queued jobs alone (fifo_schedule_queued, policy.h's
 *   schedule_queued): every running job is kept (it holds GPUs of nodes that
 *   are up, so they are there for it), and the queue starts in order on what
 *   the running jobs leave. After a node failure it asks for the full view. */
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <stdlib.h>

int fifo_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    return pu_create_noargs("fifo", state, args, err, errlen);
}

int fifo_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)state;
    (void)err;
    (void)errlen;
    pu_room_t r;
    pu_room_init(&r, v);
    int *order = pu_alloc((size_t)v->n_jobs, sizeof *order);
    char *kept = pu_alloc((size_t)v->n_jobs, 1);
    pu_arrival_order(v, order);
    for (int i = 0; i < v->n_jobs; i++)
        kept[order[i]] = (char)pu_keep(v, &r, plan, order[i]);
    for (int i = 0; i < v->n_jobs; i++) {
        int j = order[i];
        if (kept[j] || !pu_ever_fits(v, j))
            continue;
        if (!pu_start(v, &r, plan, j))
            break; /* head-of-line blocking */
    }
    free(kept);
    free(order);
    pu_room_free(&r);
    return 0;
}

int fifo_schedule_queued(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)state;
    (void)err;
    (void)errlen;
    if (v->reasons & MLS_WHY_FAULT) /* a running job may have lost its GPUs' type */
        return MLS_DECIDE_FULL;
    if (v->n_jobs == 0)
        return 0;
    pu_room_t r;
    pu_room_init(&r, v); /* the free GPUs: every running job is kept */
    for (int j = 0; j < v->n_jobs; j++) { /* the queue, in (submit, id) order */
        if (!pu_ever_fits(v, j))
            continue;
        if (!pu_start(v, &r, plan, j))
            break; /* head-of-line blocking */
    }
    pu_room_free(&r);
    return 0;
}

void fifo_destroy(void *state)
{
    (void)state;
}
