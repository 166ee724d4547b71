/* allox.c: AlloX (Le et al., "AlloX: Compute Allocation in Hybrid Clusters",
 * EuroSys 2020), as Gavel and Shockwave run it on heterogeneous GPUs.
 *
 * AlloX (section 3) minimises the total completion time of the waiting jobs
 * on machines of different speeds by reducing scheduling to a min-cost
 * bipartite matching: job j placed k-th from the end of machine m's queue
 * adds k * p_jm to the sum of completion times (p_jm its processing time
 * there), so matching jobs to (machine, position-from-end) pairs at cost
 * k * p_jm is exact (Bruno, Coffman and Sethi, 1974). Its fairness knob alpha
 * (section 4) restricts each decision to the jobs that have waited longest:
 * of the m waiting jobs only the max(floor(alpha * m), n) earliest arrivals
 * are matched (n the free GPUs), so a small alpha favours waiting jobs and
 * alpha = 1 is pure efficiency. Shockwave uses alpha = 0.2.
 *
 * Here machines are GPUs, identical within a type, so the positions of a
 * type aggregate: slot (t, k) takes up to F_t jobs (F_t the type's free
 * GPUs) at cost k * p_jt, k = 1..ceil(m'/F_t), which is a transportation
 * problem whose LP relaxation is integral. It is solved as a min-cost flow
 * by GLPK's out-of-kilter routine on costs scaled to integers (gl_assign_flow,
 * gavel_assign.c: at most 2 n c_max / 2^30 above the optimum, n the matched
 * jobs and c_max the largest cost less the job's cheapest; starting from the
 * arcs near each job's likely level, seed_arcs), or with solver=simplex as
 * the LP by GLPK's simplex (gl_assign, exact; 7-25x slower at 2,000 jobs,
 * the same matchings on every test trace). On each type the matched
 * jobs run in the order the matching implies: highest position-from-end
 * first, ties by shortest processing time (Smith's rule, which the matching
 * agrees with). Non-preemptive: a running
 * job keeps its GPUs until it finishes.
 *
 * Simplifications:
 * - Processing time p_jt = remaining work / profiled throughput (oracle, as in
 *   Gavel's and Shockwave's AlloX, which read the remaining steps).
 * - Multi-GPU jobs (AlloX assumes one GPU per job; Shockwave allows them):
 *   each job takes one slot in the matching; when started it needs its
 *   whole GPU count free on the matched type, and a job that does not fit
 *   waits for the next decision while later jobs on that type may start.
 * - Jobs with unknown throughput on every type are never matched.
 * - Decides at round boundaries (cadence rounds), as in Gavel's simulator.
 *   A matching that started nobody is not solved again while its inputs (the
 *   matched jobs, their remaining work, the free GPUs per type) stay the same:
 *   it would give the same answer.
 *
 * mechanism=gavel runs AlloX the way Gavel's and Shockwave's simulators do
 * (policies/allox.py there, AlloXPolicy.get_allocation, fed to Gavel's round
 * mechanism): the matching is an allocation, recomputed only when jobs
 * arrived, finished or changed their batch and at least recompute_interval s
 * (default 1920, Gavel's; Shockwave's scheduler uses 1000) passed since the
 * last one. A job whose allocation from earlier recomputes sums to 1 (a
 * 1-GPU job that was first on a worker) keeps it and removes one GPU of
 * that type from the matching; every other job is matched again, the
 * max(floor(alpha * m), n) longest-waiting of them against the n GPUs left
 * (the GPUs that multi-GPU jobs hold are not removed: their allocation is
 * 1 / GPUs, never 1). The first job on each GPU's queue (highest position
 * from the end, ties by shortest processing time) gets allocation 1 / its
 * GPU count on that type; every other job keeps its earlier allocation (0
 * for most). solver=lsap (what --like gavel sets) builds allox.py's own
 * matrix instead, one column per (position from the end, free worker),
 * workers by type name, cost position * remaining / rate + seconds since
 * arrival (rate 1e-10 where it is 0), and solves it as scipy's
 * linear_sum_assignment does (lsap.c): the workers of a type give equal
 * columns, so the optimum is far from unique, and which job lands first on a
 * worker (and runs) is scipy's tie-breaking; GLPK's optimum has the same
 * cost but can start other jobs (on Gavel's 10,000-job replay, from 0.59 M s
 * on: 6.8 % mean per-job JCT difference, 0.0 % with lsap). The first job
 * on a worker is the one furthest from the end there. Gavel's mechanism
 * (gavel_round.c) then runs the rows by
 * priority = allocation / share received each round, and fills leftover GPUs
 * with jobs of allocation 0, least served first, so jobs are preempted
 * (Shockwave's pickles show 540 preemptions over 80 of its 120 jobs).
 * new_jobs=wait: jobs that arrived since the last recompute wait for the
 * next one (Gavel's placement); received_start=half_round: the priorities
 * of Gavel's code (see gavel_round.h). */
