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
 *   starve, as in SJF. fill=stop instead stops the queue at the first job that
 *   does not fit (HeliosArtifact's sjf.py: its queue loop breaks there).
 * - The length uses the fastest type's profiled throughput even when the job
 *   then lands on a slower type; jobs of unknown throughput sort last, by
 *   (submit, id). Ties by (submit, id).
 * - Heterogeneous clusters: a job goes on the fastest type with room now.
 * - A job larger than every type it may run on is skipped. */
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <math.h>
#include <stdlib.h>

#include <stdio.h>
#include <string.h>

/* The policy's one setting: 1 when the queue stops at the first job that
 * does not fit (fill=stop). */
typedef struct sjf_state {
    int stop;
} sjf_state_t;

int sjf_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    static const char *const known[] = {"fill", NULL};
    *state = NULL;
    if (policy_args_check(args, known, "sjf", err, errlen))
        return -1;
    const char *fill = policy_arg_str(args, "fill", "greedy");
    if (strcmp(fill, "greedy") && strcmp(fill, "stop")) {
        snprintf(err, errlen, "sjf: fill=%s: want greedy or stop", fill);
        return -1;
    }
    sjf_state_t *s = pu_alloc(1, sizeof *s);
    s->stop = !strcmp(fill, "stop");
    *state = s;
    return 0;
}

void sjf_destroy(void *state)
{
    free(state);
}

int sjf_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    const sjf_state_t *s = state;
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
        if (!pu_start(v, &r, plan, order[i]) && s->stop)
            break;
    free(order);
    free(len);
    pu_room_free(&r);
    return 0;
}
