/* sia.c: Sia, heterogeneity- and goodput-aware elastic scheduling: per job a
 * goodput estimate for every (GPU type, GPU count) configuration, and one
 * binary integer program per round that picks at most one configuration per
 * job, maximising the sum of normalized goodputs under a fairness power p.
 *
 * Jayaram Subramanya et al., "Sia: Heterogeneity-aware, goodput-optimized
 * ML-cluster scheduling", SOSP 2023: §3.1 (job scaling: a job starts on one
 * GPU and at most doubles per round; bootstrapped throughput models), §3.2
 * (configurations), §3.3 (normalized goodput matrix, Equation 1, restart
 * factor Equation 2, fairness power p), §3.1 placement rules, §4.2 defaults
 * (p = -0.5, lambda = 1.1, 60 s rounds). Semantics checked against the
 * authors' simulator (siasosp23/artifacts, sia-simulator/sia.py,
 * cluster.py, simulator_config.py); no code taken.
 *
 * Configurations (§3.2): per GPU type with R GPUs per node and N nodes,
 * {1, 2, 4, ... < R, R} on one node and {2R, 3R, ..., N·R} on whole nodes
 * (sia_configs). A rigid job (min = max GPUs, or no configuration in its
 * range) gets its own size on every type instead, as Sia's rigid jobs.
 *
 * Goodput matrix (§3.3). For job i and configuration c = (n, r, t):
 * - a job that has reported a gradient noise scale (it has run): PolluxAgent's
 *   best goodput on r GPUs of t over n nodes (pollux_agent_batch: the batch
 *   and accumulation steps maximising throughput x statistical efficiency);
 *   the plan carries that batch;
 * - a job that has not run yet: Sia starts it on one GPU (its minimum), and
 *   only its 1-GPU configurations are valid, each valued at its single-GPU
 *   throughput on that type at Pollux's default batch (Sia's min-profiling on
 *   one GPU of every type at arrival);
 * - the table backend (no batch model): the table's throughput at the job's
 *   own batch (batch fixed, as Sia's strong-scaling jobs).
 * Valid configurations have min .. cap GPUs, cap = min(max GPUs, largest batch
 * / smallest micro-batch, max(2 x the most GPUs the job has held, 1)): Sia's
 * max_replicas, shared across types (the artifact's --share_max_replicas).
 * Each row is divided by its smallest positive entry and multiplied by the
 * job's minimum GPUs (>= 1), so G >= 1 (N_min for rigid jobs).
 * Restart factor (Equation 2): every configuration other than the job's
 * current one is multiplied by r = max(T - N S, 0) / (T + S), T the job's
 * age, N its restarts, S = restart_delay; r = 1 while T < S.
 * Objective: maximise sum_ij x_ij u(G_ij) with u(G) = lambda + sgn(p) G^p,
 * G^p rounded to two decimals as Sia's code (sia_utility_rounded: for p < 0 Sia minimises sum x G^p
 * + lambda (J - sum x), the same problem), at most one configuration per job, the GPUs of each type
 * within the GPUs of its up nodes; a job that is restarting keeps its
 * configuration (Sia preserves jobs in checkpoint-restore). GLPK branch and
 * cut (sia_select), relative gap 1e-4 as Sia's solver setting, time limit
 * time_limit s; the relaxation starts from the basis of a greedy choice
 * (pairs by utility per GPU), and branching uses pseudocosts with cover and
 * MIR cuts (GLPK's defaults hit the 10 s limit on some rounds of Sia's
 * workloads: 0.17 s per decision on average with lambda=1.5, against 2 ms
 * with these).
 * Placement (§3.1): a job whose configuration is unchanged keeps its GPUs;
 * then, largest first, whole-node configurations take fully free nodes and
 * partial ones the fullest node that holds them (best fit). When
 * fragmentation leaves one unplaced (Sia evicts and retries), the type is
 * placed again largest first, each unchanged job on its old GPUs when they
 * are still free, then, if that fails too, from scratch; a job still
 * unplaced then waits a round.
 *
 * Simplifications and why:
 * - Throughput models: the view's fitted model (the pollux catalog, fitted to
 *   Sia's per-type profiles) stands for Sia's online-refined, bootstrapped
 *   models. Sia projects an unprofiled type's multi-GPU goodput from another
 *   type's model times their 1-GPU throughput ratio; the catalog has every
 *   type fitted, which is what that estimator converges to.
 * - A job that has not run yet values each type's 1-GPU configuration by
 *   its 1-GPU rate there (the paper's min-profiling); Sia's code gives them
 *   all 1 and leaves the type to the solver's tie-breaking.
 * - One restart delay for every job (restart_delay, default 30 s, the
 *   restart overhead of the README's runs); Sia's code uses per-model values
 *   (25-250 s) measured on its cluster.
 * - Placement changes cost a restart here (the engine's rule: new GPU ids);
 *   Sia's simulator does not simulate placement, so a job that keeps its
 *   type and count never restarts there.
 * - p defaults to -0.5, the value of Sia's experiments and code (§4.2; the
 *   paper's §3.3 text says 0.5).
 * - G^p is rounded to `decimals` (default 2) decimals before the program, as
 *   in Sia's code (sia.py rounds the powered-up goodput matrix; the paper's
 *   §4 numbers come from that code, its §3.3 does not say). Not a detail:
 *   without it every last 0.1 % of objective is worth a reallocation, and on
 *   Sia's eight Philly workloads the mean JCT was 2 % (homogeneous) to 4 %
 *   (heterogeneous) higher, sia behind pollux (docs/reproducing.md "Sia against its
 *   paper"); decimals=-1 leaves G^p unrounded. GLPK instead of CBC (Sia's
 *   paper uses GLPK, its code CBC).
 * - A type whose nodes differ in size uses the largest as R; multi-node
 *   configurations count only nodes of that size.
 * - When GLPK finds no integer solution within the time limit, a greedy pass
 *   (pairs by utility per GPU, descending, that fit) decides the round.
 * - Rounds only (Sia's 60 s scheduling interval: run with --round 60). */
