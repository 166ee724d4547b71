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
 *   on that type.
 *
 * The batch as GPUs change, -P batch=per_gpu|total (default per_gpu):
 * - per_gpu: a job runs at its trace's per-GPU batch on however many GPUs
 *   it gets (its total batch grows with them), as the engine runs any job
 *   the plan gives no batch.
 * - total: Pollux's Optimus+Oracle (Qiao et al., OSDI 2021, §5.3; its
 *   artifact's simulator/optimus.py, petuum/adaptdl osdi21-artifact c793c70,
 *   read, not copied): a job keeps its total batch (the trace's total_batch)
 *   on any GPU count: on n GPUs its per-GPU batch is ceil(total / n), split
 *   into a micro-batch and accumulation steps as the pollux backend splits
 *   it (elastic_split_batch: accumulation above the GPU's largest
 *   micro-batch, at least one step on one GPU above the initial batch). The
 *   plan gives that micro-batch and those steps, so the engine runs what the
 *   gains were computed with (view->perf at per-GPU batch ceil(total / n)),
 *   and a job grows to at most total / min_local_batch GPUs (the artifact's
 *   max_replicas). Jobs without a total_batch, or under a perf model without
 *   batch limits (Gavel's tables), run as under per_gpu. Set by `--like
 *   pollux`. The gain is then the artifact's: (step time(n) - step
 *   time(n+1)) x the optimizer steps left at the total batch, step times
 *   from view->perf->samples_throughput (the samples of a step, n x
 *   ceil(total / n), over samples/s: the rounded-up per-GPU batch is no
 *   progress, nor is the efficiency of that larger batch), the steps left
 *   counted, as optimus.py does, from the end of the job's current epoch (1
 *   in its last epoch): the time its later epochs take on one GPU, each at
 *   its own goodput, over the one-GPU step time. Without samples_throughput
 *   or epochs: the work-based gain above, the remaining work restated at
 *   the statistical efficiency of the job's current epoch. */
#include "policies/elastic.h"
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    int keep_total; /* -P batch=total */
    int most_free;  /* -P place=most_free */
    double prior_s;
    op_history_t *history;
} op_state_t;

static int op_create(void **state, const policy_args_t *args, int oracle, char *err, size_t errlen)
{
    static const char *const known[] = {"prior_s", "batch", "place", NULL};
    static const char *const oracle_known[] = {"batch", "place", NULL};
    const char *name = oracle ? "optimus-oracle" : "optimus";
    double prior;
    *state = NULL;
    if (policy_args_check(args, oracle ? oracle_known : known, name, err, errlen) ||
        policy_arg_double(args, "prior_s", 3600, &prior, err, errlen))
        return -1;
    if (!(prior > 0) || !isfinite(prior)) {
        snprintf(err, errlen, "%s: prior_s=%g: want a duration > 0 s", name, prior);
        return -1;
    }
    const char *batch = policy_arg_str(args, "batch", "per_gpu");
    if (strcmp(batch, "per_gpu") && strcmp(batch, "total")) {
        snprintf(err, errlen, "%s: batch=%s: want per_gpu or total", name, batch);
        return -1;
    }
    const char *place = policy_arg_str(args, "place", "mechanism");
    if (strcmp(place, "mechanism") && strcmp(place, "most_free")) {
        snprintf(err, errlen, "%s: place=%s: want mechanism or most_free", name, place);
        return -1;
    }
    op_state_t *s = pu_alloc(1, sizeof *s);
    s->oracle = oracle;
    s->keep_total = !strcmp(batch, "total");
    s->most_free = !strcmp(place, "most_free");
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

/* How a job's batch follows its GPU count in this decision: total > 0 when
 * it keeps that total batch (-P batch=total), with the limits that split it;
 * 0 when it runs at its own per-GPU batch. */
typedef struct op_batch {
    int total;
    view_batch_limits_t lim;
} op_batch_t;

static op_batch_t batch_rule(const op_state_t *s, const view_t *v, int job)
{
    op_batch_t b = {0};
    const view_job_t *jb = &v->jobs[job];
    if (s->keep_total && jb->total_batch > 0 && v->perf && v->perf->batch_limits &&
        v->perf->batch_limits(v->perf->ctx, jb, -1, &b.lim) == 0 && b.lim.max_local_batch > 0 &&
        b.lim.min_local_batch > 0)
        b.total = jb->total_batch;
    return b;
}

/* The per-GPU batch per step of a job keeping total batch `total` on n GPUs. */
static int local_batch(int total, int n)
{
    return (total + n - 1) / n;
}

/* The most GPUs the job may get: max_gpus, and under a fixed total batch at
 * most total / min_local_batch (the per-GPU batch stays profiled). */
static int max_n(const view_t *v, int job, const op_batch_t *b)
{
    int mx = v->jobs[job].max_gpus;
    if (b->total > 0) {
        int cap = b->total / b->lim.min_local_batch;
        if (cap < 1)
            cap = 1;
        if (cap < mx)
            mx = cap;
    }
    return mx;
}

/* Work units/s of job on n GPUs of type (packed) at the batch its rule
 * gives; NAN when unknown. */
static double tput(const view_t *v, int job, const op_batch_t *b, int type, int n)
{
    if (!v->perf || !v->perf->throughput || n <= 0)
        return NAN;
    return v->perf->throughput(v->perf->ctx, &v->jobs[job], type, n, pu_min_nodes(v, type, n),
                               b->total > 0 ? local_batch(b->total, n) : 0);
}

/* The micro-batch *m and accumulation steps *steps of job's fixed total
 * batch on n GPUs of type (the backend's split). */
static void split(const view_t *v, int job, const op_batch_t *b, int type, int n, int *m,
                  int *steps)
{
    view_batch_limits_t l = b->lim;
    if (v->perf->batch_limits(v->perf->ctx, &v->jobs[job], type, &l) < 0)
        l = b->lim;
    elastic_split_batch(local_batch(b->total, n), n, l.init_batch, l.max_batch, l.max_local_batch,
                        m, steps);
}

/* Runs job on n GPUs of type (on GPU ids when ids != NULL), at the
 * micro-batch and accumulation steps its fixed total batch gives there (the
 * engine then runs what tput rated). */
static void plan_job(plan_t *plan, const view_t *v, int job, const op_batch_t *b, int type, int n,
                     const int *ids)
{
    int r = ids ? plan_run_on(plan, job, type, ids, n) : plan_run(plan, job, type, n);
    if (b->total <= 0)
        return;
    int m, steps;
    split(v, job, b, type, n, &m, &steps);
    plan->allocs[r].batch_size = m;
    plan->allocs[r].accum_steps = steps;
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

/* Seconds a fixed-total job takes on one GPU of type from work `from` to
 * `to`, each epoch (of b's epoch_work) at its own goodput; NAN when a rate
 * is unknown or the job has no epochs. */
static double time_on_one(const view_t *v, int job, const op_batch_t *b, int type, double from,
                          double to)
{
    double ew = b->lim.epoch_work, time = 0, w = from;
    if (b->total <= 0 || !(ew > 0) || (to - from) / ew > 1e5)
        return NAN;
    view_job_t at = v->jobs[job];
    while (w < to * (1 - 1e-12)) {
        double next = (floor(w / ew + 1e-9) + 1) * ew, seg = fmin(to, next) - w;
        at.work_done = w;
        double g = v->perf->throughput(v->perf->ctx, &at, type, 1, pu_min_nodes(v, type, 1),
                                       local_batch(b->total, 1));
        if (!(g > 0))
            return NAN;
        time += seg / g;
        w += seg;
    }
    return time;
}

/* A fixed-total job's remaining work `rem`, restated at the statistical
 * efficiency of its current epoch: sum over its remaining epochs of work /
 * goodput there, times the goodput now (on one GPU of type: at a fixed total
 * batch the efficiency of an epoch does not depend on the GPU count). Then
 * rem x (1/tput(n) - 1/tput(n+1)) is the remaining time saved over all the
 * remaining epochs. rem itself when the job's batch is its own, or without
 * epochs. */
static double at_current_efficiency(const view_t *v, int job, const op_batch_t *b, int type,
                                    double rem)
{
    double now = tput(v, job, b, type, 1), wd = v->jobs[job].work_done;
    double time = rem > 0 && now > 0 ? time_on_one(v, job, b, type, wd, wd + rem) : NAN;
    return time > 0 ? time * now : rem;
}

/* Seconds per optimizer step of a fixed-total job on n GPUs of type packed:
 * the samples of a step over the samples/s the view shows (no statistical
 * efficiency); NAN when unknown. */
static double step_time(const view_t *v, int job, const op_batch_t *b, int type, int n)
{
    if (b->total <= 0 || !v->perf->samples_throughput || n <= 0)
        return NAN;
    int m, steps;
    split(v, job, b, type, n, &m, &steps);
    double x = v->perf->samples_throughput(v->perf->ctx, &v->jobs[job], type, n,
                                           pu_min_nodes(v, type, n), m, steps);
    return x > 0 ? (double)n * m * (steps + 1) / x : NAN;
}

/* The optimizer steps a fixed-total job with `rem` work left has to run
 * after its current epoch (at least one), as the artifact's Optimus counts
 * them (optimus.py: the iterations at the total batch from the end of the
 * current epoch to completion; 1 in the last epoch): the time the epochs
 * after the current one take on one GPU of type over its step time there.
 * NAN when the job's batch is its own, it has no epochs or a rate is
 * unknown (its gain is then work-based). */
static double steps_left(const view_t *v, int job, const op_batch_t *b, int type, double rem)
{
    double ew = b->lim.epoch_work, st = step_time(v, job, b, type, 1);
    double wd = v->jobs[job].work_done, end = wd + fmax(rem, 0.0);
    if (!(st > 0) || !(ew > 0))
        return NAN;
    double from = fmin(end, (floor(wd / ew + 1e-9) + 1) * ew);
    double time = end > from ? time_on_one(v, job, b, type, from, end) : 0;
    return isnan(time) ? NAN : fmax(time / st, 1.0);
}

/* Gain of job's (n+1)-th GPU of type; 0 when it does not help or is unknown.
 * A fixed-total job with `steps` optimizer steps left (not NAN): steps x
 * (step time(n) - step time(n+1)), the artifact's gain (iterations left at
 * the total batch times the step times it predicts): the per-GPU batch
 * rounded up on n GPUs (ceil(total / n) x n samples a step) is not counted
 * as progress, nor the statistical efficiency of that larger batch. */
static double gain(const view_t *v, int job, const op_batch_t *bt, int type, int n, double rem,
                   double steps)
{
    if (!isnan(steps)) {
        double sa = step_time(v, job, bt, type, n), sb = step_time(v, job, bt, type, n + 1);
        return sa > 0 && sb > 0 && sb < sa ? steps * (sa - sb) : 0.0;
    }
    double a = tput(v, job, bt, type, n), b = tput(v, job, bt, type, n + 1);
    if (!(a > 0) || !(b > a))
        return 0.0;
    return rem * (1.0 / a - 1.0 / b);
}

/* The type for the job's minimum: its current one when that has room, else
 * the fastest with room; -1 when none. */
static int min_type(const view_t *v, const pu_room_t *r, int job, const op_batch_t *b)
{
    const view_job_t *jb = &v->jobs[job];
    int need = jb->min_gpus, found = -1;
    if (need <= 0)
        return -1;
    if (pu_holds(jb) && jb->cur_type < r->n_types && r->room[jb->cur_type] >= need &&
        !(tput(v, job, b, jb->cur_type, need) == 0.0))
        return jb->cur_type;
    int *order = pu_alloc((size_t)v->n_types, sizeof *order);
    int n = pu_type_order(v, job, order);
    for (int i = 0; i < n && found < 0; i++)
        if (r->room[order[i]] >= need && !(tput(v, job, b, order[i], need) == 0.0))
            found = order[i];
    /* pu_type_order leaves out types smaller than the request; an elastic
     * job's minimum may still fit one of those. */
    for (int t = 0; t < v->n_types && found < 0; t++)
        if (r->room[t] >= need && tput(v, job, b, t, need) > 0)
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

/* -P place=most_free: the placement of Pollux's artifact's Optimus
 * (optimus.py, after the allocation): a job planned on its current type and
 * GPU count keeps its GPUs; every other job, fewest GPUs first (ties in
 * (submit, id) order), takes GPUs from the node of its type with the most
 * free GPUs (ties to the lower index), then the next such node, until it has
 * its count. The GPUs of the jobs that change are free for this. */
typedef struct op_place_key {
    int n;
    double submit;
    int64_t id;
    int job;
} op_place_key_t;

static int cmp_place(const void *pa, const void *pb)
{
    const op_place_key_t *a = pa, *b = pb;
    if (a->n != b->n)
        return a->n - b->n;
    if (a->submit != b->submit)
        return a->submit < b->submit ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id ? 1 : 0;
}

static int kept(const view_t *v, int j, int type, int n)
{
    const view_job_t *jb = &v->jobs[j];
    return pu_holds(jb) && jb->cur_type == type && jb->cur_gpus == n && jb->cur_gpu_ids &&
           jb->cur_partner < 0;
}

/* The ids of n GPUs for job j, most-free node first; 0, or -1 when the free
 * GPUs of its type are too few. */
static int take_most_free(const view_t *v, char *used, int *nfree, int type, int n, int *ids)
{
    int got = 0;
    while (got < n) {
        int pick = -1;
        for (int k = 0; k < v->n_nodes; k++)
            if (v->nodes[k].type == type && v->nodes[k].up && nfree[k] > 0 &&
                (pick < 0 || nfree[k] > nfree[pick]))
                pick = k;
        if (pick < 0)
            return -1;
        const view_node_t *nd = &v->nodes[pick];
        for (int g = nd->first_gpu; g < nd->first_gpu + nd->gpus && got < n; g++)
            if (!used[g]) {
                used[g] = 1;
                nfree[pick]--;
                ids[got++] = g;
            }
    }
    return 0;
}

static void place_all(const op_state_t *s, const view_t *v, plan_t *plan, const op_batch_t *bt,
                      const int *type, const int *n)
{
    int nj = v->n_jobs, on = s->most_free && v->gpu_holder && v->nodes && v->n_gpus > 0;
    char *used = on ? pu_alloc((size_t)v->n_gpus, 1) : NULL;
    int *nfree = on ? pu_alloc((size_t)v->n_nodes, sizeof *nfree) : NULL;
    op_place_key_t *order = pu_alloc((size_t)nj + 1, sizeof *order);
    int m = 0;
    for (int k = 0; on && k < v->n_nodes; k++)
        nfree[k] = v->nodes[k].up ? v->nodes[k].gpus : 0;
    for (int j = 0; j < nj; j++) {
        if (type[j] < 0)
            continue;
        if (!on) {
            plan_job(plan, v, j, &bt[j], type[j], n[j], NULL);
            continue;
        }
        if (!kept(v, j, type[j], n[j])) {
            order[m++] = (op_place_key_t){n[j], v->jobs[j].submit, v->jobs[j].id, j};
            continue;
        }
        for (int i = 0; i < n[j]; i++) { /* its GPUs stay its own */
            int g = v->jobs[j].cur_gpu_ids[i];
            for (int k = 0; k < v->n_nodes; k++)
                if (g >= v->nodes[k].first_gpu && g < v->nodes[k].first_gpu + v->nodes[k].gpus)
                    nfree[k]--;
            used[g] = 1;
        }
        plan_job(plan, v, j, &bt[j], type[j], n[j], NULL);
    }
    qsort(order, (size_t)m, sizeof *order, cmp_place);
    int *ids = pu_alloc((size_t)v->n_gpus + 1, sizeof *ids);
    for (int i = 0; i < m; i++) {
        int j = order[i].job;
        int ok = take_most_free(v, used, nfree, type[j], n[j], ids) == 0;
        plan_job(plan, v, j, &bt[j], type[j], n[j], ok ? ids : NULL);
    }
    free(ids);
    free(order);
    free(used);
    free(nfree);
}

static int op_schedule(op_state_t *s, const view_t *v, plan_t *plan)
{
    int nj = v->n_jobs;
    op_key_t *keys = pu_alloc((size_t)nj, sizeof *keys);
    int *type = pu_alloc((size_t)nj, sizeof *type), *n = pu_alloc((size_t)nj, sizeof *n);
    double *rem = pu_alloc((size_t)nj, sizeof *rem), *g = pu_alloc((size_t)nj, sizeof *g);
    double *left_steps = pu_alloc((size_t)nj, sizeof *left_steps);
    op_batch_t *bt = pu_alloc((size_t)nj, sizeof *bt);
    int *mx = pu_alloc((size_t)nj, sizeof *mx);
    pu_room_t r;
    pu_room_init(&r, v);
    if (!s->oracle)
        history_update(s->history, v);
    for (int j = 0; j < nj; j++) {
        keys[j] = (op_key_t){v->jobs[j].min_gpus, v->jobs[j].submit, v->jobs[j].id, j};
        bt[j] = batch_rule(s, v, j);
        mx[j] = max_n(v, j, &bt[j]);
    }
    qsort(keys, (size_t)nj, sizeof *keys, cmp_key);
    int left = pu_room_total(&r);
    for (int j = 0; j < nj; j++)
        type[j] = -1;
    for (int i = 0; i < nj && left > 0; i++) { /* minimums, smallest first */
        int j = keys[i].job;
        if (v->jobs[j].min_gpus > left)
            break; /* the rest ask for at least as much */
        type[j] = min_type(v, &r, j, &bt[j]);
        if (type[j] < 0)
            continue;
        n[j] = v->jobs[j].min_gpus;
        r.room[type[j]] -= n[j];
        left -= n[j];
        left_steps[j] = NAN;
        if (n[j] < mx[j]) { /* only elastic jobs need it; rem only for a work-based gain */
            double left_work = remaining(s, v, s->history, j);
            left_steps[j] = steps_left(v, j, &bt[j], type[j], left_work);
            if (isnan(left_steps[j]))
                rem[j] = at_current_efficiency(v, j, &bt[j], type[j], left_work);
        }
    }
    for (int j = 0; j < nj; j++)
        g[j] = type[j] >= 0 && n[j] < mx[j]
                   ? gain(v, j, &bt[j], type[j], n[j], rem[j], left_steps[j])
                   : 0;
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
        g[best] = n[best] < mx[best]
                      ? gain(v, best, &bt[best], type[best], n[best], rem[best], left_steps[best])
                      : 0;
    }
    place_all(s, v, plan, bt, type, n);
    pu_room_free(&r);
    free(bt);
    free(mx);
    free(keys);
    free(type);
    free(n);
    free(rem);
    free(left_steps);
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