#include "policies/gavel_lp.h"
#include "policies/gavel_round.h"
#include "policies/lsap.h"
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The inputs of the last matching that started nobody: the same inputs give
 * the same matching, so it is not solved again (an exact cache). */
typedef struct idle_key {
    int64_t *id;
    double *remaining;
    int m;
    int *room; /* free GPUs per type */
    int n_types;
} idle_key_t;

/* mechanism=gavel: a job's allocation from the earlier recomputes. */
typedef struct allox_mem {
    int64_t id;
    double *x; /* n_types */
} allox_mem_t;

typedef struct allox_state {
    double alpha;
    int simplex;       /* solver=simplex: the exact LP instead of the scaled flow */
    int lsap;          /* solver=lsap: Gavel's own matrix and scipy's choices */
    idle_key_t idle;   /* m = -1: none */
    gr_state_t *round; /* mechanism=gavel: Gavel's rounds; NULL: AlloX's own */
    double interval;   /* mechanism=gavel: least seconds between recomputes */
    allox_mem_t *mem;  /* mechanism=gavel: sorted by id */
    int n_mem, mem_types;
} allox_state_t;

static void key_clear(idle_key_t *k)
{
    free(k->id);
    free(k->remaining);
    free(k->room);
    *k = (idle_key_t){NULL, NULL, -1, NULL, 0};
}

static int key_matches(const idle_key_t *k, const view_t *v, const int *jobs, int m,
                       const int *room)
{
    if (k->m != m || k->n_types != v->n_types)
        return 0;
    for (int t = 0; t < v->n_types; t++)
        if (k->room[t] != room[t])
            return 0;
    for (int i = 0; i < m; i++) {
        const view_job_t *j = &v->jobs[jobs[i]];
        if (k->id[i] != j->id || !(k->remaining[i] == j->remaining_work))
            return 0;
    }
    return 1;
}

static void key_set(idle_key_t *k, const view_t *v, const int *jobs, int m, const int *room)
{
    key_clear(k);
    k->id = pu_alloc((size_t)m, sizeof *k->id);
    k->remaining = pu_alloc((size_t)m, sizeof *k->remaining);
    k->room = pu_alloc((size_t)v->n_types, sizeof *k->room);
    for (int i = 0; i < m; i++) {
        k->id[i] = v->jobs[jobs[i]].id;
        k->remaining[i] = v->jobs[jobs[i]].remaining_work;
    }
    for (int t = 0; t < v->n_types; t++)
        k->room[t] = room[t];
    k->m = m;
    k->n_types = v->n_types;
}