#include "policies/idmap.h"
#include "policies/policies.h"
#include "policies/policy_util.h"
#include "policies/pollux.h"
#include "policies/sia.h"

#include <glpk.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIA_G_FLOOR 1e-4 /* Sia's ZERO_ALLOC_GAIN */
#define SIA_CLIP 3000.0  /* Sia's sia_goodput_clip_val */
#define SIA_GAP 1e-4     /* Sia's sia_solver_thresh */

/* ---- configurations (§3.2) ------------------------------------------------- */

/* R (GPUs of the type's largest up node) and N (up nodes of that size). */
static void type_shape(const view_t *v, int t, int *R, int *N)
{
    *R = *N = 0;
    for (int k = 0; k < v->n_nodes; k++)
        if (v->nodes[k].type == t && v->nodes[k].up && v->nodes[k].gpus > *R)
            *R = v->nodes[k].gpus;
    for (int k = 0; k < v->n_nodes; k++)
        *N += v->nodes[k].type == t && v->nodes[k].up && v->nodes[k].gpus == *R;
}

static void put_config(sia_config_t *out, int max, int *n, int type, int nodes, int gpus)
{
    if (*n < max)
        out[*n] = (sia_config_t){type, nodes, gpus};
    (*n)++;
}

int sia_configs(const view_t *v, sia_config_t *out, int max)
{
    int n = 0;
    for (int t = 0; t < v->n_types; t++) {
        int R, N;
        type_shape(v, t, &R, &N);
        if (R < 1)
            continue;
        for (int g = 1; g < R; g *= 2)
            put_config(out, max, &n, t, 1, g);
        put_config(out, max, &n, t, 1, R);
        for (int k = 2; k <= N; k++)
            put_config(out, max, &n, t, k, k * R);
    }
    return n;
}

double sia_utility(double g, double p, double lambda)
{
    return sia_utility_rounded(g, p, lambda, -1);
}

double sia_utility_rounded(double g, double p, double lambda, int decimals)
{
    double x = pow(fmax(g, SIA_G_FLOOR), p);
    if (decimals >= 0) { /* as numpy.round: half to even */
        double scale = pow(10, decimals);
        x = rint(x * scale) / scale;
    }
    x = fmin(x, SIA_CLIP);
    return p < 0 ? lambda - x : lambda + x;
}

/* ---- the selection program (§3.3) ---------------------------------------------- */

typedef struct sia_pair {
    double u;
    int job, cfg;
} sia_pair_t;

static int cmp_pair(const void *pa, const void *pb)
{
    const sia_pair_t *a = pa, *b = pb;
    if (a->u != b->u)
        return a->u > b->u ? -1 : 1;
    return a->job != b->job ? a->job - b->job : a->cfg - b->cfg;
}

/* Greedy: forced pairs, then pairs by utility per GPU, descending, that fit
 * (the multiple-choice knapsack's efficiency order). */
