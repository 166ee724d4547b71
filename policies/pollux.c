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
 * artifact's jobs have min 0): its own nodes' GPUs left, then nodes of its
 * type free whole, then partly free ones, lowest index first (fill_to_min; a
 * rigid job over m nodes is otherwise never placed). A job that can never
 * get its min (above its max, its batch limit or 16 nodes of one type) is an
 * error naming it. Repair, in job priority order
 * (least attained service first, then submit time, as the simulator): (1)
 * interference avoidance: on each node only the first distributed job (one
 * spanning several nodes) keeps its GPUs there; (2) a job keeps one GPU type
 * (the one it has most GPUs of); (3) at most the job's bound (its max GPUs,
 * the exploration bound below, max batch / min micro-batch), taken from its
 * nodes in a random order; (4) node capacity: earlier jobs first; (5) a job
 * with fewer than its min GPUs, or that cannot run on what is left, gets none
 * (and its GPUs go to the jobs after it).
 * Opt-in, not Pollux's: patience=N (0, off, by default; --like pollux sets
 * 0) stops the GA once the best fitness has not risen for N generations in a
 * row (the warm start makes steady-state decisions converge in a few). Not
 * the default: 20 (~3.5x cheaper at 200 active jobs) still costs ~0.4 % of
 * average JCT on Pollux's eight workloads with measured rates, 15 +0.7 % on
 * workload-6 (bench/README.md, "pollux: the default stop").
 * The fittest matrix is the plan; GPU ids are chosen so that a job keeps the
 * GPUs it holds on a node where its count does not drop (no restart when its
 * row is unchanged). Randomness: a xoshiro256** generator seeded (splitmix64)
 * with the run's seed at the first call; same inputs and seed give the same
 * plans, on any number of threads.
 * How the GA is computed (the search above, drawn another way; bench/README.md
 * "pollux: the child in one pass"): a child is never copied from its
 * parents; one pass over the rows reads each row from its parent (or the
 * current allocation, where reset), raises its present entries, merges in
 * its new entries, repairs and scores it, writing the child compact. The
 * mutation's Bernoulli trials are drawn another way: rows reset and rows
 * zeroed as their count (binomial, from a table) and that many distinct
 * rows; the absent entries raised, where the best matrix the generations
 * start from leaves fewer rows empty than there are nodes (r->lazy), as each
 * row is built: the (row, free node) pairs of the rows
 * built so form one sequence of trials, its first success in a row drawn as
 * the gap from the last row's (geometric), so a row with no raise draws
 * nothing, the row's other successes as their count (binomial) and that many
 * distinct positions, and none once the row is full; the rows left with no
 * slot by the resets and zeroing draw theirs before the first row
 * (eager_raises: a binomial count of picks among all the nodes, those on
 * nodes without free GPUs dropped), so that the rows surely left empty bound
 * the child from its first row, before the nodes are even counted.
 * Elsewhere the raises on a node are drawn as their count (binomial) and
 * that many distinct rows, all before the first row. Each trial is
 * independent of the others, so a child has the same distribution as
 * before, not the same draws. The nodes are indexed
 * densely (choose_nodes' subset) and each row keeps its last goodput entry
 * and its fitness terms. Each matrix keeps its rows' terms: a child takes a
 * run of its parent's rows that no mutation touched, where no raise lands,
 * that draw nothing and fit what the rows before them left as they are,
 * with their terms, without repair or lookup (plain_rows: the same draws,
 * sums and plans as the long path). A row of a one-GPU job (cap 1) where
 * the nodes are of one type is mutated and repaired in one loop (unit_row):
 * the raise of its entry is not drawn (capped back to one GPU), and step 3
 * keeps one GPU on one of its nodes drawn uniformly. Step 3 draws the nodes
 * of a row above its cap one at a time, until the cap is reached (the
 * prefix of a uniform order, as a whole shuffle's). A child's offsets and
 * hash are made only once it may survive, its node counts (what a parent's
 * child starts from) once it has survived (most children that may survive
 * are duplicates of a matrix already there). A child that cannot survive is stopped (set_doom):
 * with p < 0 every row adds a positive term to the power mean's sum, so once
 * the rows scored so far, with the rows that surely end with no GPUs (no
 * slot left after the crossover, resets and zeroing, none raised) and the
 * least term every other row can have (a job of one GPU count: its cap's
 * best entry, unpenalised; others 0: row_floors), give a fitness below the
 * population's worst survivor's, the child would be dropped by the survival
 * anyway; its remaining draws are not made (another stream, the same
 * distribution of survivors). Most children are (99 % at 200 jobs once the
 * population is full), mostly at their first rows. A one-slot row at its
 * job's cap draws no raise of its entry (it would be capped back).
 * The top-up to a job's min is done in that pass, after the row's mutation
 * and its steps 1 and 2, on the GPUs the rows before it left (the offspring
 * as repaired so far); it draws nothing, so rows of min <= 1 are unchanged.
 * Threads (threads=N up to 32; 0 by default: the online CPUs, at most 8): each
 * generation's tournaments, crossover points and one seed per pair of
 * children are drawn from the decision's stream first; the pairs are then
 * made on the threads (each on its own scratch, a copy of the round: lanes),
 * each pair from a generator seeded with its seed, and the children join
 * the population in the pairs' order. So a child depends on its seed only,
 * and the plans are the same on any number of threads. The goodput entries
 * are computed under a lock (the view's perf model is asked by one thread at
 * a time) and published whole. The lanes start once a generation took 25
 * us alone (from 250 us, Philly's days 30-32 took 36 s on two threads, from
 * 25 us 25 s: bench/README.md, "pollux: one-GPU rows in one loop"). The
 * entries a decision's warm start asks first (the last population's rows as
 * they are) are made at once on the threads where the view says its perf
 * model may be asked concurrently (view_perf_t.concurrent) and 32 or more
 * of them search a batch grid (warm_entries): each as lookup would make it.
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
 * - Every job's batch is the agent's, except with rigid_batch=1 (0 by
 *   default; --like pollux sets it): a job of one GPU count (min = max) runs
 *   at its trace's total batch. The authors' simulator pins ncf's, the app
 *   it gives one replica, at 32,768 (its trace's batch); ncf's rigidity is
 *   the importer's (max_gpus 1), so the pin follows the trace, not a name.
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

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PX_MAX_NODES 16 /* nodes per job (the simulator's bound) */
#define PX_BATCH_POINTS 50
#define PX_EPS 1e-3      /* speedup floor in the power mean */
#define PX_CROSSOVER 0.9 /* NSGA-II's crossover probability */
#define PX_RESET 0.1     /* mutation: row reset to the current allocation */
#define PX_ZERO_ROW 0.1  /* mutation: row chosen for zeroing */
#define PX_ZERO 0.1      /* mutation: entry of a chosen row zeroed */
#define PX_PATIENCE 0    /* default stop: generations without a better best (0: none) */
#define PX_AUTO_THREADS 8 /* threads=0 (auto): the online CPUs, at most this */
#define PX_MAX_THREADS 32 /* threads=N: at most this */
#define PX_PAR_US 25     /* lanes start once a generation took this many microseconds */
#define PX_SPIN 20000    /* a barrier's checks before it sleeps (~100-300 us) */
#define PX_WARM 32       /* batch-searched entries that make warm_entries use threads */
#define PX_WARM_PER 16   /* ... and such entries per thread it uses */

/* ---- the pieces with a meaning of their own (pollux.h) --------------------- */

/* One speedup's summand in FITNESS_p, and the mean of n summands' sum. */
static double pollux_fitness_term(double speedup, double p)
{
    if (p == 0)
        return log(fmax(speedup, PX_EPS));
    if (p == -1)
        return 1.0 / (speedup + PX_EPS);
    return pow(speedup + PX_EPS, p);
}

static double pollux_fitness_total(double sum, int n, double p)
{
    if (n <= 0)
        return 0;
    if (p == 0)
        return exp(sum / n);
    return p == -1 ? n / sum : pow(sum / n, 1.0 / p);
}

double pollux_fitness(const double *speedup, int n, double p)
{
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += pollux_fitness_term(speedup[i], p);
    return pollux_fitness_total(sum, n, p);
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

/* PolluxAgent's candidates for a job of limits l on `gpus` GPUs: the
 * (micro-batch, steps) of each of the 50 total batches that fits a GPU, in
 * grid order (they depend on the limits and the GPU count only, so a
 * decision computes them once per such pair: px_grids). Returns the count. */
static int batch_grid(const view_batch_limits_t *l, int gpus, int *ms)
{
    double lo = fmax(l->init_batch, (double)l->min_local_batch * gpus), hi = l->max_batch;
    if (hi < lo)
        hi = lo;
    int n = 0;
    for (int i = 0; i < PX_BATCH_POINTS; i++) {
        double total = lo * pow(hi / lo, (double)i / (PX_BATCH_POINTS - 1));
        int m, s;
        split_batch(total / gpus, gpus, l->init_batch, l->max_local_batch, &m, &s);
        if (m < l->min_local_batch || m > l->max_local_batch)
            continue;
        ms[2 * n] = m;
        ms[2 * n + 1] = s;
        n++;
    }
    return n;
}

/* The batch search over n candidates ms (batch_grid): the best goodput. */
static double best_on_grid(const view_t *v, const view_job_t *j, int type, int gpus, int nodes,
                           const int *ms, int n, int *batch, int *accum)
{
    double best = 0;
    for (int i = 0; i < n; i++) {
        int m = ms[2 * i], s = ms[2 * i + 1];
        double g = v->perf->goodput(v->perf->ctx, j, type, gpus, nodes, m, s);
        if (isfinite(g) && g > best) {
            best = g;
            *batch = m;
            *accum = s;
        }
    }
    return best;
}

/* The job's batch limits on type, if the agent can search them. */
static int agent_limits(const view_t *v, const view_job_t *j, int type, int gpus,
                        view_batch_limits_t *l)
{
    return v->perf && v->perf->batch_limits && v->perf->goodput && gpus >= 1 &&
           v->perf->batch_limits(v->perf->ctx, j, type, l) >= 0 && l->min_local_batch >= 1 &&
           l->max_local_batch >= l->min_local_batch;
}

double pollux_agent_batch(const view_t *v, const view_job_t *j, int type, int gpus, int nodes,
                          int *batch, int *accum)
{
    view_batch_limits_t l;
    int ms[2 * PX_BATCH_POINTS];
    *batch = *accum = 0;
    if (!agent_limits(v, j, type, gpus, &l))
        return 0;
    return best_on_grid(v, j, type, gpus, nodes, ms, batch_grid(&l, gpus, ms), batch, accum);
}

/* ---- state kept between decisions ------------------------------------------- */

/* The GA's generator: xoshiro256** (Blackman and Vigna), seeded by
 * splitmix64 from the run's seed; a few ns a draw, inlined (the GA draws
 * millions per decision). */
typedef struct px_rng {
    uint64_t s[4];
} px_rng_t;

static uint64_t rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static void rng_seed(px_rng_t *g, uint64_t seed)
{
    for (int i = 0; i < 4; i++) { /* splitmix64 */
        uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        g->s[i] = z ^ (z >> 31);
    }
}

static inline uint64_t rng_next(px_rng_t *g)
{
    uint64_t *s = g->s, out = rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return out;
}

/* Uniform in [0, 1), 53 bits. */
static inline double rng_uniform(px_rng_t *g)
{
    return (double)(rng_next(g) >> 11) * 0x1.0p-53;
}

/* Uniform integer in [0, n), n >= 1, unbiased (Lemire's multiply and reject). */
static inline unsigned rng_below(px_rng_t *g, unsigned n)
{
    uint64_t m = (rng_next(g) >> 32) * (uint64_t)n;
    if ((uint32_t)m < n) {
        uint32_t floor = (uint32_t)(-n) % n;
        while ((uint32_t)m < floor)
            m = (rng_next(g) >> 32) * (uint64_t)n;
    }
    return (unsigned)(m >> 32);
}

/* Failures before the first success of Bernoulli(p) trials, p in (0, 1]:
 * floor(log U / log(1 - p)), U uniform in (0, 1]; inv = 1 / log1p(-p). */
static inline int64_t rng_skip(px_rng_t *g, double inv)
{
    double u = (double)((rng_next(g) >> 11) + 1) * 0x1.0p-53;
    double k = log(u) * inv;
    return k < 4e18 ? (int64_t)k : INT64_MAX / 4;
}

/* One job's GPUs on one node. Within a decision `node` is the node's index
 * in the nodes the GA places on (px_round_t.sub); in the population kept
 * between decisions it is the view's node index. */
typedef struct px_slot {
    int node, gpus;
} px_slot_t;

/* An allocation matrix, sparse and compact: row r holds n[r] slots sorted by
 * node at slots[off[r]], rows packed in order (so that a crossover child is
 * read from its parents as two runs of rows). */
typedef struct px_ind {
    px_slot_t *slots;
    unsigned char *n; /* slots per row */
    int *off;         /* where each row starts; off[rows]: slots used */
    int *ez;          /* ez[i]: rows before row i with no GPUs */
    int *tot;         /* per node (index in sub): GPUs, then [n_sub + node] entries
                       * (made once the matrix survives: node_totals) */
    double *term;     /* per row: its fitness term (make_child reads a parent's) */
    int room;         /* slots allocated */
    int counted;      /* tot made for this matrix */
    double fitness;
    uint64_t hash;
} px_ind_t;

typedef struct px_state {
    double p, delay;
    long pop, gens, patience;
    int explore;
    int rigid_batch; /* rigid_batch=1: see rigid_batch() */
    int threads;     /* threads the GA's children are made on (>= 1) */
    double lanes_from; /* us a generation takes before the lanes start (PX_PAR_US) */
    int lanes_used;  /* threads that made the last decision's children */
    int warm_from;   /* batch-searched first entries that make warm_entries use threads */
    int warm_used;   /* threads that made the last decision's first entries */
    int seeded;   /* rng seeded (at the first call) */
    px_rng_t rng;
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
    free(x->ez);
    free(x->tot);
    free(x->term);
    x->tot = NULL;
    x->term = NULL;
    x->slots = NULL;
    x->n = NULL;
    x->off = NULL;
    x->ez = NULL;
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
                                        "explore", "patience", "rigid_batch", "threads", NULL};
    double p, delay;
    long pop, gens, explore, patience, rigid, threads;
    *state = NULL;
    if (policy_args_check(args, known, "pollux", err, errlen) ||
        policy_arg_double(args, "p", -1, &p, err, errlen) ||
        policy_arg_long(args, "population", 100, &pop, err, errlen) ||
        policy_arg_long(args, "generations", 100, &gens, err, errlen) ||
        policy_arg_double(args, "restart_delay", 30, &delay, err, errlen) ||
        policy_arg_long(args, "explore", 1, &explore, err, errlen) ||
        policy_arg_long(args, "patience", PX_PATIENCE, &patience, err, errlen) ||
        policy_arg_long(args, "rigid_batch", 0, &rigid, err, errlen) ||
        policy_arg_long(args, "threads", 0, &threads, err, errlen))
        return -1;
    if (threads < 0 || threads > PX_MAX_THREADS) {
        snprintf(err, errlen, "pollux: threads=%ld: want 1..%d, or 0 for the online CPUs (at most %d)",
                 threads, PX_MAX_THREADS, PX_AUTO_THREADS);
        return -1;
    }
    if (threads == 0) { /* the machine's CPUs: how fast, never what is planned */
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cpus < 1 ? 1 : cpus > PX_AUTO_THREADS ? PX_AUTO_THREADS : cpus;
    }
    if (rigid != 0 && rigid != 1) {
        snprintf(err, errlen, "pollux: rigid_batch=%ld: want 0 or 1", rigid);
        return -1;
    }
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
    s->rigid_batch = (int)rigid;
    s->threads = (int)threads;
    s->lanes_from = PX_PAR_US;
    s->warm_from = PX_WARM;
    idmap_init(&s->ids);
    *state = s;
    return 0;
}

void pollux_destroy(void *state)
{
    px_state_t *s = state;
    if (!s)
        return;
    idmap_free(&s->ids);
    free(s->max_held);
    forget_population(s);
    free(s);
}

void pollux_lanes_from(void *state, double us)
{
    ((px_state_t *)state)->lanes_from = us;
}

void pollux_warm_from(void *state, int entries)
{
    ((px_state_t *)state)->warm_from = entries > 1 ? entries : 1;
}

int pollux_warm_used(const void *state)
{
    return ((const px_state_t *)state)->warm_used;
}

int pollux_lanes_used(const void *state)
{
    return ((const px_state_t *)state)->lanes_used;
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
    double t_same, t_moved; /* SPEEDUP's fitness term: row as now, row moved (lookup) */
} px_entry_t;

typedef struct px_job {
    int job;           /* view index */
    int mode;          /* PX_* */
    int min, cap;      /* GPUs: 0 or min..cap */
    int gang;          /* min > 1 and it can run: fill_to_min tops it up */
    int never;         /* the most GPUs it can ever get if below min, else 0 */
    double base;       /* goodput on the fair share; <= 0: cannot run */
    double factor;     /* re-allocation penalty */
    px_entry_t *cache; /* [type][K 0..cap][spread] */
    atomic_uchar *ready; /* per cache entry: computed (lookup) */
} px_job_t;

/* A row's last cache entry asked (lookup). */
typedef struct px_hot {
    size_t key; /* SIZE_MAX: none */
    px_entry_t e;
} px_hot_t;

/* PolluxAgent's candidates (batch_grid) per (limits, GPUs), computed once
 * per decision: a hash table (open addressing) of keys and each key's grid
 * in `ms` (count, then the pairs). */
typedef struct px_grids {
    int (*key)[6]; /* init, max, min local, max local, GPUs; [5]: offset in ms + 1 (0: empty) */
    int cap, n;
    int *ms;
    size_t n_ms, ms_cap;
} px_grids_t;

/* Mutation marks per row (px_round_t.mflag). */
enum { PX_M_RESET = 1, PX_M_ZERO = 2, PX_M_GROWN = 4 };

typedef struct px_round {
    const view_t *v;
    px_state_t *s;
    px_rng_t *rng;
    px_rng_t own_rng;      /* a pair of children's generator (evolve) */
    struct px_round *main; /* a lane (another thread's copy): the decision's round */
    pthread_mutex_t *lock; /* while lanes run: guards the entries' computation */
    int rows, width; /* jobs; slots per row */
    px_job_t *jobs;  /* per row, in priority order */
    px_hot_t *hot;   /* per row */
    int *node_cap;   /* GPUs of up nodes, 0 on failed ones */
    int *node_big;   /* per type: GPUs of its largest node */
    int *node_type;  /* per node */
    int *sub, n_sub; /* the nodes the GA places on, ascending (choose_nodes) */
    int *node_sub;   /* per node: its index in sub, or -1 */
    int *scap, *stype; /* per index in sub: GPUs (0: down), type */
    int *reach;      /* per type: the most GPUs one job can hold; [n_types]: largest type */
    int one_type;    /* the nodes in sub are all of one type */
    int *old_row;    /* per row: the job's row in the last population, or -1 */
    int *rcap;       /* per row: its job's cap (jobs[row].cap, read by make_child's short path) */
    int up_gpus;     /* GPUs of up nodes */
    px_ind_t base;   /* the current allocation */
    double term0;    /* fitness term of a row with no GPUs */
    double *floor_sum; /* [i]: the least terms of rows i.. (row_floors) */
    double sure_term;  /* a surely empty row's term beyond its least: term0 - the largest */
    double doom;     /* a child whose terms sum above it cannot survive (set_doom) */
    double *reset_cdf, *zero_cdf; /* Binomial(rows, PX_RESET / PX_ZERO_ROW)'s CDFs */
    int n_reset_cdf, n_zero_cdf, reset_first, zero_first;
    int *reset_guide, *zero_guide; /* their cdf_guide */
    int *zseen, zstamp; /* mutate_rows: rows picked for zeroing (== zstamp) */
    double *pick_cdf;  /* Binomial(nodes, 1 / rows)'s CDF: absent raises per row */
    int pick_geo;      /* 1: raises drawn as geometric gaps instead (pick_table) */
    double inv_pick, pick_thr; /* 1 / log(1 - 1 / rows); no raise when U <= pick_thr */
    double p_pick, pick_odds; /* 1 / rows; p / (1 - p) */
    double *qpow;      /* (1 - 1 / rows)^m, m = 0 .. nodes in sub (rng_binom) */
    int *picks;        /* scratch: the nodes picked for one row */
    /* raises of the rows left with no slot before them (eager_raises) */
    int *erow, n_erow;        /* those rows */
    int *ecand, n_ecand, ecand_cap; /* their (node, GPUs) candidates, 2 ints each */
    int lazy;          /* 1: absent raises per row, drawn as it is built; 0: per node, first */
    double *node_cdf;  /* lazy = 0: Binomial(rows, 1 / rows)'s CDF, raises per node */
    int n_node_cdf;
    int *freel, n_free; /* nodes with free GPUs (count_nodes) */
    int *estart;              /* per eager row: its first candidate; [n_erow]: end */
    /* scratch, per index in sub */
    int *use, *cnt;  /* mutation: GPUs and entries on the node before raises */
    int *left;       /* repair: GPUs left */
    int *flag;       /* repair: == stamp when a distributed row is on it */
    double *qtab;    /* q by the node's entries: p1 + p2 - p1 p2, p1 = 1 / rows, p2 = 1 / entries */
    int stamp;
    /* scratch, per row */
    unsigned char *mflag;   /* PX_M_* */
    uint16_t *zmask;        /* PX_M_ZERO: slots of the source row zeroed */
    int *touched, n_touched; /* rows with an mflag */
    int *phead, *ptail, *pnext, *pnode, *pgpus, n_patch, patch_cap; /* new slots per row */
    unsigned char *pcount;
    px_ind_t *spare; /* freed matrices, reused */
    int n_spare, spare_cap;
    px_grids_t grids;
} px_round_t;

/* The scratch a child is made in, per row (make_child and the mutation's
 * marks; lookup's last entry per row), for a round or a lane. */
static void row_scratch(px_round_t *r)
{
    size_t rows1 = (size_t)r->rows + 1;
    r->mflag = pu_alloc(rows1, 1);
    r->pcount = pu_alloc(rows1, 1);
    r->zmask = pu_alloc(rows1, sizeof *r->zmask);
    r->touched = pu_alloc(rows1, sizeof *r->touched);
    r->phead = pu_alloc(rows1, sizeof *r->phead);
    r->ptail = pu_alloc(rows1, sizeof *r->ptail);
    r->hot = pu_alloc(rows1, sizeof *r->hot);
    for (int row = 0; row < r->rows; row++)
        r->hot[row].key = SIZE_MAX;
    r->zseen = pu_alloc(rows1, sizeof *r->zseen);
    r->erow = pu_alloc(rows1, sizeof *r->erow);
    r->estart = pu_alloc(rows1 + 1, sizeof *r->estart);
}

/* The same per node of the subset (r->n_sub set): the mutation's counts, the
 * repair's GPUs left and flags, the nodes with free GPUs. */
static void node_scratch(px_round_t *r)
{
    size_t ns1 = (size_t)r->n_sub + 1;
    r->use = pu_alloc(ns1, sizeof *r->use);
    r->cnt = pu_alloc(ns1, sizeof *r->cnt);
    r->left = pu_alloc(ns1, sizeof *r->left);
    r->flag = pu_alloc(ns1, sizeof *r->flag);
    r->freel = pu_alloc(ns1, sizeof *r->freel);
}

/* Row `row` of x. */
static px_slot_t *row_slots(const px_round_t *r, const px_ind_t *x, int row)
{
    (void)r;
    return &x->slots[x->off[row]];
}

static int spread_nodes(const px_round_t *r, int type, int k, int spread)
{
    if (!spread)
        return 1;
    int big = r->node_big[type] > 0 ? r->node_big[type] : 1;
    int n = (k + big - 1) / big;
    return n < 2 ? 2 : n;
}

static px_entry_t evaluate_model(const px_round_t *r, px_grids_t *grids, const px_job_t *pj,
                                 int type, int k, int spread);

static uint64_t grid_hash(const int *k)
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < 5; i++)
        h = (h ^ (uint32_t)k[i]) * 1099511628211ULL;
    return h ^ (h >> 29);
}