int allox_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    static const char *const known[] = {
        "alpha", "solver", "mechanism", "recompute_interval", "new_jobs", "received_start", "rules", NULL};
    *state = NULL;
    if (policy_args_check(args, known, "allox", err, errlen))
        return -1;
    double alpha;
    if (policy_arg_double(args, "alpha", 0.2, &alpha, err, errlen))
        return -1;
    if (!(alpha >= 0 && alpha <= 1)) {
        snprintf(err, errlen, "allox: alpha must be in [0, 1] (got %g)", alpha);
        return -1;
    }
    const char *solver = policy_arg_str(args, "solver", "flow");
    if (strcmp(solver, "flow") != 0 && strcmp(solver, "simplex") != 0 &&
        strcmp(solver, "lsap") != 0) {
        snprintf(err, errlen, "allox: solver must be flow, simplex or lsap (got %s)", solver);
        return -1;
    }
    const char *mech = policy_arg_str(args, "mechanism", "own");
    if (strcmp(mech, "own") != 0 && strcmp(mech, "gavel") != 0) {
        snprintf(err, errlen, "allox: mechanism must be own or gavel (got %s)", mech);
        return -1;
    }
    if (strcmp(solver, "lsap") == 0 && strcmp(mech, "gavel") != 0) {
        snprintf(err, errlen, "allox: solver=lsap needs mechanism=gavel");
        return -1;
    }
    double interval;
    if (policy_arg_double(args, "recompute_interval", 1920.0, &interval, err, errlen))
        return -1;
    if (strcmp(mech, "gavel") != 0 &&
        (policy_arg_str(args, "recompute_interval", NULL) ||
         policy_arg_str(args, "new_jobs", NULL) || policy_arg_str(args, "received_start", NULL) ||
         policy_arg_str(args, "rules", NULL))) {
        snprintf(err, errlen, "allox: recompute_interval, new_jobs, received_start and rules "
                              "need mechanism=gavel");
        return -1;
    }
    gr_opts_t opts;
    if (gr_opts_parse(args, "allox", &opts, err, errlen))
        return -1;
    if (!(interval >= 0)) {
        snprintf(err, errlen, "allox: recompute_interval must be >= 0 (got %g)", interval);
        return -1;
    }
    allox_state_t *s = pu_alloc(1, sizeof *s);
    s->alpha = alpha;
    s->simplex = strcmp(solver, "simplex") == 0;
    s->lsap = strcmp(solver, "lsap") == 0;
    s->idle.m = -1;
    s->interval = interval;
    if (strcmp(mech, "gavel") == 0) {
        s->round = gr_create();
        gr_set_opts(s->round, &opts);
    }
    *state = s;
    return 0;
}

static void mem_clear(allox_state_t *s)
{
    for (int i = 0; i < s->n_mem; i++)
        free(s->mem[i].x);
    free(s->mem);
    s->mem = NULL;
    s->n_mem = 0;
}

void allox_destroy(void *state)
{
    allox_state_t *s = state;
    if (s) {
        key_clear(&s->idle);
        mem_clear(s);
        if (s->round)
            gr_destroy(s->round);
    }
    free(s);
}

/* Processing time of job j on type t; INFINITY when it cannot run there. */
static double proc_time(const view_t *v, int j, int t)
{
    const view_job_t *jb = &v->jobs[j];
    if (jb->gpus_requested > v->types[t].total_gpus)
        return INFINITY;
    double r = pu_rate(v, j, t);
    if (!(r > 0))
        return INFINITY;
    double rem = isnan(jb->remaining_work) ? 0 : jb->remaining_work;
    return rem / r;
}

typedef struct start {
    int job, type, level;
    double p;
} start_t;

static int cmp_start(const void *pa, const void *pb)
{
    const start_t *a = pa, *b = pb;
    if (a->type != b->type)
        return a->type - b->type;
    if (a->level != b->level)
        return b->level - a->level; /* furthest from the end runs first */
    if (a->p != b->p)
        return a->p < b->p ? -1 : 1;
    return a->job - b->job;
}

typedef struct sized {
    int job;  /* index into the matched jobs */
    double p; /* its time on its fastest type */
} sized_t;

static int cmp_longest_first(const void *pa, const void *pb)
{
    const sized_t *a = pa, *b = pb;
    if (a->p != b->p)
        return a->p > b->p ? -1 : 1;
    return a->job - b->job;
}

