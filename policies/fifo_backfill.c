/* fifo_backfill.c: FIFO with backfilling (EASY when runtime estimates exist).
 *
 * Follows EASY backfilling (Lifka, JSSPP 1995), in the form Mu'alem and
 * Feitelson describe it (IEEE TPDS 12(6), 2001, the section on EASY), as HPC
 * batch schedulers use it. Jobs start in arrival order, (submit, id), as in
 * fifo. When the oldest waiting job (the head) does not fit, jobs behind it may
 * still start:
 * - EASY, when runtime estimates allow it: the head gets a reservation at the
 *   earliest time ("shadow time") enough GPUs free up, computed from the
 *   estimated ends of the jobs in the plan (now + duration_estimate - time
 *   already held). A later job may start now only if it does not delay that
 *   reservation: it runs on another GPU type, or its own estimate ends by the
 *   shadow time, or it fits in the GPUs left over at the shadow time ("extra").
 * - Greedy, otherwise: a job behind the blocked head starts whenever it fits in
 *   what is free. There is no reservation, so a large head can starve.
 * Non-preemptive: a job that holds GPUs keeps its current allocation.
 *
 * Simplifications and choices:
 * - A reservation exists only when the estimated ends of the running jobs free
 *   enough GPUs of some type; a job without duration_estimate is taken to run
 *   forever. Traces without estimates therefore get greedy backfilling.
 * - A job that has outlived its estimate is assumed to end now (as EASY does
 *   with jobs about to be killed); nothing kills it here.
 * - A backfill candidate without an estimate may only use other types or the
 *   extra GPUs.
 * - Heterogeneous clusters: jobs go on the fastest type with room (profiled
 *   throughput on the request); the head's reservation is on the type with the
 *   earliest shadow time, ties to the faster type.
 * - Only the head gets a reservation (EASY, not conservative backfilling).
 * - Parameter easy=0 forces greedy backfilling even with estimates.
 * - A job larger than every type it may run on is skipped, never the head. */
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <math.h>
#include <stdlib.h>

typedef struct fb_state {
    int easy;
} fb_state_t;

/* The head's reservation; type -1 = none (greedy backfilling). */
typedef struct reservation {
    int type;
    double shadow; /* s: when the head can start */
    int extra;     /* GPUs of `type` free at the shadow time beyond the head's */
} reservation_t;

typedef struct release {
    double end;
    int gpus;
} release_t;

int fifo_backfill_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    static const char *const known[] = {"easy", NULL};
    long easy;
    *state = NULL;
    if (policy_args_check(args, known, "fifo-backfill", err, errlen) ||
        policy_arg_long(args, "easy", 1, &easy, err, errlen))
        return -1;
    fb_state_t *s = pu_alloc(1, sizeof *s);
    s->easy = easy != 0;
    *state = s;
    return 0;
}

void fifo_backfill_destroy(void *state)
{
    free(state);
}

/* Estimated end of a job started or kept now; INFINITY without an estimate. */
static double est_end(const view_t *v, int job)
{
    const view_job_t *j = &v->jobs[job];
    if (!isfinite(j->duration_estimate))
        return INFINITY;
    return v->now + fmax(0.0, j->duration_estimate - j->attained_time);
}

static int cmp_release(const void *pa, const void *pb)
{
    const release_t *a = pa, *b = pb;
    return a->end < b->end ? -1 : a->end > b->end ? 1 : 0;
}

/* Shadow time of the head on `type` given the plan so far; sets *extra. */
static double shadow_on(const view_t *v, const pu_room_t *r, const plan_t *p, int head, int type,
                        int *extra)
{
    int g = v->jobs[head].gpus_requested, avail = r->room[type], n = 0;
    release_t *rel = pu_alloc((size_t)p->n, sizeof *rel);
    for (int k = 0; k < p->n; k++)
        if (p->allocs[k].type == type)
            rel[n++] = (release_t){est_end(v, p->allocs[k].job), p->allocs[k].gpus};
    qsort(rel, (size_t)n, sizeof *rel, cmp_release);
    double shadow = v->now;
    for (int k = 0; k < n && avail < g; k++) {
        avail += rel[k].gpus;
        shadow = rel[k].end;
    }
    free(rel);
    if (avail < g || !isfinite(shadow))
        return INFINITY;
    *extra = avail - g;
    return shadow;
}

static reservation_t reserve(const view_t *v, const pu_room_t *r, const plan_t *p, int head)
{
    reservation_t res = {-1, INFINITY, 0};
    int *order = pu_alloc((size_t)v->n_types, sizeof *order);
    int n = pu_type_order(v, head, order);
    for (int i = 0; i < n; i++) {
        int extra = 0;
        double s = shadow_on(v, r, p, head, order[i], &extra);
        if (s < res.shadow)
            res = (reservation_t){order[i], s, extra};
    }
    free(order);
    return res;
}

/* Starts job j behind the blocked head if some type has room and the
 * reservation allows it. */
static void backfill(const view_t *v, pu_room_t *r, plan_t *p, int j, reservation_t *res)
{
    int g = v->jobs[j].gpus_requested;
    int *order = pu_alloc((size_t)v->n_types, sizeof *order);
    int n = pu_type_order(v, j, order);
    for (int i = 0; i < n; i++) {
        int t = order[i];
        if (r->room[t] < g)
            continue;
        int harmless = t != res->type || est_end(v, j) <= res->shadow;
        if (!harmless && g > res->extra)
            continue;
        if (!harmless)
            res->extra -= g;
        plan_run(p, j, t, g);
        r->room[t] -= g;
        break;
    }
    free(order);
}

int fifo_backfill_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    const fb_state_t *s = state;
    pu_room_t r;
    pu_room_init(&r, v);
    int *order = pu_alloc((size_t)v->n_jobs, sizeof *order);
    char *kept = pu_alloc((size_t)v->n_jobs, 1);
    pu_arrival_order(v, order);
    for (int i = 0; i < v->n_jobs; i++)
        kept[order[i]] = (char)pu_keep(v, &r, plan, order[i]);
    int blocked = 0;
    reservation_t res = {-1, INFINITY, 0};
    for (int i = 0; i < v->n_jobs; i++) {
        int j = order[i];
        if (kept[j] || !pu_ever_fits(v, j))
            continue;
        if (blocked) {
            backfill(v, &r, plan, j, &res);
        } else if (!pu_start(v, &r, plan, j)) {
            blocked = 1;
            if (s && s->easy)
                res = reserve(v, &r, plan, j);
        }
    }
    free(kept);
    free(order);
    pu_room_free(&r);
    return 0;
}
