/* autoscale.c: Or, Zhang and Freedman's autoscaling of data-parallel jobs by
 * trial, with straggler replacement (`autoscale`).
 *
 * Or, Zhang and Freedman, "Resource Elasticity in Distributed Deep
 * Learning", MLSys 2020: §3 (the autoscaling engine: a job grows its workers
 * step by step, measuring its throughput at each size, and stops when the
 * scaling condition fails), §3.2 (the scaling condition: the throughput the
 * added workers bring, per worker, must exceed a fraction of what one worker
 * alone does; the batch grows with the workers, per-worker batch fixed),
 * §4 (stragglers: a persistently slow worker is removed and replaced by a
 * fresh one through the same resizing mechanism). The idea: nobody knows a
 * job's right size in advance, so the policy finds it by trying, paying a
 * resize at each step, and keeps only the sizes that pay for themselves.
 *
 * Per job: it starts on `start` GPUs (0: its min_gpus). Whenever it is seen
 * RUNNING (past its restart) at the size it was given, its observed
 * throughput there (view job `throughput`) is recorded: T(k). At the first
 * size, T(k0)/k0 is the per-worker reference. At a larger size k, tried
 * after the last size p that passed,
 *
 *     (T(k) - T(p)) / (k - p) >= eff x T(k0) / k0     (eff=0.5)
 *
 * passes and the job tries k + step next (step=1); otherwise it settles at
 * p and shrinks back to it. It also settles at its max_gpus, the GPUs of its
 * type, or the largest size its batch allows (per-GPU batch x k <= the
 * workload's max_batch). Decisions use observed throughputs only; the perf
 * model serves only to flag stragglers at a size never seen before.
 *
 * Stragglers: a running job whose observed throughput is below
 * straggle=0.8 of what it expects at its size (what the same size gave
 * before, or else the perf model's prediction) has a slow node. The view has
 * no per-node speed, so the slow node is inferred: of the job's nodes, those
 * hosting another running job that is at its expected pace are cleared; the
 * rest are suspect (all of them when every one is cleared). The job keeps its
 * GPUs on the other nodes and gets fresh GPUs on nodes that are not suspect
 * for the ones it leaves (explicit GPU ids; a resize, paid as a restart). When
 * there are not enough such GPUs, it stays where it is. Suspect nodes are
 * given to jobs last from then on.
 *
 * Placement: every allocation has explicit GPU ids. Jobs keep the GPUs they
 * hold; a job that grows adds free GPUs on its own nodes first, then on the
 * nodes with the most free GPUs (packing); one that shrinks drops the GPUs on
 * the nodes where it has fewest. Order: straggler replacements, then queued
 * jobs first come first served (strictly: one that does not fit stops the
 * queue), then trial growth, only when no job waits.
 *
 * Simplifications and why:
 * - Source: the paper's full text was not at hand when this was written; the
 *   algorithm follows its abstract and introduction (autoscaling by scaling
 *   efficiency and cost, stragglers removed by the same mechanism) and issue
 *   14 (the condition with eff = 0.5); the section numbers above are from
 *   memory of the paper and should be checked against it.
 * - The paper's engine autoscales one job on its own reserved resources (and
 *   weighs a cost/utility function for cloud billing); here jobs share a
 *   cluster, so growth uses only free GPUs and yields to waiting jobs, and
 *   the cost condition is left out (the scaling condition alone decides).
 * - A size is measured by one observation at the first decision after the
 *   job's restart (the simulator's throughputs are exact; the paper averages
 *   a window of steps). Cadence: arrivals, completions and rounds (the
 *   rounds give the observations; --round sets the trial length).
 * - The view has no per-worker step times, the signal Or et al. use to find
 *   the straggler; the job-level inference above replaces it, and a job
 *   whose straggler cannot be told apart from its other nodes leaves all of
 *   them. Suspicion never expires (a node's recovery is not observable
 *   without running on it); suspect nodes are used last, not never.
 * - Batch: under a backend with batch limits (pollux) the per-GPU batch
 *   (samples per step) is the job's trace per-GPU batch, or M0 when it has
 *   none, at every size, split into micro-batch and accumulation as the
 *   backend splits it; without limits the table's per-GPU batch is kept
 *   (batch_size 0), which scales the total batch with the workers too.
 * - Heterogeneous clusters: a job stays on the type it first started on (the
 *   fastest with room), as a resized job in the paper stays on its machines'
 *   kind.
 * - A settled job stays settled: its size is not re-tried later, when GPUs
 *   free up or its scaling changes as it trains (the paper sizes a job once,
 *   then only replaces stragglers). A job whose growth waits for the queue
 *   stays unsettled at its size and grows when nobody waits.
 * - A job the policy finds already holding GPUs (started by another policy,
 *   or by a daemon before a restart) starts its trials at that size.
 * - A throughput seen at a size is compared with later ones only at the same
 *   batch (a table job under accordion/gns adaptation changes its own batch,
 *   and its rate with it); the scaling condition uses the first observation
 *   at each size. */
