/* pollux.c: Pollux's co-adaptive scheduler: each job's batch size chosen for
 * goodput (PolluxAgent) and the cluster's GPUs allocated by a genetic
 * algorithm over per-node allocation matrices (PolluxSched).
 *
 * Qiao et al., "Pollux: Co-adaptive Cluster Scheduling for Goodput-Optimized
 * Deep Learning", OSDI 2021: §3 (goodput = throughput x statistical
 * efficiency), §4.1 (PolluxAgent), §4.2 (PolluxSched). Semantics checked
 * against the authors' simulator (petuum/adaptdl, osdi21-artifact,
 * simulator/pollux.py, goodput.py, simulator.py); no code taken.
 *
 * PolluxAgent (§4.1). For a job on K GPUs of a type over N nodes, the batch
 * is the one that maximises GOODPUT(a, m, s) = THROUGHPUT x EFFICIENCY
 * (view->perf->goodput, which uses the job's reported noise scale): 50 total
 * batches M spaced geometrically from max(M0, min_local x K) to the largest
 * batch, each split into a micro-batch m <= max_local with s accumulation
 * steps (at least one on one GPU above M0, as Pollux does); the plan carries
 * that m as batch_size and s as accum_steps.
 *
 * PolluxSched (§4.2). An allocation matrix A gives each job GPUs per node.
 *     SPEEDUP_j(A_j) = max_{m,s} GOODPUT_j(A_j, m, s) / max_{m,s} GOODPUT_j(a_f, m, s)
 * with a_f the job's fair share, an exclusive 1/J of the cluster: ceil(G/J)
 * GPUs (G the GPUs of up nodes, J the active jobs) on the fewest nodes.
 *     FITNESS_p(A) = (1/J sum_j SPEEDUP_j(A_j)^p)^(1/p),   p = -1 by default
 * (parameter p; 0: geometric mean). A job given no GPUs has speedup 0, which
 * counts as 1e-3 (as the authors' simulator does, or p < 0 is undefined).
 * Re-allocation penalty: a job whose row of A differs from its current
 * allocation has its speedup multiplied by max(T - R d, 0) / (T + d), T its
 * age, R its restarts so far, d = restart_delay (30 s, the simulator's).
 * The genetic algorithm keeps a population of matrices (population=100),
 * warm-started from the previous decision's population (the first decision
 * starts from the current allocation alone), and for generations=100 rounds
 * makes 100 offspring: parents by binary tournament, single-point crossover
 * over the job rows (probability 0.9), then mutation and repair; duplicates
 * are dropped and the best 100 of parents and offspring survive. Mutation,
 * per offspring: each row is reset to the current allocation with
 * probability 0.1; each row with probability 0.1 has each of its entries
 * zeroed with probability 0.1; then on each node with free GPUs each entry
 * (j, n) is raised with probability p1 + p2 - p1 p2, p1 = 1/J and p2 =
 * 1/(jobs on n) for jobs already on n (0 otherwise), to a uniform value
 * between its count and the node's GPUs; last, a row left with some GPUs
 * but fewer than its job's min is topped up to the min (AdaptDL's
 * PolluxPolicy floors each mutated entry at the job's min_replicas fill; the
 * artifact's jobs have min 0): its own nodes' free GPUs, then nodes of its
 * type free in the offspring whole, then partly free ones, lowest index
 * first (fill_to_min; a rigid job over m nodes is otherwise never placed).
 * A job that can never get its min (above its max, its batch limit or 16
 * nodes of one type) is an error naming it. Repair, in job priority order
 * (least attained service first, then submit time, as the simulator): (1)
 * interference avoidance: on each node only the first distributed job (one
 * spanning several nodes) keeps its GPUs there; (2) a job keeps one GPU type
 * (the one it has most GPUs of); (3) at most the job's bound (its max GPUs,
 * the exploration bound below, max batch / min micro-batch), taken from its
 * nodes in a random order; (4) node capacity: earlier jobs first; (5) a job
 * with fewer than its min GPUs, or that cannot run on what is left, gets none
 * (and its GPUs go to the jobs after it).
 * Opt-in, not Pollux's: patience=N (0, off, by default) stops the GA once
 * the best fitness has not risen for N generations in a row (the warm start
 * makes steady-state decisions converge in a few); plans move slightly (see
 * bench/README.md, "pollux: patience").
 * The fittest matrix is the plan; GPU ids are chosen so that a job keeps the
 * GPUs it holds on a node where its count does not drop (no restart when its
 * row is unchanged). Randomness: a GSL mt19937 seeded with the run's seed at
 * the first call; same inputs and seed give the same plans.
 *
 * Simplifications and why:
 * - Throughput model: the view's fitted model (the Pollux catalog: the same
 *   T_iter form Pollux fits online) stands for the model PolluxAgent refits
 *   from its own observations. Exploration is kept as the simulator bounds
 *   it: a job may get at most twice the most GPUs it has been seen running on
 *   (at least 1, at least its min; explore=0 turns the bound off), and before
 *   it has reported a noise scale (never run) its speedup is K / ceil(G/J),
 *   linear, and it runs at Pollux's default batch max(M0, min_local x K).
 * - Table backend (no batch limits, no goodput): decided, not failed, so
 *   that Pollux's scheduler can be compared on every trace: goodput is the
 *   table's throughput at the job's own batch (efficiency 1, batch fixed,
 *   plan batch_size 0) and no exploration bound (the table is known).
 * - A model's throughput depends on the spread only through nodes > 1 (the
 *   Pollux T_sync terms; the table's unconsolidated entries), so goodput is
 *   cached per (job, type, K, spread), asked with 1 node or, spread, with
 *   the fewest nodes that hold K (at least 2).
 * - The batch is re-chosen at each decision, not at each epoch boundary as
 *   the simulator's agent does between decisions (the policy API has no call
 *   there); with Pollux's 60 s rounds the difference is at most a round.
 * - NSGA-II's second objective (cluster utility, for auto-scaling) is
 *   dropped: the cluster has a fixed size, and the simulator picks the best
 *   fitness anyway. With one objective NSGA-II's rank-and-crowding survival is
 *   best-fitness survival and its tournament compares fitness.
 * - Heterogeneous clusters (Pollux's is homogeneous): a job runs on one type
 *   (repair step 2), and its fair share is measured on the type where it is
 *   fastest.
 * - Every job's batch is the agent's (the authors' simulator pins ncf's at
 *   32,768; here a trace would pin it by a rigid batch, which Pollux ignores).
 * - Round length: a policy cannot set it; run with --round 60 (Pollux's
 *   scheduling interval). The cadence is rounds only, as Pollux.
 * - Pollux lets a job have 0 GPUs while running (min_replicas 0); here a job
 *   left out is preempted (queued), the same thing in this engine.
 * - The penalty factor is floored at 1e-3: at 0 a job that arrives at the
 *   instant of a decision (age 0) would gain nothing from starting and wait a
 *   round (the simulator's jobs mostly arrive between its 60 s steps). */
#include "policies/idmap.h"
#include "policies/policies.h"
#include "policies/policy_util.h"
#include "policies/pollux.h"

/* GSL's inline gsl_rng_uniform / gsl_rng_uniform_int (the same values as the
 * library's; the GA draws millions per decision) */
#ifndef HAVE_INLINE
#define HAVE_INLINE 1
#endif
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PX_MAX_NODES 16 /* nodes per job (the simulator's bound) */
#define PX_BATCH_POINTS 50
#define PX_EPS 1e-3      /* speedup floor in the power mean */
#define PX_CROSSOVER 0.9 /* NSGA-II's crossover probability */
#define PX_RESET 0.1     /* mutation: row reset to the current allocation */
#define PX_ZERO_ROW 0.1  /* mutation: row chosen for zeroing */
#define PX_ZERO 0.1      /* mutation: entry of a chosen row zeroed */

/* ---- the pieces with a meaning of their own (pollux.h) --------------------- */

