/* optimus.c: Optimus's marginal-gain GPU allocation (elastic, preemptive);
 * `optimus` estimates remaining work online, `optimus-oracle` reads it.
 *
 * Peng et al., "Optimus: An Efficient Dynamic Resource Scheduler for Deep
 * Learning Clusters", EuroSys 2018, §4 (estimating remaining work and the
 * speed of a job on a given allocation) and §5.1 (resource allocation). At each
 * decision every job first gets its minimum (Optimus: one worker per job),
 * then the remaining GPUs are handed out one at a time to the job with the
 * largest marginal gain, the predicted reduction of its remaining time:
 *
 *     gain(j) = remaining_j x (1 / tput_j(n) - 1 / tput_j(n + 1))
 *
 * i.e. (t(n) - t(n+1)) x remaining with t the time per work unit, tput from
 * view->perf on n GPUs of the job's type packed on the fewest nodes, within
 * the job's elastic range min_gpus..max_gpus. A job stops growing when one
 * more GPU no longer helps (gain <= 0). Each decision starts from scratch;
 * a job whose type and count come out unchanged keeps its GPUs.
 *
 * Simplifications and why:
 * - GPUs instead of parameter servers and workers: the engine's jobs are
 *   all-reduce data-parallel, so the worker/PS split of §5.1 collapses into a
 *   GPU count; Optimus's task placement (§5.2) is the mechanism's packing.
 * - Minimums when GPUs are short: the paper gives every job one worker
 *   first and does not say who waits when that is too many. Here jobs get
 *   their min_gpus smallest first, ties by (submit, id) (a choice: it starts
 *   the most jobs, and the first GPUs of a job are where its marginal gain is
 *   largest). Rigid jobs (min = max) only take part in that step, so on a
 *   rigid trace Optimus is a smallest-gang-first greedy fill and optimus and
 *   optimus-oracle decide alike.
 * - Speed: the paper fits a model of step time against (PS, workers) from
 *   online samples; here it is the profiled table (view->perf), which is what
 *   the fitted model approximates.
 * - Remaining work without the oracle: Optimus fits the training-loss curve
 *   and predicts the steps left to convergence; the view has no loss. The
 *   estimate is total = duration x tput(gpus_requested on the fastest type)
 *   with duration the user's duration_estimate when given, else the mean run
 *   time of finished jobs of the same workload, else of all finished jobs,
 *   else the prior prior_s (default 3600 s); remaining = total - work_done,
 *   at least 10 % of max(total, work_done) so an overdue job still counts (the
 *   refit of a loss curve would likewise keep predicting some work left).
 * - Heterogeneous clusters: a job keeps its current type when that has room
 *   for its minimum, else takes the fastest type with room; increments stay
 *   on that type. */
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Run times of finished jobs per workload and over all of them, folded in as
 * jobs finish: the non-oracle duration estimate (see the top of the file). */
typedef struct op_history {
    int n_workloads;
    double *sum;
    int *count;
    double sum_all;
    int n_seen;
} op_history_t;

typedef struct op_state {
    int oracle;
    double prior_s;
    op_history_t *history;
} op_state_t;

static int op_create(void **state, const policy_args_t *args, int oracle, char *err, size_t errlen)
{
    static const char *const known[] = {"prior_s", NULL};
    static const char *const none[] = {NULL};
    const char *name = oracle ? "optimus-oracle" : "optimus";
    double prior;
    *state = NULL;
    if (policy_args_check(args, oracle ? none : known, name, err, errlen) ||
        policy_arg_double(args, "prior_s", 3600, &prior, err, errlen))
        return -1;
    if (!(prior > 0) || !isfinite(prior)) {
        snprintf(err, errlen, "%s: prior_s=%g: want a duration > 0 s", name, prior);
        return -1;
    }
    op_state_t *s = pu_alloc(1, sizeof *s);
    s->oracle = oracle;
    s->prior_s = prior;
    s->history = pu_alloc(1, sizeof *s->history);
    *state = s;
    return 0;
}

int optimus_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    return op_create(state, args, 0, err, errlen);
}

int optimus_oracle_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    return op_create(state, args, 1, err, errlen);
}

static void op_destroy(void *state)
{
    op_state_t *s = state;
    if (!s)
        return;
    free(s->history->sum);
    free(s->history->count);
    free(s->history);
    free(s);
}

void optimus_destroy(void *state)
{
    op_destroy(state);
}

void optimus_oracle_destroy(void *state)
{
    op_destroy(state);
}

/* Work units/s of job on n GPUs of type (packed); NAN when unknown. */
static double tput(const view_t *v, int job, int type, int n)
{
    if (!v->perf || !v->perf->throughput || n <= 0)
        return NAN;
    return v->perf->throughput(v->perf->ctx, &v->jobs[job], type, n, pu_min_nodes(v, type, n), 0);
}

static void history_update(op_history_t *h, const view_t *v)
{
    if (v->n_finished < h->n_seen) { /* a different history: start again */
        for (int w = 0; w < h->n_workloads; w++) {
            h->sum[w] = 0;
            h->count[w] = 0;
        }
        h->sum_all = 0;
        h->n_seen = 0;
    }
    for (; h->n_seen < v->n_finished; h->n_seen++) {
        const view_finished_t *f = &v->finished[h->n_seen];
        h->sum_all += f->run_time;
        if (f->workload < 0)
            continue;
        if (f->workload >= h->n_workloads) {
            int n = 2 * f->workload + 8;
            double *sum = pu_alloc((size_t)n, sizeof *sum);
            int *count = pu_alloc((size_t)n, sizeof *count);
            for (int w = 0; w < h->n_workloads; w++) {
                sum[w] = h->sum[w];
                count[w] = h->count[w];
            }
            free(h->sum);
            free(h->count);
            h->sum = sum;
            h->count = count;
            h->n_workloads = n;
        }
        h->sum[f->workload] += f->run_time;
        h->count[f->workload]++;
    }
}

