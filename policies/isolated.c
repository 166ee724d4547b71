/* isolated.c: the finish-time-fairness baseline, 1/N of the cluster each.
 *
 * Themis (Mahajan et al., NSDI 2020, its definition of finish-time fairness
 * rho = T_shared / T_id) measures a job against its run on 1/N of the cluster,
 * N the number of contending jobs; Gavel (Narayanan et al., OSDI 2020, the
 * "isolated" policy its fairness results are normalised by) allocates exactly
 * that. Each active job is entitled to the time fraction
 * share = min(1, C / (N x gpus_requested)) of its request, C the GPUs of the
 * cluster that are up. This policy realises the shares with rounds: it
 * integrates each job's entitled time since arrival (share x elapsed time, the
 * share changing as N changes), ranks jobs by received/entitled time
 * (attained_time / entitled: the largest deficit first, never-served jobs
 * first, ties by (submit, id)) and fills GPUs greedily in that order. When
 * N x gpus_requested <= C for every job, everyone runs.
 *
 * Simplifications and approximations:
 * - Time fractions are realised by whole rounds (cadence rounds+events), so
 *   shares hold only on average over several rounds; the round length is the
 *   granularity. Gavel solves for fractions and lets its round mechanism
 *   realise them the same way.
 * - Entitlement is integrated between calls with the share set at the earlier
 *   call; a job that arrived between calls is credited from its submit time at
 *   the share of the current call.
 * - N counts only jobs that can ever fit; C ignores GPU types (1/N of all GPUs),
 *   and a job's share is time on its own request on any type.
 * - Received time is attained_time, which includes restart overheads.
 * - A running job that stays keeps its GPUs when its type has room; others go
 *   on the fastest type (profiled throughput) with room. Greedy fill: a job
 *   that does not fit is passed over for the next one.
 * - State (entitlements by job id) lives in the policy instance, so results
 *   depend only on the sequence of calls, which the mechanism fixes.
 * -P mechanism=gavel runs Gavel's own isolated policy instead (its allocation
 * through Gavel's rounds; policies/gavel_share.c). */
#include "policies/gavel_share.h"
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <math.h>
#include <stdlib.h>

typedef struct entitled {
    int64_t id;
    double time;  /* s of entitled GPU time since arrival */
    double share; /* fraction set at the last call, for the next interval */
} entitled_t;

typedef struct iso_state {
    entitled_t *e; /* sorted by id */
    int n;
    double last; /* time of the last call; NAN before the first */
    gs_state_t *gavel; /* mechanism=gavel, NULL otherwise */
} iso_state_t;

int isolated_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    static const char *const own[] = {"mechanism", NULL};
    *state = NULL;
    int gavel = gs_wanted(args, "isolated", err, errlen);
    if (gavel < 0 || (!gavel && policy_args_check(args, own, "isolated", err, errlen)))
        return -1;
    gs_state_t *g = gavel ? gs_create(0, args, "isolated", err, errlen) : NULL;
    if (gavel && !g)
        return -1;
    iso_state_t *s = pu_alloc(1, sizeof *s);
    s->last = NAN;
    s->gavel = g;
    *state = s;
    return 0;
}

void isolated_destroy(void *state)
{
    iso_state_t *s = state;
    if (s) {
        free(s->e);
        gs_destroy(s->gavel);
    }
    free(s);
}

static int cmp_id(const void *pa, const void *pb)
{
    const entitled_t *a = pa, *b = pb;
    return a->id < b->id ? -1 : a->id > b->id ? 1 : 0;
}

static const entitled_t *find(const iso_state_t *s, int64_t id)
{
    entitled_t k = {id, 0, 0};
    return s->n ? bsearch(&k, s->e, (size_t)s->n, sizeof k, cmp_id) : NULL;
}

/* Brings every active job's entitlement up to now and stores the new shares.
 * Fills ratio[j] = received / entitled. */
static void update(iso_state_t *s, const view_t *v, double *ratio)
{
    pu_room_t r;
    pu_room_init(&r, v);
    int cap = pu_room_total(&r), nfit = 0;
    pu_room_free(&r);
    for (int j = 0; j < v->n_jobs; j++)
        nfit += pu_ever_fits(v, j);
    entitled_t *next = pu_alloc((size_t)v->n_jobs, sizeof *next);
    for (int j = 0; j < v->n_jobs; j++) {
        const view_job_t *jb = &v->jobs[j];
        double want = (double)nfit * jb->gpus_requested;
        double share = want > 0 ? fmin(1.0, cap / want) : 0.0;
        const entitled_t *old = find(s, jb->id);
        double from = isnan(s->last) || !old ? jb->submit : s->last;
        double t = (old ? old->time : 0.0) + (old ? old->share : share) * fmax(0.0, v->now - from);
        next[j] = (entitled_t){jb->id, t, share};
        if (t > 0)
            ratio[j] = jb->attained_time / t;
        else
            ratio[j] = jb->attained_time > 0 ? INFINITY : 0.0;
    }
    qsort(next, (size_t)v->n_jobs, sizeof *next, cmp_id);
    free(s->e);
    s->e = next;
    s->n = v->n_jobs;
    s->last = v->now;
}

int isolated_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    iso_state_t *s = state;
    if (s->gavel) {
        gs_schedule(s->gavel, v, plan);
        return 0;
    }
    double *ratio = pu_alloc((size_t)v->n_jobs, sizeof *ratio);
    int *order = pu_alloc((size_t)v->n_jobs, sizeof *order);
    update(s, v, ratio);
    for (int j = 0; j < v->n_jobs; j++)
        order[j] = j;
    pu_sort(v, ratio, order, v->n_jobs);
    pu_fill(v, order, v->n_jobs, plan);
    free(order);
    free(ratio);
    return 0;
}