double pollux_fitness(const double *speedup, int n, double p)
{
    if (n <= 0)
        return 0;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        if (p == 0)
            sum += log(fmax(speedup[i], PX_EPS));
        else if (p == -1)
            sum += 1.0 / (speedup[i] + PX_EPS);
        else
            sum += pow(speedup[i] + PX_EPS, p);
    }
    if (p == 0)
        return exp(sum / n);
    return p == -1 ? n / sum : pow(sum / n, 1.0 / p);
}

double pollux_restart_factor(double age, int restarts, double delay)
{
    if (!(age + delay > 0))
        return 0;
    return fmax(age - restarts * delay, 0.0) / (age + delay);
}

/* Pollux's split of a per-GPU batch into micro-batch and accumulation. */
static void split_batch(double local, int gpus, int m0, int max_local, int *m, int *s)
{
    const double eps = 1e-8;
    int steps = (int)ceil(local / max_local - eps) - 1;
    if (steps < 0)
        steps = 0;
    if (gpus == 1 && local > m0 + eps && steps < 1)
        steps = 1;
    *s = steps;
    *m = (int)ceil(local / (steps + 1) - eps);
}

double pollux_agent_batch(const view_t *v, const view_job_t *j, int type, int gpus, int nodes,
                          int *batch, int *accum)
{
    view_batch_limits_t l;
    *batch = *accum = 0;
    if (!v->perf || !v->perf->batch_limits || !v->perf->goodput || gpus < 1 ||
        v->perf->batch_limits(v->perf->ctx, j, type, &l) < 0 || l.min_local_batch < 1 ||
        l.max_local_batch < l.min_local_batch)
        return 0;
    double lo = fmax(l.init_batch, (double)l.min_local_batch * gpus), hi = l.max_batch;
    if (hi < lo)
        hi = lo;
    double best = 0;
    for (int i = 0; i < PX_BATCH_POINTS; i++) {
        double total = lo * pow(hi / lo, (double)i / (PX_BATCH_POINTS - 1));
        int m, s;
        split_batch(total / gpus, gpus, l.init_batch, l.max_local_batch, &m, &s);
        if (m < l.min_local_batch || m > l.max_local_batch)
            continue;
        double g = v->perf->goodput(v->perf->ctx, j, type, gpus, nodes, m, s);
        if (isfinite(g) && g > best) {
            best = g;
            *batch = m;
            *accum = s;
        }
    }
    return best;
}

/* ---- state kept between decisions ------------------------------------------- */

/* One job's GPUs on one node. */
typedef struct px_slot {
    int node, gpus;
} px_slot_t;

/* An allocation matrix, sparse: row r holds n[r] slots sorted by node. Two
 * layouts: wide (off NULL: row r at slots[r x width], room to grow; the
 * matrices being built and repaired) and compact (row r at slots[off[r]],
 * rows packed; the population's members, a few slots per job, so that
 * reading a parent touches little memory). */
typedef struct px_ind {
    px_slot_t *slots;
    unsigned char *n; /* slots per row */
    int *off;         /* compact: where each row starts; NULL: wide */
    int room;         /* compact: slots allocated */
    double fitness;
    uint64_t hash;
} px_ind_t;

typedef struct px_state {
    double p, delay;
    long pop, gens, patience;
    int explore;
    gsl_rng *rng; /* NULL before the first call */
    idmap_t ids;  /* job id -> index into max_held */
    int *max_held;
    size_t held_cap;
    /* the last decision's population, rows keyed by job id */
    px_ind_t *prev;
    int n_prev, prev_rows, prev_width;
    int64_t *prev_ids;
} px_state_t;

static void ind_free(px_ind_t *x)
{
    free(x->slots);
    free(x->n);
    free(x->off);
    x->slots = NULL;
    x->n = NULL;
    x->off = NULL;
}

static void forget_population(px_state_t *s)
{
    for (int i = 0; i < s->n_prev; i++)
        ind_free(&s->prev[i]);
    free(s->prev);
    free(s->prev_ids);
    s->prev = NULL;
    s->prev_ids = NULL;
    s->n_prev = s->prev_rows = 0;
}

int pollux_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    static const char *const known[] = {"p",       "population", "generations", "restart_delay",
                                        "explore", "patience", NULL};
    double p, delay;
    long pop, gens, explore, patience;
    *state = NULL;
    if (policy_args_check(args, known, "pollux", err, errlen) ||
        policy_arg_double(args, "p", -1, &p, err, errlen) ||
        policy_arg_long(args, "population", 100, &pop, err, errlen) ||
        policy_arg_long(args, "generations", 100, &gens, err, errlen) ||
        policy_arg_double(args, "restart_delay", 30, &delay, err, errlen) ||
        policy_arg_long(args, "explore", 1, &explore, err, errlen) ||
        policy_arg_long(args, "patience", 0, &patience, err, errlen))
        return -1;
    if (!isfinite(p) || p > 1) {
        snprintf(err, errlen, "pollux: p=%g: want a power-mean exponent <= 1 (-1: Pollux)", p);
        return -1;
    }
    if (pop < 2 || pop > 100000 || gens < 0 || gens > 1000000) {
        snprintf(err, errlen,
                 "pollux: population=%ld generations=%ld: want a population of 2..100000 and "
                 "0..1000000 generations",
                 pop, gens);
        return -1;
    }
    if (!(delay >= 0) || !isfinite(delay)) {
        snprintf(err, errlen, "pollux: restart_delay=%g: want seconds >= 0", delay);
        return -1;
    }
    if (explore != 0 && explore != 1) {
        snprintf(err, errlen, "pollux: explore=%ld: want 0 or 1", explore);
        return -1;
    }
    if (patience < 0 || patience > 1000000) {
        snprintf(err, errlen, "pollux: patience=%ld: want 0 (off) .. 1000000 generations",
                 patience);
        return -1;
    }
    px_state_t *s = pu_alloc(1, sizeof *s);
    s->patience = patience;
    s->p = p;
    s->delay = delay;
    s->pop = pop;
    s->gens = gens;
    s->explore = (int)explore;
    idmap_init(&s->ids);
    *state = s;
    return 0;
}

void pollux_destroy(void *state)
{
    px_state_t *s = state;
    if (!s)
        return;
    if (s->rng)
        gsl_rng_free(s->rng);
    idmap_free(&s->ids);
    free(s->max_held);
    forget_population(s);
    free(s);
}

/* Notes the most GPUs each job has been seen holding (the exploration bound). */
static int *held_slot(px_state_t *s, int64_t id)
{
    return idmap_int(&s->ids, &s->max_held, &s->held_cap, id);
}

/* ---- one decision ----------------------------------------------------------- */

enum { PX_TABLE, PX_LINEAR, PX_GOODPUT };

/* Best goodput (and its batch) of a job on K GPUs of a type, spread or not;
 * g < 0: not computed yet. */
typedef struct px_entry {
    double g;
    int m, s;
} px_entry_t;

typedef struct px_job {
    int job;           /* view index */
    int mode;          /* PX_* */
    int min, cap;      /* GPUs: 0 or min..cap */
    int never;         /* the most GPUs it can ever get if below min, else 0 */
    double base;       /* goodput on the fair share; <= 0: cannot run */
    double factor;     /* re-allocation penalty */
    px_entry_t *cache; /* [type][K 0..cap][spread] */
    size_t last_key;   /* the cache entry asked last (SIZE_MAX: none), */
    px_entry_t last;   /* and a copy of it */
} px_job_t;