static void select_greedy(int n_jobs, int n_cfg, const double *util, const sia_config_t *cfg,
                          int *room, const int *fixed, int *choice)
{
    size_t n = 0;
    sia_pair_t *pairs = pu_alloc((size_t)n_jobs * n_cfg + 1, sizeof *pairs);
    for (int i = 0; i < n_jobs; i++)
        for (int c = 0; c < n_cfg; c++)
            if (isfinite(util[(size_t)i * n_cfg + c]) && !(fixed && fixed[i] >= 0))
                pairs[n++] = (sia_pair_t){util[(size_t)i * n_cfg + c] / cfg[c].gpus, i, c};
    qsort(pairs, n, sizeof *pairs, cmp_pair);
    for (size_t k = 0; k < n; k++) {
        const sia_pair_t *q = &pairs[k];
        if (q->u > 0 && choice[q->job] < 0 && room[cfg[q->cfg].type] >= cfg[q->cfg].gpus) {
            choice[q->job] = q->cfg;
            room[cfg[q->cfg].type] -= cfg[q->cfg].gpus;
        }
    }
    free(pairs);
}

/* Loads the program into p: one binary column per allowed pair (col_job,
 * col_cfg), one row per job with a column, one per type. Returns columns. */
static int build_program(glp_prob *p, int n_jobs, int n_cfg, const double *util,
                         const sia_config_t *cfg, int n_types, const int *cap, const int *fixed,
                         int *col_job, int *col_cfg)
{
    int cols = 0;
    for (int i = 0; i < n_jobs; i++)
        for (int c = 0; c < n_cfg; c++)
            if (isfinite(util[(size_t)i * n_cfg + c]) &&
                (util[(size_t)i * n_cfg + c] > 0 || (fixed && fixed[i] == c))) {
                col_job[cols] = i;
                col_cfg[cols++] = c;
            }
    glp_set_obj_dir(p, GLP_MAX);
    if (cols == 0)
        return 0;
    glp_add_cols(p, cols);
    glp_add_rows(p, n_jobs + n_types);
    for (int i = 0; i < n_jobs; i++)
        glp_set_row_bnds(p, 1 + i, GLP_UP, 0.0, 1.0);
    for (int t = 0; t < n_types; t++)
        glp_set_row_bnds(p, 1 + n_jobs + t, GLP_UP, 0.0, cap[t]);
    int *ia = pu_alloc(2 * (size_t)cols + 1, sizeof *ia);
    int *ja = pu_alloc(2 * (size_t)cols + 1, sizeof *ja);
    double *ar = pu_alloc(2 * (size_t)cols + 1, sizeof *ar);
    int nz = 0;
    for (int k = 0; k < cols; k++) {
        int i = col_job[k], c = col_cfg[k];
        glp_set_col_kind(p, 1 + k, GLP_BV);
        if (fixed && fixed[i] == c)
            glp_set_col_bnds(p, 1 + k, GLP_FX, 1.0, 1.0);
        glp_set_obj_coef(p, 1 + k, util[(size_t)i * n_cfg + c]);
        ++nz;
        ia[nz] = 1 + i, ja[nz] = 1 + k, ar[nz] = 1.0;
        ++nz;
        ia[nz] = 1 + n_jobs + cfg[c].type, ja[nz] = 1 + k, ar[nz] = cfg[c].gpus;
    }
    glp_load_matrix(p, nz, ia, ja, ar);
    free(ia);
    free(ja);
    free(ar);
    return cols;
}

/* Basis: the greedy pairs basic (their job rows at the bound 1), the other
 * jobs' rows and the capacity rows basic, every other column at 0. */
static void warm_basis(glp_prob *p, int n_jobs, int n_types, int cols, const int *col_job,
                       const int *col_cfg, const int *greedy, const int *fixed)
{
    for (int i = 0; i < n_jobs; i++)
        glp_set_row_stat(p, 1 + i, GLP_BS);
    for (int t = 0; t < n_types; t++)
        glp_set_row_stat(p, 1 + n_jobs + t, GLP_BS);
    for (int k = 0; k < cols; k++) {
        int i = col_job[k];
        if (fixed && fixed[i] == col_cfg[k]) {
            glp_set_col_stat(p, 1 + k, GLP_NS);
        } else if (greedy[i] == col_cfg[k]) {
            glp_set_col_stat(p, 1 + k, GLP_BS);
            glp_set_row_stat(p, 1 + i, GLP_NU);
        } else {
            glp_set_col_stat(p, 1 + k, GLP_NL);
        }
    }
}

/* The relaxation by the primal simplex from the basis set, then GLPK's
 * branch and cut; 1 when an integer solution was found. */
static int solve_program(glp_prob *p, double time_limit)
{
    glp_smcp sp;
    glp_init_smcp(&sp);
    sp.msg_lev = GLP_MSG_OFF;
    if (glp_simplex(p, &sp) != 0 || glp_get_status(p) != GLP_OPT) {
        glp_std_basis(p); /* a singular start: from the slacks */
        if (glp_simplex(p, &sp) != 0 || glp_get_status(p) != GLP_OPT)
            return 0;
    }
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.mip_gap = SIA_GAP;
    parm.br_tech = GLP_BR_PCH;
    parm.cov_cuts = GLP_ON;
    parm.mir_cuts = GLP_ON;
    parm.msg_lev = GLP_MSG_OFF;
    parm.tm_lim = time_limit > 0 && time_limit < 2e6 ? (int)(time_limit * 1000) : INT32_MAX;
    int rc = glp_intopt(p, &parm);
    int st = glp_mip_status(p);
    return (rc == 0 || rc == GLP_ETMLIM) && (st == GLP_OPT || st == GLP_FEAS);
}

