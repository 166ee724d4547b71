/* elastic.c: Saxena et al.'s elastic scaling by dynamic programming
 * (`elastic-dp`) and its fixed-batch baseline (`elastic-fixed-batch`).
 *
 * Saxena, Jayaram, Basu, Sabharwal and Verma, "Effective Elastic Scaling of
 * Deep Learning Workloads", MASCOTS 2020: §III (a job's throughput on k GPUs
 * depends on its batch size; a larger batch scales further), §IV (the
 * optimisation problem and its dynamic program), §V (the autoscaler that runs
 * the optimiser at every arrival and completion, and the baseline that scales
 * GPUs but keeps each job's batch). The idea: every job may run on
 * kmin..kmax GPUs and at any total batch in its range [bmin, bmax]; each
 * choice (k, b) has a throughput, and a job's worth on k GPUs is its best
 * throughput over the batches that fit k GPUs, divided by its throughput per
 * GPU at its smallest size k0 (its minimum, or the first size its batch range
 * allows): the GPUs it occupies scaled by its scaling efficiency relative to
 * k0 (the paper's T(k) / (k T(1)) when k0 = 1), so jobs in different units
 * add up. The optimiser picks the k of every admitted job that
 * maximises the sum, subject to the cluster's GPUs, by a knapsack-like
 * dynamic program over (jobs, GPUs) (elastic_dp_solve, elastic.h).
 *
 *     worth_j(k) = k0 x max_{b in [bmin, bmax], b/k fits} T_j(k, b) / max_{b ...} T_j(k0, b)
 *     maximise sum_j worth_j(k_j)  s.t.  sum_j k_j <= G,  k_j in kmin_j..kmax_j
 *
 * Admission (§V): jobs are admitted first come first served while their
 * minimum fits; running jobs stay admitted (the optimiser may shrink them to
 * their minimum, never below); a queued job whose minimum does not fit
 * blocks those behind it (a FIFO queue). `elastic-fixed-batch` is the same
 * optimiser with each job's batch fixed at its submitted total batch B (per
 * GPU B/k): it scales GPUs but not the batch, so it can only use k with
 * B/k at least the smallest per-GPU batch, and on many GPUs it runs small
 * per-GPU batches at a poor efficiency (the paper's point).
 *
 * From view->perf: T_j(k, b) is view->perf->throughput at per-GPU batch b/k
 * (under the pollux backend that is the goodput, throughput x statistical
 * efficiency, at the job's progress, in M0-equivalent samples/s: the work unit
 * of that backend); the range is [init_batch, max_batch] of batch_limits. The
 * plan carries the chosen per-GPU batch split into micro-batch and
 * accumulation steps as the backend splits it (elastic_split_batch).
 *
 * Simplifications and why:
 * - Source: the paper's full text was not at hand when this was written; the
 *   formulation follows its abstract (batch range per job, scaling
 *   efficiency, a dynamic program run in an autoscaler, the fixed-batch
 *   baseline) and issue 14; the section numbers above and the admission rule
 *   are from memory of the paper and should be checked against it.
 * - Goodput instead of throughput under the pollux backend: the paper
 *   assumes any batch in the range trains to the same accuracy in the same
 *   epochs, so raw samples/s is its objective; this engine's pollux backend
 *   charges large batches their statistical efficiency, and optimising raw
 *   samples/s there would pick batches that slow training. Under backends
 *   without batch limits (the table, the curves) a job has no batch range:
 *   both policies then keep the job's batch and decide alike.
 * - Batches searched on a grid: 12 per-GPU batches spaced geometrically over
 *   the range that fits k GPUs (ends included), not every integer; the paper
 *   profiles a few batch sizes per job as well. A per-GPU batch above the
 *   GPU's memory (max_local) runs by gradient accumulation, as the backend
 *   splits it; the paper caps the per-GPU batch by memory instead (here such a
 *   batch is only chosen when its goodput, accumulation included, is best).
 * - Batch range per job: the view has no user-given [bmin, bmax]; it is the
 *   workload's [init_batch, max_batch] (the batch its hyper-parameters were
 *   tuned for, and the largest that trains), per GPU at least min_local.
 * - The fixed batch B is the job's total batch when first seen: its trace
 *   per-GPU batch x requested GPUs, or the backend's default max(M0,
 *   min_local x requested GPUs).
 * - Heterogeneous clusters (the paper's is homogeneous): a job is admitted on
 *   its current type when it has room for its minimum, else on the first type
 *   in pu_type_order with room; one dynamic program per type.
 * - Ties: a running job's current size gets a 1e-9 relative bonus, so that
 *   between equally good allocations the one without restarts is kept (the
 *   paper does not say; without it equal jobs could swap sizes at no gain).
 * - Unknown rates (NAN) count as linear scaling; a size whose rate is 0
 *   (cannot run) is not allowed.
 * - Worths are cached per job and recomputed when its type, epoch (goodput
 *   depends on progress only through the epoch's noise scale) or, without
 *   batch limits, its batch changes; a job's worths are computed only up to
 *   the largest size it could get (its minimum plus the GPUs left over after
 *   every admitted minimum), and its sizes beyond its best worth are left out
 *   of the program (more GPUs for no more worth never help: exact); the
 *   dynamic program itself skips, exactly, what cannot change its answer
 *   (elastic_dp_solve below).
 * - A job's worths stop at the first size k past its peak with
 *   kmax x worth(k) / k <= the peak (extend): this assumes that a job's
 *   worth per GPU does not rise with more GPUs beyond k (its scaling
 *   efficiency, §III, only falls), so no larger size can beat the peak. A dip
 *   and a rise after it (a job spilling onto a second node) are still
 *   searched. Not exact for every perf model (the batch grid moves with k),
 *   but identical plans wherever checked: bench/elastic_decide's digests,
 *   the goldens, Pollux's workloads 1, 2, 5 and 8 (--cadence both); it
 *   halves the model calls of a cold decision (bench/README.md).
 * - Under the pollux backend the goodput is that of the job's current epoch
 *   (its noise scale then); it is re-evaluated only at the next arrival or
 *   completion (the paper's cadence; --cadence both re-decides every round). */