typedef struct px_round {
    const view_t *v;
    px_state_t *s;
    gsl_rng *rng;
    int rows, width; /* jobs; slots per row */
    px_job_t *jobs;  /* per row, in priority order */
    int *node_cap;   /* GPUs of up nodes, 0 on failed ones */
    int *node_big;   /* per type: GPUs of its largest node */
    int *node_type;  /* per node */
    int *sub, n_sub; /* the nodes the GA places on, ascending (choose_nodes) */
    int *old_row;    /* per row: the job's row in the last population, or -1 */
    int up_gpus;     /* GPUs of up nodes */
    px_ind_t base;   /* the current allocation */
    /* scratch */
    int *free_gpus; /* per node */
    int *on_node;   /* per node: first entry in `list` */
    int *n_on;      /* per node: entries in its list */
    int *list_next, *list_row, *list_slot;
    unsigned char *mark; /* per row */
    unsigned char *is_grown; /* per row: in grown[] */
    int *grown, n_grown;     /* rows given a slot by a mutation */
    int *picked;         /* rows raised on a node they were absent from */
    int *flag;           /* per node: == stamp when set */
    int stamp;
    double *terms;       /* per row */
    px_ind_t *spare;     /* freed wide matrices, reused (they are large: rows x width) */
    int n_spare, spare_cap;
    px_ind_t *spare_c; /* freed compact ones */
    int n_spare_c, spare_c_cap;
    /* rows whose min is above 1 GPU (fill_to_min) */
    int *gang, n_gang;
    /* per type: the most GPUs one job can hold (PX_MAX_NODES nodes) */
    int *reach;
} px_round_t;

/* Row `row` of x (either layout). */
static px_slot_t *row_slots(const px_round_t *r, const px_ind_t *x, int row)
{
    return &x->slots[x->off ? (size_t)x->off[row] : (size_t)row * (size_t)r->width];
}

static int spread_nodes(const px_round_t *r, int type, int k, int spread)
{
    if (!spread)
        return 1;
    int big = r->node_big[type] > 0 ? r->node_big[type] : 1;
    int n = (k + big - 1) / big;
    return n < 2 ? 2 : n;
}

static px_entry_t evaluate_model(const px_round_t *r, const px_job_t *pj, int type, int k,
                                 int spread);

/* Goodput of the row's job on k GPUs of type; the batch it would run at. 0
 * also where the mechanism would refuse the allocation: it checks that the
 * job has a throughput on k GPUs of the type on the fewest nodes. */
static px_entry_t evaluate(const px_round_t *r, const px_job_t *pj, int type, int k, int spread)
{
    const view_t *v = r->v;
    px_entry_t e = evaluate_model(r, pj, type, k, spread);
    if (e.g > 0 && !(v->perf->throughput(v->perf->ctx, &v->jobs[pj->job], type, k, 0, e.m) > 0))
        e.g = 0;
    return e;
}

static px_entry_t evaluate_model(const px_round_t *r, const px_job_t *pj, int type, int k,
                                 int spread)
{
    const view_t *v = r->v;
    const view_job_t *j = &v->jobs[pj->job];
    int nodes = spread_nodes(r, type, k, spread);
    px_entry_t e = {0, 0, 0};
    if (k < 1)
        return e;
    if (pj->mode == PX_TABLE) {
        double t = v->perf->throughput(v->perf->ctx, j, type, k, nodes, 0);
        e.g = isfinite(t) && t > 0 ? t : 0;
        return e;
    }
    if (pj->mode == PX_GOODPUT) {
        e.g = pollux_agent_batch(v, j, type, k, nodes, &e.m, &e.s);
        return e;
    }
    /* linear: runnable at Pollux's default batch, speedup k / fair share */
    view_batch_limits_t l;
    if (v->perf->batch_limits(v->perf->ctx, j, type, &l) < 0 || l.max_local_batch < 1)
        return e;
    double total = fmax(l.init_batch, (double)l.min_local_batch * k);
    split_batch(ceil(total / k - 1e-8), k, l.init_batch, l.max_local_batch, &e.m, &e.s);
    double x = v->perf->samples_throughput(v->perf->ctx, j, type, k, nodes, e.m, e.s);
    e.g = isfinite(x) && x > 0 ? k : 0;
    return e;
}

/* The row's entry for (type, k, spread); the last one asked is kept with the
 * row (most offspring leave most rows as their parents had them, so the
 * next ask is mostly the same one, and the cache's memory is not touched). */
static const px_entry_t *lookup(px_round_t *r, int row, int type, int k, int spread)
{
    px_job_t *pj = &r->jobs[row];
    size_t key = ((size_t)type * (size_t)(pj->cap + 1) + (size_t)k) * 2 + (size_t)spread;
    if (pj->last_key == key)
        return &pj->last;
    px_entry_t *e = &pj->cache[key];
    if (e->g < 0)
        *e = evaluate(r, pj, type, k, spread);
    pj->last_key = key;
    pj->last = *e;
    return &pj->last;
}


static int same_row(const px_round_t *r, const px_ind_t *a, const px_ind_t *b, int row)
{
    if (a->n[row] != b->n[row])
        return 0;
    const px_slot_t *sa = row_slots(r, a, row), *sb = row_slots(r, b, row);
    for (int i = 0; i < a->n[row]; i++)
        if (sa[i].node != sb[i].node || sa[i].gpus != sb[i].gpus)
            return 0;
    return 1;
}

/* SPEEDUP of the row's job under x, penalty included; e: its goodput on the
 * row's k GPUs (unused when k is 0). */
static double row_speedup(const px_round_t *r, const px_ind_t *x, int row, int k,
                          const px_entry_t *e)
{
    const px_job_t *pj = &r->jobs[row];
    if (k == 0 || pj->base <= 0)
        return 0;
    double sp = e->g / pj->base;
    return same_row(r, x, &r->base, row) ? sp : sp * pj->factor;
}

#define PX_HASH0 1469598103934665603ULL /* FNV-1a over every (row, node, GPUs) */

static uint64_t hash_row(uint64_t h, const px_round_t *r, const px_ind_t *x, int row)
{
    const px_slot_t *sl = row_slots(r, x, row);
    for (int i = 0; i < x->n[row]; i++, sl++) {
        uint64_t w = ((uint64_t)row << 40) ^ ((uint64_t)sl->node << 16) ^ (uint64_t)sl->gpus;
        h = (h ^ w) * 1099511628211ULL;
    }
    return h;
}

/* A wide matrix (contents undefined). */
static void ind_alloc(px_round_t *r, px_ind_t *x)
{
    if (r->n_spare > 0) {
        *x = r->spare[--r->n_spare];
    } else {
        memset(x, 0, sizeof *x);
        x->slots = pu_alloc((size_t)r->rows * r->width + 1, sizeof *x->slots);
        x->n = pu_alloc((size_t)r->rows + 1, 1);
    }
    x->fitness = 0;
    x->hash = 0;
}

static void pool_put(px_ind_t **pool, int *n, int *cap, px_ind_t *x)
{
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 16;
        px_ind_t *m = pu_alloc((size_t)c, sizeof *m);
        if (*n)
            memcpy(m, *pool, (size_t)*n * sizeof *m);
        free(*pool);
        *pool = m;
        *cap = c;
    }
    (*pool)[(*n)++] = *x;
    x->slots = NULL;
    x->n = NULL;
    x->off = NULL;
}

/* Gives x's memory back to the round's pool of its layout. */
static void ind_release(px_round_t *r, px_ind_t *x)
{
    if (x->off)
        pool_put(&r->spare_c, &r->n_spare_c, &r->spare_c_cap, x);
    else
        pool_put(&r->spare, &r->n_spare, &r->spare_cap, x);
}

/* A compact copy of x (any layout). */
static px_ind_t compact(px_round_t *r, const px_ind_t *x)
{
    px_ind_t c;
    int total = 0;
    for (int row = 0; row < r->rows; row++)
        total += x->n[row];
    if (r->n_spare_c > 0) {
        c = r->spare_c[--r->n_spare_c];
    } else {
        memset(&c, 0, sizeof c);
        c.n = pu_alloc((size_t)r->rows + 1, 1);
        c.off = pu_alloc((size_t)r->rows + 1, sizeof *c.off);
    }
    if (c.room < total) {
        free(c.slots);
        c.room = total + total / 4 + 1;
        c.slots = pu_alloc((size_t)c.room, sizeof *c.slots);
    }
    if (r->rows > 0)
        memcpy(c.n, x->n, (size_t)r->rows);
    int at = 0;
    for (int row = 0; row < r->rows; row++) {
        const px_slot_t *sl = row_slots(r, x, row);
        c.off[row] = at;
        for (int i = 0; i < x->n[row]; i++)
            c.slots[at++] = sl[i];
    }
    c.off[r->rows] = at;
    c.fitness = x->fitness;
    c.hash = x->hash;
    return c;
}