static double history_duration(const op_history_t *h, int workload)
{
    if (workload >= 0 && workload < h->n_workloads && h->count[workload])
        return h->sum[workload] / h->count[workload];
    return h->n_seen ? h->sum_all / h->n_seen : NAN;
}

/* Remaining work units (see the top of the file). */
static double remaining(const op_state_t *s, const view_t *v, const op_history_t *h, int job)
{
    const view_job_t *jb = &v->jobs[job];
    if (s->oracle)
        return fmax(0.0, jb->remaining_work);
    double dur = jb->duration_estimate;
    if (!(dur > 0))
        dur = history_duration(h, jb->workload);
    if (!(dur > 0))
        dur = s->prior_s;
    double rate = pu_best_rate(v, job);
    double total = dur * (rate > 0 ? rate : 1.0);
    return fmax(total - jb->work_done, 0.1 * fmax(total, jb->work_done));
}

/* Gain of job's (n+1)-th GPU of type; 0 when it does not help or is unknown. */
static double gain(const view_t *v, int job, int type, int n, double rem)
{
    double a = tput(v, job, type, n), b = tput(v, job, type, n + 1);
    if (!(a > 0) || !(b > a))
        return 0.0;
    return rem * (1.0 / a - 1.0 / b);
}

/* The type for the job's minimum: its current one when that has room, else
 * the fastest with room; -1 when none. */
static int min_type(const view_t *v, const pu_room_t *r, int job)
{
    const view_job_t *jb = &v->jobs[job];
    int need = jb->min_gpus, found = -1;
    if (need <= 0)
        return -1;
    if (pu_holds(jb) && jb->cur_type < r->n_types && r->room[jb->cur_type] >= need &&
        !(tput(v, job, jb->cur_type, need) == 0.0))
        return jb->cur_type;
    int *order = pu_alloc((size_t)v->n_types, sizeof *order);
    int n = pu_type_order(v, job, order);
    for (int i = 0; i < n && found < 0; i++)
        if (r->room[order[i]] >= need && !(tput(v, job, order[i], need) == 0.0))
            found = order[i];
    /* pu_type_order leaves out types smaller than the request; an elastic
     * job's minimum may still fit one of those. */
    for (int t = 0; t < v->n_types && found < 0; t++)
        if (r->room[t] >= need && tput(v, job, t, need) > 0)
            found = t;
    free(order);
    return found;
}

typedef struct op_key {
    int min;
    double submit;
    int64_t id;
    int job;
} op_key_t;

static int cmp_key(const void *pa, const void *pb)
{
    const op_key_t *a = pa, *b = pb;
    if (a->min != b->min)
        return a->min - b->min;
    if (a->submit != b->submit)
        return a->submit < b->submit ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id ? 1 : 0;
}

static int op_schedule(op_state_t *s, const view_t *v, plan_t *plan)
{
    int nj = v->n_jobs;
    op_key_t *keys = pu_alloc((size_t)nj, sizeof *keys);
    int *type = pu_alloc((size_t)nj, sizeof *type), *n = pu_alloc((size_t)nj, sizeof *n);
    double *rem = pu_alloc((size_t)nj, sizeof *rem), *g = pu_alloc((size_t)nj, sizeof *g);
    pu_room_t r;
    pu_room_init(&r, v);
    if (!s->oracle)
        history_update(s->history, v);
    for (int j = 0; j < nj; j++)
        keys[j] = (op_key_t){v->jobs[j].min_gpus, v->jobs[j].submit, v->jobs[j].id, j};
    qsort(keys, (size_t)nj, sizeof *keys, cmp_key);
    int left = pu_room_total(&r);
    for (int j = 0; j < nj; j++)
        type[j] = -1;
    for (int i = 0; i < nj && left > 0; i++) { /* minimums, smallest first */
        int j = keys[i].job;
        if (v->jobs[j].min_gpus > left)
            break; /* the rest ask for at least as much */
        type[j] = min_type(v, &r, j);
        if (type[j] < 0)
            continue;
        n[j] = v->jobs[j].min_gpus;
        r.room[type[j]] -= n[j];
        left -= n[j];
        if (n[j] < v->jobs[j].max_gpus) /* only elastic jobs need it */
            rem[j] = remaining(s, v, s->history, j);
    }
    for (int j = 0; j < nj; j++)
        g[j] = type[j] >= 0 && n[j] < v->jobs[j].max_gpus ? gain(v, j, type[j], n[j], rem[j]) : 0;
    for (;;) { /* one GPU at a time to the largest gain; ties to the earlier job */
        int best = -1;
        for (int i = 0; i < nj; i++) {
            int j = keys[i].job;
            if (g[j] > 0 && r.room[type[j]] > 0 && (best < 0 || g[j] > g[best]))
                best = j;
        }
        if (best < 0)
            break;
        n[best]++;
        r.room[type[best]]--;
        g[best] =
            n[best] < v->jobs[best].max_gpus ? gain(v, best, type[best], n[best], rem[best]) : 0;
    }
    for (int j = 0; j < nj; j++)
        if (type[j] >= 0)
            plan_run(plan, j, type[j], n[j]);
    pu_room_free(&r);
    free(keys);
    free(type);
    free(n);
    free(rem);
    free(g);
    return 0;
}

int optimus_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    return op_schedule(state, v, plan);
}

int optimus_oracle_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    return op_schedule(state, v, plan);
}