#include "policies/idmap.h"
#include "policies/policies.h"
#include "policies/policy_util.h"

#include "policies/elastic.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct as_job {
    int start, passed, target, settled;
    int type;    /* -1 before the first start */
    int local;   /* per-GPU batch kept at every size; 0: the job's own */
    int replace; /* a node under it is slow: move off it */
    double base; /* T(start) / start, the per-worker reference */
    int n_obs;
    double *obs;    /* [k] observed throughput at k GPUs, NAN unseen */
    int *obs_batch; /* [k] the job's per-GPU batch when obs[k] was seen */
} as_job_t;

typedef struct as_state {
    double eff, straggle;
    long step, start;
    idmap_t ids;
    as_job_t *jobs;
    int cap;
    unsigned char *suspect;
    int n_suspect;
} as_state_t;

int autoscale_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    static const char *const known[] = {"eff", "step", "straggle", "start", NULL};
    double eff, straggle;
    long step, start;
    *state = NULL;
    if (policy_args_check(args, known, "autoscale", err, errlen) ||
        policy_arg_double(args, "eff", 0.5, &eff, err, errlen) ||
        policy_arg_double(args, "straggle", 0.8, &straggle, err, errlen) ||
        policy_arg_long(args, "step", 1, &step, err, errlen) ||
        policy_arg_long(args, "start", 0, &start, err, errlen))
        return -1;
    if (!(eff >= 0 && eff <= 1)) {
        snprintf(err, errlen, "autoscale: eff=%g: want a fraction in [0, 1]", eff);
        return -1;
    }
    if (!(straggle > 0 && straggle <= 1)) {
        snprintf(err, errlen, "autoscale: straggle=%g: want a fraction in (0, 1]", straggle);
        return -1;
    }
    if (step < 1 || step > 4096 || start < 0 || start > 4096) {
        snprintf(err, errlen,
                 "autoscale: step=%ld start=%ld: want step >= 1 and start >= 0 "
                 "(0: the job's min_gpus)",
                 step, start);
        return -1;
    }
    as_state_t *s = pu_alloc(1, sizeof *s);
    s->eff = eff;
    s->straggle = straggle;
    s->step = step;
    s->start = start;
    idmap_init(&s->ids);
    *state = s;
    return 0;
}

void autoscale_destroy(void *state)
{
    as_state_t *s = state;
    if (!s)
        return;
    for (int i = 0; i < s->ids.n; i++) {
        free(s->jobs[i].obs);
        free(s->jobs[i].obs_batch);
    }
    free(s->jobs);
    free(s->suspect);
    idmap_free(&s->ids);
    free(s);
}

/* ---- per-job record ------------------------------------------------------------ */

static as_job_t *job_rec(as_state_t *s, const view_job_t *jb)
{
    int before = s->ids.n, i = idmap_put(&s->ids, jb->id);
    if (i >= s->cap) {
        int cap = s->cap ? 2 * s->cap : 64;
        as_job_t *n = pu_alloc((size_t)cap, sizeof *n);
        if (s->cap)
            memcpy(n, s->jobs, (size_t)s->cap * sizeof *n);
        free(s->jobs);
        s->jobs = n;
        s->cap = cap;
    }
    as_job_t *r = &s->jobs[i];
    if (i == before) {
        int lo = jb->min_gpus > 1 ? jb->min_gpus : 1, hi = jb->max_gpus > lo ? jb->max_gpus : lo;
        int k = s->start > 0 ? (int)s->start : lo;
        r->start = r->target = k < lo ? lo : k > hi ? hi : k;
        r->type = -1;
        r->n_obs = hi + 1;
        r->obs = pu_alloc((size_t)r->n_obs, sizeof *r->obs);
        r->obs_batch = pu_alloc((size_t)r->n_obs, sizeof *r->obs_batch);
        for (int q = 0; q < r->n_obs; q++)
            r->obs[q] = NAN;
    }
    return r;
}