/* Rows from..to-1 of src (any layout) into dst (wide). */
static void copy_rows(const px_round_t *r, px_ind_t *dst, const px_ind_t *src, int from, int to)
{
    if (to > from)
        memcpy(&dst->n[from], &src->n[from], (size_t)(to - from));
    for (int row = from; row < to; row++) {
        const px_slot_t *sl = row_slots(r, src, row);
        px_slot_t *d = &dst->slots[(size_t)row * r->width];
        for (int i = 0; i < src->n[row]; i++)
            d[i] = sl[i];
    }
}

/* Drops zero slots of a row and sorts the rest by node. */
static void tidy_row(const px_round_t *r, px_ind_t *x, int row)
{
    px_slot_t *sl = row_slots(r, x, row);
    int n = 0;
    for (int i = 0; i < x->n[row]; i++)
        if (sl[i].gpus > 0)
            sl[n++] = sl[i];
    x->n[row] = (unsigned char)n;
    for (int i = 1; i < n; i++) { /* insertion sort: rows hold a few slots */
        px_slot_t t = sl[i];
        int k = i;
        for (; k > 0 && sl[k - 1].node > t.node; k--)
            sl[k] = sl[k - 1];
        sl[k] = t;
    }
}

/* ---- repair (§4.2) ------------------------------------------------------------ */

/* (1) Interference avoidance: per node only the first distributed job (the
 * nodes of the distributed rows before this one are flagged r->stamp). */
static void repair_interference(px_round_t *r, px_ind_t *x, int row)
{
    if (x->n[row] < 2)
        return;
    px_slot_t *sl = row_slots(r, x, row);
    int zeroed = 0;
    for (int i = 0; i < x->n[row]; i++) {
        if (r->flag[sl[i].node] == r->stamp) {
            sl[i].gpus = 0;
            zeroed = 1;
        }
        r->flag[sl[i].node] = r->stamp;
    }
    if (zeroed) /* rows are kept tidy: only a change needs it */
        tidy_row(r, x, row);
}

/* (2) One GPU type per job: the one it has most GPUs of (ties: lower index). */
static void repair_type(px_round_t *r, px_ind_t *x, int row)
{
    const int *type = r->node_type;
    px_slot_t *sl = row_slots(r, x, row);
    int mixed = 0;
    for (int i = 1; i < x->n[row]; i++)
        mixed |= type[sl[i].node] != type[sl[0].node];
    if (!mixed)
        return;
    int best = -1, best_k = -1;
    for (int t = 0; t < r->v->n_types; t++) {
        int k = 0;
        for (int i = 0; i < x->n[row]; i++)
            k += type[sl[i].node] == t ? sl[i].gpus : 0;
        if (k > best_k) {
            best_k = k;
            best = t;
        }
    }
    for (int i = 0; i < x->n[row]; i++)
        if (type[sl[i].node] != best)
            sl[i].gpus = 0;
    tidy_row(r, x, row);
}

/* (3) At most cap GPUs, taken from the row's nodes in a random order. */
static void repair_cap(px_round_t *r, px_ind_t *x, int row)
{
    int cap = r->jobs[row].cap, n = x->n[row];
    px_slot_t *sl = row_slots(r, x, row);
    int k = 0;
    for (int i = 0; i < n; i++)
        k += sl[i].gpus;
    if (k <= cap)
        return;
    gsl_ran_shuffle(r->rng, sl, n, sizeof *sl);
    int left = cap;
    for (int i = 0; i < n; i++) {
        if (sl[i].gpus > left)
            sl[i].gpus = left;
        left -= sl[i].gpus;
    }
    tidy_row(r, x, row);
}

/* (4) Node capacity, the rows before this one served first; (5) the job's
 * minimum and runnability. Returns the row's GPUs; *e their goodput. */
static int repair_capacity(px_round_t *r, px_ind_t *x, int row, const px_entry_t **e)
{
    px_slot_t *sl = row_slots(r, x, row);
    int *free_gpus = r->free_gpus;
    int emptied = 0, k = 0, n = x->n[row];
    for (int i = 0; i < n; i++) {
        int node = sl[i].node, g = sl[i].gpus, f = free_gpus[node];
        if (g > f)
            sl[i].gpus = g = f;
        free_gpus[node] = f - g;
        emptied |= g == 0;
        k += g;
    }
    if (k == 0) {
        x->n[row] = 0;
        return 0;
    }
    if (emptied)
        tidy_row(r, x, row);
    n = x->n[row];
    *e = lookup(r, row, r->node_type[sl[0].node], k, n > 1);
    if (k < r->jobs[row].min || !((*e)->g > 0)) {
        for (int i = 0; i < n; i++)
            free_gpus[sl[i].node] += sl[i].gpus;
        x->n[row] = 0;
        return 0;
    }
    return k;
}

/* Repairs x (steps 1 to 5, row by row in priority order: what each step does
 * to a row depends on the rows before it only, so doing all steps on a row
 * before the next is the same as doing each step on all rows before the
 * next), then scores it: fitness (the power mean of the rows' speedups) and
 * hash (to find duplicates). */
static void repair(px_round_t *r, px_ind_t *x)
{
    if (++r->stamp == INT32_MAX) { /* flags set in earlier calls hold older stamps */
        for (int k = 0; k < r->n_sub; k++)
            r->flag[r->sub[k]] = 0;
        r->stamp = 1;
    }
    for (int k = 0; k < r->n_sub; k++)
        r->free_gpus[r->sub[k]] = r->node_cap[r->sub[k]];
    uint64_t h = PX_HASH0;
    for (int row = 0; row < r->rows; row++) {
        const px_entry_t *e = NULL;
        r->terms[row] = 0;
        if (x->n[row] == 0) /* nothing to repair, no speedup, nothing to hash */
            continue;
        if (x->n[row] > 1) { /* steps 1 and 2 concern rows over several nodes */
            repair_interference(r, x, row);
            repair_type(r, x, row);
        }
        repair_cap(r, x, row);
        int k = repair_capacity(r, x, row, &e);
        if (k == 0)
            continue;
        r->terms[row] = row_speedup(r, x, row, k, e);
        h = hash_row(h, r, x, row);
    }
    x->fitness = pollux_fitness(r->terms, r->rows, r->s->p);
    x->hash = h;
}

/* ---- mutation and crossover (§4.2) ------------------------------------------- */

/* Raises entry (row, node) to a uniform value in [current, node GPUs]. A new
 * slot goes at the row's end: the row is noted in r->grown, to be sorted. */
static void raise_entry(px_round_t *r, px_ind_t *x, int row, int node, int slot)
{
    int cap = r->node_cap[node];
    px_slot_t *sl = row_slots(r, x, row);
    if (slot < 0) {
        if (x->n[row] >= r->width || cap < 1)
            return;
        int g = (int)gsl_rng_uniform_int(r->rng, (unsigned long)cap + 1);
        if (g > 0) {
            sl[x->n[row]++] = (px_slot_t){node, g};
            r->free_gpus[node] -= g;
            if (!r->is_grown[row]) {
                r->is_grown[row] = 1;
                r->grown[r->n_grown++] = row;
            }
        }
        return;
    }
    int cur = sl[slot].gpus;
    if (cap > cur) {
        int g = (int)gsl_rng_uniform_int(r->rng, (unsigned long)(cap - cur) + 1);
        sl[slot].gpus = cur + g;
        r->free_gpus[node] -= g;
    }
}

/* The c-th of a set of distinct rows drawn uniformly among the unmarked ones
 * (marked, and remembered in picked[c], until unmark_picked()). */