#include "policies/elastic.h"
#include "policies/idmap.h"
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ED_GRID 12
#define ED_STAY 1e-9
#define ED_NEVER -1e300 /* the worth of a size not allowed */

/* ---- the dynamic program ------------------------------------------------------ */

/* Row i of the program is f_i(e), the best sum of jobs 0..i with at most e
 * GPUs above their minimums (f_{-1} = 0), and f_i(e) = max over x of
 * f_{i-1}(e - x) + val_i(x); the chosen x is the smallest of the maximisers.
 * Three exact savings over the plain O(n x E x K) loop, each leaving every
 * f_i(e) and every choice as the plain loop makes them (so the same k and the
 * same tie-break):
 * - Options: f_{i-1} is nondecreasing (GPUs may stay idle), so an x whose
 *   worth is no more than that of a smaller x never strictly beats it: only
 *   x = 0 and the x whose worth exceeds every smaller x's (the staircase) are
 *   tried.
 * - Top: f_i(e) and its choice are the same for every e >= W_i, the sum of
 *   the largest options of jobs 0..i; cells above min(E, W_i) are not
 *   computed (a read above is a read at it).
 * - Bottom: the trace back from E reaches row i at e >= E - R_i, R_i the sum
 *   of the largest options of jobs i+1..n-1; cells below are not computed.
 * Eight cells are computed at once in vector registers (dp_block).
 */
typedef struct dp_opts {
    int *off;  /* job i's options: [off[i], off[i + 1]) */
    int *x;    /* offset above the minimum, ascending, x[off[i]] = 0 */
    double *v; /* its worth (ED_NEVER: not allowed) */
    int *lo;   /* row i's cells [lo[i], hi[i]] */
    int *hi;
    size_t *at; /* row i's choices in the choice array */
} dp_opts_t;

static double dp_worth(double v)
{
    return v > -INFINITY && v < INFINITY ? v : ED_NEVER;
}