/* The candidates of limits l on gpus GPUs (batch_grid), computed at the
 * first ask in the decision; *n: their count. */
static const int *grid_of(px_grids_t *g, const view_batch_limits_t *l, int gpus, int *n)
{
    int key[5] = {l->init_batch, l->max_batch, l->min_local_batch, l->max_local_batch, gpus};
    if (2 * (g->n + 1) > g->cap) { /* grow: rehash */
        int cap = g->cap ? 2 * g->cap : 256;
        int(*t)[6] = pu_alloc((size_t)cap, sizeof *t);
        for (int i = 0; i < g->cap; i++) {
            if (!g->key[i][5])
                continue;
            size_t at = grid_hash(g->key[i]) & (size_t)(cap - 1);
            while (t[at][5])
                at = (at + 1) & (size_t)(cap - 1);
            memcpy(t[at], g->key[i], sizeof *t);
        }
        free(g->key);
        g->key = t;
        g->cap = cap;
    }
    size_t at = grid_hash(key) & (size_t)(g->cap - 1);
    for (; g->key[at][5]; at = (at + 1) & (size_t)(g->cap - 1))
        if (!memcmp(g->key[at], key, sizeof key)) {
            const int *ms = &g->ms[g->key[at][5] - 1];
            *n = ms[0];
            return ms + 1;
        }
    if (g->n_ms + 1 + 2 * PX_BATCH_POINTS > g->ms_cap) {
        size_t c = 2 * (g->n_ms + 1 + 2 * PX_BATCH_POINTS);
        int *m = pu_alloc(c, sizeof *m);
        if (g->n_ms)
            memcpy(m, g->ms, g->n_ms * sizeof *m);
        free(g->ms);
        g->ms = m;
        g->ms_cap = c;
    }
    int *ms = &g->ms[g->n_ms];
    ms[0] = batch_grid(l, gpus, ms + 1);
    memcpy(g->key[at], key, sizeof key);
    g->key[at][5] = (int)g->n_ms + 1;
    g->n_ms += 1 + 2 * (size_t)ms[0];
    g->n++;
    *n = ms[0];
    return ms + 1;
}

/* Goodput of the row's job on k GPUs of type; the batch it would run at. 0
 * also where the mechanism would refuse the allocation: it checks that the
 * job has a throughput on k GPUs of the type on the fewest nodes. */