static int pick_row(px_round_t *r, unsigned int c)
{
    int row;
    do
        row = (int)gsl_rng_uniform_int(r->rng, (unsigned long)r->rows);
    while (r->mark[row]);
    r->mark[row] = 1;
    r->picked[c] = row;
    return row;
}

static void unmark_picked(px_round_t *r, unsigned int n)
{
    for (unsigned int c = 0; c < n; c++)
        r->mark[r->picked[c]] = 0;
}

/* Links every entry of x into its node's list. */
static void index_nodes(px_round_t *r, const px_ind_t *x)
{
    int e = 0;
    for (int k = 0; k < r->n_sub; k++) {
        r->on_node[r->sub[k]] = -1;
        r->n_on[r->sub[k]] = 0;
        r->free_gpus[r->sub[k]] = r->node_cap[r->sub[k]];
    }
    for (int row = 0; row < r->rows; row++)
        for (int i = 0; i < x->n[row]; i++, e++) {
            int node = row_slots(r, x, row)[i].node;
            r->list_row[e] = row;
            r->list_slot[e] = i;
            r->list_next[e] = r->on_node[node];
            r->on_node[node] = e;
            r->n_on[node]++;
            r->free_gpus[node] -= row_slots(r, x, row)[i].gpus;
        }
}

/* Adds up to `need` GPUs of node `node` to the row (a new slot, or more on
 * its slot there); returns how many. */
static int fill_node(px_round_t *r, px_ind_t *x, int row, int node, int need)
{
    int f = r->free_gpus[node], g = f < need ? f : need;
    if (g < 1)
        return 0;
    px_slot_t *sl = row_slots(r, x, row);
    int i = 0;
    while (i < x->n[row] && sl[i].node != node)
        i++;
    if (i == x->n[row]) {
        if (x->n[row] >= r->width)
            return 0;
        sl[x->n[row]++] = (px_slot_t){node, 0};
    }
    sl[i].gpus += g;
    r->free_gpus[node] -= g;
    return g;
}

/* The floor at a job's min (AdaptDL's PolluxPolicy: its mutation raises no
 * entry below the job's greedy min_replicas fill, so a job whose min spans
 * nodes is always proposed whole; the artifact's jobs all have min 0). A row
 * the mutation left with some GPUs but fewer than its min is topped up to
 * the min on its type (the one it has most GPUs of): on its own nodes' free
 * GPUs, then on nodes free in x whole (fewest nodes), then partly free,
 * lowest index first; no random draws. Without it repair drops every row
 * below its min, and a rigid job over m nodes needed m entries drawn full in
 * one offspring (1 in 9^m on 8-GPU nodes): a 64-GPU job never ran. */
static void fill_to_min(px_round_t *r, px_ind_t *x)
{
    for (int c = 0; c < r->n_gang; c++) {
        int row = r->gang[c], n = x->n[row];
        if (n == 0)
            continue;
        const px_slot_t *sl = row_slots(r, x, row);
        int type = -1, k = 0;
        for (int t = 0; t < r->v->n_types; t++) { /* as repair_type picks it */
            int kt = 0;
            for (int i = 0; i < n; i++)
                kt += r->node_type[sl[i].node] == t ? sl[i].gpus : 0;
            if (kt > k) {
                k = kt;
                type = t;
            }
        }
        int need = r->jobs[row].min - k;
        if (type < 0 || need <= 0)
            continue;
        for (int i = 0; i < n && need > 0; i++)
            if (r->node_type[sl[i].node] == type)
                need -= fill_node(r, x, row, sl[i].node, need);
        for (int pass = 0; pass < 2 && need > 0; pass++)
            for (int q = 0; q < r->n_sub && need > 0; q++) {
                int node = r->sub[q], f = r->free_gpus[node];
                if (r->node_type[node] == type && f > 0 && (pass || f == r->node_cap[node]))
                    need -= fill_node(r, x, row, node, need);
            }
        tidy_row(r, x, row);
    }
}

static void mutate(px_round_t *r, px_ind_t *x)
{
    int rows = r->rows;
    /* each row reset with probability PX_RESET, then each row chosen for
     * zeroing with PX_ZERO_ROW: drawn as binomial counts of distinct rows */
    unsigned int resets = gsl_ran_binomial(r->rng, PX_RESET, (unsigned)rows);
    for (unsigned int c = 0; c < resets; c++) {
        int row = pick_row(r, c);
        copy_rows(r, x, &r->base, row, row + 1);
    }
    unmark_picked(r, resets);
    unsigned int zeroed = gsl_ran_binomial(r->rng, PX_ZERO_ROW, (unsigned)rows);
    for (unsigned int c = 0; c < zeroed; c++) {
        int row = pick_row(r, c);
        px_slot_t *sl = row_slots(r, x, row);
        int hit = 0;
        for (int i = 0; i < x->n[row]; i++)
            if (gsl_rng_uniform(r->rng) < PX_ZERO) {
                sl[i].gpus = 0;
                hit = 1;
            }
        if (hit)
            tidy_row(r, x, row);
    }
    unmark_picked(r, zeroed);
    /* raises: decided on the matrix as it is now, node by node */
    index_nodes(r, x);
    double p1 = 1.0 / rows;
    for (int k = 0; k < r->n_sub; k++) {
        int node = r->sub[k];
        if (r->free_gpus[node] < 1)
            continue;
        int present = r->n_on[node];
        double p2 = present ? 1.0 / present : 0, q = p1 + p2 - p1 * p2;
        for (int e = r->on_node[node]; e >= 0; e = r->list_next[e])
            if (gsl_rng_uniform(r->rng) < q)
                raise_entry(r, x, r->list_row[e], node, r->list_slot[e]);
        /* absent jobs: each with probability p1, drawn as a binomial count,
         * then that many distinct rows not on the node (marked meanwhile) */
        int absent = rows - present;
        unsigned int pick = absent > 0 ? gsl_ran_binomial(r->rng, p1, (unsigned)absent) : 0;
        if (pick == 0)
            continue;
        for (int e = r->on_node[node]; e >= 0; e = r->list_next[e])
            r->mark[r->list_row[e]] = 1;
        for (unsigned int c = 0; c < pick; c++)
            raise_entry(r, x, pick_row(r, c), node, -1);
        for (int e = r->on_node[node]; e >= 0; e = r->list_next[e])
            r->mark[r->list_row[e]] = 0;
        unmark_picked(r, pick);
    }
    /* rows are tidy but for those raised on a new node (raising a slot keeps
     * its place; zeroed rows were tidied, reset ones are the tidy base) */
    for (int c = 0; c < r->n_grown; c++) {
        tidy_row(r, x, r->grown[c]);
        r->is_grown[r->grown[c]] = 0;
    }
    r->n_grown = 0;
    fill_to_min(r, x);
}

/* ---- the genetic algorithm ----------------------------------------------------- */

typedef struct px_pop {
    px_ind_t *ind;
    int n, cap;
} px_pop_t;

static int is_duplicate(const px_round_t *r, const px_pop_t *p, const px_ind_t *x)
{
    for (int i = 0; i < p->n; i++) {
        const px_ind_t *y = &p->ind[i];
        if (y->hash != x->hash)
            continue;
        int same = 1;
        for (int row = 0; row < r->rows && same; row++)
            same = same_row(r, x, y, row);
        if (same)
            return 1;
    }
    return 0;
}

/* Adds x (repaired and scored) to p unless an equal matrix is there; takes x's memory
 * either way. */
static void pop_add(px_round_t *r, px_pop_t *p, px_ind_t *x)
{
    if (!is_duplicate(r, p, x) && p->n < p->cap)
        p->ind[p->n++] = compact(r, x);
    ind_release(r, x);
}

typedef struct px_rank {
    double fitness;
    int idx;
} px_rank_t;

static int cmp_rank(const void *pa, const void *pb)
{
    const px_rank_t *a = pa, *b = pb;
    if (a->fitness != b->fitness)
        return a->fitness > b->fitness ? -1 : 1;
    return a->idx - b->idx;
}