static int limits(const view_t *v, const view_job_t *jb, int type, view_batch_limits_t *l)
{
    return v->perf && v->perf->batch_limits &&
           v->perf->batch_limits(v->perf->ctx, jb, type, l) == 0 && l->min_local_batch >= 1 &&
           l->max_local_batch >= l->min_local_batch && l->max_batch >= 1;
}

/* The largest size the job may try on its type. */
static int kmax_of(const view_t *v, const view_job_t *jb, const as_job_t *r)
{
    int k = r->n_obs - 1;
    if (r->type >= 0 && v->types[r->type].total_gpus < k)
        k = v->types[r->type].total_gpus;
    view_batch_limits_t l;
    if (r->type >= 0 && r->local > 0 && limits(v, jb, r->type, &l) && l.max_batch / r->local < k)
        k = l.max_batch / r->local;
    return k > r->start ? k : r->start;
}

/* The per-GPU batch a job keeps at every size, fixed at its first start. */
static void first_start(const view_t *v, const view_job_t *jb, as_job_t *r, int type)
{
    view_batch_limits_t l;
    r->type = type;
    if (!limits(v, jb, type, &l))
        return;
    long b = jb->batch_size > 0
                 ? (long)jb->batch_size * (jb->accum_steps > 0 ? jb->accum_steps + 1 : 1)
                 : (l.init_batch > l.min_local_batch ? l.init_batch : l.min_local_batch);
    r->local = (int)(b < l.max_batch ? b : l.max_batch);
    int kmax = kmax_of(v, jb, r);
    if (r->target > kmax)
        r->target = r->start = kmax;
}

/* ---- observing: the scaling condition and stragglers --------------------------- */

/* What the job should do at its current size: what it did there before at
 * the same batch (a table job may change its own batch), else the model's
 * prediction; NAN unknown. */
static double expected(const view_t *v, const view_job_t *jb, const as_job_t *r)
{
    int k = jb->cur_gpus;
    if (k < r->n_obs && isfinite(r->obs[k]) && r->obs_batch[k] == jb->batch_size)
        return r->obs[k];
    if (!v->perf || !v->perf->throughput)
        return NAN;
    return v->perf->throughput(v->perf->ctx, jb, jb->cur_type, k, jb->cur_nodes, 0);
}

/* One observation at the size the job was given: the next trial or settling. */
static void step_trial(const as_state_t *s, const view_t *v, const view_job_t *jb, as_job_t *r)
{
    int k = jb->cur_gpus;
    if (!isfinite(r->obs[k]) || r->obs_batch[k] != jb->batch_size) {
        r->obs[k] = jb->throughput;
        r->obs_batch[k] = jb->batch_size;
    }
    if (r->settled)
        return;
    if (r->passed == 0) {
        r->passed = k;
        r->base = r->obs[k] / k;
    } else if (k > r->passed) {
        double marginal = (r->obs[k] - r->obs[r->passed]) / (k - r->passed);
        if (!(marginal >= s->eff * r->base)) {
            r->settled = 1;
            r->target = r->passed;
            return;
        }
        r->passed = k;
    }
    int kmax = kmax_of(v, jb, r), next = r->passed + (int)s->step;
    if (next > kmax)
        next = kmax;
    if (next <= r->passed) {
        r->settled = 1;
        r->target = r->passed;
    } else {
        r->target = next;
    }
}

/* A job first seen holding GPUs (started by another policy or before a
 * daemon's restart): its current size is where its trials start. */
static void adopt(const view_t *v, const view_job_t *jb, as_job_t *r)
{
    int k = jb->cur_gpus < r->n_obs ? jb->cur_gpus : r->n_obs - 1;
    r->start = r->target = k > 1 ? k : 1;
    first_start(v, jb, r, jb->cur_type);
}