/* The staircase of every job, then each row's cells. */
static void dp_options(int n, int E, const int *kmin, const int *kmax, const double *value,
                       int stride, dp_opts_t *o)
{
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += (size_t)(kmax[i] - kmin[i]) + 1;
    o->off = pu_alloc((size_t)n + 1, sizeof *o->off);
    o->x = pu_alloc(total, sizeof *o->x);
    o->v = pu_alloc(total, sizeof *o->v);
    o->lo = pu_alloc((size_t)n, sizeof *o->lo);
    o->hi = pu_alloc((size_t)n, sizeof *o->hi);
    o->at = pu_alloc((size_t)n + 1, sizeof *o->at);
    int m = 0;
    for (int i = 0; i < n; i++) {
        const double *val = value + (size_t)i * (size_t)stride + (size_t)kmin[i];
        double top = dp_worth(val[0]);
        o->off[i] = m;
        o->x[m] = 0;
        o->v[m++] = top;
        for (int x = 1; x <= kmax[i] - kmin[i]; x++)
            if (dp_worth(val[x]) > top) {
                top = dp_worth(val[x]);
                o->x[m] = x;
                o->v[m++] = top;
            }
    }
    o->off[n] = m;
    long up = 0, down = 0;
    for (int i = 0; i < n; i++) {
        up += o->x[o->off[i + 1] - 1];
        o->hi[i] = up < E ? (int)up : E;
    }
    for (int i = n - 1; i >= 0; i--) {
        long b = E - down;
        o->lo[i] = b < 0 ? 0 : b < o->hi[i] ? (int)b : o->hi[i];
        down += o->x[o->off[i + 1] - 1];
    }
    o->at[0] = 0;
    for (int i = 0; i < n; i++)
        o->at[i + 1] = o->at[i] + (size_t)(o->hi[i] - o->lo[i]) + 1;
}

static void dp_options_free(dp_opts_t *o)
{
    free(o->off);
    free(o->x);
    free(o->v);
    free(o->lo);
    free(o->hi);
    free(o->at);
}

/* f_i at one cell e (the options with x <= e). */
static void dp_cell(const double *prev, const int *xs, const double *vs, int m, int e, double *cur,
                    unsigned short *ch)
{
    double best = prev[e] + vs[0];
    int bx = 0;
    for (int c = 1; c < m && xs[c] <= e; c++) {
        double s = prev[e - xs[c]] + vs[c];
        if (s > best) {
            best = s;
            bx = xs[c];
        }
    }
    cur[e] = best;
    *ch = (unsigned short)bx;
}

/* f_i at cells e..e+7, every option's x <= e: the same sums and comparisons
 * as dp_cell, eight cells at a time in vector registers (GCC/Clang vector
 * extensions of 16 bytes, SSE2 on x86-64; no stores until every option is
 * tried). */
typedef double dp_v2 __attribute__((vector_size(16)));
typedef long long dp_m2 __attribute__((vector_size(16)));

static inline dp_v2 dp_load(const double *p)
{
    dp_v2 r;
    memcpy(&r, p, sizeof r);
    return r;
}

static inline dp_v2 dp_pick(dp_m2 up, dp_v2 a, dp_v2 b)
{
    return (dp_v2)((up & (dp_m2)a) | (~up & (dp_m2)b));
}