/* Sorts p by fitness (best first, ties by position) and keeps the best `keep`. */
static void survive(px_round_t *r, px_pop_t *p, int keep)
{
    px_rank_t *rk = pu_alloc((size_t)p->n, sizeof *rk);
    px_ind_t *sorted = pu_alloc((size_t)p->cap, sizeof *sorted);
    for (int i = 0; i < p->n; i++)
        rk[i] = (px_rank_t){p->ind[i].fitness, i};
    qsort(rk, (size_t)p->n, sizeof *rk, cmp_rank);
    for (int i = 0; i < p->n; i++)
        sorted[i] = p->ind[rk[i].idx];
    for (int i = keep; i < p->n; i++)
        ind_release(r, &sorted[i]);
    if (p->n > keep)
        p->n = keep;
    free(p->ind);
    p->ind = sorted;
    free(rk);
}

/* Runs the GA from the sorted population p; with patience N > 0, stops once
 * the best fitness has not risen for N generations in a row. */
static void evolve(px_round_t *r, px_pop_t *p)
{
    int size = (int)r->s->pop;
    double best = p->n > 0 ? p->ind[0].fitness : 0;
    long stale = 0;
    for (long gen = 0; gen < r->s->gens; gen++) {
        if (r->s->patience > 0 && stale >= r->s->patience)
            break;
        int parents = p->n;
        for (int m = 0; m < size / 2 + size % 2; m++) {
            /* binary tournaments: the population is sorted, the lower index wins */
            int a = (int)gsl_rng_uniform_int(r->rng, (unsigned long)parents);
            int b = (int)gsl_rng_uniform_int(r->rng, (unsigned long)parents);
            int c = (int)gsl_rng_uniform_int(r->rng, (unsigned long)parents);
            int d = (int)gsl_rng_uniform_int(r->rng, (unsigned long)parents);
            const px_ind_t *pa = &p->ind[a < b ? a : b], *pb = &p->ind[c < d ? c : d];
            int point = gsl_rng_uniform(r->rng) < PX_CROSSOVER
                            ? (int)gsl_rng_uniform_int(r->rng, (unsigned long)r->rows)
                            : r->rows;
            px_ind_t kid[2];
            for (int k = 0; k < 2; k++) {
                ind_alloc(r, &kid[k]);
                copy_rows(r, &kid[k], k ? pb : pa, 0, point);
                copy_rows(r, &kid[k], k ? pa : pb, point, r->rows);
                mutate(r, &kid[k]);
                repair(r, &kid[k]);
            }
            pop_add(r, p, &kid[0]);
            pop_add(r, p, &kid[1]);
        }
        survive(r, p, size);
        if (p->ind[0].fitness > best) {
            best = p->ind[0].fitness;
            stale = 0;
        } else {
            stale++;
        }
    }
}

/* ---- building the decision's problem ----------------------------------------- */

typedef struct px_key {
    double service, submit;
    int64_t id;
    int job;
} px_key_t;

static int cmp_key(const void *pa, const void *pb)
{
    const px_key_t *a = pa, *b = pb;
    if (a->service != b->service)
        return a->service < b->service ? -1 : 1;
    if (a->submit != b->submit)
        return a->submit < b->submit ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id ? 1 : 0;
}

static int up_gpus(const view_t *v)
{
    int g = 0;
    for (int k = 0; k < v->n_nodes; k++)
        g += v->nodes[k].up ? v->nodes[k].gpus : 0;
    return g;
}

static int cmp_int_desc(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    return (a < b) - (a > b);
}

/* Per type, the most GPUs one job can hold: its PX_MAX_NODES largest nodes
 * (up or not); reach[n_types]: the GPUs of the largest type (a job above it
 * fits no type: the engine refuses it, a view may still show it). */
static int *type_reach(const view_t *v)
{
    int *reach = pu_alloc((size_t)v->n_types + 1, sizeof *reach);
    int *g = pu_alloc((size_t)v->n_nodes + 1, sizeof *g);
    for (int t = 0; t < v->n_types; t++) {
        int n = 0, all = 0;
        for (int k = 0; k < v->n_nodes; k++)
            if (v->nodes[k].type == t) {
                g[n++] = v->nodes[k].gpus;
                all += v->nodes[k].gpus;
            }
        qsort(g, (size_t)n, sizeof *g, cmp_int_desc);
        for (int i = 0; i < n && i < PX_MAX_NODES; i++)
            reach[t] += g[i];
        reach[v->n_types] = all > reach[v->n_types] ? all : reach[v->n_types];
    }
    free(g);
    return reach;
}

/* The job's mode, GPU bound, fair-share goodput and penalty. */
static void setup_job(px_round_t *r, int row, int fair)
{
    const view_t *v = r->v;
    px_job_t *pj = &r->jobs[row];
    const view_job_t *j = &v->jobs[pj->job];
    view_batch_limits_t l;
    int has_model = v->perf->batch_limits && v->perf->batch_limits(v->perf->ctx, j, -1, &l) == 0 &&
                    l.min_local_batch > 0;
    pj->mode = !has_model ? PX_TABLE : isnan(j->grad_noise_scale) ? PX_LINEAR : PX_GOODPUT;
    int total = r->up_gpus;
    pj->min = j->min_gpus > 0 ? j->min_gpus : 1;
    pj->cap = j->max_gpus < total ? j->max_gpus : total;
    if (has_model) {
        int by_batch = l.max_batch / l.min_local_batch;
        if (by_batch < pj->cap)
            pj->cap = by_batch;
        if (r->s->explore) {
            int seen = r->s->max_held[idmap_get(&r->s->ids, j->id)];
            int bound = 2 * seen > pj->min ? 2 * seen : pj->min;
            if (bound < pj->cap)
                pj->cap = bound;
        }
        if (fair > l.max_batch / l.min_local_batch)
            fair = l.max_batch / l.min_local_batch;
    }
    /* the most it could ever get: its max, its batch limit, PX_MAX_NODES
     * nodes of one type (not the up GPUs or the exploration bound: they move) */
    int ever = 0;
    for (int t = 0; t < v->n_types; t++)
        ever = r->reach[t] > ever ? r->reach[t] : ever;
    ever = j->max_gpus < ever ? j->max_gpus : ever;
    if (has_model && l.max_batch / l.min_local_batch < ever)
        ever = l.max_batch / l.min_local_batch;
    /* a job above every type is skipped, as by every policy (no row below) */
    pj->never = ever < pj->min && pj->min <= r->reach[v->n_types] ? ever : 0;
    if (pj->cap < pj->min)
        pj->cap = pj->min - 1 > 0 ? pj->min - 1 : 0; /* cannot run: no row */
    size_t n = (size_t)v->n_types * (size_t)(pj->cap + 1) * 2;
    pj->cache = pu_alloc(n, sizeof *pj->cache);
    for (size_t i = 0; i < n; i++)
        pj->cache[i].g = -1;
    pj->last_key = SIZE_MAX;
    pj->base = 0;
    if (pj->cap < pj->min || fair < 1)
        return;
    /* the fair share, on the type where the job is fastest */
    for (int t = 0; t < v->n_types; t++) {
        int k = fair < v->types[t].total_gpus ? fair : v->types[t].total_gpus;
        if (k < 1)
            continue;
        px_entry_t e = evaluate(r, pj, t, k, k > r->node_big[t]);
        if (pj->mode == PX_LINEAR && e.g > 0)
            e.g = fair; /* speedup K / ceil(G/J) */
        if (e.g > pj->base)
            pj->base = e.g;
    }
    double age = v->now - j->submit;
    pj->factor = fmax(pollux_restart_factor(age, j->restarts, r->s->delay), PX_EPS);
}

/* The current allocation as a row: GPUs held per node (gpu_node: GPU id ->
 * node). */