/* health[j]: 1 at its expected pace, -1 a straggler, 0 not judged. */
static void observe(as_state_t *s, const view_t *v, signed char *health)
{
    for (int j = 0; j < v->n_jobs; j++) {
        const view_job_t *jb = &v->jobs[j];
        as_job_t *r = job_rec(s, jb);
        if (r->type < 0 && pu_holds(jb) && jb->cur_type >= 0 && jb->cur_type < v->n_types)
            adopt(v, jb, r);
        if (jb->state != VIEW_RUNNING || !(jb->throughput > 0) || jb->cur_gpus < 1 ||
            jb->cur_gpus >= r->n_obs || jb->cur_type != r->type)
            continue;
        double e = expected(v, jb, r);
        if (e > 0 && jb->throughput < s->straggle * e) {
            health[j] = -1;
            continue;
        }
        health[j] = 1;
        if (jb->cur_gpus == r->target)
            step_trial(s, v, jb, r);
    }
}

static int node_of(const view_t *v, int g)
{
    for (int k = 0; k < v->n_nodes; k++)
        if (g >= v->nodes[k].first_gpu && g < v->nodes[k].first_gpu + v->nodes[k].gpus)
            return k;
    return -1;
}

/* Marks the slow nodes under each straggler (see the top of the file). */
static void find_suspects(as_state_t *s, const view_t *v, const signed char *health,
                          const int *gnode)
{
    if (s->n_suspect < v->n_nodes) {
        unsigned char *n = pu_alloc((size_t)v->n_nodes, 1);
        if (s->n_suspect)
            memcpy(n, s->suspect, (size_t)s->n_suspect);
        free(s->suspect);
        s->suspect = n;
        s->n_suspect = v->n_nodes;
    }
    unsigned char *mine = pu_alloc((size_t)v->n_nodes + 1, 1);
    unsigned char *clear = pu_alloc((size_t)v->n_nodes + 1, 1);
    for (int g = 0; g < v->n_gpus; g++) /* nodes with a job at its pace */
        if (gnode[g] >= 0 && v->gpu_holder[g] >= 0 && health[v->gpu_holder[g]] > 0)
            clear[gnode[g]] = 1;
    for (int j = 0; j < v->n_jobs; j++) {
        const view_job_t *jb = &v->jobs[j];
        if (health[j] >= 0 || !jb->cur_gpu_ids)
            continue;
        memset(mine, 0, (size_t)v->n_nodes);
        int n_mine = 0, n_sus = 0;
        for (int i = 0; i < jb->cur_gpus; i++) {
            int nd = jb->cur_gpu_ids[i] >= 0 && jb->cur_gpu_ids[i] < v->n_gpus
                         ? gnode[jb->cur_gpu_ids[i]]
                         : -1;
            if (nd >= 0 && !mine[nd]) {
                mine[nd] = 1;
                n_mine++;
                n_sus += !clear[nd];
            }
        }
        for (int nd = 0; nd < v->n_nodes; nd++)
            if (mine[nd] && (!clear[nd] || !n_sus))
                s->suspect[nd] = 1;
        job_rec(s, jb)->replace = n_mine > 0;
    }
    free(mine);
    free(clear);
}

/* ---- placing ------------------------------------------------------------------- */

typedef struct as_place {
    const view_t *v;
    const as_state_t *s;
    const int *gnode;
    unsigned char *used; /* [gpu] given in this plan (or on a down node) */
} as_place_t;

static int free_on(const as_place_t *p, int nd)
{
    const view_node_t *n = &p->v->nodes[nd];
    int f = 0;
    for (int g = n->first_gpu; g < n->first_gpu + n->gpus; g++)
        f += !p->used[g];
    return f;
}

/* Adds `need` free GPUs of type to ids[*n..]: the job's own nodes (mine)
 * first, then the fullest-free nodes; suspect nodes last, or never when
 * `avoid`. Returns 1 when all were found (and marks them used). */