int sia_select(int n_jobs, int n_cfg, const double *util, const sia_config_t *cfg, int n_types,
               const int *cap, const int *fixed, double time_limit, int *choice, char *err,
               size_t errlen)
{
    int *room = pu_alloc((size_t)n_types + 1, sizeof *room);
    memcpy(room, cap, (size_t)n_types * sizeof *room);
    for (int i = 0; i < n_jobs; i++) {
        choice[i] = fixed && fixed[i] >= 0 ? fixed[i] : -1;
        if (choice[i] >= 0)
            room[cfg[choice[i]].type] -= cfg[choice[i]].gpus;
    }
    for (int t = 0; t < n_types; t++)
        if (room[t] < 0) {
            snprintf(err, errlen,
                     "sia: the restarting jobs' configurations need %d GPUs of "
                     "type %d, more than its %d",
                     cap[t] - room[t], t, cap[t]);
            free(room);
            return -1;
        }
    size_t most = (size_t)n_jobs * n_cfg + 1;
    int *col_job = pu_alloc(most, sizeof *col_job), *col_cfg = pu_alloc(most, sizeof *col_cfg);
    glp_term_out(GLP_OFF);
    glp_prob *p = glp_create_prob();
    int cols = build_program(p, n_jobs, n_cfg, util, cfg, n_types, cap, fixed, col_job, col_cfg);
    int ok = cols == 0;
    if (cols > 0) {
        /* the greedy choice as the relaxation's starting basis: primal
         * feasible and near the optimum (bench/sia_decide, 2,000 jobs on
         * 2,048 GPUs: 8 simplex iterations instead of ~4,400) */
        int *greedy = pu_alloc((size_t)n_jobs + 1, sizeof *greedy);
        int *left = pu_alloc((size_t)n_types + 1, sizeof *left);
        memcpy(left, room, (size_t)n_types * sizeof *left);
        memcpy(greedy, choice, (size_t)n_jobs * sizeof *greedy);
        select_greedy(n_jobs, n_cfg, util, cfg, left, fixed, greedy);
        warm_basis(p, n_jobs, n_types, cols, col_job, col_cfg, greedy, fixed);
        ok = solve_program(p, time_limit);
        for (int k = 0; ok && k < cols; k++)
            if (glp_mip_col_val(p, 1 + k) > 0.5)
                choice[col_job[k]] = col_cfg[k];
        if (!ok) /* no integer solution in time: the greedy one */
            memcpy(choice, greedy, (size_t)n_jobs * sizeof *choice);
        free(greedy);
        free(left);
    }
    glp_delete_prob(p);
    free(col_job);
    free(col_cfg);
    free(room);
    return 0;
}

/* ---- state kept between rounds ------------------------------------------------ */

typedef struct sia_state {
    double p, lambda, delay, time_limit;
    int explore, decimals;
    idmap_t ids; /* job id -> index into max_held */
    int *max_held;
    size_t held_cap;
} sia_state_t;

int sia_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    static const char *const known[] = {
        "p", "lambda", "restart_delay", "time_limit", "explore", "decimals", NULL};
    double p, lambda, delay, tl;
    long explore, decimals;
    *state = NULL;
    if (policy_args_check(args, known, "sia", err, errlen) ||
        policy_arg_double(args, "p", -0.5, &p, err, errlen) ||
        policy_arg_double(args, "lambda", 1.1, &lambda, err, errlen) ||
        policy_arg_double(args, "restart_delay", 30, &delay, err, errlen) ||
        policy_arg_double(args, "time_limit", 10, &tl, err, errlen) ||
        policy_arg_long(args, "explore", 1, &explore, err, errlen) ||
        policy_arg_long(args, "decimals", 2, &decimals, err, errlen))
        return -1;
    if (decimals < -1 || decimals > 9) {
        snprintf(err, errlen, "sia: decimals=%ld: want -1 (no rounding) to 9 (Sia: 2)", decimals);
        return -1;
    }
    if (!isfinite(p) || p == 0 || fabs(p) > 10) {
        snprintf(err, errlen, "sia: p=%g: want a non-zero fairness power in [-10, 10] (Sia: -0.5)",
                 p);
        return -1;
    }
    if (!isfinite(lambda) || lambda < 0) {
        snprintf(err, errlen, "sia: lambda=%g: want the no-allocation penalty >= 0 (Sia: 1.1)",
                 lambda);
        return -1;
    }
    if (!isfinite(delay) || delay < 0 || !isfinite(tl) || tl <= 0) {
        snprintf(err, errlen, "sia: restart_delay=%g time_limit=%g: want seconds >= 0 and > 0",
                 delay, tl);
        return -1;
    }
    if (explore != 0 && explore != 1) {
        snprintf(err, errlen, "sia: explore=%ld: want 0 or 1", explore);
        return -1;
    }
    sia_state_t *s = pu_alloc(1, sizeof *s);
    *s = (sia_state_t){.p = p,
                       .lambda = lambda,
                       .delay = delay,
                       .time_limit = tl,
                       .explore = (int)explore,
                       .decimals = (int)decimals};
    idmap_init(&s->ids);
    *state = s;
    return 0;
}