static void base_row(px_round_t *r, int row, const int *gpu_node)
{
    const view_t *v = r->v;
    const view_job_t *j = &v->jobs[r->jobs[row].job];
    px_ind_t *x = &r->base;
    x->n[row] = 0;
    if (j->state == VIEW_QUEUED || !j->cur_gpu_ids || j->cur_gpus < 1)
        return;
    px_slot_t *sl = row_slots(r, x, row);
    for (int i = 0; i < j->cur_gpus; i++) {
        int g = j->cur_gpu_ids[i];
        int node = g >= 0 && g < v->n_gpus ? gpu_node[g] : -1;
        if (node < 0)
            continue;
        int found = 0;
        for (int s = 0; s < x->n[row] && !found; s++)
            if (sl[s].node == node) {
                sl[s].gpus++;
                found = 1;
            }
        if (!found && x->n[row] < r->width)
            sl[x->n[row]++] = (px_slot_t){node, 1};
    }
    tidy_row(r, x, row);
}

/* Each row's job's row in the last decision's population (-1: new job, or
 * no population to start from). */
static void map_old_rows(px_round_t *r)
{
    const px_state_t *s = r->s;
    r->old_row = pu_alloc((size_t)r->rows + 1, sizeof *r->old_row);
    for (int row = 0; row < r->rows; row++)
        r->old_row[row] = -1;
    if (!s->n_prev || s->prev_width != r->width)
        return;
    idmap_t prev;
    idmap_init(&prev);
    for (int i = 0; i < s->prev_rows; i++)
        idmap_put(&prev, s->prev_ids[i]);
    for (int row = 0; row < r->rows; row++)
        r->old_row[row] = idmap_get(&prev, r->v->jobs[r->jobs[row].job].id);
    idmap_free(&prev);
}

/* The nodes the GA places on: every node a job holds GPUs on now or in the
 * population it starts from, then, per GPU type, idle up nodes (lowest index
 * first) until the kept nodes of the type hold every job's bound (cap)
 * together: all jobs could be placed at their bounds on the type. The other
 * idle nodes are interchangeable with the kept idle ones (same type, no job on
 * them), so the search loses little and its cost (each node the mutation
 * visits draws which jobs it raises there) follows the jobs, not the cluster.
 * A type of at most PX_MAX_NODES up nodes (the most one job may span;
 * Pollux's testbed is 16 nodes of one type) is kept whole: there the matrix
 * and its random draws are the full cluster's, as before the reduction.
 * Failed nodes (no GPUs) that no job is on are left out: the GA never places
 * on them. */
static void choose_nodes(px_round_t *r)
{
    const view_t *v = r->v;
    const px_state_t *s = r->s;
    int nn = v->n_nodes;
    char *in = pu_alloc((size_t)nn + 1, 1); /* 1: held now; 2: idle, kept */
    for (int row = 0; row < r->rows; row++)
        for (int i = 0; i < r->base.n[row]; i++)
            in[row_slots(r, &r->base, row)[i].node] = 1;
    for (int row = 0; row < r->rows; row++) {
        int old = r->old_row[row];
        for (int p = 0; old >= 0 && p < s->n_prev; p++)
            for (int i = 0; i < s->prev[p].n[old]; i++) {
                int node = row_slots(r, &s->prev[p], old)[i].node;
                if (node >= 0 && node < nn && !in[node])
                    in[node] = 2;
            }
    }
    long need = 0; /* every job at its bound */
    for (int row = 0; row < r->rows; row++)
        if (r->jobs[row].cap >= r->jobs[row].min)
            need += r->jobs[row].cap;
    long *kept = pu_alloc((size_t)v->n_types + 1, sizeof *kept); /* GPUs kept per type */
    int *up = pu_alloc((size_t)v->n_types + 1, sizeof *up);        /* up nodes per type */
    for (int k = 0; k < nn; k++) {
        int t = r->node_type[k];
        if (t < 0 || t >= v->n_types)
            continue;
        up[t] += r->node_cap[k] > 0;
        kept[t] += in[k] ? r->node_cap[k] : 0;
    }
    r->sub = pu_alloc((size_t)nn + 1, sizeof *r->sub);
    r->n_sub = 0;
    for (int k = 0; k < nn; k++) {
        int t = r->node_type[k];
        if (!in[k] && r->node_cap[k] > 0 && t >= 0 && t < v->n_types &&
            (up[t] <= PX_MAX_NODES || kept[t] < need)) {
            in[k] = 2;
            kept[t] += r->node_cap[k];
        }
        if (in[k])
            r->sub[r->n_sub++] = k;
    }
    free(kept);
    free(up);
    free(in);
}

static void round_init(px_round_t *r, px_state_t *s, const view_t *v)
{
    memset(r, 0, sizeof *r);
    r->v = v;
    r->s = s;
    r->rng = s->rng;
    r->rows = v->n_jobs;
    r->width = v->n_nodes < PX_MAX_NODES ? v->n_nodes : PX_MAX_NODES;
    int nn = v->n_nodes;
    r->node_cap = pu_alloc((size_t)nn, sizeof *r->node_cap);
    r->node_big = pu_alloc((size_t)v->n_types + 1, sizeof *r->node_big);
    r->node_type = pu_alloc((size_t)nn, sizeof *r->node_type);
    for (int k = 0; k < nn; k++) {
        r->node_type[k] = v->nodes[k].type;
        r->node_cap[k] = v->nodes[k].up ? v->nodes[k].gpus : 0;
        if (v->nodes[k].gpus > r->node_big[v->nodes[k].type])
            r->node_big[v->nodes[k].type] = v->nodes[k].gpus;
    }
    r->free_gpus = pu_alloc((size_t)nn, sizeof *r->free_gpus);
    r->on_node = pu_alloc((size_t)nn, sizeof *r->on_node);
    r->n_on = pu_alloc((size_t)nn, sizeof *r->n_on);
    r->flag = pu_alloc((size_t)nn, sizeof *r->flag);
    size_t entries = (size_t)r->rows * r->width + 1;
    r->list_next = pu_alloc(entries, sizeof *r->list_next);
    r->list_row = pu_alloc(entries, sizeof *r->list_row);
    r->list_slot = pu_alloc(entries, sizeof *r->list_slot);
    r->mark = pu_alloc((size_t)r->rows + 1, 1);
    r->is_grown = pu_alloc((size_t)r->rows + 1, 1);
    r->grown = pu_alloc((size_t)r->rows + 1, sizeof *r->grown);
    r->picked = pu_alloc((size_t)r->rows + 1, sizeof *r->picked);
    r->terms = pu_alloc((size_t)r->rows + 1, sizeof *r->terms);

    /* jobs in priority order: least attained service, then submit, id */
    px_key_t *keys = pu_alloc((size_t)r->rows + 1, sizeof *keys);
    for (int j = 0; j < r->rows; j++)
        keys[j] = (px_key_t){v->jobs[j].attained_service, v->jobs[j].submit, v->jobs[j].id, j};
    qsort(keys, (size_t)r->rows, sizeof *keys, cmp_key);
    r->jobs = pu_alloc((size_t)r->rows + 1, sizeof *r->jobs);
    r->up_gpus = up_gpus(v);
    int fair = r->rows ? (r->up_gpus + r->rows - 1) / r->rows : 0;
    int *gpu_node = pu_alloc((size_t)v->n_gpus + 1, sizeof *gpu_node);
    for (int g = 0; g < v->n_gpus; g++)
        gpu_node[g] = -1;
    for (int k = 0; k < nn; k++)
        for (int g = v->nodes[k].first_gpu; g < v->nodes[k].first_gpu + v->nodes[k].gpus; g++)
            if (g >= 0 && g < v->n_gpus && gpu_node[g] < 0)
                gpu_node[g] = k;
    r->reach = type_reach(v);
    r->gang = pu_alloc((size_t)r->rows + 1, sizeof *r->gang);
    ind_alloc(r, &r->base);
    for (int row = 0; row < r->rows; row++) {
        r->jobs[row].job = keys[row].job;
        setup_job(r, row, fair);
        base_row(r, row, gpu_node);
        if (r->jobs[row].min > 1 && r->jobs[row].cap >= r->jobs[row].min)
            r->gang[r->n_gang++] = row;
    }
    free(gpu_node);
    free(keys);
    map_old_rows(r);
    choose_nodes(r);
}