static int take(as_place_t *p, int type, const unsigned char *mine, int avoid, int need, int *ids,
                int *n)
{
    const view_t *v = p->v;
    int got = 0;
    while (got < need) {
        int best = -1;
        long best_key = -1;
        for (int nd = 0; nd < v->n_nodes; nd++) {
            const view_node_t *node = &v->nodes[nd];
            int sus = nd < p->s->n_suspect && p->s->suspect[nd];
            int f = node->type == type && node->up ? free_on(p, nd) : 0;
            if (!f || (sus && avoid))
                continue;
            long key = (sus ? 0 : 1L << 40) + (mine && mine[nd] ? 1L << 20 : 0) + f;
            if (key > best_key) {
                best_key = key;
                best = nd;
            }
        }
        if (best < 0)
            break;
        const view_node_t *node = &v->nodes[best];
        for (int g = node->first_gpu; g < node->first_gpu + node->gpus && got < need; g++)
            if (!p->used[g]) {
                p->used[g] = 1;
                ids[(*n)++] = g;
                got++;
            }
    }
    if (got < need) { /* give back */
        for (int i = 0; i < got; i++)
            p->used[ids[--(*n)]] = 0;
        return 0;
    }
    return 1;
}

static void add_alloc(const as_place_t *p, plan_t *plan, int j, const as_job_t *r, const int *ids,
                      int k)
{
    const view_job_t *jb = &p->v->jobs[j];
    int a = plan_run_on(plan, j, r->type, ids, k);
    view_batch_limits_t l;
    if (r->local > 0 && limits(p->v, jb, r->type, &l))
        elastic_split_batch(r->local, k, l.init_batch, l.max_batch, l.max_local_batch,
                            &plan->allocs[a].batch_size, &plan->allocs[a].accum_steps);
}

/* The GPUs a holder keeps: its current ones, off suspect nodes when it is
 * being replaced, at most `want` (dropping those on its emptiest nodes). */
static int keep_ids(as_place_t *p, const view_job_t *jb, int replace, int want, int *ids)
{
    int n = 0;
    for (int i = 0; i < jb->cur_gpus; i++) {
        int g = jb->cur_gpu_ids[i], nd = g >= 0 && g < p->v->n_gpus ? p->gnode[g] : -1;
        if (nd < 0 || !p->v->nodes[nd].up || p->used[g] ||
            (replace && nd < p->s->n_suspect && p->s->suspect[nd]))
            continue;
        ids[n++] = g;
    }
    while (n > want) { /* drop from the node where it has fewest */
        int worst = 0, worst_c = 1 << 30;
        for (int i = 0; i < n; i++) {
            int c = 0;
            for (int q = 0; q < n; q++)
                c += p->gnode[ids[q]] == p->gnode[ids[i]];
            if (c < worst_c || (c == worst_c && ids[i] > ids[worst])) {
                worst_c = c;
                worst = i;
            }
        }
        ids[worst] = ids[--n];
    }
    for (int i = 0; i < n; i++)
        p->used[ids[i]] = 1;
    return n;
}

/* Starts a queued job at its target on its type (the fastest with room at
 * its first start): its GPUs into ids; returns how many (0: not placed). */
static int start_job(as_place_t *p, int j, as_job_t *r, int *ids)
{
    const view_t *v = p->v;
    int *order = pu_alloc((size_t)v->n_types, sizeof *order), n_types = 0, n = 0;
    int fresh = r->type < 0;
    if (!fresh)
        order[n_types++] = r->type;
    else
        n_types = pu_type_order(v, j, order);
    for (int i = 0; i < n_types && !n; i++) {
        if (fresh)
            first_start(v, &v->jobs[j], r, order[i]);
        if (!take(p, order[i], NULL, 0, r->target, ids, &n))
            n = 0;
    }
    if (!n && fresh)
        r->type = -1; /* never started: free to pick its type next time */
    free(order);
    return n;
}

/* A holder keeps its GPUs (at most its target, off suspect nodes when it is
 * replaced) and, when replaced, gets fresh ones for those it left; when that
 * is impossible it stays as it is. Its GPUs into ids; returns how many. */