void sia_destroy(void *state)
{
    sia_state_t *s = state;
    if (!s)
        return;
    idmap_free(&s->ids);
    free(s->max_held);
    free(s);
}

static int *held_slot(sia_state_t *s, int64_t id)
{
    return idmap_int(&s->ids, &s->max_held, &s->held_cap, id);
}

/* ---- one round ------------------------------------------------------------------ */

enum { SIA_TABLE, SIA_NEW, SIA_GOODPUT };

typedef struct sia_round {
    const view_t *v;
    sia_state_t *s;
    sia_config_t *cfg;
    int n_cfg, cfg_cap;
    int *R;       /* per type: GPUs per node */
    int *cap;     /* per type: GPUs of up nodes */
    double *util; /* jobs x configs */
    int *batch, *accum;
    int *fixed, *choice;
    unsigned char *rigid; /* per job: runs on its own size only */
} sia_round_t;

static int config_index(const sia_round_t *r, int type, int gpus)
{
    for (int c = 0; c < r->n_cfg; c++)
        if (r->cfg[c].type == type && r->cfg[c].gpus == gpus)
            return c;
    return -1;
}

/* A rigid size: its own configuration on every type that holds it. */
static void add_rigid_size(sia_round_t *r, int gpus)
{
    for (int t = 0; t < r->v->n_types; t++) {
        if (r->R[t] < 1 || gpus > r->cap[t] || config_index(r, t, gpus) >= 0)
            continue;
        if (r->n_cfg == r->cfg_cap) {
            r->cfg_cap *= 2;
            sia_config_t *m = pu_alloc((size_t)r->cfg_cap, sizeof *m);
            memcpy(m, r->cfg, (size_t)r->n_cfg * sizeof *m);
            free(r->cfg);
            r->cfg = m;
        }
        r->cfg[r->n_cfg++] = (sia_config_t){t, (gpus + r->R[t] - 1) / r->R[t], gpus};
    }
}

/* The job's GPU range [*lo, *hi] and whether it is rigid (its own size). */
static int job_range(const sia_round_t *r, const view_job_t *j, int *lo, int *hi)
{
    const view_t *v = r->v;
    view_batch_limits_t l;
    *lo = j->min_gpus > 1 ? j->min_gpus : 1;
    *hi = j->max_gpus;
    if (v->perf->batch_limits && v->perf->batch_limits(v->perf->ctx, j, -1, &l) == 0 &&
        l.min_local_batch > 0 && l.max_batch / l.min_local_batch < *hi)
        *hi = l.max_batch / l.min_local_batch;
    if (r->s->explore) {
        int seen = r->s->max_held[idmap_get(&r->s->ids, j->id)];
        int bound = 2 * seen > 1 ? 2 * seen : 1;
        if (bound < *hi)
            *hi = bound;
    }
    if (*hi < *lo)
        *hi = *lo;
    int standard = 0;
    for (int c = 0; c < r->n_cfg; c++)
        standard |= r->cfg[c].gpus >= *lo && r->cfg[c].gpus <= *hi;
    return j->min_gpus == j->max_gpus || !standard;
}

/* Pollux's default batch on k GPUs: max(M0, min micro-batch x k), split. */
static double default_rate(const view_t *v, const view_job_t *j, const sia_config_t *c, int *m,
                           int *s)
{
    view_batch_limits_t l;
    *m = *s = 0;
    if (v->perf->batch_limits(v->perf->ctx, j, c->type, &l) < 0 || l.max_local_batch < 1)
        return 0;
    double total = fmax(l.init_batch, (double)l.min_local_batch * c->gpus);
    double local = ceil(total / c->gpus - 1e-8);
    *s = (int)ceil(local / l.max_local_batch - 1e-8) - 1;
    if (*s < 0)
        *s = 0;
    *m = (int)ceil(local / (*s + 1) - 1e-8);
    double x = v->perf->samples_throughput(v->perf->ctx, j, c->type, c->gpus, c->nodes, *m, *s);
    return isfinite(x) && x > 0 ? x : 0;
}