static void round_free(px_round_t *r)
{
    free(r->gang);
    free(r->reach);
    free(r->sub);
    free(r->old_row);
    for (int row = 0; row < r->rows; row++)
        free(r->jobs[row].cache);
    free(r->jobs);
    ind_free(&r->base);
    free(r->node_cap);
    free(r->node_big);
    free(r->node_type);
    free(r->free_gpus);
    free(r->on_node);
    free(r->n_on);
    free(r->flag);
    free(r->list_next);
    free(r->list_row);
    free(r->list_slot);
    for (int i = 0; i < r->n_spare; i++)
        ind_free(&r->spare[i]);
    free(r->spare);
    for (int i = 0; i < r->n_spare_c; i++)
        ind_free(&r->spare_c[i]);
    free(r->spare_c);
    free(r->mark);
    free(r->is_grown);
    free(r->grown);
    free(r->picked);
    free(r->terms);
}

/* The starting population: the last decision's, mapped onto today's jobs by
 * id (new jobs get no GPUs), plus the current allocation. */
static void seed_population(px_round_t *r, px_pop_t *p)
{
    px_state_t *s = r->s;
    px_ind_t x;
    ind_alloc(r, &x);
    copy_rows(r, &x, &r->base, 0, r->rows);
    repair(r, &x);
    pop_add(r, p, &x);
    if (!s->n_prev || s->prev_width != r->width)
        return;
    for (int i = 0; i < s->n_prev; i++) {
        ind_alloc(r, &x);
        for (int row = 0; row < r->rows; row++) {
            int old = r->old_row[row];
            x.n[row] = 0;
            if (old < 0)
                continue;
            x.n[row] = s->prev[i].n[old];
            if (x.n[row] > 0) /* an empty row of a compact member may have no slots at all */
                memcpy(row_slots(r, &x, row), row_slots(r, &s->prev[i], old),
                       x.n[row] * sizeof *x.slots);
        }
        repair(r, &x);
        pop_add(r, p, &x);
    }
}

static void keep_population(px_round_t *r, px_pop_t *p)
{
    px_state_t *s = r->s;
    forget_population(s);
    s->prev = p->ind;
    s->n_prev = p->n;
    s->prev_rows = r->rows;
    s->prev_width = r->width;
    s->prev_ids = pu_alloc((size_t)r->rows + 1, sizeof *s->prev_ids);
    for (int row = 0; row < r->rows; row++)
        s->prev_ids[row] = r->v->jobs[r->jobs[row].job].id;
    p->ind = NULL;
    p->n = 0;
}

/* ---- the plan ------------------------------------------------------------------- */

/* GPU ids for x: a job keeps the GPUs it holds on a node (as many as it
 * keeps there), the rest come from the node's free GPUs, lowest id first. */
static void emit_plan(px_round_t *r, const px_ind_t *x, plan_t *plan)
{
    const view_t *v = r->v;
    char *taken = pu_alloc((size_t)v->n_gpus + 1, 1);
    int *ids = pu_alloc((size_t)v->n_gpus + 1, sizeof *ids);
    int *reused = pu_alloc((size_t)r->rows * r->width + 1, sizeof *reused);
    for (int row = 0; row < r->rows; row++) { /* pass 1: GPUs kept */
        const view_job_t *j = &v->jobs[r->jobs[row].job];
        const px_slot_t *sl = row_slots(r, x, row);
        for (int i = 0; i < x->n[row]; i++) {
            const view_node_t *nd = &v->nodes[sl[i].node];
            int *got = &reused[(size_t)row * r->width + i];
            *got = 0;
            for (int h = 0; j->cur_gpu_ids && j->state != VIEW_QUEUED && h < j->cur_gpus; h++) {
                int g = j->cur_gpu_ids[h];
                if (*got < sl[i].gpus && g >= nd->first_gpu && g < nd->first_gpu + nd->gpus &&
                    !taken[g]) {
                    taken[g] = 1;
                    (*got)++;
                }
            }
        }
    }
    for (int row = 0; row < r->rows; row++) { /* pass 2: the rest, and the plan */
        const view_job_t *j = &v->jobs[r->jobs[row].job];
        const px_slot_t *sl = row_slots(r, x, row);
        int n = 0;
        for (int i = 0; i < x->n[row]; i++) {
            const view_node_t *nd = &v->nodes[sl[i].node];
            int got = reused[(size_t)row * r->width + i];
            for (int h = 0; j->cur_gpu_ids && j->state != VIEW_QUEUED && h < j->cur_gpus; h++) {
                int g = j->cur_gpu_ids[h];
                if (got > 0 && g >= nd->first_gpu && g < nd->first_gpu + nd->gpus) {
                    ids[n++] = g;
                    got--;
                }
            }
            got = sl[i].gpus - reused[(size_t)row * r->width + i];
            for (int g = nd->first_gpu; g < nd->first_gpu + nd->gpus && got > 0; g++)
                if (!taken[g]) {
                    taken[g] = 1;
                    ids[n++] = g;
                    got--;
                }
        }
        if (n == 0)
            continue;
        int type = v->nodes[sl[0].node].type;
        const px_entry_t *e = lookup(r, row, type, n, x->n[row] > 1);
        int k = plan_run_on(plan, r->jobs[row].job, type, ids, n);
        plan->allocs[k].batch_size = e->m;
        plan->allocs[k].accum_steps = e->s;
    }
    free(taken);
    free(ids);
    free(reused);
}

/* A job Pollux can never give its min GPUs would wait forever (the engine
 * would stop the run after 100,000 idle rounds, each a full GA): an error
 * that names it, at the first decision that sees it. */
static int never_placed(const px_round_t *r, char *err, size_t errlen)
{
    for (int row = 0; row < r->rows; row++) {
        const px_job_t *pj = &r->jobs[row];
        if (!pj->never)
            continue;
        const view_job_t *j = &r->v->jobs[pj->job];
        snprintf(err, errlen,
                 "pollux: job %lld needs at least %d GPUs and can never get them: at most %d "
                 "(its max GPUs, its largest batch over its smallest per-GPU batch, and at "
                 "most %d nodes of one type per job); drop it from the trace (e.g. trace "
                 "import --max-gpus %d)",
                 (long long)j->id, pj->min, pj->never, PX_MAX_NODES, pj->never);
        return -1;
    }
    return 0;
}

int pollux_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    px_state_t *s = state;
    if (v->n_jobs == 0 || v->n_nodes < 1) /* nothing to run, or nowhere */
        return 0;
    if (!v->perf || !v->perf->throughput) {
        snprintf(err, errlen,
                 "pollux: the view has no perf model (Pollux allocates GPUs by "
                 "goodput, or throughput on a table)");
        return -1;
    }
    if (!s->rng) {
        s->rng = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(s->rng, (unsigned long)v->seed);
    }
    for (int j = 0; j < v->n_jobs; j++) { /* the exploration bound's memory */
        int *held = held_slot(s, v->jobs[j].id);
        if (v->jobs[j].state != VIEW_QUEUED && v->jobs[j].cur_gpus > *held)
            *held = v->jobs[j].cur_gpus;
    }
    px_round_t r;
    round_init(&r, s, v);
    if (never_placed(&r, err, errlen) < 0) {
        round_free(&r);
        return -1;
    }
    px_pop_t p = {pu_alloc(3 * (size_t)s->pop + 2, sizeof(px_ind_t)), 0, 3 * (int)s->pop + 2};
    seed_population(&r, &p);
    survive(&r, &p, (int)s->pop);
    evolve(&r, &p);
    emit_plan(&r, &p.ind[0], plan);
    keep_population(&r, &p);
    free(p.ind);
    round_free(&r);
    return 0;
}