/* The arcs the flow starts from, a guess (gl_assign_flow adds every other
 * arc that can lower the cost, so the guess moves the time, not the
 * result). On each type an optimal matching runs the longest jobs last, and
 * a job placed after the longer ones does not move them; so the guess takes
 * the jobs longest first and puts each where it costs least given those
 * before it, at level n_t / F_t + 1 on type t (n_t jobs already there, F_t
 * free GPUs). The seed holds, on every type, the levels within
 * SEED_LEVELS of where the job would have gone there. */
#define SEED_LEVELS 1
static unsigned char *seed_arcs(const view_t *v, const int *jobs, int m, const int *free_gpus,
                                int n_slots, const int *slot_type, const int *slot_level)
{
    int T = v->n_types;
    sized_t *order = pu_alloc((size_t)m, sizeof *order);
    for (int i = 0; i < m; i++) {
        order[i] = (sized_t){i, INFINITY};
        for (int t = 0; t < T; t++)
            if (free_gpus[t] > 0)
                order[i].p = fmin(order[i].p, proc_time(v, jobs[i], t));
    }
    qsort(order, (size_t)m, sizeof *order, cmp_longest_first);
    int *n_on = pu_alloc((size_t)T, sizeof *n_on), *level = pu_alloc((size_t)T, sizeof *level);
    int *first_slot = pu_alloc((size_t)T + 1, sizeof *first_slot);
    for (int s = n_slots - 1; s >= 0; s--) /* slots are by type, then level */
        first_slot[slot_type[s]] = s;
    unsigned char *seed = pu_alloc((size_t)m * n_slots, 1);
    for (int k = 0; k < m; k++) {
        int i = order[k].job, best = -1;
        double best_cost = INFINITY;
        for (int t = 0; t < T; t++) {
            double p = proc_time(v, jobs[i], t);
            level[t] = free_gpus[t] > 0 ? n_on[t] / free_gpus[t] + 1 : 0;
            if (!isfinite(p) || free_gpus[t] <= 0)
                continue;
            if (level[t] * p < best_cost)
                best_cost = level[t] * p, best = t;
            for (int s = first_slot[t]; s < n_slots && slot_type[s] == t; s++)
                if (abs(slot_level[s] - level[t]) <= SEED_LEVELS)
                    seed[(size_t)i * n_slots + s] = 1;
        }
        if (best >= 0)
            n_on[best]++;
    }
    free(first_slot);
    free(level);
    free(n_on);
    free(order);
    return seed;
}

/* Matches the chosen waiting jobs to (type, position) slots; fills st. */
static int match(const view_t *v, const int *jobs, int m, const int *free_gpus, int simplex,
                 start_t *st, char *err, size_t errlen)
{
    int T = v->n_types, n_slots = 0;
    int *levels = pu_alloc((size_t)T, sizeof *levels);
    for (int t = 0; t < T; t++) {
        levels[t] = free_gpus[t] > 0 ? (m + free_gpus[t] - 1) / free_gpus[t] : 0;
        n_slots += levels[t];
    }
    int *slot_type = pu_alloc((size_t)n_slots, sizeof *slot_type);
    int *slot_level = pu_alloc((size_t)n_slots, sizeof *slot_level);
    int *slot_cap = pu_alloc((size_t)n_slots, sizeof *slot_cap);
    for (int t = 0, s = 0; t < T; t++)
        for (int k = 1; k <= levels[t]; k++, s++)
            slot_type[s] = t, slot_level[s] = k, slot_cap[s] = free_gpus[t];
    double *cost = pu_alloc((size_t)m * n_slots, sizeof *cost);
    for (int i = 0; i < m; i++)
        for (int s = 0; s < n_slots; s++)
            cost[(size_t)i * n_slots + s] = slot_level[s] * proc_time(v, jobs[i], slot_type[s]);
    int *slot_of = pu_alloc((size_t)m, sizeof *slot_of);
    int rc;
    if (simplex) {
        rc = gl_assign(m, n_slots, cost, slot_cap, slot_of, err, errlen);
    } else {
        unsigned char *seed = seed_arcs(v, jobs, m, free_gpus, n_slots, slot_type, slot_level);
        rc = gl_assign_flow(m, n_slots, cost, slot_cap, seed, slot_of, err, errlen);
        free(seed);
    }
    for (int i = 0; rc == 0 && i < m; i++) {
        int s = slot_of[i];
        st[i] = (start_t){jobs[i], s >= 0 ? slot_type[s] : -1, s >= 0 ? slot_level[s] : 0,
                          s >= 0 ? proc_time(v, jobs[i], slot_type[s]) : INFINITY};
    }
    free(slot_of);
    free(cost);
    free(slot_cap);
    free(slot_level);
    free(slot_type);
    free(levels);
    return rc;
}