#define DP_STEP(q)                                                                                 \
    do {                                                                                           \
        dp_v2 s = dp_load(p + 2 * (q)) + w;                                                        \
        dp_m2 up = (dp_m2)(s > b##q);                                                              \
        b##q = dp_pick(up, s, b##q);                                                               \
        x##q = dp_pick(up, vx, x##q);                                                              \
    } while (0)

static void dp_block(const double *prev, const int *xs, const double *vs, int m, int e, double *cur,
                     unsigned short *ch)
{
    dp_v2 w = {vs[0], vs[0]};
    dp_v2 b0 = dp_load(prev + e) + w, b1 = dp_load(prev + e + 2) + w;
    dp_v2 b2 = dp_load(prev + e + 4) + w, b3 = dp_load(prev + e + 6) + w;
    dp_v2 x0 = {0, 0}, x1 = x0, x2 = x0, x3 = x0;
    for (int c = 1; c < m; c++) {
        const double *p = prev + e - xs[c];
        dp_v2 vx = {xs[c], xs[c]};
        w = (dp_v2){vs[c], vs[c]};
        DP_STEP(0);
        DP_STEP(1);
        DP_STEP(2);
        DP_STEP(3);
    }
    dp_v2 b[4] = {b0, b1, b2, b3}, x[4] = {x0, x1, x2, x3};
    memcpy(cur + e, b, sizeof b);
    for (int q = 0; q < 4; q++) {
        ch[2 * q] = (unsigned short)x[q][0];
        ch[2 * q + 1] = (unsigned short)x[q][1];
    }
}

/* Row i from row i - 1 (prev, valid on [lo[i-1], top], constant above). */
static void dp_row(const dp_opts_t *o, int i, double *prev, int top, double *cur,
                   unsigned short *ch)
{
    int lo = o->lo[i], hi = o->hi[i], m = o->off[i + 1] - o->off[i];
    const int *xs = o->x + o->off[i];
    const double *vs = o->v + o->off[i];
    for (int e = top + 1; e <= hi; e++)
        prev[e] = prev[top];
    int e = lo;
    for (; e <= hi && e < xs[m - 1]; e++)
        dp_cell(prev, xs, vs, m, e, cur, ch + (e - lo));
    for (; e + 8 <= hi + 1; e += 8)
        dp_block(prev, xs, vs, m, e, cur, ch + (e - lo));
    for (; e <= hi; e++)
        dp_cell(prev, xs, vs, m, e, cur, ch + (e - lo));
}

double elastic_dp_solve(int n, int gpus, const int *kmin, const int *kmax, const double *value,
                        int stride, int *k_out)
{
    long base = 0;
    if (n <= 0)
        return 0;
    if (stride < 1 || stride > 65536)
        return -INFINITY;
    for (int i = 0; i < n; i++) {
        if (kmin[i] < 0 || kmax[i] < kmin[i] || kmax[i] >= stride)
            return -INFINITY;
        base += kmin[i];
    }
    if (base > gpus)
        return -INFINITY;
    int E = gpus - (int)base;
    dp_opts_t o;
    dp_options(n, E, kmin, kmax, value, stride, &o);
    double *prev = pu_alloc((size_t)E + 1, sizeof *prev),
           *cur = pu_alloc((size_t)E + 1, sizeof *cur);
    unsigned short *choice = pu_alloc(o.at[n], sizeof *choice);
    for (int i = 0, top = 0; i < n; i++) { /* prev starts as f_{-1} = 0 */
        dp_row(&o, i, prev, top, cur, choice + o.at[i]);
        top = o.hi[i];
        double *t = prev;
        prev = cur;
        cur = t;
    }
    double opt = prev[E < o.hi[n - 1] ? E : o.hi[n - 1]];
    opt = opt > ED_NEVER / 2 ? opt : -INFINITY;
    if (opt > -INFINITY)
        for (int i = n - 1, e = E; i >= 0; i--) {
            int q = e < o.hi[i] ? e : o.hi[i];
            int x = choice[o.at[i] + (size_t)(q - o.lo[i])];
            k_out[i] = kmin[i] + x;
            e -= x;
        }
    dp_options_free(&o);
    free(prev);
    free(cur);
    free(choice);
    return opt;
}

void elastic_split_batch(int local, int gpus, int m0, int max_batch, int max_local, int *m, int *s)
{
    int steps = max_local > 0 ? (local + max_local - 1) / max_local - 1 : 0;
    if (steps < 0)
        steps = 0;
    if (gpus == 1 && local > m0 && steps < 1)
        steps = 1;
    int micro = (local + steps) / (steps + 1);
    int cap = gpus > 0 ? max_batch / (gpus * (steps + 1)) : micro;
    if (micro > cap)
        micro = cap;
    *m = micro > 0 ? micro : 1;
    *s = steps;
}

/* ---- per-job worths, cached ---------------------------------------------------- */

typedef struct ed_job {
    int fixed_total; /* elastic-fixed-batch: the job's total batch B (0 unknown) */
    int c_type, c_kmax, c_batch;
    long c_epoch;
    int c_kmin;    /* smallest k with a finite worth, -1 none */
    int c_done;    /* worths computed for k <= c_done */
    int c_peak;    /* the k of the largest worth computed */
    int c_over;    /* no size above c_done can beat the peak (extend) */
    double c_base; /* T(c_kmin) / c_kmin */
    double *worth; /* [k], k <= c_kmax; -INFINITY: not allowed */
    int *local;    /* per-GPU batch chosen for k (0: keep the job's) */
} ed_job_t;

/* The batch grid of a per-GPU range [lo, hi], kept per state: the same
 * ranges recur for every job with the same limits at the same k, and the
 * grid's pow calls were a quarter of the cost of computing worths. */
#define ED_GRIDS 256
typedef struct ed_grid {
    int lo, hi, n;  /* n = 0: empty slot */
    int b[ED_GRID]; /* the distinct batches, in grid order */
} ed_grid_t;

typedef struct ed_state {
    int fixed;
    ed_grid_t grids[ED_GRIDS];
    idmap_t ids;
    ed_job_t *jobs;
    int cap;
} ed_state_t;

static int ed_create(void **state, const policy_args_t *args, int fixed, char *err, size_t errlen)
{
    static const char *const none[] = {NULL};
    *state = NULL;
    if (policy_args_check(args, none, fixed ? "elastic-fixed-batch" : "elastic-dp", err, errlen))
        return -1;
    ed_state_t *s = pu_alloc(1, sizeof *s);
    s->fixed = fixed;
    idmap_init(&s->ids);
    *state = s;
    return 0;
}

int elastic_dp_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    return ed_create(state, args, 0, err, errlen);
}