/* Raw goodput of job i on configuration c (0: cannot run there). */
static double raw_goodput(sia_round_t *r, int i, int mode, int c)
{
    const view_t *v = r->v;
    const view_job_t *j = &v->jobs[i];
    const sia_config_t *k = &r->cfg[c];
    size_t at = (size_t)i * r->n_cfg + c;
    double g = 0;
    if (mode == SIA_TABLE) {
        g = v->perf->throughput(v->perf->ctx, j, k->type, k->gpus, k->nodes, 0);
        return isfinite(g) && g > 0 ? g : 0;
    }
    if (mode == SIA_GOODPUT)
        g = pollux_agent_batch(v, j, k->type, k->gpus, k->nodes, &r->batch[at], &r->accum[at]);
    else
        g = default_rate(v, j, k, &r->batch[at], &r->accum[at]);
    /* the mechanism runs it only where the perf model gives a rate */
    if (g > 0 && !(v->perf->throughput(v->perf->ctx, j, k->type, k->gpus, 0, r->batch[at]) > 0))
        g = 0;
    return isfinite(g) ? g : 0;
}

static double restart_factor(const sia_state_t *s, const view_t *v, const view_job_t *j)
{
    double age = v->now - j->submit;
    if (age < s->delay)
        return 1;
    return fmax(age - j->restarts * s->delay, 0.0) / (age + s->delay);
}

/* Fills row i of the utility matrix (NAN where not allowed), and fixed[i]. */
static void job_row(sia_round_t *r, int i)
{
    const view_t *v = r->v;
    const view_job_t *j = &v->jobs[i];
    double *u = &r->util[(size_t)i * r->n_cfg];
    view_batch_limits_t l;
    int has_model = v->perf->batch_limits && v->perf->batch_limits(v->perf->ctx, j, -1, &l) == 0 &&
                    l.min_local_batch > 0;
    int mode = !has_model ? SIA_TABLE : isnan(j->grad_noise_scale) ? SIA_NEW : SIA_GOODPUT;
    int lo, hi;
    job_range(r, j, &lo, &hi);
    int rigid = r->rigid[i];
    if (mode == SIA_NEW && !rigid)
        hi = lo; /* Sia starts a job on its minimum (one GPU) */
    double gmin = INFINITY;
    for (int c = 0; c < r->n_cfg; c++) {
        int k = r->cfg[c].gpus;
        int ok = rigid ? k == lo : k >= lo && k <= hi;
        u[c] = ok ? raw_goodput(r, i, mode, c) : 0;
        if (u[c] > 0 && u[c] < gmin)
            gmin = u[c];
    }
    int prev = pu_holds(j) ? config_index(r, j->cur_type, j->cur_gpus) : -1;
    double factor = restart_factor(r->s, v, j);
    double nmin = lo;
    for (int c = 0; c < r->n_cfg; c++) {
        if (!(u[c] > 0)) {
            u[c] = NAN;
            continue;
        }
        double g = u[c] / gmin * nmin;
        if (prev >= 0 && c != prev)
            g *= factor;
        u[c] = sia_utility_rounded(g, r->s->p, r->s->lambda, r->s->decimals);
    }
    r->fixed[i] = j->state == VIEW_RESTARTING && prev >= 0 && isfinite(u[prev]) ? prev : -1;
}

static void round_init(sia_round_t *r, sia_state_t *s, const view_t *v)
{
    memset(r, 0, sizeof *r);
    r->v = v;
    r->s = s;
    int n = sia_configs(v, NULL, 0);
    r->cfg_cap = n + 8;
    r->cfg = pu_alloc((size_t)r->cfg_cap, sizeof *r->cfg);
    r->n_cfg = sia_configs(v, r->cfg, r->cfg_cap);
    r->R = pu_alloc((size_t)v->n_types + 1, sizeof *r->R);
    r->cap = pu_alloc((size_t)v->n_types + 1, sizeof *r->cap);
    int lo, hi;
    for (int t = 0; t < v->n_types; t++) {
        int N;
        type_shape(v, t, &r->R[t], &N);
    }
    for (int k = 0; k < v->n_nodes; k++)
        r->cap[v->nodes[k].type] += v->nodes[k].up ? v->nodes[k].gpus : 0;
    r->rigid = pu_alloc((size_t)v->n_jobs + 1, 1);
    for (int i = 0; i < v->n_jobs; i++) /* rigid sizes first: they add columns */
        r->rigid[i] = (unsigned char)job_range(r, &v->jobs[i], &lo, &hi);
    for (int i = 0; i < v->n_jobs; i++)
        if (r->rigid[i]) {
            job_range(r, &v->jobs[i], &lo, &hi);
            add_rigid_size(r, lo);
        }
    size_t cells = (size_t)v->n_jobs * r->n_cfg + 1;
    r->util = pu_alloc(cells, sizeof *r->util);
    r->batch = pu_alloc(cells, sizeof *r->batch);
    r->accum = pu_alloc(cells, sizeof *r->accum);
    r->fixed = pu_alloc((size_t)v->n_jobs + 1, sizeof *r->fixed);
    r->choice = pu_alloc((size_t)v->n_jobs + 1, sizeof *r->choice);
    for (int i = 0; i < v->n_jobs; i++)
        job_row(r, i);
}