/* ---- mechanism=gavel ------------------------------------------------------ */

static int cmp_mem(const void *pa, const void *pb)
{
    int64_t a = ((const allox_mem_t *)pa)->id, b = ((const allox_mem_t *)pb)->id;
    return (a > b) - (a < b);
}

static const double *mem_x(const allox_state_t *s, int64_t id, int n_types)
{
    allox_mem_t key = {id, NULL};
    const allox_mem_t *m = s->n_mem && s->mem_types == n_types
                               ? bsearch(&key, s->mem, (size_t)s->n_mem, sizeof *s->mem, cmp_mem)
                               : NULL;
    return m ? m->x : NULL;
}

/* solver=lsap: Gavel's matrix, one column per (position from the end k,
 * free worker w), k = 1..m, workers by type name then index: cost
 * k * (remaining / rate on w's type) + seconds since arrival, rate 1e-10
 * where it is 0 (allox.py builds it so, in these float operations). */
typedef struct gavel_q {
    int m, n;
    const double *qb; /* m x n: remaining / rate on the worker's type */
    const double *d;  /* m: seconds since arrival */
} gavel_q_t;

static void gavel_q_row(const void *ctx, int i, double *out)
{
    const gavel_q_t *q = ctx;
    const double *qb = q->qb + (size_t)i * q->n;
    for (int k = 0; k < q->m; k++) {
        double level = k + 1;
        for (int w = 0; w < q->n; w++) {
            double p = level * qb[w];
            out[(size_t)k * q->n + w] = p + q->d[i];
        }
    }
}

/* Gavel's matching of the m jobs jobs[] to the n = sum workers[] free GPUs
 * by scipy's rules (lsap.h); sets x to 1 / GPUs for the first job on each
 * worker (the one furthest from the end), as allox.py does. */
static int gavel_lsap(const view_t *v, const int *jobs, int m, const int *workers, double *x,
                      char *err, size_t errlen)
{
    int T = v->n_types, n = 0;
    int *tord = pu_alloc((size_t)T, sizeof *tord);
    for (int t = 0; t < T; t++) {
        tord[t] = t;
        n += workers[t];
    }
    for (int a = 1; a < T; a++) /* insertion sort by name: few types */
        for (int b = a; b > 0 && strcmp(v->types[tord[b - 1]].name, v->types[tord[b]].name) > 0;
             b--) {
            int tmp = tord[b];
            tord[b] = tord[b - 1];
            tord[b - 1] = tmp;
        }
    int *wtype = pu_alloc((size_t)n, sizeof *wtype);
    for (int k = 0, w = 0; k < T; k++)
        for (int g = 0; g < workers[tord[k]]; g++)
            wtype[w++] = tord[k];
    double *qb = pu_alloc((size_t)m * n, sizeof *qb), *d = pu_alloc((size_t)m, sizeof *d);
    for (int i = 0; i < m; i++) {
        const view_job_t *jb = &v->jobs[jobs[i]];
        double rem = isnan(jb->remaining_work) ? 0 : jb->remaining_work;
        for (int w = 0; w < n; w++) {
            double r = pu_rate(v, jobs[i], wtype[w]);
            qb[(size_t)i * n + w] = rem / (r > 0 ? r : 1e-10);
        }
        d[i] = v->now - jb->submit;
    }
    gavel_q_t q = {m, n, qb, d};
    int *col = pu_alloc((size_t)m, sizeof *col), *first = pu_alloc((size_t)n, sizeof *first);
    int rc = lsap_solve(m, m * n, gavel_q_row, &q, col, err, errlen);
    for (int w = 0; w < n; w++)
        first[w] = -1;
    for (int i = 0; rc == 0 && i < m; i++) {
        int w = col[i] % n;
        if (first[w] < 0 || col[i] / n > col[first[w]] / n)
            first[w] = i;
    }
    for (int w = 0; rc == 0 && w < n; w++)
        if (first[w] >= 0)
            x[(size_t)jobs[first[w]] * T + wtype[w]] = 1.0 / v->jobs[jobs[first[w]]].gpus_requested;
    free(first);
    free(col);
    free(d);
    free(qb);
    free(wtype);
    free(tord);
    return rc;
}