static px_entry_t evaluate(const px_round_t *r, px_grids_t *grids, const px_job_t *pj, int type,
                           int k, int spread)
{
    const view_t *v = r->v;
    px_entry_t e = evaluate_model(r, grids, pj, type, k, spread);
    if (e.g > 0 && !(v->perf->throughput(v->perf->ctx, &v->jobs[pj->job], type, k, 0, e.m) > 0))
        e.g = 0;
    return e;
}

static px_entry_t evaluate_model(const px_round_t *r, px_grids_t *grids, const px_job_t *pj,
                                 int type, int k, int spread)
{
    const view_t *v = r->v;
    const view_job_t *j = &v->jobs[pj->job];
    int nodes = spread_nodes(r, type, k, spread);
    px_entry_t e = {0, 0, 0, 0, 0};
    if (k < 1)
        return e;
    if (pj->mode == PX_TABLE) {
        double t = v->perf->throughput(v->perf->ctx, j, type, k, nodes, 0);
        e.g = isfinite(t) && t > 0 ? t : 0;
        return e;
    }
    if (pj->mode == PX_GOODPUT) { /* pollux_agent_batch, its candidates memoised */
        view_batch_limits_t l;
        int n;
        if (agent_limits(v, j, type, k, &l)) {
            const int *ms = grid_of(grids, &l, k, &n);
            e.g = best_on_grid(v, j, type, k, nodes, ms, n, &e.m, &e.s);
        }
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

/* pj's entry for (type, k, spread) with its fitness terms (grids: the
 * batch candidates' memo of the thread that asks). */
static px_entry_t entry_of(const px_round_t *r, px_grids_t *grids, const px_job_t *pj, int type,
                           int k, int spread)
{
    px_entry_t e = evaluate(r, grids, pj, type, k, spread);
    double sp = pj->base > 0 ? e.g / pj->base : 0;
    e.t_same = pollux_fitness_term(sp, r->s->p);
    e.t_moved = pollux_fitness_term(pj->base > 0 ? sp * pj->factor : 0, r->s->p);
    return e;
}

/* Computes entry `key` of pj's cache (m: the decision's round; while lanes
 * run, under its lock: the view's perf model is asked by one thread at a
 * time, and the entry is published once whole). */
static void fill_entry(px_round_t *m, px_job_t *pj, size_t key, int type, int k, int spread)
{
    if (m->lock)
        pthread_mutex_lock(m->lock);
    if (!atomic_load_explicit(&pj->ready[key], memory_order_relaxed)) {
        pj->cache[key] = entry_of(m, &m->grids, pj, type, k, spread);
        atomic_store_explicit(&pj->ready[key], 1, memory_order_release);
    }
    if (m->lock)
        pthread_mutex_unlock(m->lock);
}

/* Where pj's entry for (type, k, spread) sits in its cache. */
static size_t entry_key(const px_job_t *pj, int type, int k, int spread)
{
    return ((size_t)type * (size_t)(pj->cap + 1) + (size_t)k) * 2 + (size_t)spread;
}

/* The row's entry for (type, k, spread), computed at the first ask with
 * the fitness terms of its SPEEDUP (penalty included when the row moves).
 * The last one asked is copied beside the row's other data (r->hot, read in
 * row order): most offspring leave most rows as their parents had them, so
 * the next ask is mostly the same one and the cache is not touched. */
static const px_entry_t *lookup(px_round_t *r, int row, int type, int k, int spread)
{
    px_job_t *pj = &r->jobs[row];
    size_t key = entry_key(pj, type, k, spread);
    px_hot_t *h = &r->hot[row];
    if (h->key == key)
        return &h->e;
    if (!atomic_load_explicit(&pj->ready[key], memory_order_acquire))
        fill_entry(r->main ? r->main : r, pj, key, type, k, spread);
    h->key = key;
    h->e = pj->cache[key];
    return &h->e;
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

#define PX_HASH0 1469598103934665603ULL /* FNV-1a over every (row, node, GPUs) */

static uint64_t hash_slots(uint64_t h, int row, const px_slot_t *sl, int n)
{
    for (int i = 0; i < n; i++, sl++) {
        uint64_t w = ((uint64_t)row << 40) ^ ((uint64_t)sl->node << 16) ^ (uint64_t)sl->gpus;
        h = (h ^ w) * 1099511628211ULL;
    }
    return h;
}

/* A matrix with room for `room` slots (contents undefined). */
static void ind_alloc(px_round_t *r, px_ind_t *x, int room)
{
    if (r->n_spare > 0) {
        *x = r->spare[--r->n_spare];
    } else {
        memset(x, 0, sizeof *x);
        x->n = pu_alloc((size_t)r->rows + 1, 1);
        x->off = pu_alloc((size_t)r->rows + 1, sizeof *x->off);
        x->ez = pu_alloc((size_t)r->rows + 1, sizeof *x->ez);
        x->term = pu_alloc((size_t)r->rows + 1, sizeof *x->term);
    }
    if (!x->slots || x->room < room) {
        free(x->slots);
        x->room = room + room / 4 + r->width;
        x->slots = pu_alloc((size_t)x->room, sizeof *x->slots);
    }
    x->fitness = 0;
    x->hash = 0;
    x->counted = 0;
}

/* Gives x's memory back to the round's pool. */
static void ind_release(px_round_t *r, px_ind_t *x)
{
    if (r->n_spare == r->spare_cap) {
        int c = r->spare_cap ? 2 * r->spare_cap : 16;
        px_ind_t *m = pu_alloc((size_t)c, sizeof *m);
        if (r->n_spare)
            memcpy(m, r->spare, (size_t)r->n_spare * sizeof *m);
        free(r->spare);
        r->spare = m;
        r->spare_cap = c;
    }
    r->spare[r->n_spare++] = *x;
    x->tot = NULL;
    x->term = NULL;
    x->slots = NULL;
    x->n = NULL;
    x->off = NULL;
    x->ez = NULL;
}

/* Room for `more` slots after the first `used` of x (kept). */
static void ind_grow(px_ind_t *x, int used, int more)
{
    if (used + more <= x->room)
        return;
    int room = 2 * (used + more);
    px_slot_t *s = pu_alloc((size_t)room, sizeof *s);
    if (used)
        memcpy(s, x->slots, (size_t)used * sizeof *s);
    free(x->slots);
    x->slots = s;
    x->room = room;
}

/* Drops zero slots of w[0..n) (order kept); returns the count left. */
static int drop_zeros(px_slot_t *w, int n)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        if (w[i].gpus > 0)
            w[m++] = w[i];
    return m;
}

static void sort_slots(px_slot_t *w, int n)
{
    for (int i = 1; i < n; i++) { /* insertion sort: rows hold a few slots */
        px_slot_t t = w[i];
        int k = i;
        for (; k > 0 && w[k - 1].node > t.node; k--)
            w[k] = w[k - 1];
        w[k] = t;
    }
}

/* ---- repair (§4.2) ------------------------------------------------------------ */

/* (1) Interference avoidance: per node only the first distributed job (the
 * nodes of the distributed rows before this one are flagged r->stamp);
 * (2) one GPU type per job: the one it has most GPUs of (ties: lower index).
 * w: a row over several nodes, sorted; returns its slots left. */
static int repair_spread(px_round_t *r, px_slot_t *w, int n)
{
    int zeroed = 0;
    for (int i = 0; i < n; i++) {
        if (r->flag[w[i].node] == r->stamp) {
            w[i].gpus = 0;
            zeroed = 1;
        }
        r->flag[w[i].node] = r->stamp;
    }
    if (zeroed) /* rows are kept tidy: only a change needs it */
        n = drop_zeros(w, n);
    if (r->one_type || n < 2)
        return n;
    const int *type = r->stype;
    int mixed = 0;
    for (int i = 1; i < n; i++)
        mixed |= type[w[i].node] != type[w[0].node];
    if (!mixed)
        return n;
    int best = -1, best_k = -1;
    for (int t = 0; t < r->v->n_types; t++) {
        int k = 0;
        for (int i = 0; i < n; i++)
            k += type[w[i].node] == t ? w[i].gpus : 0;
        if (k > best_k) {
            best_k = k;
            best = t;
        }
    }
    for (int i = 0; i < n; i++)
        if (type[w[i].node] != best)
            w[i].gpus = 0;
    return drop_zeros(w, n);
}

/* (3) At most cap GPUs, taken from the row's nodes in a random order: the
 * nodes are drawn one at a time (Fisher-Yates from the front) until the cap
 * is reached, so a row of one GPU over 14 raised nodes draws one node, not a
 * whole order of 14 (the prefix of a uniform order either way, as
 * gsl_ran_shuffle's). */
static int repair_cap(px_round_t *r, int row, px_slot_t *w, int n)
{
    int cap = r->jobs[row].cap, k = 0;
    for (int i = 0; i < n; i++)
        k += w[i].gpus;
    if (k <= cap)
        return n;
    int left = cap, m = 0;
    for (int i = 0; i < n && left > 0; i++) {
        int j = i + (int)rng_below(r->rng, (unsigned)(n - i));
        px_slot_t t = w[j];
        w[j] = w[i];
        if (t.gpus > left)
            t.gpus = left;
        left -= t.gpus;
        if (t.gpus > 0)
            w[m++] = t;
    }
    sort_slots(w, m);
    return m;
}

/* (4) Node capacity, the rows before this one served first; (5) the job's
 * minimum and runnability. Returns the row's slots left (0: none), *k their
 * GPUs and *e their goodput. */
static int repair_capacity(px_round_t *r, int row, px_slot_t *w, int n, int *k,
                           const px_entry_t **e)
{
    int *left = r->left;
    int emptied = 0, sum = 0;
    for (int i = 0; i < n; i++) {
        int node = w[i].node, g = w[i].gpus, f = left[node];
        if (g > f)
            w[i].gpus = g = f;
        left[node] = f - g;
        emptied |= g == 0;
        sum += g;
    }
    *k = sum;
    if (sum == 0)
        return 0;
    if (emptied)
        n = drop_zeros(w, n);
    *e = lookup(r, row, r->stype[w[0].node], sum, n > 1);
    if (sum < r->jobs[row].min || !((*e)->g > 0)) {
        for (int i = 0; i < n; i++)
            left[w[i].node] += w[i].gpus;
        return 0;
    }
    return n;
}

/* ---- the child: crossover, mutation and repair in one pass (§4.2) ------------- */

/* Where row i of the child comes from: a below the crossover point, b from
 * it, the current allocation where the mutation reset it. */
static const px_slot_t *source_row(const px_round_t *r, const px_ind_t *a, const px_ind_t *b,
                                   int point, int i, int *n)
{
    const px_ind_t *x = r->mflag[i] & PX_M_RESET ? &r->base : i < point ? a : b;
    *n = x->n[i];
    return &x->slots[x->off[i]];
}

static void touch(px_round_t *r, int row, int f)
{
    if (!r->mflag[row])
        r->touched[r->n_touched++] = row;
    r->mflag[row] |= (unsigned char)f;
}

static int popcount16(unsigned x)
{
    int c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
}

/* Binomial(n, p)'s CDF, from where it is above 0 to where it is 1 in
 * doubles (log-space terms, so that large n does not underflow): *first is
 * the count of its first entry, *len the entries. */
static double *binomial_cdf(int n, double p, int *first, int *len)
{
    double *cdf = pu_alloc((size_t)n + 2, sizeof *cdf), c = 0;
    double lf = lgamma(n + 1.0), lp = log(p), lq = log1p(-p);
    int k = 0, m = 0;
    *first = 0;
    for (; k <= n; k++) {
        double pmf = p >= 1 ? (k == n) : exp(lf - lgamma(k + 1.0) - lgamma(n - k + 1.0) +
                                              k * lp + (n - k) * lq);
        if (m == 0 && pmf < 1e-300 && k < n * p) { /* below a double's reach: skipped */
            *first = k + 1;
            continue;
        }
        c += pmf;
        cdf[m++] = c;
        if (c >= 1)
            break;
    }
    if (m == 0 || cdf[m - 1] < 1) /* the tail, under a double's resolution */
        cdf[m++] = 1;
    cdf[m - 1] = 1;
    *len = m;
    return cdf;
}

/* A guide to a CDF table of len entries: [j] the first k with cdf[k] >
 * j / len (cdf_draw starts there). */
static int *cdf_guide(const double *cdf, int len)
{
    int *guide = pu_alloc((size_t)len + 1, sizeof *guide), k = 0;
    for (int j = 0; j < len; j++) {
        while (k < len - 1 && !(cdf[k] > (double)j / len))
            k++;
        guide[j] = k;
    }
    return guide;
}

/* A draw from a CDF table (binomial_cdf): the first k with U < cdf[k],
 * searched from the guide's entry for U (cdf_guide), a step or two (was a
 * binary search: the same k). */
static int cdf_draw(px_rng_t *g, const double *cdf, const int *guide, int len, int first)
{
    double u = rng_uniform(g);
    int j = (int)(u * len), k = guide[j < len ? j : len - 1];
    while (k > 0 && u < cdf[k - 1]) /* only where u * len was rounded up */
        k--;
    while (u >= cdf[k]) /* cdf[len - 1] = 1 > u */
        k++;
    return first + k;
}

/* Mutation, row part: each row reset to the current allocation with
 * probability PX_RESET; then each row, with PX_ZERO_ROW, has each of its
 * entries zeroed with PX_ZERO. The Bernoulli trials of the rows are drawn as
 * their count (binomial, from a table) and that many distinct rows, chosen
 * uniformly (the same law, one draw per success and none per row). */
static void mutate_rows(px_round_t *r, const px_ind_t *a, const px_ind_t *b, int point)
{
    int k = cdf_draw(r->rng, r->reset_cdf, r->reset_guide, r->n_reset_cdf, r->reset_first);
    for (int c = 0; c < k; c++) {
        int i;
        do
            i = (int)rng_below(r->rng, (unsigned)r->rows);
        while (r->mflag[i] & PX_M_RESET);
        touch(r, i, PX_M_RESET);
    }
    if (++r->zstamp == INT32_MAX) {
        memset(r->zseen, 0, (size_t)r->rows * sizeof *r->zseen);
        r->zstamp = 1;
    }
    k = cdf_draw(r->rng, r->zero_cdf, r->zero_guide, r->n_zero_cdf, r->zero_first);
    for (int c = 0; c < k; c++) {
        int i, n;
        do
            i = (int)rng_below(r->rng, (unsigned)r->rows);
        while (r->zseen[i] == r->zstamp);
        r->zseen[i] = r->zstamp;
        source_row(r, a, b, point, i, &n);
        unsigned mask = 0;
        for (int s = 0; s < n; s++)
            if (rng_uniform(r->rng) < PX_ZERO)
                mask |= 1u << s;
        if (mask) {
            touch(r, i, PX_M_ZERO);
            r->zmask[i] = (uint16_t)mask;
        }
    }
}

/* Adds the entries of rows [from, to) of x to the node counts (sign +1/-1). */
static void count_rows(px_round_t *r, const px_ind_t *x, int from, int to, int sign)
{
    const px_slot_t *sl = &x->slots[x->off[from]], *end = &x->slots[x->off[to]];
    for (; sl < end; sl++) {
        r->use[sl->node] += sign * sl->gpus;
        r->cnt[sl->node] += sign;
    }
}

/* Mutation, node part, before the raises: each node's GPUs and entries in
 * the child as it is after resets and zeroing, the nodes with free GPUs and
 * the probability q = p1 + p2 - p1 p2 of a present entry's raise there. */
static void count_nodes(px_round_t *r, const px_ind_t *a, const px_ind_t *b, int point)
{
    /* from the parent whose rows are the most of the child's, the others' changed */
    const px_ind_t *x = 2 * point > r->rows ? a : b, *y = x == a ? b : a;
    int from = x == a ? point : 0, to = x == a ? r->rows : point;
    memcpy(r->use, x->tot, (size_t)r->n_sub * sizeof *r->use);
    memcpy(r->cnt, x->tot + r->n_sub, (size_t)r->n_sub * sizeof *r->cnt);
    count_rows(r, x, from, to, -1);
    count_rows(r, y, from, to, 1);
    for (int t = 0; t < r->n_touched; t++) {
        int i = r->touched[t], n;
        const px_ind_t *orig = i < point ? a : b;
        count_rows(r, orig, i, i + 1, -1);
        const px_slot_t *sl = source_row(r, a, b, point, i, &n);
        unsigned mask = r->mflag[i] & PX_M_ZERO ? r->zmask[i] : 0;
        for (int s = 0; s < n; s++)
            if (!(mask >> s & 1)) {
                r->use[sl[s].node] += sl[s].gpus;
                r->cnt[sl[s].node]++;
            }
    }
    r->n_free = 0;
    for (int s = 0; s < r->n_sub; s++) {
        r->freel[r->n_free] = s;
        r->n_free += r->scap[s] - r->use[s] >= 1;
    }
}

/* The raise probability q of a present entry on node s (count_nodes done);
 * 0 where the node has no free GPU. */
static inline double node_q(const px_round_t *r, int s)
{
    return r->scap[s] - r->use[s] >= 1 ? r->qtab[r->cnt[s]] : 0;
}

static void add_patch(px_round_t *r, int row, int node, int g)
{
    if (r->n_patch == r->patch_cap) {
        int c = r->patch_cap ? 2 * r->patch_cap : 256;
        int *arr[3] = {r->pnext, r->pnode, r->pgpus};
        for (int k = 0; k < 3; k++) {
            int *m = pu_alloc((size_t)c, sizeof *m);
            if (r->n_patch)
                memcpy(m, arr[k], (size_t)r->n_patch * sizeof *m);
            free(arr[k]);
            arr[k] = m;
        }
        r->pnext = arr[0];
        r->pnode = arr[1];
        r->pgpus = arr[2];
        r->patch_cap = c;
    }
    int p = r->n_patch++;
    r->pnode[p] = node;
    r->pgpus[p] = g;
    r->pnext[p] = -1;
    if (!(r->mflag[row] & PX_M_GROWN)) {
        touch(r, row, PX_M_GROWN);
        r->phead[row] = p;
    } else { /* appended: nodes come in ascending order */
        r->pnext[r->ptail[row]] = p;
    }
    r->ptail[row] = p;
    r->pcount[row]++;
}

/* The absent raises of a row drawn before the nodes' free GPUs are known
 * (eager_raises; each row not on a node with free GPUs is raised there with
 * probability p1 = 1 / rows): the count of its picks among all the nodes in
 * sub, Binomial(nodes, p1) from a CDF table, and that many distinct nodes;
 * picks on a node without free GPUs are dropped later, which leaves
 * independent Bernoulli(p1) trials on the free ones. Where the table does
 * not fit 64 entries (many nodes per row) the picks are drawn as geometric
 * gaps instead (r->pick_geo). Also 1 / log(1 - p1) for raise_row's gaps. */
static void pick_table(px_round_t *r)
{
    int n = r->n_sub, len = n < 64 ? n + 1 : 65;
    double p = r->rows > 0 ? 1.0 / r->rows : 1;
    r->picks = pu_alloc((size_t)n + 1, sizeof *r->picks);
    r->pick_cdf = pu_alloc((size_t)len, sizeof *r->pick_cdf);
    r->inv_pick = 1.0 / log1p(-p);
    r->p_pick = p;
    r->pick_odds = p < 1 ? p / (1 - p) : 0;
    r->qpow = pu_alloc((size_t)n + 1, sizeof *r->qpow);
    for (int m = 0; m <= n; m++)
        r->qpow[m] = p < 1 ? exp(m * log1p(-p)) : m == 0;
    /* U <= thr gives a first gap of n or more: no pick (the margin keeps it so under rounding) */
    r->pick_thr = p < 1 ? exp(n * log1p(-p)) * (1 - 1e-9) : 0;
    r->pick_geo = p >= 1 || (double)n * p > 4;
    if (r->pick_geo)
        return;
    double pmf = exp(n * log1p(-p)), cdf = 0;
    int k = 0;
    for (; k < len - 1 && cdf < 1; k++) {
        cdf += pmf;
        r->pick_cdf[k] = cdf;
        pmf *= (double)(n - k) / (k + 1) * p / (1 - p);
    }
    if (k == len - 1 && len < n + 1 && cdf < 1 - 1e-15) { /* tail over 64: gaps */
        r->pick_geo = 1;
        return;
    }
    r->pick_cdf[k] = 1; /* the tail, under a double's resolution */
}

/* c distinct positions in [from, from + m), c <= m, ascending, into pk
 * (rejection: c is small against m, or all of it). */
static void rng_positions(px_rng_t *g, int from, int m, int c, int *pk)
{
    for (int i = 0; i < c; i++) {
        int x, seen;
        do {
            x = from + (int)rng_below(g, (unsigned)m);
            seen = 0;
            for (int d = 0; d < i && !seen; d++)
                seen = pk[d] == x;
        } while (seen);
        int d = i;
        for (; d > 0 && pk[d - 1] > x; d--)
            pk[d] = pk[d - 1];
        pk[d] = x;
    }
}

/* One row's picks (pick_table): distinct node indices in sub, ascending,
 * into r->picks; returns their count. */
static int pick_nodes(px_round_t *r)
{
    int *pk = r->picks, k = 0;
    if (r->pick_geo) {
        if (rng_uniform(r->rng) <= r->pick_thr) /* the usual case, without a log */
            return 0;
        for (int64_t s = rng_skip(r->rng, r->inv_pick); s < r->n_sub;
             s += 1 + rng_skip(r->rng, r->inv_pick))
            pk[k++] = (int)s;
        return k;
    }
    double u = rng_uniform(r->rng);
    while (u >= r->pick_cdf[k])
        k++;
    rng_positions(r->rng, 0, r->n_sub, k, pk);
    return k;
}

/* Binomial(m, 1 / rows), m <= nodes in sub, by inversion from (1 - p)^m
 * (r->qpow); -1 where its mean is above 8 (the caller draws gaps instead:
 * the inversion would walk far). */
static int rng_binom(px_round_t *r, int m)
{
    if (m == 0 || r->p_pick >= 1)
        return m;
    if (m * r->p_pick > 8)
        return -1;
    double u = rng_uniform(r->rng), pmf = r->qpow[m], cdf = pmf;
    int k = 0;
    while (u >= cdf && k < m) {
        pmf *= (double)(m - k) / (k + 1) * r->pick_odds;
        k++;
        cdf += pmf;
    }
    return k;
}

/* One absent raise of raise_row: the free node at position f of the row, if
 * the row has room and no entry there; returns the new count of add. */
static int raise_at(px_round_t *r, const px_slot_t *sl, int n, unsigned mask, px_slot_t *add,
                    int na, int *s, int f)
{
    int node = r->freel[f];
    while (*s < n && sl[*s].node < node)
        (*s)++;
    if (*s < n && sl[*s].node == node && !(mask >> *s & 1))
        return na; /* present: raised in mutated_row */
    int g = (int)rng_below(r->rng, (unsigned)r->scap[node] + 1);
    if (g > 0)
        add[na++] = (px_slot_t){node, g};
    return na;
}

/* Mutation, raises of a row's absent entries (on nodes with free GPUs, each
 * with probability 1 / rows, to a uniform value in [0, node GPUs]), drawn
 * when the row is built: the trials of the (row, free node) pairs of the
 * rows built this way are one Bernoulli sequence, rows in build order and
 * each row's free nodes ascending (r->freel). The first success of a row is
 * found as the gap from the last row's (geometric: *next, its position; *pos,
 * the row's first), so a row with no raise costs no draw; the row's other
 * successes, among its trials after the first, as their count (rng_binom)
 * and that many distinct positions, without a log each; the next row's from
 * the row's end (memoryless: the same law). sl[0..n) the row's slots, mask
 * the zeroed; new slots into add, ascending; returns their count (at most
 * the row's width left, lowest nodes first, as when drawn node by node). */
static int raise_row(px_round_t *r, const px_slot_t *sl, int n, unsigned mask, px_slot_t *add,
                     int64_t *next, int64_t *pos)
{
    int na = 0, s = 0, room = r->width - (n - popcount16(mask));
    int64_t end = *pos + r->n_free;
    if (*next >= end) {
        *pos = end;
        return 0;
    }
    int f = (int)(*next - *pos);
    if (room > 0)
        na = raise_at(r, sl, n, mask, add, na, &s, f);
    /* a full row's later trials change nothing: not drawn */
    int c = na < room ? rng_binom(r, r->n_free - 1 - f) : 0;
    if (c > 0) {
        rng_positions(r->rng, f + 1, r->n_free - 1 - f, c, r->picks);
        for (int k = 0; k < c && na < room; k++)
            na = raise_at(r, sl, n, mask, add, na, &s, r->picks[k]);
    }
    while (c < 0) { /* many: as gaps */
        *next += 1 + rng_skip(r->rng, r->inv_pick);
        if (*next >= end)
            break;
        if (na >= room)
            c = 0;
        else
            na = raise_at(r, sl, n, mask, add, na, &s, (int)(*next - *pos));
    }
    if (c >= 0)
        *next = end + rng_skip(r->rng, r->inv_pick);
    *pos = end;
    return na;
}

/* Raises of the rows with no slot left after the resets and zeroing, drawn
 * before any row is built, so that a row that surely stays empty counts in
 * the child's bound from the start (make_child): their picks and GPUs, kept
 * as candidates (r->erow, r->ecand) until the nodes' free GPUs are known
 * (eager_keep). Returns the count of such rows with no candidate (surely
 * empty whatever the nodes). */
static int eager_raises(px_round_t *r, const px_ind_t *a, const px_ind_t *b, int point)
{
    int none = 0;
    r->n_erow = r->n_ecand = 0;
    for (int side = 0; side < 2; side++) {
        const px_ind_t *x = side ? b : a;
        int from = side ? point : 0, to = side ? r->rows : point;
        /* rows empty in the parent: ez counts them, n finds them */
        for (int i = from; i < to && x->ez[to] - x->ez[i] > 0; i++) {
            const unsigned char *z = memchr(&x->n[i], 0, (size_t)(to - i));
            if (!z)
                break;
            i = (int)(z - x->n);
            if (!r->mflag[i])
                r->erow[r->n_erow++] = i;
        }
    }
    for (int t = 0; t < r->n_touched; t++) { /* reset or zeroed rows */
        int i = r->touched[t], n;
        source_row(r, a, b, point, i, &n);
        unsigned mask = r->mflag[i] & PX_M_ZERO ? r->zmask[i] : 0;
        if (n == popcount16(mask))
            r->erow[r->n_erow++] = i;
    }
    for (int e = 0; e < r->n_erow; e++) {
        r->estart[e] = r->n_ecand;
        int k = pick_nodes(r);
        if (r->n_ecand + 2 * k > r->ecand_cap) {
            int c = 2 * (r->n_ecand + 2 * k) + 64;
            int *m = pu_alloc((size_t)c, sizeof *m);
            if (r->n_ecand)
                memcpy(m, r->ecand, (size_t)r->n_ecand * sizeof *m);
            free(r->ecand);
            r->ecand = m;
            r->ecand_cap = c;
        }
        for (int c = 0; c < k; c++) {
            int node = r->picks[c], g = (int)rng_below(r->rng, (unsigned)r->scap[node] + 1);
            if (g > 0) {
                r->ecand[r->n_ecand++] = node;
                r->ecand[r->n_ecand++] = g;
            }
        }
        none += r->estart[e] == r->n_ecand;
    }
    r->estart[r->n_erow] = r->n_ecand;
    return none;
}

/* The eager rows' candidates on nodes with free GPUs (count_nodes done)
 * become their new slots (at most the row's width, lowest nodes first);
 * returns the count of eager rows left with none (surely empty). */
static int eager_keep(px_round_t *r)
{
    int none = 0;
    for (int e = 0; e < r->n_erow; e++) {
        int row = r->erow[e], kept = 0;
        for (int c = r->estart[e]; c < r->estart[e + 1] && kept < r->width; c += 2) {
            int node = r->ecand[c];
            if (r->scap[node] - r->use[node] >= 1) {
                add_patch(r, row, node, r->ecand[c + 1]);
                kept++;
            }
        }
        none += kept == 0;
    }
    return none;
}

/* Binomial(rows, 1 / rows)'s CDF (r->node_cdf), up to where it is 1 in
 * doubles: the count of absent raises on one node. */
static void node_table(px_round_t *r)
{
    int n = r->rows, len = n < 64 ? n + 1 : 65;
    r->node_cdf = pu_alloc((size_t)len, sizeof *r->node_cdf);
    double p = n > 0 ? 1.0 / n : 1, pmf = n > 1 ? exp(n * log1p(-p)) : 0, cdf = 0;
    int k = 0;
    for (; k < len - 1 && cdf < 1; k++) {
        cdf += pmf;
        r->node_cdf[k] = cdf;
        pmf *= n > 1 ? (double)(n - k) / (k + 1) * p / (1 - p) : 0;
    }
    r->node_cdf[k] = 1; /* the tail, under a double's resolution */
    r->n_node_cdf = k + 1;
}

/* Mutation, raises of absent entries: on each node with free GPUs, each row
 * not on it with probability p1 = 1 / rows, to a uniform value in [0, node
 * GPUs]. The rows x nodes Bernoulli trials are drawn per node as their count
 * (Binomial(rows, 1 / rows), r->node_cdf) and that many distinct rows chosen
 * uniformly: the same law, one draw per node and one per success. Present
 * entries are raised in the repair pass (make_child). Used where the empty
 * rows are as many as the nodes or more (r->lazy = 0): drawn per row, the
 * empty rows' eager draws would cost more than the nodes' (bench/README.md,
 * "pollux: draws where they are used"). */
static void raise_absent(px_round_t *r, const px_ind_t *a, const px_ind_t *b, int point)
{
    int picked[64];
    for (int f = 0; f < r->n_free; f++) {
        double u = rng_uniform(r->rng);
        int k = 0;
        while (u >= r->node_cdf[k])
            k++;
        int node = r->freel[f];
        for (int c = 0; c < k; c++) {
            int row, seen;
            do { /* distinct rows: k is small against rows (or all of them) */
                row = (int)rng_below(r->rng, (unsigned)r->rows);
                seen = 0;
                for (int d = 0; d < c && !seen; d++)
                    seen = picked[d] == row;
            } while (seen);
            picked[c] = row;
            int n;
            const px_slot_t *sl = source_row(r, a, b, point, row, &n);
            unsigned mask = r->mflag[row] & PX_M_ZERO ? r->zmask[row] : 0;
            int present = 0;
            for (int s = 0; s < n && !present; s++)
                present = sl[s].node == node && !(mask >> s & 1);
            if (present || n - popcount16(mask) + r->pcount[row] >= r->width)
                continue;
            int g = (int)rng_below(r->rng, (unsigned)r->scap[node] + 1);
            if (g > 0)
                add_patch(r, row, node, g);
        }
    }
}

/* Row i of the child into w (sorted by node), mutated: zeroed slots left
 * out, present entries raised (each with its node's q, to a uniform value in
 * [count, node GPUs]), new slots merged in. Returns the count. */
static int mutated_row(px_round_t *r, int i, const px_slot_t *sl, int n, px_slot_t *w,
                       const px_slot_t *add, int na)
{
    unsigned mask = r->mflag[i] & PX_M_ZERO ? r->zmask[i] : 0;
    int m = 0;
    for (int s = 0; s < n; s++) {
        if (mask >> s & 1)
            continue;
        px_slot_t x = sl[s];
        double q = node_q(r, x.node);
        if (q > 0 && rng_uniform(r->rng) < q) {
            int cap = r->scap[x.node];
            if (cap > x.gpus)
                x.gpus += (int)rng_below(r->rng, (unsigned)(cap - x.gpus) + 1);
        }
        w[m++] = x;
    }
    if (r->mflag[i] & PX_M_GROWN) {
        for (int p = r->phead[i]; p >= 0; p = r->pnext[p])
            w[m++] = (px_slot_t){r->pnode[p], r->pgpus[p]};
        sort_slots(w, m);
    }
    if (na > 0) {
        for (int c = 0; c < na; c++)
            w[m++] = add[c];
        sort_slots(w, m);
    }
    return m;
}

/* Adds up to `need` GPUs of node `node` (an index in sub) to row w[0..*n),
 * from what the rows before it left and its own slot there does not take;
 * returns how many. */
static int fill_node(px_round_t *r, px_slot_t *w, int *n, int node, int need)
{
    int i = 0;
    while (i < *n && w[i].node != node)
        i++;
    int f = r->left[node] - (i < *n ? w[i].gpus : 0), g = f < need ? f : need;
    if (g < 1)
        return 0;
    if (i == *n) {
        if (*n >= r->width)
            return 0;
        w[(*n)++] = (px_slot_t){node, 0};
    }
    w[i].gpus += g;
    return g;
}

/* The floor at a job's min (AdaptDL's PolluxPolicy: its mutation raises no
 * entry below the job's greedy min_replicas fill, so a job whose min spans
 * nodes is always proposed whole; the artifact's jobs all have min 0). Row
 * w[0..n) (mutated, after steps 1 and 2: one type, sorted) with some GPUs but
 * fewer than its min is topped up to the min on its type, from the GPUs the
 * rows before it left: its own nodes first, then nodes of the type free
 * whole (fewest nodes), then partly free ones, lowest index first, none a
 * distributed row before it is on (step 1). A row on one node that must
 * spread leaves that node if such a row is there. No random draws. Without
 * it step 5 drops every row below its min, and a rigid job over m nodes
 * needed m entries drawn full in one offspring (1 in 9^m on 8-GPU nodes): a
 * 64-GPU job never ran. A row that cannot reach its min is left below it
 * (step 5 drops it) and flags no node. Returns the row's slots. */
static int fill_to_min(px_round_t *r, int row, px_slot_t *w, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += w[i].gpus;
    int need = r->jobs[row].min - k;
    if (n == 0 || need <= 0)
        return n;
    int type = r->stype[w[0].node];
    for (int i = 0; i < n && need > 0; i++)
        need -= fill_node(r, w, &n, w[i].node, need);
    if (need <= 0)
        return n;
    int n0 = n; /* w[n0..n): its new nodes, flagged (step 1) once it is whole */
    if (n == 1 && r->flag[w[0].node] == r->stamp) { /* it must spread: step 1 */
        need += w[0].gpus;
        n = n0 = 0;
    }
    for (int pass = 0; pass < 2 && need > 0; pass++)
        for (int q = 0; q < r->n_sub && need > 0; q++) {
            int f = r->left[q];
            if (r->stype[q] == type && f > 0 && r->flag[q] != r->stamp &&
                (pass || f == r->scap[q]))
                need -= fill_node(r, w, &n, q, need);
        }
    if (need > 0)
        return n;
    for (int i = n0 == 1 ? 0 : n0; i < n && n > 1; i++)
        r->flag[w[i].node] = r->stamp;
    sort_slots(w, n);
    return n;
}

/* Whether row i of the child (read from src, n slots) is left with no GPUs
 * whatever the rest of the mutation and repair draw: all its slots zeroed,
 * or none to start with, and no new entry (a row with no GPUs is neither
 * raised nor topped up). */
static int surely_empty(const px_round_t *r, int i, int n)
{
    unsigned f = r->mflag[i];
    if (f & PX_M_GROWN)
        return 0;
    return f & PX_M_ZERO ? n == popcount16(r->zmask[i]) : n == 0;
}

/* The rows of the child (after the mutation's draws) that will surely have
 * no GPUs (surely_empty): a's below point and b's from it, with the rows the
 * mutation touched counted again. */
static int surely_empty_rows(const px_round_t *r, const px_ind_t *a, const px_ind_t *b,
                             int point)
{
    int e = a->ez[point] + b->ez[r->rows] - b->ez[point];
    for (int t = 0; t < r->n_touched; t++) {
        int i = r->touched[t], n;
        const px_ind_t *orig = i < point ? a : b;
        source_row(r, a, b, point, i, &n);
        e += surely_empty(r, i, n) - (orig->n[i] == 0);
    }
    return e;
}

/* make_child's path for a row of one slot that no mutation touched but the
 * raise of its entry (or that was only reset, reset = 1): what mutated_row
 * and steps 3 to 5 do to it, written out; returns its fitness term. */
static double single_row(px_round_t *r, int i, px_slot_t x, int mutate, int reset, px_ind_t *out,
                         int *at)
{
    const px_job_t *pj = &r->jobs[i];
    /* an untouched row at its cap stays there whatever the raise: not drawn
     * (the same law); a reset row draws it as mutated_row does */
    double q = mutate && (reset || x.gpus < pj->cap) ? node_q(r, x.node) : 0;
    if (q > 0 && rng_uniform(r->rng) < q) {
        int cap = r->scap[x.node];
        if (cap > x.gpus)
            x.gpus += (int)rng_below(r->rng, (unsigned)(cap - x.gpus) + 1);
    }
    if (x.gpus > pj->cap)
        x.gpus = pj->cap;
    int f = r->left[x.node];
    if (x.gpus > f)
        x.gpus = f;
    if (x.gpus <= 0)
        return r->term0;
    r->left[x.node] = f - x.gpus;
    const px_entry_t *e = lookup(r, i, r->stype[x.node], x.gpus, 0);
    if (x.gpus < pj->min || !(e->g > 0)) {
        r->left[x.node] = f;
        return r->term0;
    }
    const px_slot_t *bs = &r->base.slots[r->base.off[i]];
    int same = r->base.n[i] == 1 && bs->node == x.node && bs->gpus == x.gpus;
    ind_grow(out, *at, 1);
    out->slots[*at] = x;
    out->n[i] = 1;
    *at += 1;
    return same ? e->t_same : e->t_moved;
}

/* make_child's path for a row of a one-GPU job (cap 1) where the nodes are
 * of one type: what mutated_row and steps 1 to 5 do to it, in one loop. Its
 * entries are its slots the zeroing left and its raised absent entries (eager
 * patches, add), each of one GPU or more; the raise of a present entry is not
 * drawn (capped back to one GPU whatever it draws: the same law). Over
 * several nodes, step 1 drops those where a distributed row came before (and
 * flags them all); step 3 keeps one GPU on one of those left, uniformly (the
 * first of a uniform order); step 4 takes it from what the rows before left.
 * Returns the row's fitness term. */
static double unit_row(px_round_t *r, int i, const px_slot_t *sl, int n, unsigned mask,
                       const px_slot_t *add, int na, px_ind_t *out, int *at)
{
    int node[2 * PX_MAX_NODES], m = 0;
    for (int s = 0; s < n; s++)
        if (!(mask >> s & 1))
            node[m++] = sl[s].node;
    if (r->mflag[i] & PX_M_GROWN)
        for (int p = r->phead[i]; p >= 0; p = r->pnext[p])
            node[m++] = r->pnode[p];
    for (int c = 0; c < na; c++)
        node[m++] = add[c].node;
    if (m > 1) { /* step 1: the row is distributed */
        int k = 0;
        for (int c = 0; c < m; c++) {
            int s = node[c];
            if (r->flag[s] != r->stamp)
                node[k++] = s;
            r->flag[s] = r->stamp;
        }
        m = k;
    }
    if (m == 0)
        return r->term0;
    int s = node[m > 1 ? (int)rng_below(r->rng, (unsigned)m) : 0];
    if (r->left[s] < 1)
        return r->term0;
    const px_entry_t *e = lookup(r, i, r->stype[s], 1, 0);
    if (!(e->g > 0))
        return r->term0;
    r->left[s]--;
    const px_slot_t *bs = &r->base.slots[r->base.off[i]];
    int same = r->base.n[i] == 1 && bs->node == s && bs->gpus == 1;
    ind_grow(out, *at, 1);
    out->slots[*at] = (px_slot_t){s, 1};
    out->n[i] = 1;
    *at += 1;
    return same ? e->t_same : e->t_moved;
}

/* x's GPUs and entries per node (x->tot, read by count_nodes when x is a
 * parent): made for the matrices that survive (count_population), not for
 * each child (most are stopped, or are duplicates). */
static void node_totals(const px_round_t *r, px_ind_t *x)
{
    x->counted = 1;
    if (!x->tot)
        x->tot = pu_alloc(2 * (size_t)r->n_sub + 1, sizeof *x->tot);
    memset(x->tot, 0, 2 * (size_t)r->n_sub * sizeof *x->tot);
    for (int k = 0; k < x->off[r->rows]; k++) {
        x->tot[x->slots[k].node] += x->slots[k].gpus;
        x->tot[r->n_sub + x->slots[k].node]++;
    }
}

/* make_child's short path, for the rows from i (below end, all read from
 * parent x) that no mutation touched and where no absent raise lands
 * (lazy: the next success of raise_row's sequence is past the row): an
 * empty one stays empty (surely_empty: *sure counts it no longer); one that
 * draws nothing (its slots on nodes with no free GPU, or one slot at its
 * cap: no raise of an entry), that no distributed row before it shares a
 * node with (step 1) and that fits what the rows before it left (no other
 * repair step changes it) is the parent's row with the parent's term (the
 * parent was repaired and scored so in this decision), as make_child's long
 * path would find, no draw made. Stops at the first other row, or where the
 * child cannot survive; returns that row. The same draws, sums and children
 * as the long path. */
static int plain_rows(px_round_t *r, const px_ind_t *x, int i, int end, int *sure, px_ind_t *out,
                      double *sum, int *at, int64_t *pos, int64_t next)
{
    const unsigned char *xn = x->n;
    const px_slot_t *xs = x->slots;
    const int *xoff = x->off, *rcap = r->rcap, *scap = r->scap, *use = r->use;
    int *left = r->left, a = *at;
    double s = *sum, ss = *sure * r->sure_term;
    ind_grow(out, a, end - i);
    for (; i < end; i++) {
        if (r->mflag[i] || s + ss + r->floor_sum[i] > r->doom)
            break;
        int n = xn[i];
        if (n == 0) { /* surely empty */
            *sure -= *sure > 0;
            ss = *sure * r->sure_term;
            s += out->term[i] = r->term0;
            out->n[i] = 0;
            continue;
        }
        if (r->lazy && next < *pos + r->n_free)
            break;
        const px_slot_t *y = &xs[xoff[i]];
        if (n == 1) {
            if ((y->gpus < rcap[i] && scap[y->node] - use[y->node] >= 1) ||
                left[y->node] < y->gpus)
                break;
            left[y->node] -= y->gpus;
            out->slots[a++] = *y;
        } else {
            int k = 0;
            for (; k < n; k++) {
                int node = y[k].node;
                if (scap[node] - use[node] >= 1 || r->flag[node] == r->stamp ||
                    left[node] < y[k].gpus)
                    break;
            }
            if (k < n)
                break;
            ind_grow(out, a, n + end - i);
            for (k = 0; k < n; k++) {
                r->flag[y[k].node] = r->stamp; /* step 1: a distributed row is there */
                left[y[k].node] -= y[k].gpus;
                out->slots[a++] = y[k];
            }
        }
        *pos += r->n_free;
        out->n[i] = (unsigned char)n;
        s += out->term[i] = x->term[i];
    }
    *sum = s;
    *at = a;
    return i;
}

/* The mutation's marks cleared for the next child. */
static void make_child_end(px_round_t *r)
{
    for (int t = 0; t < r->n_touched; t++) {
        r->mflag[r->touched[t]] = 0;
        r->pcount[r->touched[t]] = 0;
    }
    r->n_touched = 0;
    r->n_patch = 0;
}

/* The child of a (rows below point) and b (the rest), mutated when `mutate`
 * is set, then repaired (steps 1 to 5, row by row in priority order: what
 * each step does to a row depends on the rows before it only, so doing all
 * steps on a row before the next is the same as doing each step on all rows
 * before the next) and scored into out: fitness (the power mean of the rows'
 * speedups) and hash (to find duplicates). The mutation's draws are
 * Pollux's operator's, in another order: every random choice it makes is
 * independent of the others, so the child has the same distribution. */
static int make_child(px_round_t *r, const px_ind_t *a, const px_ind_t *b, int point, int mutate,
                      px_ind_t *out)
{
    int doomed = 0, sure = 0;
    if (mutate) {
        mutate_rows(r, a, b, point);
        /* the rows that surely end with no GPUs: with the rows' sums, a
         * lower bound of the child's final sum (r->doom: it cannot survive) */
        if (r->lazy) {
            sure = eager_raises(r, a, b, point);
            if (sure * r->sure_term + r->floor_sum[0] > r->doom) {
                make_child_end(r);
                return 1;
            }
            count_nodes(r, a, b, point);
            sure = eager_keep(r);
        } else {
            count_nodes(r, a, b, point);
            raise_absent(r, a, b, point);
            sure = r->doom < INFINITY ? surely_empty_rows(r, a, b, point) : 0;
        }
    }
    if (++r->stamp == INT32_MAX) { /* flags set in earlier calls hold older stamps */
        memset(r->flag, 0, (size_t)r->n_sub * sizeof *r->flag);
        r->stamp = 1;
    }
    memcpy(r->left, r->scap, (size_t)r->n_sub * sizeof *r->left);
    double sum = 0;
    int at = 0;
    px_slot_t w[PX_MAX_NODES], add[PX_MAX_NODES];
    int64_t pos = 0, next = mutate && r->lazy ? rng_skip(r->rng, r->inv_pick) : 0; /* raise_row */
    for (int i = 0; i < r->rows; i++) {
        if (mutate) { /* a run of rows the child takes from a parent as they are */
            i = plain_rows(r, i < point ? a : b, i, i < point ? point : r->rows, &sure, out,
                           &sum, &at, &pos, next);
            if (i == r->rows)
                break;
        }
        int n;
        const px_slot_t *sl = source_row(r, a, b, point, i, &n);
        out->n[i] = 0;
        /* it cannot survive: the rest of its rows add at least their least terms */
        if (sum + sure * r->sure_term + r->floor_sum[i] > r->doom) {
            doomed = 1;
            break;
        }
        if (surely_empty(r, i, n)) {
            sure -= sure > 0;
            sum += out->term[i] = r->term0;
            continue;
        }
        int na = 0; /* the row's absent raises (an eager row has them as patches) */
        unsigned f = r->mflag[i], mask = f & PX_M_ZERO ? r->zmask[i] : 0;
        if (mutate && r->lazy && n > popcount16(mask))
            na = raise_row(r, sl, n, mask, add, &next, &pos);
        if (r->rcap[i] == 1 && r->one_type) {
            sum += out->term[i] = unit_row(r, i, sl, n, mask, add, na, out, &at);
            continue;
        }
        /* the common row, steps 1 to 5 in short (an untouched row of a
         * population matrix has its min or nothing: no top-up to do; a
         * reset one of a gang job only where it has its min) */
        if (n == 1 && na == 0 &&
            (!f || (f == PX_M_RESET && (!r->jobs[i].gang || sl[0].gpus >= r->jobs[i].min)))) {
            sum += out->term[i] = single_row(r, i, sl[0], mutate, f != 0, out, &at);
            continue;
        }
        if (mutate && (r->mflag[i] || n > 0))
            n = mutated_row(r, i, sl, n, w, add, na);
        else
            for (int k2 = 0; k2 < n; k2++)
                w[k2] = sl[k2];
        int k = 0;
        const px_entry_t *e = NULL;
        if (n > 1) /* steps 1 and 2 concern rows over several nodes */
            n = repair_spread(r, w, n);
        if (mutate && r->jobs[i].gang)
            n = fill_to_min(r, i, w, n);
        if (n > 0)
            n = repair_cap(r, i, w, n);
        if (n > 0)
            n = repair_capacity(r, i, w, n, &k, &e);
        if (n == 0) {
            sum += out->term[i] = r->term0;
            continue;
        }
        const px_slot_t *bs = &r->base.slots[r->base.off[i]];
        int same = r->base.n[i] == n;
        for (int k2 = 0; k2 < n && same; k2++)
            same = w[k2].node == bs[k2].node && w[k2].gpus == bs[k2].gpus;
        sum += out->term[i] = same ? e->t_same : e->t_moved;
        ind_grow(out, at, PX_MAX_NODES);
        for (int k2 = 0; k2 < n; k2++)
            out->slots[at + k2] = w[k2];
        out->n[i] = (unsigned char)n;
        at += n;
    }
    if (!doomed && sum > r->doom)
        doomed = 1;
    out->fitness = pollux_fitness_total(sum, r->rows, r->s->p);
    if (!doomed) { /* offsets, empty rows, hash (duplicates): a child that may survive */
        uint64_t h = PX_HASH0;
        int off = 0, empty = 0;
        for (int i = 0; i < r->rows; i++) {
            out->off[i] = off;
            out->ez[i] = empty;
            h = hash_slots(h, i, &out->slots[off], out->n[i]);
            off += out->n[i];
            empty += out->n[i] == 0;
        }
        out->off[r->rows] = off;
        out->ez[r->rows] = empty;
        out->hash = h;
    }
    make_child_end(r);
    return doomed;
}

/* ---- the genetic algorithm ----------------------------------------------------- */

typedef struct px_pop {
    px_ind_t *ind;
    int n, cap;
} px_pop_t;

/* Whether a matrix of p from index `from` on equals x. */
static int is_duplicate(const px_round_t *r, const px_pop_t *p, int from, const px_ind_t *x)
{
    for (int i = from; i < p->n; i++) {
        const px_ind_t *y = &p->ind[i];
        if (y->hash != x->hash || y->off[r->rows] != x->off[r->rows])
            continue;
        int same = 1;
        for (int row = 0; row < r->rows && same; row++)
            same = same_row(r, x, y, row);
        if (same)
            return 1;
    }
    return 0;
}

/* Adds x (repaired and scored) to p unless an equal matrix is there from
 * index `from` on (the ones before it already compared); takes x's memory
 * either way. */
static void pop_add(px_round_t *r, px_pop_t *p, int from, px_ind_t *x)
{
    if (!is_duplicate(r, p, from, x) && p->n < p->cap) {
        p->ind[p->n++] = *x;
        x->tot = NULL;
        x->term = NULL;
        x->slots = NULL;
        x->n = NULL;
        x->off = NULL;
        x->ez = NULL;
        return;
    }
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

/* Sorts p by fitness (best first, ties by position) and keeps the best `keep`.
 * The order is total (positions differ), so any sort gives it: the sorted
 * head (the parents, sorted by the last survival) is merged with the rest
 * (the children that joined), sorted alone. */
static void survive(px_round_t *r, px_pop_t *p, int keep)
{
    px_rank_t *rk = pu_alloc(2 * (size_t)p->n + 1, sizeof *rk), *tail = rk + p->n;
    px_ind_t *sorted = pu_alloc((size_t)p->cap, sizeof *sorted);
    int head = p->n > 0;
    for (int i = 0; i < p->n; i++)
        rk[i] = (px_rank_t){p->ind[i].fitness, i};
    while (head < p->n && cmp_rank(&rk[head - 1], &rk[head]) < 0)
        head++;
    int nt = p->n - head;
    memcpy(tail, rk + head, (size_t)nt * sizeof *tail);
    qsort(tail, (size_t)nt, sizeof *tail, cmp_rank);
    for (int i = 0, h = 0, t = 0; i < p->n; i++) /* merge: rk[0..head) with tail */
        sorted[i] = p->ind[h < head && (t == nt || cmp_rank(&rk[h], &tail[t]) < 0) ? rk[h++].idx
                                                                                  : tail[t++].idx];
    for (int i = keep; i < p->n; i++)
        ind_release(r, &sorted[i]);
    if (p->n > keep)
        p->n = keep;
    free(p->ind);
    p->ind = sorted;
    free(rk);
}

/* The sum of fitness terms above which a child cannot survive this
 * generation (r->doom): with p < 0 the terms are positive and the fitness
 * falls as their sum grows, so a child whose partial sum already gives a
 * fitness below the size-th best parent's (p sorted) ends below `size`
 * matrices that survive before it (ties go to the earlier); make_child stops
 * it there. Its remaining draws are then not made: the children that survive
 * have the same distribution, drawn from another stream. Infinite (never)
 * with p >= 0 or fewer parents than the population's size. */
static void set_doom(px_round_t *r, const px_pop_t *p, int size)
{
    r->doom = INFINITY;
    double t = p->n >= size ? p->ind[size - 1].fitness : 0, pw = r->s->p;
    if (pw >= 0 || !(t > 0))
        return;
    /* fitness < t  <=>  sum / rows > t^p; the margin absorbs pow's rounding */
    double lim = r->rows * (pw == -1 ? 1.0 / t : pow(t, pw));
    r->doom = lim * (1 + 1e-9);
}

/* The node counts (node_totals) of the population's matrices that lack them:
 * the parents of the next generation. */
static void count_population(const px_round_t *r, px_pop_t *p)
{
    for (int i = 0; i < p->n; i++)
        if (!p->ind[i].counted)
            node_totals(r, &p->ind[i]);
}

/* ---- the generation's children on several threads ------------------------------ */

/* One tournament's pair of children: parents a and b, the crossover point,
 * and the seed of the generator both children are drawn from (so a child
 * does not depend on the thread that makes it, nor on the other pairs). */
typedef struct px_pair {
    const px_ind_t *a, *b;
    int point;
    uint64_t seed;
} px_pair_t;

/* A generation's work, shared by the lanes: pairs taken in turn (next),
 * children written to kid[2 m + k], doomed[2 m + k]. */
typedef struct px_gen {
    px_pair_t *pair;
    px_ind_t *kid;
    int *doomed; /* 1: cannot survive; 2: equals a parent (dropped as pop_add would) */
    const px_pop_t *parents;
    int n_pairs;
    double doom;
    atomic_int next;
    int stop;
    /* the barrier at each generation's start and end: all `need` threads */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    atomic_int need;
    atomic_int arrived;
    atomic_uint phase;
} px_gen_t;

typedef struct px_lane {
    px_round_t r; /* a copy of the round with scratch of its own */
    px_gen_t *gen;
    pthread_t tid;
} px_lane_t;

/* A monotonic clock, microseconds (when to start the lanes: timing only,
 * never the plan). */
static double mono_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

/* Waits until the `need` threads have all come (the lanes and this one):
 * spinning a while first (a generation's serial part, tens of us, is
 * shorter than a sleeping thread's wake-up), then asleep. */
static void gen_barrier(px_gen_t *g)
{
    unsigned phase = atomic_load(&g->phase);
    if (atomic_fetch_add(&g->arrived, 1) + 1 == atomic_load(&g->need)) {
        atomic_store(&g->arrived, 0);
        pthread_mutex_lock(&g->mu);
        atomic_store(&g->phase, phase + 1);
        pthread_cond_broadcast(&g->cv);
        pthread_mutex_unlock(&g->mu);
        return;
    }
    for (int spin = 0; spin < PX_SPIN; spin++) {
        if (atomic_load_explicit(&g->phase, memory_order_acquire) != phase)
            return;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    pthread_mutex_lock(&g->mu);
    while (atomic_load(&g->phase) == phase)
        pthread_cond_wait(&g->cv, &g->mu);
    pthread_mutex_unlock(&g->mu);
}

/* Makes the pairs not yet taken, on round r (the decision's, or a lane's). */
static void make_pairs(px_round_t *r, px_gen_t *g)
{
    r->doom = g->doom;
    for (int m; (m = atomic_fetch_add_explicit(&g->next, 1, memory_order_relaxed)) < g->n_pairs;) {
        const px_pair_t *pr = &g->pair[m];
        rng_seed(r->rng, pr->seed);
        for (int k = 0; k < 2; k++) {
            px_ind_t *kid = &g->kid[2 * m + k];
            int d = make_child(r, k ? pr->b : pr->a, k ? pr->a : pr->b, pr->point, 1, kid);
            /* most children that may survive equal a parent: found here,
             * on the lanes, rather than as each joins the population */
            g->doomed[2 * m + k] = d ? 1 : is_duplicate(r, g->parents, 0, kid) ? 2 : 0;
        }
    }
}

static void *lane_main(void *arg)
{
    px_lane_t *l = arg;
    for (;;) {
        gen_barrier(l->gen);
        if (l->gen->stop)
            break;
        make_pairs(&l->r, l->gen);
        gen_barrier(l->gen);
    }
    return NULL;
}

/* A lane's round: r's read-only parts shared, the scratch a child is made
 * in (make_child) its own; the entries' cache is r's (fill_entry). */
static void lane_init(px_round_t *l, px_round_t *r)
{
    *l = *r;
    l->main = r;
    l->rng = &l->own_rng;
    row_scratch(l);
    node_scratch(l);
    l->picks = pu_alloc((size_t)r->n_sub + 1, sizeof *l->picks);
    l->ecand = NULL;
    l->n_ecand = l->ecand_cap = 0;
    l->pnext = l->pnode = l->pgpus = NULL;
    l->n_patch = l->patch_cap = 0;
    l->n_touched = l->zstamp = l->stamp = 0;
    l->spare = NULL;
    l->n_spare = l->spare_cap = 0;
}

static void lane_free(px_round_t *l)
{
    void *own[] = {l->mflag, l->pcount, l->zmask, l->touched, l->phead, l->ptail,
                   l->hot,   l->zseen,  l->erow,  l->estart,  l->use,   l->cnt,
                   l->left,  l->flag,   l->freel, l->picks,   l->ecand, l->pnext,
                   l->pnode, l->pgpus};
    for (size_t i = 0; i < sizeof own / sizeof *own; i++)
        free(own[i]);
}

/* Starts up to want - 1 lanes beside this thread; returns the lanes running
 * (0: this thread alone, also where no thread could be started). The lanes
 * wait at the barrier, whose count is set to the lanes started before this
 * thread comes to it. */
static int lanes_start(px_round_t *r, px_gen_t *g, px_lane_t *lane, int want)
{
    if (want < 2)
        return 0;
    g->stop = 0;
    atomic_store(&g->arrived, 0);
    /* the lanes that come before every one is started count against `want`:
     * each of them draws an arrival below it, so none is released early */
    atomic_store(&g->need, want);
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    int n = 0;
    for (; n < want - 1; n++) {
        lane_init(&lane[n].r, r);
        lane[n].gen = g;
        if (pthread_create(&lane[n].tid, NULL, lane_main, &lane[n]) != 0) {
            lane_free(&lane[n].r);
            break;
        }
    }
    atomic_store(&g->need, n + 1); /* before this thread arrives */
    if (n == 0) {
        pthread_cond_destroy(&g->cv);
        pthread_mutex_destroy(&g->mu);
    }
    return n;
}

static void lanes_stop(px_gen_t *g, px_lane_t *lane, int n)
{
    if (n == 0)
        return;
    g->stop = 1;
    gen_barrier(g);
    for (int i = 0; i < n; i++) {
        pthread_join(lane[i].tid, NULL);
        lane_free(&lane[i].r);
    }
    pthread_cond_destroy(&g->cv);
    pthread_mutex_destroy(&g->mu);
}

/* When the lanes run (timing only, never the plans): once a generation on
 * this thread alone took lanes_from us (a thread's start and two barriers a
 * generation cost tens of us), and no longer once three generations in a
 * row took 0.9 of that or more with them (a machine too busy to give the
 * lanes a CPU). */
typedef struct px_pace {
    double serial_us; /* the generation that started the lanes */
    int slow;         /* generations in a row with lanes that did not pay */
} px_pace_t;

static void pace_lanes(px_round_t *r, px_gen_t *g, px_lane_t *lane, int *lanes, int *want,
                       double took_us, px_pace_t *pace, pthread_mutex_t *lock)
{
    if (!*lanes && took_us >= r->s->lanes_from) {
        *lanes = lanes_start(r, g, lane, *want);
        r->lock = *lanes ? lock : NULL;
        pace->serial_us = took_us;
        pace->slow = 0;
        if (!*lanes)
            *want = 1;
        else if (*lanes + 1 > r->s->lanes_used)
            r->s->lanes_used = *lanes + 1;
    } else if (*lanes) {
        pace->slow = took_us >= 0.9 * pace->serial_us ? pace->slow + 1 : 0;
        if (pace->slow >= 3) {
            lanes_stop(g, lane, *lanes);
            *lanes = 0;
            *want = 1;
            r->lock = NULL;
        }
    }
}

/* Runs the GA from the sorted population p; with patience N > 0, stops once
 * the best fitness has not risen for N generations in a row. Each
 * generation's pairs of children are drawn (tournaments, crossover point, a
 * seed each) from the decision's stream, then made on the lanes and this
 * thread, then joined to the population in order: the same plans whatever
 * the threads. */
static void evolve(px_round_t *r, px_pop_t *p)
{
    int size = (int)r->s->pop, n_pairs = size / 2 + size % 2;
    double best = p->n > 0 ? p->ind[0].fitness : 0;
    long stale = 0;
    px_gen_t g = {.pair = pu_alloc((size_t)n_pairs, sizeof *g.pair),
                  .kid = pu_alloc(2 * (size_t)n_pairs, sizeof *g.kid),
                  .doomed = pu_alloc(2 * (size_t)n_pairs, sizeof *g.doomed),
                  .parents = p,
                  .n_pairs = n_pairs};
    px_lane_t lane[PX_MAX_THREADS];
    int want = r->s->threads, lanes = 0;
    px_pace_t pace = {0, 0};
    r->s->lanes_used = 1;
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    px_rng_t *stream = r->rng;
    for (long gen = 0; gen < r->s->gens; gen++) {
        if (r->s->patience > 0 && stale >= r->s->patience)
            break;
        double t0 = want > 1 ? mono_us() : 0;
        int parents = p->n;
        set_doom(r, p, size);
        for (int m = 0; m < n_pairs; m++) {
            /* binary tournaments: the population is sorted, the lower index wins */
            int a = (int)rng_below(stream, (unsigned)parents);
            int b = (int)rng_below(stream, (unsigned)parents);
            int c = (int)rng_below(stream, (unsigned)parents);
            int d = (int)rng_below(stream, (unsigned)parents);
            const px_ind_t *pa = &p->ind[a < b ? a : b], *pb = &p->ind[c < d ? c : d];
            int point = rng_uniform(stream) < PX_CROSSOVER
                            ? (int)rng_below(stream, (unsigned)r->rows)
                            : r->rows;
            g.pair[m] = (px_pair_t){pa, pb, point, rng_next(stream)};
            for (int k = 0; k < 2; k++)
                ind_alloc(r, &g.kid[2 * m + k], pa->off[r->rows] + pb->off[r->rows]);
        }
        g.doom = r->doom;
        atomic_store_explicit(&g.next, 0, memory_order_relaxed);
        r->rng = &r->own_rng;
        if (lanes)
            gen_barrier(&g);
        make_pairs(r, &g);
        if (lanes)
            gen_barrier(&g);
        r->rng = stream;
        for (int c = 0; c < 2 * n_pairs; c++) {
            if (g.doomed[c])
                ind_release(r, &g.kid[c]);
            else
                pop_add(r, p, parents, &g.kid[c]);
        }
        r->doom = INFINITY;
        survive(r, p, size);
        count_population(r, p);
        if (p->ind[0].fitness > best) {
            best = p->ind[0].fitness;
            stale = 0;
        } else {
            stale++;
        }
        if (want > 1)
            pace_lanes(r, &g, lane, &lanes, &want, mono_us() - t0, &pace, &lock);
    }
    lanes_stop(&g, lane, lanes);
    r->lock = NULL;
    free(g.pair);
    free(g.kid);
    free(g.doomed);
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
     * nodes of one type (not the up GPUs or the exploration bound: they move);
     * a job above every type is skipped, as by every policy (no row below) */
    int ever = 0;
    for (int t = 0; t < v->n_types; t++)
        ever = r->reach[t] > ever ? r->reach[t] : ever;
    ever = j->max_gpus < ever ? j->max_gpus : ever;
    if (has_model && l.max_batch / l.min_local_batch < ever)
        ever = l.max_batch / l.min_local_batch;
    pj->never = ever < pj->min && pj->min <= r->reach[v->n_types] ? ever : 0;
    if (pj->cap < pj->min)
        pj->cap = pj->min - 1 > 0 ? pj->min - 1 : 0; /* cannot run: no row */
    pj->gang = pj->min > 1 && pj->cap >= pj->min;
    size_t n = (size_t)v->n_types * (size_t)(pj->cap + 1) * 2;
    pj->cache = pu_alloc(n, sizeof *pj->cache);
    pj->ready = pu_alloc(n, sizeof *pj->ready);
    pj->base = 0;
    if (pj->cap < pj->min || fair < 1)
        return;
    /* the fair share, on the type where the job is fastest */
    for (int t = 0; t < v->n_types; t++) {
        int k = fair < v->types[t].total_gpus ? fair : v->types[t].total_gpus;
        if (k < 1)
            continue;
        px_entry_t e = evaluate(r, &r->grids, pj, t, k, k > r->node_big[t]);
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
    sort_slots(sl, x->n[row]);
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

/* The GA works on the nodes in sub by their index there: each node's GPUs
 * and type per index, the per-node scratch, and the current allocation in
 * those indices (every node a job holds is in sub). */
static void index_nodes(px_round_t *r)
{
    int nn = r->v->n_nodes, ns = r->n_sub;
    size_t ns1 = (size_t)ns + 1;
    r->node_sub = pu_alloc((size_t)nn + 1, sizeof *r->node_sub);
    for (int k = 0; k < nn; k++)
        r->node_sub[k] = -1;
    r->scap = pu_alloc(ns1, sizeof *r->scap);
    r->stype = pu_alloc(ns1, sizeof *r->stype);
    r->one_type = 1;
    for (int i = 0; i < ns; i++) {
        r->node_sub[r->sub[i]] = i;
        r->scap[i] = r->node_cap[r->sub[i]];
        r->stype[i] = r->node_type[r->sub[i]];
        r->one_type &= r->stype[i] == r->stype[0];
    }
    node_scratch(r);
    for (int k = 0; k < r->base.off[r->rows]; k++)
        r->base.slots[k].node = r->node_sub[r->base.slots[k].node];
}

static void round_init(px_round_t *r, px_state_t *s, const view_t *v)
{
    memset(r, 0, sizeof *r);
    r->v = v;
    r->s = s;
    r->rng = &s->rng;
    r->doom = INFINITY; /* set_doom sets it per generation */
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
    size_t rows1 = (size_t)r->rows + 1;
    row_scratch(r);
    r->term0 = pollux_fitness_term(0, s->p);
    r->reset_cdf = binomial_cdf(r->rows, PX_RESET, &r->reset_first, &r->n_reset_cdf);
    r->zero_cdf = binomial_cdf(r->rows, PX_ZERO_ROW, &r->zero_first, &r->n_zero_cdf);
    r->reset_guide = cdf_guide(r->reset_cdf, r->n_reset_cdf);
    r->zero_guide = cdf_guide(r->zero_cdf, r->n_zero_cdf);
    r->qtab = pu_alloc(rows1, sizeof *r->qtab);
    for (int c = 0; c <= r->rows; c++) {
        double p1 = 1.0 / r->rows, p2 = c ? 1.0 / c : 0;
        r->qtab[c] = p1 + p2 - p1 * p2;
    }

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
    ind_alloc(r, &r->base, r->rows * r->width + 1);
    r->base.off[0] = 0;
    r->rcap = pu_alloc((size_t)r->rows + 1, sizeof *r->rcap);
    for (int row = 0; row < r->rows; row++) {
        r->jobs[row].job = keys[row].job;
        setup_job(r, row, fair);
        r->rcap[row] = r->jobs[row].cap;
        base_row(r, row, gpu_node);
        r->base.off[row + 1] = r->base.off[row] + r->base.n[row];
    }
    free(gpu_node);
    free(keys);
    map_old_rows(r);
    choose_nodes(r);
    index_nodes(r);
    pick_table(r);
    node_table(r);
}

static void round_free(px_round_t *r)
{
    free(r->reach);
    free(r->sub);
    free(r->node_sub);
    free(r->scap);
    free(r->stype);
    free(r->use);
    free(r->cnt);
    free(r->left);
    free(r->flag);
    free(r->pick_cdf);
    free(r->node_cdf);
    free(r->reset_cdf);
    free(r->zero_cdf);
    free(r->reset_guide);
    free(r->zero_guide);
    free(r->zseen);
    free(r->freel);
    free(r->picks);
    free(r->qpow);
    free(r->erow);
    free(r->estart);
    free(r->ecand);
    free(r->qtab);
    free(r->floor_sum);
    free(r->old_row);
    free(r->rcap);
    for (int row = 0; row < r->rows; row++) {
        free(r->jobs[row].cache);
        free(r->jobs[row].ready);
    }
    free(r->jobs);
    ind_free(&r->base);
    free(r->node_cap);
    free(r->node_big);
    free(r->node_type);
    for (int i = 0; i < r->n_spare; i++)
        ind_free(&r->spare[i]);
    free(r->spare);
    free(r->mflag);
    free(r->pcount);
    free(r->zmask);
    free(r->touched);
    free(r->phead);
    free(r->ptail);
    free(r->hot);
    free(r->pnext);
    free(r->pnode);
    free(r->pgpus);
    free(r->grids.key);
    free(r->grids.ms);
}

/* Each row's least fitness term, whatever the GA gives it, summed from each
 * row to the last (r->floor_sum): a job of one GPU count (min = cap) either
 * runs on cap GPUs of a type, spread or not, or gets nothing (term0), so its
 * least is the least of those entries' unpenalised terms (the penalty only
 * lowers a speedup: a larger term); other rows count 0 (their entries are
 * not all known). With every surely empty row counted at term0 less the
 * largest floor, a child's partial sum plus these bounds its final sum
 * (make_child's early stop). */
static void row_floors(px_round_t *r)
{
    double most = 0;
    r->floor_sum = pu_alloc((size_t)r->rows + 1, sizeof *r->floor_sum);
    for (int i = r->rows - 1; i >= 0; i--) {
        const px_job_t *pj = &r->jobs[i];
        double f = 0;
        if (pj->min == pj->cap && pj->cap >= 1) {
            f = r->term0;
            for (int t = 0; t < r->v->n_types; t++)
                for (int spread = 0; spread < 2; spread++) {
                    const px_entry_t *e = lookup(r, i, t, pj->cap, spread);
                    if (e->g > 0 && e->t_same < f)
                        f = e->t_same;
                }
        }
        most = f > most ? f : most;
        r->floor_sum[i] = r->floor_sum[i + 1] + f;
    }
    r->sure_term = r->term0 - most;
}

/* Row `row` of x, a matrix of the last decision's population (rows by its
 * jobs, nodes as the view's), as today's row: its job's old row, nodes as
 * indices in sub, slots on nodes outside it dropped; into out, returns the
 * count (0 for a new job). */
static int prev_row(const px_round_t *r, const px_ind_t *x, int row, px_slot_t *out)
{
    int old = r->old_row[row], n = 0;
    for (int k = 0; old >= 0 && k < x->n[old]; k++) {
        px_slot_t sl = row_slots(r, x, old)[k];
        sl.node = sl.node >= 0 && sl.node < r->v->n_nodes ? r->node_sub[sl.node] : -1;
        if (sl.node >= 0)
            out[n++] = sl;
    }
    return n;
}

/* ---- the decision's first entries on several threads --------------------------- */

/* The entries the seeds ask first (seed_population: each row of the last
 * population as it is, and of the current allocation), computed at once on
 * the threads where the view's perf model may be asked concurrently
 * (view_perf_t.concurrent) and enough of them search a batch grid (PX_WARM;
 * a table lookup is not worth a thread). That part of a decision's serial
 * start then finds them made. Each entry is computed by one thread, as
 * lookup would compute it (the thread's own grid memo gives the same grids):
 * the same entries, so the same plans. */
typedef struct px_warm_item {
    int row;
    size_t key; /* entry_key */
} px_warm_item_t;

typedef struct px_warm {
    px_round_t *r;
    px_warm_item_t *item;
    int n, cap, heavy;
    atomic_int next;
} px_warm_t;

static void *warm_main(void *arg)
{
    px_warm_t *w = arg;
    const px_round_t *r = w->r;
    px_grids_t grids = {0};
    for (int i; (i = atomic_fetch_add_explicit(&w->next, 1, memory_order_relaxed)) < w->n;) {
        px_job_t *pj = &r->jobs[w->item[i].row];
        size_t key = w->item[i].key, per = (size_t)pj->cap + 1; /* entry_key, read back */
        pj->cache[key] = entry_of(r, &grids, pj, (int)(key / 2 / per), (int)(key / 2 % per),
                                  (int)(key % 2));
        atomic_store_explicit(&pj->ready[key], 1, memory_order_release);
    }
    free(grids.key);
    free(grids.ms);
    return NULL;
}

/* Lists row's entry for slots sl[0..n) (indices in sub) as lookup would key
 * it after repair step 3, unless made or listed already (ready 2: listed). */
static void warm_row(px_round_t *r, px_warm_t *w, int row, const px_slot_t *sl, int n)
{
    px_job_t *pj = &r->jobs[row];
    int type = r->stype[sl[0].node], k = 0;
    for (int i = 0; i < n; i++) {
        if (r->stype[sl[i].node] != type)
            return; /* step 2 changes it */
        k += sl[i].gpus;
    }
    k = k < pj->cap ? k : pj->cap;
    if (k < 1)
        return;
    size_t key = entry_key(pj, type, k, n > 1);
    if (atomic_load_explicit(&pj->ready[key], memory_order_relaxed))
        return;
    atomic_store_explicit(&pj->ready[key], 2, memory_order_relaxed);
    if (w->n == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 256;
        px_warm_item_t *m = pu_alloc((size_t)w->cap, sizeof *m);
        if (w->n)
            memcpy(m, w->item, (size_t)w->n * sizeof *m);
        free(w->item);
        w->item = m;
    }
    w->item[w->n++] = (px_warm_item_t){row, key};
    w->heavy += pj->mode == PX_GOODPUT;
}

static void warm_entries(px_round_t *r)
{
    px_state_t *s = r->s;
    s->warm_used = 1;
    if (s->threads < 2 || !r->v->perf->concurrent)
        return;
    int searched = 0; /* rows whose entries search a batch grid: at most one entry each a seed */
    for (int row = 0; row < r->rows; row++)
        searched += r->jobs[row].mode == PX_GOODPUT;
    if ((long)searched * (s->n_prev + 1) < s->warm_from)
        return; /* too few to be worth threads (the table's rows, say) */
    px_warm_t w = {.r = r};
    for (int row = 0; row < r->rows; row++)
        if (r->base.n[row] > 0)
            warm_row(r, &w, row, row_slots(r, &r->base, row), r->base.n[row]);
    for (int i = 0; s->prev_width == r->width && i < s->n_prev; i++) {
        const px_ind_t *x = &s->prev[i];
        for (int row = 0; row < r->rows; row++) {
            px_slot_t sl[PX_MAX_NODES]; /* prev_width == width: at most that many */
            int n = prev_row(r, x, row, sl);
            if (n > 0)
                warm_row(r, &w, row, sl, n);
        }
    }
    int want = w.heavy < s->warm_from ? 1 : 1 + w.heavy / PX_WARM_PER, started = 0;
    want = want < s->threads ? want : s->threads;
    pthread_t tid[PX_MAX_THREADS];
    atomic_store_explicit(&w.next, 0, memory_order_relaxed);
    if (want > 1) {
        for (; started < want - 1; started++)
            if (pthread_create(&tid[started], NULL, warm_main, &w) != 0)
                break;
        warm_main(&w);
        for (int t = 0; t < started; t++)
            pthread_join(tid[t], NULL);
        s->warm_used = started + 1;
    } else { /* not worth threads: lookup makes them as they are asked */
        for (int i = 0; i < w.n; i++)
            atomic_store_explicit(&r->jobs[w.item[i].row].ready[w.item[i].key], 0,
                                  memory_order_relaxed);
    }
    free(w.item);
}

/* The starting population: the last decision's, mapped onto today's jobs by
 * id (new jobs get no GPUs), plus the current allocation. */
static void seed_population(px_round_t *r, px_pop_t *p)
{
    px_state_t *s = r->s;
    px_ind_t x, m;
    ind_alloc(r, &x, r->base.off[r->rows]);
    make_child(r, &r->base, &r->base, r->rows, 0, &x);
    pop_add(r, p, 0, &x);
    if (!s->n_prev || s->prev_width != r->width)
        return;
    for (int i = 0; i < s->n_prev; i++) {
        const px_ind_t *old_x = &s->prev[i];
        ind_alloc(r, &m, old_x->off[s->prev_rows]);
        int at = 0;
        for (int row = 0; row < r->rows; row++) {
            m.off[row] = at;
            m.n[row] = (unsigned char)prev_row(r, old_x, row, &m.slots[at]);
            at += m.n[row];
        }
        m.off[r->rows] = at;
        ind_alloc(r, &x, at);
        make_child(r, &m, &m, r->rows, 0, &x);
        ind_release(r, &m);
        pop_add(r, p, 0, &x);
    }
}

/* The population's nodes as the view's node indices again (emit_plan and
 * the next decision read them so). */
static void population_to_nodes(px_round_t *r, px_pop_t *p)
{
    for (int i = 0; i < p->n; i++)
        for (int k = 0; k < p->ind[i].off[r->rows]; k++)
            p->ind[i].slots[k].node = r->sub[p->ind[i].slots[k].node];
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

/* rigid_batch=1 (--like pollux): a job whose GPU count cannot change (min =
 * max) runs at its trace's total batch, split over its GPUs as Pollux splits
 * a target batch (Job.update_local_bsz), as the simulator pins ncf's (the app
 * it gives max_replicas 1) at 32,768; the GA still ranks the job at its best
 * batch (the simulator's speedup function does not know the pin). */
static void rigid_batch(const view_t *v, const view_job_t *j, int type, int gpus, int *m, int *s)
{
    view_batch_limits_t l;
    if (j->min_gpus != j->max_gpus || j->total_batch <= 0 || !v->perf->batch_limits ||
        v->perf->batch_limits(v->perf->ctx, j, type, &l) < 0 || l.max_local_batch < 1)
        return;
    split_batch(ceil((double)j->total_batch / gpus - 1e-8), gpus, l.init_batch,
                l.max_local_batch, m, s);
    int cap = l.max_batch / (gpus * (*s + 1));
    if (*m > cap && cap > 0)
        *m = cap;
}

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
        int k = plan_run_on(plan, r->jobs[row].job, type, ids, n), m = e->m, s = e->s;
        if (r->s->rigid_batch)
            rigid_batch(v, j, type, n, &m, &s);
        plan->allocs[k].batch_size = m;
        plan->allocs[k].accum_steps = s;
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
    if (!s->seeded) {
        rng_seed(&s->rng, (uint64_t)v->seed);
        s->seeded = 1;
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
    warm_entries(&r);
    row_floors(&r);
    seed_population(&r, &p);
    survive(&r, &p, (int)s->pop);
    count_population(&r, &p);
    /* raises per row (eager for the empty ones) where the empty rows are
     * fewer than the nodes, else per node (each costs about a draw per child) */
    r.lazy = p.ind[0].ez[r.rows] < r.n_sub;
    evolve(&r, &p);
    population_to_nodes(&r, &p);
    emit_plan(&r, &p.ind[0], plan);
    keep_population(&r, &p);
    free(p.ind);
    round_free(&r);
    return 0;
}