int elastic_fixed_batch_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    return ed_create(state, args, 1, err, errlen);
}

static void ed_destroy(void *state)
{
    ed_state_t *s = state;
    if (!s)
        return;
    for (int i = 0; i < s->ids.n; i++) {
        free(s->jobs[i].worth);
        free(s->jobs[i].local);
    }
    free(s->jobs);
    idmap_free(&s->ids);
    free(s);
}

void elastic_dp_destroy(void *state)
{
    ed_destroy(state);
}

void elastic_fixed_batch_destroy(void *state)
{
    ed_destroy(state);
}

static int has_limits(const view_t *v, const view_job_t *jb, int type, view_batch_limits_t *l)
{
    return v->perf && v->perf->batch_limits &&
           v->perf->batch_limits(v->perf->ctx, jb, type, l) == 0 && l->min_local_batch >= 1 &&
           l->max_local_batch >= l->min_local_batch && l->max_batch >= 1;
}

/* The job's record, created (with its fixed batch) at first sight. */
static ed_job_t *job_rec(ed_state_t *s, const view_t *v, const view_job_t *jb)
{
    int before = s->ids.n, i = idmap_put(&s->ids, jb->id);
    if (i >= s->cap) {
        int cap = s->cap ? 2 * s->cap : 64;
        ed_job_t *n = pu_alloc((size_t)cap, sizeof *n);
        if (s->cap)
            memcpy(n, s->jobs, (size_t)s->cap * sizeof *n);
        free(s->jobs);
        s->jobs = n;
        s->cap = cap;
    }
    ed_job_t *r = &s->jobs[i];
    if (i == before) {
        view_batch_limits_t l;
        long req = jb->gpus_requested > 0 ? jb->gpus_requested : 1;
        r->c_type = -1;
        if (has_limits(v, jb, -1, &l)) {
            long per = jb->batch_size > 0
                           ? (long)jb->batch_size * (jb->accum_steps > 0 ? jb->accum_steps + 1 : 1)
                           : 0;
            long b = per ? per * req : (long)l.min_local_batch * req;
            if (!per && b < l.init_batch)
                b = l.init_batch;
            r->fixed_total = (int)(b < l.max_batch ? b : l.max_batch);
        }
    }
    return r;
}

/* Work units/s of job jb on k GPUs of type at per-GPU batch b (0: its own);
 * NAN unknown, 0 cannot run. */
static double rate(const view_t *v, const view_job_t *jb, int type, int k, int b)
{
    if (!v->perf || !v->perf->throughput)
        return NAN;
    return v->perf->throughput(v->perf->ctx, jb, type, k, 0, b);
}