/* The allocation x (n_jobs x n_types) from the matching of the jobs without
 * a whole allocation, as Gavel's AlloXPolicy.get_allocation computes it. */
static int gavel_allocation(allox_state_t *s, const view_t *v, double *x, char *err, size_t errlen)
{
    int T = v->n_types, J = v->n_jobs, rc = 0;
    int *workers = pu_alloc((size_t)T, sizeof *workers),
        *order = pu_alloc((size_t)J, sizeof *order);
    int *unalloc = pu_alloc((size_t)J, sizeof *unalloc), m = 0, n = 0;
    for (int t = 0; t < T; t++)
        workers[t] = v->types[t].total_gpus;
    pu_arrival_order(v, order); /* longest waiting first */
    for (int k = 0; k < J; k++) {
        int j = order[k];
        const double *px = mem_x(s, v->jobs[j].id, T);
        double total = 0;
        for (int t = 0; px && t < T; t++) {
            x[j * T + t] = px[t];
            total += px[t];
        }
        if (px && fabs(total - 1.0) < 1e-12) {
            for (int t = 0; t < T; t++)
                workers[t] -= px[t] == 1.0;
            continue;
        }
        int runnable = 0;
        for (int t = 0; t < T; t++)
            runnable |= isfinite(proc_time(v, j, t));
        if (runnable)
            unalloc[m++] = j;
    }
    for (int t = 0; t < T; t++) {
        workers[t] = workers[t] > 0 ? workers[t] : 0;
        n += workers[t];
    }
    int keep = (int)floor(s->alpha * m);
    keep = keep > n ? keep : n;
    m = m < keep ? m : keep;
    if (m > 0 && n > 0 && s->lsap) {
        rc = gavel_lsap(v, unalloc, m, workers, x, err, errlen);
    } else if (m > 0 && n > 0) {
        start_t *st = pu_alloc((size_t)m, sizeof *st);
        rc = match(v, unalloc, m, workers, s->simplex, st, err, errlen);
        if (rc == 0) {
            qsort(st, (size_t)m, sizeof *st, cmp_start); /* by type, first on a GPU first */
            for (int i = 0, t = -1, on_t = 0; i < m; i++) {
                if (st[i].type != t)
                    t = st[i].type, on_t = 0;
                if (t >= 0 && on_t++ < workers[t])
                    x[st[i].job * T + t] = 1.0 / v->jobs[st[i].job].gpus_requested;
            }
        }
        free(st);
    }
    free(unalloc);
    free(order);
    free(workers);
    return rc;
}