static void round_free(sia_round_t *r)
{
    free(r->cfg);
    free(r->R);
    free(r->cap);
    free(r->util);
    free(r->batch);
    free(r->accum);
    free(r->fixed);
    free(r->choice);
    free(r->rigid);
}

/* ---- placement (§3.1) ------------------------------------------------------------ */

typedef struct sia_place {
    const view_t *v;
    int type, R;
    char *taken; /* per GPU id: held by a placed job or on a down node */
    int *ids;    /* per job: its GPU ids at off[job] */
    int *off;
    int *placed; /* per job: 1 once placed */
} sia_place_t;

static int node_free(const sia_place_t *pl, int k)
{
    const view_node_t *nd = &pl->v->nodes[k];
    int f = 0;
    for (int g = nd->first_gpu; g < nd->first_gpu + nd->gpus; g++)
        f += !pl->taken[g];
    return f;
}

static void take_on_node(sia_place_t *pl, int job, int k, int want, int *n)
{
    const view_node_t *nd = &pl->v->nodes[k];
    for (int g = nd->first_gpu; g < nd->first_gpu + nd->gpus && want > 0; g++)
        if (!pl->taken[g]) {
            pl->taken[g] = 1;
            pl->ids[pl->off[job] + (*n)++] = g;
            want--;
        }
}

/* Keeps a job on its GPUs when its configuration is unchanged. */
static void keep_job(sia_place_t *pl, int job, int gpus)
{
    const view_job_t *j = &pl->v->jobs[job];
    if (!pu_holds(j) || j->cur_type != pl->type || j->cur_gpus != gpus || !j->cur_gpu_ids)
        return;
    for (int h = 0; h < gpus; h++) {
        int g = j->cur_gpu_ids[h];
        if (g < 0 || g >= pl->v->n_gpus || pl->taken[g])
            return;
    }
    for (int h = 0; h < gpus; h++) {
        pl->taken[j->cur_gpu_ids[h]] = 1;
        pl->ids[pl->off[job] + h] = j->cur_gpu_ids[h];
    }
    pl->placed[job] = 1;
}

/* Whole free nodes for gpus / R, the rest on the fullest node that holds it. */
static int place_job(sia_place_t *pl, int job, int gpus)
{
    const view_t *v = pl->v;
    int whole = gpus / pl->R, rest = gpus % pl->R, n = 0;
    int *got = pu_alloc((size_t)whole + 1, sizeof *got), ng = 0;
    for (int k = 0; k < v->n_nodes && ng < whole; k++)
        if (v->nodes[k].type == pl->type && v->nodes[k].gpus == pl->R && node_free(pl, k) == pl->R)
            got[ng++] = k;
    int best = -1, best_free = 0;
    for (int k = 0; rest > 0 && k < v->n_nodes; k++) {
        int f = v->nodes[k].type == pl->type ? node_free(pl, k) : 0;
        int used = 0;
        for (int q = 0; q < ng; q++)
            used |= got[q] == k;
        if (!used && f >= rest && (best < 0 || f < best_free)) {
            best = k;
            best_free = f;
        }
    }
    int ok = ng == whole && (rest == 0 || best >= 0);
    if (ok) {
        for (int q = 0; q < ng; q++)
            take_on_node(pl, job, got[q], pl->R, &n);
        if (rest > 0)
            take_on_node(pl, job, best, rest, &n);
        pl->placed[job] = 1;
    }
    free(got);
    return ok;
}

/* How place_type treats a job whose configuration is unchanged. */
enum {
    SIA_FRESH = 0,  /* placed anew like any other */
    SIA_KEEP = 1,   /* all such jobs keep their GPUs first */
    SIA_STICKY = 2, /* in turn (largest first), on its GPUs when they are still free */
};

/* Places type t's chosen jobs (list, by GPUs descending) under a SIA_*
 * mode. Returns the jobs left unplaced. */