/* The grid of ED_GRID per-GPU batches spaced geometrically over [lo, hi]
 * (ends included, repeats dropped), from the state's cache. */
static const ed_grid_t *grid(ed_state_t *s, double lo, double hi)
{
    unsigned h = ((unsigned)lo * 2654435761u) ^ ((unsigned)hi * 40503u);
    ed_grid_t *g = &s->grids[(h >> 8) % ED_GRIDS];
    if (g->n && g->lo == (int)lo && g->hi == (int)hi)
        return g;
    g->lo = (int)lo;
    g->hi = (int)hi;
    g->n = 0;
    for (int i = 0, last = 0; i < ED_GRID; i++) {
        int b = (int)floor(lo * pow(hi / lo, (double)i / (ED_GRID - 1)) + 0.5);
        b = b < lo ? (int)lo : b > hi ? (int)hi : b;
        if (b != last)
            g->b[g->n++] = last = b;
    }
    return g;
}

/* Best rate of jb on k GPUs over its batch range (elastic), or at its fixed
 * batch; *local gets the per-GPU batch (0: the job's own). */
static double best_rate(ed_state_t *s, const view_t *v, const view_job_t *jb, const ed_job_t *r,
                        int type, int k, int *local)
{
    view_batch_limits_t l;
    *local = 0;
    if (!has_limits(v, jb, type, &l))
        return rate(v, jb, type, k, 0);
    if (s->fixed) {
        if (r->fixed_total <= 0)
            return rate(v, jb, type, k, 0);
        int b = (r->fixed_total + k - 1) / k;
        if (b < l.min_local_batch)
            return 0;
        *local = b;
        return rate(v, jb, type, k, b);
    }
    double lo = fmax(l.min_local_batch, ceil((double)l.init_batch / k));
    double hi = floor((double)l.max_batch / k);
    if (hi < lo)
        return 0;
    const ed_grid_t *gr = grid(s, lo, hi);
    double best = 0;
    int unknown = 0;
    for (int i = 0; i < gr->n; i++) {
        int b = gr->b[i];
        double g = rate(v, jb, type, k, b);
        unknown |= isnan(g);
        if (g > best) {
            best = g;
            *local = b;
        }
    }
    if (best == 0 && unknown) {
        *local = (int)lo;
        return NAN;
    }
    return best;
}

/* Computes the job's worths on its cached type for k up to `upto` (at most
 * its kmax): worth(k) = T(k) / base, base = T(k0) / k0 at its smallest
 * feasible k0 (so worth(k0) = k0: GPUs scaled by scaling efficiency).
 * Stops early, setting c_over, once kmax x worth(k) / k is at most the peak:
 * a size k' > k has a worth of at most k' x worth(k) / k when the per-GPU
 * worth does not rise with more GPUs, so none can beat the peak (the
 * program leaves out every size past the peak). `force` computes up to
 * `upto` all the same (a running job's current size, for its tie-break). */
static void extend(ed_state_t *s, const view_t *v, const view_job_t *jb, ed_job_t *r, int upto,
                   int force)
{
    if (upto > r->c_kmax)
        upto = r->c_kmax;
    if (r->c_over && !force)
        return;
    for (int k = r->c_done + 1; k <= upto; k++) {
        double g = best_rate(s, v, jb, r, r->c_type, k, &r->local[k]);
        r->c_done = k;
        if (!(g > 0) && !isnan(g))
            continue; /* cannot run on k: stays -INFINITY */
        if (r->c_kmin < 0) {
            r->c_kmin = k;
            r->c_base = g / k;
        }
        r->worth[k] = isnan(g) || isnan(r->c_base) ? k : g / r->c_base; /* unknown: linear */
        if (r->c_peak < 0 || r->worth[k] > r->worth[r->c_peak])
            r->c_peak = k;
        else if ((double)r->c_kmax * r->worth[k] <= r->worth[r->c_peak] * k) {
            r->c_over = 1;
            if (!force)
                return;
        }
    }
}

/* The job's record on type, its smallest feasible k found (c_kmin, -1 when
 * none); worths beyond it are computed on demand (extend). Cached. */