static void remember(allox_state_t *s, const view_t *v, const double *x)
{
    int T = v->n_types;
    mem_clear(s);
    s->mem = pu_alloc((size_t)v->n_jobs + 1, sizeof *s->mem);
    s->n_mem = v->n_jobs;
    s->mem_types = T;
    for (int j = 0; j < v->n_jobs; j++) {
        s->mem[j].id = v->jobs[j].id;
        s->mem[j].x = pu_alloc((size_t)T, sizeof *s->mem[j].x);
        memcpy(s->mem[j].x, x + (size_t)j * T, (size_t)T * sizeof *x);
    }
    qsort(s->mem, (size_t)s->n_mem, sizeof *s->mem, cmp_mem);
}

static int gavel_schedule(allox_state_t *s, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    gr_begin(s->round, v);
    if (gr_need_recompute(s->round, v, s->interval)) {
        int T = v->n_types, J = v->n_jobs;
        double *x = pu_alloc((size_t)J * T + 1, sizeof *x);
        int rc = gavel_allocation(s, v, x, err, errlen);
        if (rc != 0) {
            char msg[256];
            snprintf(msg, sizeof msg, "%s", err);
            snprintf(err, errlen, "allox at t=%.0f s: %s", v->now, msg);
            free(x);
            return -1;
        }
        int(*rows)[2] = pu_alloc((size_t)J + 1, sizeof *rows);
        for (int j = 0; j < J; j++)
            rows[j][0] = j, rows[j][1] = -1;
        gr_set_allocation(s->round, v, J, (const int(*)[2])rows, x);
        remember(s, v, x);
        free(rows);
        free(x);
    }
    gr_fill(s->round, v, plan, 0, 0);
    return 0;
}

int allox_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    allox_state_t *s = state;
    if (s->round)
        return gavel_schedule(s, v, plan, err, errlen);
    pu_room_t room;
    pu_room_init(&room, v);
    int *wait = pu_alloc((size_t)v->n_jobs, sizeof *wait);
    int n_wait = 0, rc = 0;
    pu_arrival_order(v, wait);
    for (int i = 0; i < v->n_jobs; i++) /* running jobs keep their GPUs */
        if (pu_holds(&v->jobs[wait[i]]))
            pu_keep(v, &room, plan, wait[i]);
    for (int i = 0; i < v->n_jobs; i++) {
        int j = wait[i], runnable = 0;
        if (plan_find(plan, j) >= 0 || pu_holds(&v->jobs[j]))
            continue;
        for (int t = 0; t < v->n_types; t++) /* a type with free GPUs it can use */
            runnable |= room.room[t] > 0 && isfinite(proc_time(v, j, t));
        if (runnable)
            wait[n_wait++] = j; /* longest waiting first: arrival order */
    }
    int n_free = pu_room_total(&room);
    if (n_free > 0 && n_wait > 0) {
        int m = (int)floor(s->alpha * n_wait);
        if (m < n_free)
            m = n_free;
        if (m > n_wait)
            m = n_wait;
        start_t *st = pu_alloc((size_t)m, sizeof *st);
        int cached = key_matches(&s->idle, v, wait, m, room.room), started = 0;
        if (!cached) {
            int *room_before = pu_alloc((size_t)v->n_types, sizeof *room_before);
            for (int t = 0; t < v->n_types; t++)
                room_before[t] = room.room[t];
            rc = match(v, wait, m, room.room, s->simplex, st, err, errlen);
            if (rc == 0) {
                qsort(st, (size_t)m, sizeof *st, cmp_start);
                for (int i = 0; i < m; i++) {
                    int t = st[i].type, g = v->jobs[st[i].job].gpus_requested;
                    if (t >= 0 && room.room[t] >= g) {
                        plan_run(plan, st[i].job, t, g);
                        room.room[t] -= g;
                        started++;
                    }
                }
                if (!started)
                    key_set(&s->idle, v, wait, m, room_before);
            }
            free(room_before);
        }
        if (rc != 0) {
            char msg[256];
            snprintf(msg, sizeof msg, "%s", err);
            snprintf(err, errlen, "allox at t=%.0f s: %s", v->now, msg);
        }
        free(st);
    }
    free(wait);
    pu_room_free(&room);
    return rc;
}