static int place_type(sia_place_t *pl, const sia_round_t *r, const int *list, int n, int keep)
{
    const view_t *v = pl->v;
    memset(pl->taken, 0, (size_t)v->n_gpus + 1);
    for (int k = 0; k < v->n_nodes; k++)
        if (!v->nodes[k].up || v->nodes[k].type != pl->type)
            for (int g = v->nodes[k].first_gpu; g < v->nodes[k].first_gpu + v->nodes[k].gpus; g++)
                pl->taken[g] = 1;
    for (int q = 0; q < n; q++)
        pl->placed[list[q]] = 0;
    for (int q = 0; keep == SIA_KEEP && q < n; q++)
        keep_job(pl, list[q], r->cfg[r->choice[list[q]]].gpus);
    int left = 0;
    for (int q = 0; q < n; q++) {
        int gpus = r->cfg[r->choice[list[q]]].gpus;
        if (keep == SIA_STICKY)
            keep_job(pl, list[q], gpus);
        if (!pl->placed[list[q]] && !place_job(pl, list[q], gpus))
            left++;
    }
    return left;
}

typedef struct sia_key {
    int gpus, job;
} sia_key_t;

static int cmp_key(const void *pa, const void *pb)
{
    const sia_key_t *a = pa, *b = pb;
    return a->gpus != b->gpus ? b->gpus - a->gpus : a->job - b->job;
}

static void emit_plan(sia_round_t *r, plan_t *plan)
{
    const view_t *v = r->v;
    sia_place_t pl = {.v = v};
    pl.taken = pu_alloc((size_t)v->n_gpus + 1, 1);
    pl.off = pu_alloc((size_t)v->n_jobs + 1, sizeof *pl.off);
    pl.placed = pu_alloc((size_t)v->n_jobs + 1, sizeof *pl.placed);
    int total = 0;
    for (int i = 0; i < v->n_jobs; i++) {
        pl.off[i] = total;
        total += r->choice[i] >= 0 ? r->cfg[r->choice[i]].gpus : 0;
    }
    pl.ids = pu_alloc((size_t)total + 1, sizeof *pl.ids);
    sia_key_t *keys = pu_alloc((size_t)v->n_jobs + 1, sizeof *keys);
    int *list = pu_alloc((size_t)v->n_jobs + 1, sizeof *list);
    for (int t = 0; t < v->n_types; t++) {
        int n = 0;
        for (int i = 0; i < v->n_jobs; i++)
            if (r->choice[i] >= 0 && r->cfg[r->choice[i]].type == t)
                keys[n++] = (sia_key_t){r->cfg[r->choice[i]].gpus, i};
        if (n == 0)
            continue;
        qsort(keys, (size_t)n, sizeof *keys, cmp_key);
        for (int q = 0; q < n; q++)
            list[q] = keys[q].job;
        pl.type = t;
        pl.R = r->R[t];
        /* fragmentation: evict and retry, moving as few jobs as we can */
        if (place_type(&pl, r, list, n, SIA_KEEP) > 0 &&
            place_type(&pl, r, list, n, SIA_STICKY) > 0)
            place_type(&pl, r, list, n, SIA_FRESH);
        for (int q = 0; q < n; q++) {
            int i = list[q], c = r->choice[i];
            if (!pl.placed[i])
                continue;
            int k = plan_run_on(plan, i, t, &pl.ids[pl.off[i]], r->cfg[c].gpus);
            plan->allocs[k].batch_size = r->batch[(size_t)i * r->n_cfg + c];
            plan->allocs[k].accum_steps = r->accum[(size_t)i * r->n_cfg + c];
        }
    }
    free(keys);
    free(list);
    free(pl.taken);
    free(pl.off);
    free(pl.placed);
    free(pl.ids);
}

int sia_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    sia_state_t *s = state;
    if (v->n_jobs == 0 || v->n_nodes < 1)
        return 0;
    if (!v->perf || !v->perf->throughput) {
        snprintf(err, errlen,
                 "sia: the view has no perf model (Sia needs goodput, or "
                 "throughput on a table, per GPU type)");
        return -1;
    }
    for (int i = 0; i < v->n_jobs; i++) { /* the exploration bound's memory */
        int *held = held_slot(s, v->jobs[i].id);
        if (pu_holds(&v->jobs[i]) && v->jobs[i].cur_gpus > *held)
            *held = v->jobs[i].cur_gpus;
    }
    sia_round_t r;
    round_init(&r, s, v);
    int rc = sia_select(v->n_jobs, r.n_cfg, r.util, r.cfg, v->n_types, r.cap, r.fixed,
                        s->time_limit, r.choice, err, errlen);
    if (rc == 0)
        emit_plan(&r, plan);
    round_free(&r);
    return rc;
}