static ed_job_t *worths(ed_state_t *s, const view_t *v, const view_job_t *jb, int type)
{
    ed_job_t *r = job_rec(s, v, jb);
    view_batch_limits_t l;
    int lim = has_limits(v, jb, type, &l);
    int kmax = jb->max_gpus < v->types[type].total_gpus ? jb->max_gpus : v->types[type].total_gpus;
    long epoch = isfinite(jb->epoch) ? (long)floor(jb->epoch) : -1;
    int batch = lim ? 0 : jb->batch_size;
    if (!r->worth || r->c_type != type || r->c_kmax != kmax || r->c_epoch != epoch ||
        r->c_batch != batch) {
        free(r->worth);
        free(r->local);
        int n = kmax > 0 ? kmax + 1 : 1;
        r->worth = pu_alloc((size_t)n, sizeof *r->worth);
        r->local = pu_alloc((size_t)n, sizeof *r->local);
        for (int k = 0; k < n; k++)
            r->worth[k] = -INFINITY;
        r->c_type = type;
        r->c_kmax = kmax;
        r->c_epoch = epoch;
        r->c_batch = batch;
        r->c_kmin = r->c_peak = -1;
        r->c_over = 0;
        r->c_done = (jb->min_gpus > 1 ? jb->min_gpus : 1) - 1;
    }
    while (r->c_kmin < 0 && r->c_done < r->c_kmax)
        extend(s, v, jb, r, r->c_done + 1, 0);
    return r;
}

/* ---- admission and the plan ---------------------------------------------------- */

typedef struct ed_pick {
    int job, type, kmin;
} ed_pick_t;

/* Admits jb on the first type with room for its minimum (its current type
 * first). Returns 1 admitted, 0 no room now, -1 never fits. */
static int admit(ed_state_t *s, const view_t *v, int j, pu_room_t *room, int *order, ed_pick_t *out)
{
    const view_job_t *jb = &v->jobs[j];
    int n = 0, ever = 0;
    if (pu_holds(jb) && jb->cur_type >= 0 && jb->cur_type < v->n_types)
        order[n++] = jb->cur_type;
    int *rest = pu_alloc((size_t)v->n_types, sizeof *rest);
    int m = pu_type_order(v, j, rest);
    for (int i = 0; i < m; i++)
        if (n == 0 || rest[i] != order[0])
            order[n++] = rest[i];
    for (int t = 0; t < v->n_types; t++) { /* types below the request may fit the minimum */
        int seen = 0;
        for (int i = 0; i < n; i++)
            seen |= order[i] == t;
        if (!seen)
            order[n++] = t;
    }
    free(rest);
    for (int i = 0; i < n; i++) {
        const ed_job_t *r = worths(s, v, jb, order[i]);
        if (r->c_kmin < 0)
            continue;
        ever = 1;
        if (room->room[order[i]] >= r->c_kmin) {
            room->room[order[i]] -= r->c_kmin;
            *out = (ed_pick_t){j, order[i], r->c_kmin};
            return 1;
        }
    }
    return ever ? 0 : -1;
}

/* One dynamic program over the jobs admitted on type t; adds their plan.
 * A job's sizes run from its minimum to the largest it could get (its
 * minimum plus the GPUs left after every minimum) and, beyond that, to its
 * best worth: a larger k with no more worth never helps (its current size is
 * kept in range, for the tie-break). */