static int place_holder(as_place_t *p, int j, as_job_t *r, int *ids)
{
    const view_job_t *jb = &p->v->jobs[j];
    int want = r->target < jb->cur_gpus || r->replace ? r->target : jb->cur_gpus;
    unsigned char *mine = pu_alloc((size_t)p->v->n_nodes, 1);
    int n = keep_ids(p, jb, r->replace, want, ids);
    for (int i = 0; i < n; i++)
        mine[p->gnode[ids[i]]] = 1;
    if (n < want && !take(p, r->type, mine, r->replace, want - n, ids, &n)) {
        for (int i = 0; i < n; i++)
            p->used[ids[i]] = 0;
        n = keep_ids(p, jb, 0, jb->cur_gpus, ids);
    } else if (r->replace) {
        r->replace = 0;
    }
    free(mine);
    if (n < 1 || n < jb->min_gpus) {
        for (int i = 0; i < n; i++)
            p->used[ids[i]] = 0;
        return 0;
    }
    return n;
}

/* Trial growth of a holder into free GPUs (its own nodes first). */
static void grow(as_place_t *p, int j, const as_job_t *r, int *ids, int *n)
{
    unsigned char *mine = pu_alloc((size_t)p->v->n_nodes, 1);
    int before = *n;
    for (int q = 0; q < *n; q++)
        mine[p->gnode[ids[q]]] = 1;
    if (!take(p, r->type, mine, 0, r->target - *n, ids, n))
        *n = before;
    (void)j;
    free(mine);
}

static int as_schedule(as_state_t *s, const view_t *v, plan_t *plan)
{
    int nj = v->n_jobs, n_gpus = v->n_gpus;
    signed char *health = pu_alloc((size_t)nj + 1, 1);
    int *gnode = pu_alloc((size_t)n_gpus + 1, sizeof *gnode);
    int *idx = pu_alloc((size_t)nj + 1, sizeof *idx), *n = pu_alloc((size_t)nj + 1, sizeof *n);
    int **ids = pu_alloc((size_t)nj + 1, sizeof *ids);
    as_place_t p = {v, s, gnode, pu_alloc((size_t)n_gpus + 1, 1)};
    for (int g = 0; g < n_gpus; g++) {
        gnode[g] = node_of(v, g);
        p.used[g] = gnode[g] < 0 || !v->nodes[gnode[g]].up;
    }
    observe(s, v, health);
    find_suspects(s, v, health, gnode);
    pu_arrival_order(v, idx);
    for (int i = 0; i < nj; i++) {
        const view_job_t *jb = &v->jobs[idx[i]];
        const as_job_t *r = job_rec(s, jb);
        int cap = (r->n_obs > jb->cur_gpus ? r->n_obs : jb->cur_gpus) + 1;
        ids[idx[i]] = pu_alloc((size_t)cap, sizeof(int));
    }
    /* holders first, so that nobody takes their GPUs: stragglers' replacements
     * (phase 0) before the others keep or shrink (phase 1) */
    for (int phase = 0; phase < 2; phase++)
        for (int i = 0; i < nj; i++) {
            int j = idx[i];
            as_job_t *r = job_rec(s, &v->jobs[j]);
            if (n[j] || !pu_holds(&v->jobs[j]) || r->type != v->jobs[j].cur_type ||
                r->replace != (phase == 0))
                continue;
            n[j] = place_holder(&p, j, r, ids[j]);
        }
    int waiting = 0;
    for (int i = 0; i < nj && !waiting; i++) { /* the queue, first come first served */
        int j = idx[i];
        if (n[j] || pu_holds(&v->jobs[j]) || !pu_ever_fits(v, j))
            continue;
        n[j] = start_job(&p, j, job_rec(s, &v->jobs[j]), ids[j]);
        waiting = !n[j];
    }
    for (int i = 0; i < nj && !waiting; i++) { /* trial growth, when nobody waits */
        int j = idx[i];
        const as_job_t *r = job_rec(s, &v->jobs[j]);
        if (n[j] && pu_holds(&v->jobs[j]) && r->target > n[j])
            grow(&p, j, r, ids[j], &n[j]);
    }
    for (int i = 0; i < nj; i++) {
        int j = idx[i];
        if (n[j])
            add_alloc(&p, plan, j, job_rec(s, &v->jobs[j]), ids[j], n[j]);
        free(ids[j]);
    }
    free(ids);
    free(n);
    free(health);
    free(gnode);
    free(idx);
    free(p.used);
    return 0;
}

int autoscale_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    return as_schedule(state, v, plan);
}