static void solve_type(ed_state_t *s, const view_t *v, const ed_pick_t *pick, int n, int t,
                       int gpus, plan_t *plan)
{
    int m = 0, stride = 1, spare = gpus;
    for (int i = 0; i < n; i++)
        if (pick[i].type == t) {
            m++;
            spare -= pick[i].kmin;
        }
    if (!m)
        return;
    int *kmin = pu_alloc((size_t)m, sizeof *kmin), *kmax = pu_alloc((size_t)m, sizeof *kmax);
    int *k = pu_alloc((size_t)m, sizeof *k), *job = pu_alloc((size_t)m, sizeof *job);
    ed_job_t **rec = pu_alloc((size_t)m, sizeof *rec);
    for (int i = 0, q = 0; i < n; i++) {
        if (pick[i].type != t)
            continue;
        const view_job_t *jb = &v->jobs[pick[i].job];
        ed_job_t *r = rec[q] = worths(s, v, jb, t);
        extend(s, v, jb, r, r->c_kmin + (spare > 0 ? spare : 0), 0);
        if (pu_holds(jb) && jb->cur_type == t && jb->cur_gpus > r->c_done &&
            jb->cur_gpus <= r->c_kmin + (spare > 0 ? spare : 0))
            extend(s, v, jb, r, jb->cur_gpus, 1);
        job[q] = pick[i].job;
        kmin[q] = r->c_kmin;
        kmax[q] = r->c_peak > kmin[q] ? r->c_peak : kmin[q];
        if (pu_holds(jb) && jb->cur_type == t && jb->cur_gpus > kmax[q] &&
            jb->cur_gpus <= r->c_done)
            kmax[q] = jb->cur_gpus;
        if (kmax[q] + 1 > stride)
            stride = kmax[q] + 1;
        q++;
    }
    double *val = pu_alloc((size_t)m * (size_t)stride, sizeof *val);
    for (int q = 0; q < m; q++) {
        const view_job_t *jb = &v->jobs[job[q]];
        for (int x = 0; x <= kmax[q]; x++)
            val[(size_t)q * (size_t)stride + (size_t)x] = rec[q]->worth[x];
        if (pu_holds(jb) && jb->cur_type == t && jb->cur_gpus >= kmin[q] &&
            jb->cur_gpus <= kmax[q] && rec[q]->worth[jb->cur_gpus] > 0)
            val[(size_t)q * (size_t)stride + (size_t)jb->cur_gpus] *= 1 + ED_STAY;
    }
    if (elastic_dp_solve(m, gpus, kmin, kmax, val, stride, k) > -INFINITY) {
        for (int q = 0; q < m; q++) {
            const view_job_t *jb = &v->jobs[job[q]];
            int a = plan_run(plan, job[q], t, k[q]);
            view_batch_limits_t l;
            if (rec[q]->local[k[q]] > 0 && has_limits(v, jb, t, &l))
                elastic_split_batch(rec[q]->local[k[q]], k[q], l.init_batch, l.max_batch,
                                    l.max_local_batch, &plan->allocs[a].batch_size,
                                    &plan->allocs[a].accum_steps);
        }
    }
    free(kmin);
    free(kmax);
    free(k);
    free(job);
    free(rec);
    free(val);
}

static int ed_schedule(ed_state_t *s, const view_t *v, plan_t *plan)
{
    int nj = v->n_jobs;
    int *idx = pu_alloc((size_t)nj, sizeof *idx),
        *order = pu_alloc((size_t)v->n_types * 2 + 1, sizeof *order);
    ed_pick_t *pick = pu_alloc((size_t)nj + 1, sizeof *pick);
    pu_room_t room;
    pu_room_init(&room, v);
    int *total = pu_alloc((size_t)v->n_types, sizeof *total);
    for (int t = 0; t < v->n_types; t++)
        total[t] = room.room[t];
    pu_arrival_order(v, idx);
    int n = 0;
    for (int i = 0; i < nj; i++) /* running jobs stay admitted */
        if (pu_holds(&v->jobs[idx[i]]) && admit(s, v, idx[i], &room, order, &pick[n]) == 1)
            n++;
    for (int i = 0; i < nj; i++) { /* then the queue, first come first served */
        if (pu_holds(&v->jobs[idx[i]]))
            continue;
        int a = admit(s, v, idx[i], &room, order, &pick[n]);
        if (a == 1)
            n++;
        else if (a == 0)
            break; /* its minimum does not fit: the jobs behind it wait */
        else
            (void)job_rec(s, v, &v->jobs[idx[i]]);
    }
    for (int t = 0; t < v->n_types; t++)
        solve_type(s, v, pick, n, t, total[t], plan);
    pu_room_free(&room);
    free(total);
    free(idx);
    free(order);
    free(pick);
    return 0;
}

int elastic_dp_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    return ed_schedule(state, v, plan);
}

int elastic_fixed_batch_schedule(void *state, const view_t *v, plan_t *plan, char *err,
                                 size_t errlen)
{
    (void)err;
    (void)errlen;
    return ed_schedule(state, v, plan);
}
