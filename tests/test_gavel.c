/* test_gavel.c: Gavel's LPs against hand-solved cases, its round mechanism
 * (priorities, alternation, lease extension), AlloX's matching, and bad
 * parameters.
 *
 * The hand-solved LPs (2-3 jobs, 1-2 GPU types of one GPU each) have unique
 * optima worked out in the comments; the view fixture gives each job its own
 * per-type rate (work units/s per GPU). */
#include "config.h"

#include "policies/gavel_lp.h"
#include "policies/gavel_round.h"
#include "policies/policies.h"
#include "policies/pyrandom.h"
#include "tests/check_main.h"

#include <check.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EPS 1e-6
#define MAXJ 6
#define MAXT 2

/* ---- the LPs directly ----------------------------------------------------- */

/* Singles of n jobs over T types: rate[j][t]. */
static gl_lp_t singles(int n, int T, const double rate[][MAXT], const double *cap, gl_row_t *rows,
                       double *r2)
{
    for (int j = 0; j < n; j++) {
        rows[j] = (gl_row_t){{j, -1}, 1};
        for (int t = 0; t < T; t++) {
            r2[(j * T + t) * 2] = rate[j][t];
            r2[(j * T + t) * 2 + 1] = 0;
        }
    }
    return (gl_lp_t){.n_jobs = n, .n_types = T, .n_rows = n, .rows = rows, .rate = r2, .cap = cap};
}

START_TEST(lp_max_min_perf_hand_solved)
{
    /* A: (4, 1), B: (2, 1) on two 1-GPU types. Gavel's weights 1/prop with
     * prop = mean rate: wA = 1/2.5, wB = 1/1.5. Any z > 1 needs a0 > 1/2 and
     * b0 > 1/2 at once, so z = 1 and X = 1/2 everywhere is the only optimum. */
    const double rate[2][MAXT] = {{4, 1}, {2, 1}}, cap[2] = {1, 1}, w[2] = {1 / 2.5, 1 / 1.5};
    gl_row_t rows[2];
    double r2[8], x[4];
    char err[256];
    gl_lp_t lp = singles(2, 2, rate, cap, rows, r2);
    ck_assert_int_eq(gl_max_min(&lp, w, x, err, sizeof err), 0);
    for (int k = 0; k < 4; k++)
        ck_assert_double_eq_tol(x[k], 0.5, EPS);
}
END_TEST

START_TEST(lp_min_makespan_hand_solved)
{
    /* A: (2, 1) with 4 units left, B: (1, 1) with 2. A alone at its best
     * needs 2 s, so T >= 2; T = 2 forces A wholly on t0 and B on t1. */
    const double rate[2][MAXT] = {{2, 1}, {1, 1}}, cap[2] = {1, 1}, R[2] = {4, 2};
    gl_row_t rows[2];
    double r2[8], x[4], T;
    char err[256];
    gl_lp_t lp = singles(2, 2, rate, cap, rows, r2);
    ck_assert_int_eq(gl_min_makespan(&lp, R, x, &T, err, sizeof err), 0);
    ck_assert_double_eq_tol(T, 2.0, 1e-6);
    ck_assert_double_eq_tol(x[0], 1, EPS);
    ck_assert_double_eq_tol(x[1], 0, EPS);
    ck_assert_double_eq_tol(x[2], 0, EPS);
    ck_assert_double_eq_tol(x[3], 1, EPS);
}
END_TEST

START_TEST(lp_max_sum_hand_solved)
{
    /* A: (3, 1), B: (2, 2): A on t0 and B on t1 give 5, the swap 3. */
    const double rate[2][MAXT] = {{3, 1}, {2, 2}}, cap[2] = {1, 1}, w[2] = {1, 1};
    gl_row_t rows[2];
    double r2[8], x[4];
    char err[256];
    gl_lp_t lp = singles(2, 2, rate, cap, rows, r2);
    ck_assert_int_eq(gl_max_sum(&lp, w, x, err, sizeof err), 0);
    ck_assert_double_eq_tol(x[0], 1, EPS);
    ck_assert_double_eq_tol(x[3], 1, EPS);
    ck_assert_double_eq_tol(x[1] + x[2], 0, EPS);
}
END_TEST

START_TEST(lp_ftf_bisection_hand_solved)
{
    /* One 1-GPU type, two jobs at rate 1 with 1 unit left, just arrived:
     * isolated rate 1/2, so c = 2 and rho_j = 1 / (2 eff_j); eff_A + eff_B <= 1
     * gives min max rho = 1 at X = (1/2, 1/2). Bisection from [0.5, 2]. */
    const double rate[2][MAXT] = {{1}, {1}}, cap[1] = {1};
    const double a[2] = {0, 0}, c[2] = {2, 2}, R[2] = {1, 1};
    gl_row_t rows[2];
    double r2[4], x[2], rho;
    char err[256];
    gl_lp_t lp = singles(2, 1, rate, cap, rows, r2);
    ck_assert_int_eq(gl_ftf(&lp, a, c, R, 0.5, 2.0, 1e-4, x, &rho, err, sizeof err), 0);
    ck_assert_double_eq_tol(rho, 1.0, 1e-3);
    ck_assert_double_eq_tol(x[0], 0.5, 1e-3);
    ck_assert_double_eq_tol(x[1], 0.5, 1e-3);
}
END_TEST

START_TEST(lp_packed_prefers_a_good_pair)
{
    /* One 1-GPU type; A and B run at 1 alone and at 0.8 each when sharing.
     * Time-slicing gives each 1/2; the pair row gives both 0.8. */
    gl_row_t rows[3] = {{{0, -1}, 1}, {{1, -1}, 1}, {{0, 1}, 1}};
    const double r2[6] = {1, 0, 1, 0, 0.8, 0.8}, cap[1] = {1}, w[2] = {1, 1};
    double x[3], eff[2];
    char err[256];
    gl_lp_t lp = {.n_jobs = 2, .n_types = 1, .n_rows = 3, .rows = rows, .rate = r2, .cap = cap};
    ck_assert_int_eq(gl_max_min(&lp, w, x, err, sizeof err), 0);
    ck_assert_double_eq_tol(x[2], 1, EPS);
    gl_effective(&lp, x, eff);
    ck_assert_double_eq_tol(eff[0], 0.8, EPS);
    ck_assert_double_eq_tol(eff[1], 0.8, EPS);
}
END_TEST

START_TEST(lp_assign_is_integral)
{
    /* Two jobs, two slots of capacity 1: the diagonal costs 1 + 1, the
     * anti-diagonal 3 + 3. */
    const double cost[4] = {1, 3, 3, 1};
    const int cap[2] = {1, 1};
    int slot[2];
    char err[256];
    ck_assert_int_eq(gl_assign(2, 2, cost, cap, slot, err, sizeof err), 0);
    ck_assert_int_eq(slot[0], 0);
    ck_assert_int_eq(slot[1], 1);
    slot[0] = slot[1] = -1;
    ck_assert_int_eq(gl_assign_flow(2, 2, cost, cap, NULL, slot, err, sizeof err), 0);
    ck_assert_int_eq(slot[0], 0);
    ck_assert_int_eq(slot[1], 1);
}
END_TEST

/* Total cost of an assignment; -1 when it breaks a rule (a job without a
 * slot or on a forbidden one, a slot over capacity). */
static double assign_cost(int n, int n_slots, const double *cost, const int *cap,
                          const int *slot_of)
{
    int used[64] = {0};
    double sum = 0;
    for (int j = 0; j < n; j++) {
        int s = slot_of[j];
        if (s < 0 || s >= n_slots || !isfinite(cost[j * n_slots + s]) || ++used[s] > cap[s])
            return -1;
        sum += cost[j * n_slots + s];
    }
    return sum;
}

START_TEST(lp_assign_flow_matches_simplex)
{
    /* AlloX-shaped random instances (2-60 jobs, 1-3 types of 1-8 free GPUs,
     * slot (t, k) costs k * p_jt, p spread over four decades, some types
     * forbidden, some jobs with equal times): the out-of-kilter flow on
     * scaled costs must be a valid assignment within gl_assign_bound of the
     * simplex's optimum, and on instances with exactly representable costs
     * (small integers) as cheap as the simplex's; the same from a sparse
     * seed of arcs. */
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 7);
    for (int iter = 0; iter < 300; iter++) {
        int n = 2 + (int)gsl_rng_uniform_int(rng, 59), T = 1 + (int)gsl_rng_uniform_int(rng, 3);
        int integral = iter % 3 == 0, free_gpus[3], n_slots = 0, slot_type[64], slot_level[64];
        int cap[64], a[60], b[60];
        for (int t = 0; t < T; t++) {
            free_gpus[t] = 1 + (int)gsl_rng_uniform_int(rng, 8);
            for (int k = 1; k <= (n + free_gpus[t] - 1) / free_gpus[t] && n_slots < 64; k++) {
                slot_type[n_slots] = t, slot_level[n_slots] = k;
                cap[n_slots++] = free_gpus[t];
            }
        }
        double p[60][3], *cost = malloc((size_t)n * n_slots * sizeof *cost);
        for (int j = 0; j < n; j++)
            for (int t = 0; t < T; t++) {
                if (j > 0 && gsl_rng_uniform(rng) < 0.2)
                    p[j][t] = p[j - 1][t]; /* ties */
                else if (integral)
                    p[j][t] = 1 + (double)gsl_rng_uniform_int(rng, 20);
                else
                    p[j][t] = 10 * pow(10.0, 4 * gsl_rng_uniform(rng));
                if (t > 0 && gsl_rng_uniform(rng) < 0.15)
                    p[j][t] = INFINITY; /* cannot run there (type 0 always can) */
            }
        for (int j = 0; j < n; j++)
            for (int s = 0; s < n_slots; s++)
                cost[j * n_slots + s] = slot_level[s] * p[j][slot_type[s]];
        char err[256];
        ck_assert_int_eq(gl_assign(n, n_slots, cost, cap, a, err, sizeof err), 0);
        ck_assert_int_eq(gl_assign_flow(n, n_slots, cost, cap, NULL, b, err, sizeof err), 0);
        /* from a sparse random seed (often without a feasible flow): LP pricing
         * must add what the optimum needs, to the same cost */
        unsigned char *seed = malloc((size_t)n * n_slots);
        for (int k = 0; k < n * n_slots; k++)
            seed[k] = gsl_rng_uniform(rng) < 0.2;
        int seeded[60];
        ck_assert_int_eq(gl_assign_flow(n, n_slots, cost, cap, seed, seeded, err, sizeof err), 0);
        double cs = assign_cost(n, n_slots, cost, cap, seeded);
        free(seed);
        double ca = assign_cost(n, n_slots, cost, cap, a),
               cb = assign_cost(n, n_slots, cost, cap, b);
        ck_assert_msg(cs >= 0 && fabs(cs - cb) <= 1e-9 * cb + gl_assign_bound(n, n_slots, cost),
                      "iter %d: seeded %.9g, all arcs %.9g", iter, cs, cb);
        double bound = gl_assign_bound(n, n_slots, cost);
        ck_assert(ca >= 0 && cb >= 0);
        ck_assert_msg(cb <= ca + bound + 1e-9 * ca, "iter %d: flow %.9g simplex %.9g bound %g",
                      iter, cb, ca, bound);
        ck_assert_msg(cb >= ca - 1e-9 * ca, "iter %d: flow %.9g below the optimum %.9g", iter, cb,
                      ca);
        if (integral)
            ck_assert_msg(fabs(cb - ca) <= 1e-9 * ca, "iter %d: %.9g vs %.9g", iter, cb, ca);
        free(cost);
    }
    gsl_rng_free(rng);
}
END_TEST

/* A random single-job LP of n jobs (ids from id0 on) for the warm-start test. */
typedef struct rand_lp {
    gl_row_t rows[40];
    double rate[40 * 3 * 2], cap[3], w[40];
    int64_t id[40];
    gl_lp_t lp;
} rand_lp_t;

static void rand_job(gsl_rng *rng, rand_lp_t *r, int j, int T, int64_t id)
{
    r->rows[j] = (gl_row_t){{j, -1}, 1 + (int)gsl_rng_uniform_int(rng, 2)};
    double sum = 0;
    for (int t = 0; t < T; t++) {
        double v = t > 0 && gsl_rng_uniform(rng) < 0.2 ? 0 : 0.2 + 3 * gsl_rng_uniform(rng);
        r->rate[(j * T + t) * 2] = v;
        r->rate[(j * T + t) * 2 + 1] = 0;
        sum += v;
    }
    r->w[j] = 1.0 / sum;
    r->id[j] = id;
}

/* Whether x obeys the base constraints (within X's rounding to 1e-6). */
static int lp_feasible(const gl_lp_t *lp, const double *x)
{
    double used[3] = {0};
    for (int r = 0; r < lp->n_rows; r++) {
        double share = 0;
        for (int t = 0; t < lp->n_types; t++) {
            share += x[r * lp->n_types + t];
            used[t] += lp->rows[r].gpus * x[r * lp->n_types + t];
        }
        if (share > 1 + 1e-5)
            return 0;
    }
    for (int t = 0; t < lp->n_types; t++)
        if (used[t] > lp->cap[t] + 2e-6 * lp->n_rows) /* X is rounded to 1e-6 */
            return 0;
    return 1;
}

START_TEST(lp_warm_start_same_optimum)
{
    /* Random LPs solved once (filling the basis memo), then with two jobs
     * gone and two new ones: the warm solve (from the memo's basis) must be
     * feasible and reach the cold solve's optimum for max-min (its level and
     * its phase-2 total), makespan and max-sum, to GLPK's tolerances and
     * the 1e-6 rounding of X. */
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 5);
    for (int iter = 0; iter < 60; iter++) {
        int n = 6 + (int)gsl_rng_uniform_int(rng, 30), T = 1 + (int)gsl_rng_uniform_int(rng, 3);
        int kind = iter % 3;
        rand_lp_t a, b;
        for (int t = 0; t < T; t++)
            a.cap[t] = b.cap[t] = 1 + (double)gsl_rng_uniform_int(rng, n / 2);
        for (int j = 0; j < n; j++)
            rand_job(rng, &a, j, T, j);
        /* b: a without jobs 1 and n/2, plus two new ones */
        int m = 0;
        for (int j = 0; j < n; j++)
            if (j != 1 && j != n / 2) {
                b.rows[m] = (gl_row_t){{m, -1}, a.rows[j].gpus};
                memcpy(&b.rate[m * T * 2], &a.rate[j * T * 2], (size_t)T * 2 * sizeof(double));
                b.w[m] = a.w[j], b.id[m] = a.id[j];
                m++;
            }
        rand_job(rng, &b, m, T, 100 + iter), m++;
        rand_job(rng, &b, m, T, 200 + iter), m++;
        gl_warm_t *memo = gl_warm_create();
        a.lp = (gl_lp_t){n, T, n, a.rows, a.rate, a.cap, a.id, memo};
        gl_lp_t warm = {m, T, m, b.rows, b.rate, b.cap, b.id, memo};
        gl_lp_t cold = {m, T, m, b.rows, b.rate, b.cap, NULL, NULL};
        double xa[40 * 3], xw[40 * 3], xc[40 * 3], ew[40], ec[40], Tw = 0, Tc = 0;
        char err[256];
        const double *R = b.w; /* makespan: any positive remaining work */
        if (kind == 0) {
            ck_assert_int_eq(gl_max_min(&a.lp, a.w, xa, err, sizeof err), 0);
            ck_assert_int_eq(gl_max_min(&warm, b.w, xw, err, sizeof err), 0);
            ck_assert_int_eq(gl_max_min(&cold, b.w, xc, err, sizeof err), 0);
        } else if (kind == 1) {
            ck_assert_int_eq(gl_min_makespan(&a.lp, a.w, xa, &Tw, err, sizeof err), 0);
            ck_assert_int_eq(gl_min_makespan(&warm, R, xw, &Tw, err, sizeof err), 0);
            ck_assert_int_eq(gl_min_makespan(&cold, R, xc, &Tc, err, sizeof err), 0);
            ck_assert_msg(fabs(Tw - Tc) <= 1e-6 * Tc, "iter %d: T %g vs %g", iter, Tw, Tc);
        } else {
            ck_assert_int_eq(gl_max_sum(&a.lp, a.w, xa, err, sizeof err), 0);
            ck_assert_int_eq(gl_max_sum(&warm, b.w, xw, err, sizeof err), 0);
            ck_assert_int_eq(gl_max_sum(&cold, b.w, xc, err, sizeof err), 0);
        }
        ck_assert_msg(lp_feasible(&warm, xw), "iter %d kind %d: warm X infeasible (cold %d)", iter,
                      kind, lp_feasible(&cold, xc));
        gl_effective(&warm, xw, ew);
        gl_effective(&cold, xc, ec);
        double lw = INFINITY, lc = INFINITY, sw = 0, sc = 0;
        for (int j = 0; j < m; j++) {
            lw = fmin(lw, b.w[j] * ew[j]), lc = fmin(lc, b.w[j] * ec[j]);
            sw += b.w[j] * ew[j], sc += b.w[j] * ec[j];
        }
        if (kind == 0)
            ck_assert_msg(fabs(lw - lc) <= 1e-4 * (1 + lc), "iter %d: level %g vs %g", iter, lw,
                          lc);
        if (kind != 1)
            ck_assert_msg(fabs(sw - sc) <= 1e-4 * (1 + sc), "iter %d: total %g vs %g", iter, sw,
                          sc);
        ck_assert_int_eq(gl_warm_applied(memo), 1); /* the warm solve started from it */
        gl_warm_free(memo);
    }
    gsl_rng_free(rng);
}
END_TEST

START_TEST(lp_needs_certificates_are_sound)
{
    /* Random single-job LPs (2-8 jobs, 1-3 types, some rates 0) and needed
     * rates: the max-min LP with weights 1 / need gives the largest level z
     * with eff_j >= z * need_j for all j, so the needs are feasible iff
     * z >= 1. "Infeasible" must never be certified for z >= 1, nor "feasible"
     * for z < 1; each should be for most clear cases (z < 0.9, z > 1.1). */
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 11);
    int clear = 0, caught = 0, clear_ok = 0, caught_ok = 0;
    for (int iter = 0; iter < 400; iter++) {
        int n = 2 + (int)gsl_rng_uniform_int(rng, 7), T = 1 + (int)gsl_rng_uniform_int(rng, 3);
        gl_row_t rows[8];
        double r2[8 * 3 * 2] = {0}, cap[3], need[8], w[8], x[8 * 3], eff[8];
        char err[256];
        for (int t = 0; t < T; t++)
            cap[t] = 1 + (double)gsl_rng_uniform_int(rng, 4);
        for (int j = 0; j < n; j++) {
            rows[j] = (gl_row_t){{j, -1}, 1 + (int)gsl_rng_uniform_int(rng, 2)};
            for (int t = 0; t < T; t++)
                r2[(j * T + t) * 2] = t > 0 && gsl_rng_uniform(rng) < 0.2
                                          ? 0
                                          : 0.5 + 3 * gsl_rng_uniform(rng);
            need[j] = gsl_rng_uniform(rng) < 0.1 ? 0 : 0.05 + 1.5 * gsl_rng_uniform(rng);
            w[j] = need[j] > 0 ? 1 / need[j] : 0;
        }
        gl_lp_t lp = {.n_jobs = n, .n_types = T, .n_rows = n, .rows = rows, .rate = r2, .cap = cap};
        ck_assert_int_eq(gl_max_min(&lp, w, x, err, sizeof err), 0);
        gl_effective(&lp, x, eff);
        double z = INFINITY;
        for (int j = 0; j < n; j++)
            if (need[j] > 0)
                z = fmin(z, eff[j] / need[j]);
        int cert = gl_certify_needs(&lp, need);
        ck_assert_msg(cert != GL_NEEDS_INFEASIBLE || z < 1 - 1e-6,
                      "instance %d: certified infeasible at z = %g", iter, z);
        ck_assert_msg(cert != GL_NEEDS_FEASIBLE || z >= 1 + 1e-6,
                      "instance %d: certified feasible at z = %g", iter, z);
        if (z < 0.9) {
            clear++;
            caught += cert == GL_NEEDS_INFEASIBLE;
        }
        if (z > 1.1) {
            clear_ok++;
            caught_ok += cert == GL_NEEDS_FEASIBLE;
        }
    }
    ck_assert_int_ge(clear, 50);
    ck_assert_int_ge(clear_ok, 50);
    ck_assert_msg(caught >= 0.8 * clear, "caught %d of %d infeasible", caught, clear);
    ck_assert_msg(caught_ok >= 0.8 * clear_ok, "caught %d of %d feasible", caught_ok, clear_ok);
    gsl_rng_free(rng);
}
END_TEST

/* ---- a view for the policies -------------------------------------------- */

typedef struct fx {
    view_gpu_type_t types[MAXT];
    view_node_t nodes[MAXT];
    view_job_t jobs[MAXJ];
    int holder[16];
    double rate[MAXJ][MAXT]; /* per GPU, by workload index */
    view_perf_t perf;
    view_t v;
} fx_t;

static double fx_tput(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch)
{
    (void)nodes, (void)batch;
    const fx_t *f = ctx;
    return f->rate[j->workload][type] * gpus;
}

/* n_types types of gpus[t] GPUs, one node each. */
static void fx_init(fx_t *f, int n_types, const int *gpus)
{
    static const char *const names[] = {"t0", "t1"};
    memset(f, 0, sizeof *f);
    int id = 0;
    for (int t = 0; t < n_types; t++) {
        f->types[t] = (view_gpu_type_t){names[t], gpus[t], gpus[t], 16.0};
        f->nodes[t] = (view_node_t){.type = t, .gpus = gpus[t], .first_gpu = id, .rack = 0, .up = 1};
        id += gpus[t];
    }
    for (int i = 0; i < 16; i++)
        f->holder[i] = -1;
    f->perf = (view_perf_t){.ctx = f, .throughput = fx_tput};
    f->v = (view_t){.round_len = 360, .n_types = n_types, .types = f->types,
                    .n_nodes = n_types, .nodes = f->nodes, .n_gpus = id,
                    .gpu_holder = f->holder, .jobs = f->jobs, .perf = &f->perf};
}

static int fx_job(fx_t *f, int gpus, double work, double r0, double r1)
{
    int j = f->v.n_jobs++;
    f->jobs[j] = (view_job_t){.id = 10 + j, .workload = j, .submit = j, .priority = 1,
                              .deadline = INFINITY, .duration_estimate = NAN,
                              .gpus_requested = gpus, .min_gpus = gpus, .max_gpus = gpus,
                              .cur_type = -1, .first_start = NAN, .last_start = NAN,
                              .throughput = NAN, .total_work = work, .remaining_work = work};
    f->rate[j][0] = r0;
    f->rate[j][1] = r1;
    return j;
}

/* Makes the view show plan p as running (what the mechanism would do). */
static void fx_apply(fx_t *f, const plan_t *p)
{
    for (int j = 0; j < f->v.n_jobs; j++) {
        int k = plan_find(p, j);
        f->jobs[j].state = k >= 0 ? VIEW_RUNNING : VIEW_QUEUED;
        f->jobs[j].cur_type = k >= 0 ? p->allocs[k].type : -1;
        f->jobs[j].cur_gpus = k >= 0 ? p->allocs[k].gpus : 0;
    }
}

static int type_of(const plan_t *p, int j)
{
    int k = plan_find(p, j);
    return k < 0 ? -1 : p->allocs[k].type;
}

START_TEST(round_alternates_by_priority)
{
    /* The hand-solved max-min case above: X = 1/2 everywhere. Round 1: every
     * priority is new (X * 1e9), t0 (the faster type) is filled first, A
     * (earlier) takes it, B gets t1. Round 2: A has received its share of t0
     * (priority X / 1 = 0.5) but none of t1 (0.5e9), B the reverse: they swap. */
    fx_t f;
    const int gpus[2] = {1, 1};
    fx_init(&f, 2, gpus);
    int A = fx_job(&f, 1, 1e6, 4, 1), B = fx_job(&f, 1, 1e6, 2, 1);
    const policy_ops_t *ops = policy_find("max-min-fairness-perf");
    ck_assert_ptr_nonnull(ops);
    void *st;
    char err[256];
    ck_assert_int_eq(ops->create(&st, NULL, err, sizeof err), 0);
    plan_t p;
    plan_init(&p);
    ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
    const gr_state_t *rs = gavel_round_state(st);
    ck_assert_double_eq_tol(gr_priority(rs, 10, 0), 0.5 * GR_NEW_PRIORITY, 1);
    ck_assert_int_eq(type_of(&p, A), 0);
    ck_assert_int_eq(type_of(&p, B), 1);
    fx_apply(&f, &p);
    f.v.now = 360;
    plan_clear(&p);
    ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
    ck_assert_double_eq_tol(gr_received(rs, 10, 0), 360, EPS);
    ck_assert_double_eq_tol(gr_priority(rs, 10, 0), 0.5, EPS);
    ck_assert_double_eq_tol(gr_priority(rs, 10, 1), 0.5 * GR_NEW_PRIORITY, 1);
    ck_assert_int_eq(type_of(&p, A), 1);
    ck_assert_int_eq(type_of(&p, B), 0);
    plan_free(&p);
    ops->destroy(st);
}
END_TEST

START_TEST(round_lease_extension_lists_kept_jobs_first)
{
    /* One type of 4 GPUs: A (1 GPU) runs there, B (2 GPUs) waits. Both fit
     * and run; A keeps its type and count, so it is listed first (the
     * mechanism keeps it in place) although B is larger. */
    fx_t f;
    const int gpus[1] = {4};
    fx_init(&f, 1, gpus);
    int A = fx_job(&f, 1, 1e6, 1, 0), B = fx_job(&f, 2, 1e6, 1, 0);
    f.jobs[A].state = VIEW_RUNNING;
    f.jobs[A].cur_type = 0;
    f.jobs[A].cur_gpus = 1;
    const policy_ops_t *ops = policy_find("max-min-fairness");
    void *st;
    char err[256];
    ck_assert_int_eq(ops->create(&st, NULL, err, sizeof err), 0);
    plan_t p;
    plan_init(&p);
    ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
    ck_assert_int_eq(p.n, 2);
    ck_assert_int_eq(p.allocs[0].job, A);
    ck_assert_int_eq(p.allocs[1].job, B);
    plan_free(&p);
    ops->destroy(st);
}
END_TEST

START_TEST(round_recompute_waits_for_interval)
{
    /* A job arriving before recompute_interval has passed gets no allocation
     * row yet (it may only take leftover GPUs, priority 0). */
    fx_t f;
    const int gpus[1] = {1};
    fx_init(&f, 1, gpus);
    fx_job(&f, 1, 1e6, 1, 0);
    const policy_ops_t *ops = policy_find("max-min-fairness");
    const char *k[] = {"recompute_interval"}, *val[] = {"1000"};
    policy_args_t args = {1, k, val, 0, NULL};
    void *st;
    char err[256];
    ck_assert_int_eq(ops->create(&st, &args, err, sizeof err), 0);
    plan_t p;
    plan_init(&p);
    ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
    fx_apply(&f, &p);
    fx_job(&f, 1, 1e6, 1, 0);
    f.v.now = 360;
    plan_clear(&p);
    ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
    const gr_state_t *rs = gavel_round_state(st);
    ck_assert(isnan(gr_priority(rs, 11, 0))); /* no row yet */
    ck_assert_int_eq(type_of(&p, 0), 0);
    f.v.now = 1080;
    plan_clear(&p);
    ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
    ck_assert(!isnan(gr_priority(rs, 11, 0))); /* recomputed: both new, */
    ck_assert_int_eq(type_of(&p, 0), 0);       /* the earlier first */
    fx_apply(&f, &p);
    f.v.now = 1440;
    plan_clear(&p);
    ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
    ck_assert_int_eq(type_of(&p, 1), 0); /* then the new job's turn */
    plan_free(&p);
    ops->destroy(st);
}
END_TEST

/* One AlloX decision with alpha. */
static void allox_once(fx_t *f, const char *alpha, const char *solver, plan_t *p)
{
    const policy_ops_t *ops = policy_find("allox");
    ck_assert_ptr_nonnull(ops);
    const char *k[] = {"alpha", "solver"}, *val[] = {alpha, solver};
    policy_args_t args = {2, k, val, 0, NULL};
    void *st;
    char err[256];
    ck_assert_int_eq(ops->create(&st, &args, err, sizeof err), 0);
    plan_clear(p);
    ck_assert_int_eq(ops->schedule(st, &f->v, p, err, sizeof err), 0);
    ops->destroy(st);
}

START_TEST(allox_matching_hand_solved)
{
    /* t0 rate 2, t1 rate 0.9; A, B, C with 4, 2, 1 units left. Enumerating
     * the schedules, the least total completion time (5.11) is t0: B then A,
     * t1: C. alpha = 1 matches all three: B starts on t0, C on t1, A waits.
     * alpha = 0 matches only the two longest-waiting (A, B): both go to t0
     * (B then A, 1 + 3 = 4 beats A on t0 and B on t1, 2 + 2.22), so B runs
     * on t0 and t1 stays idle. */
    fx_t f;
    const int gpus[2] = {1, 1};
    fx_init(&f, 2, gpus);
    int A = fx_job(&f, 1, 4, 2, 0.9), B = fx_job(&f, 1, 2, 2, 0.9), C = fx_job(&f, 1, 1, 2, 0.9);
    plan_t p;
    plan_init(&p);
    for (int simplex = 0; simplex < 2; simplex++) { /* both solvers */
        const char *solver = simplex ? "simplex" : "flow";
        allox_once(&f, "1", solver, &p);
        ck_assert_int_eq(type_of(&p, A), -1);
        ck_assert_int_eq(type_of(&p, B), 0);
        ck_assert_int_eq(type_of(&p, C), 1);
        allox_once(&f, "0", solver, &p);
        ck_assert_int_eq(p.n, 1);
        ck_assert_int_eq(type_of(&p, B), 0);
    }
    plan_free(&p);
}
END_TEST

START_TEST(allox_gavel_mechanism_preempts)
{
    /* One type of 2 GPUs. B (2 GPUs) alone gets allocation 1/2 and runs. A
     * (1 GPU) arrives: under mechanism=gavel the matching counts both GPUs
     * as free (B's allocation is not whole), both are first on a GPU, A gets
     * allocation 1 and a new row's huge priority beats B's 1/2 x 1e9: A runs
     * and B, which no longer fits, is preempted (as in Gavel's and
     * Shockwave's simulators). AlloX's own mechanism keeps B running. */
    for (int gavel = 0; gavel < 2; gavel++) {
        fx_t f;
        const int gpus[1] = {2};
        fx_init(&f, 1, gpus);
        int B = fx_job(&f, 2, 100, 1, 0);
        const policy_ops_t *ops = policy_find("allox");
        const char *k[] = {"mechanism", "recompute_interval"}, *val[] = {"gavel", "0"};
        policy_args_t args = {gavel ? 2 : 0, k, val, 0, NULL};
        void *st;
        char err[256];
        ck_assert_int_eq(ops->create(&st, &args, err, sizeof err), 0);
        plan_t p;
        plan_init(&p);
        ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
        ck_assert_int_eq(type_of(&p, B), 0);
        fx_apply(&f, &p);
        int A = fx_job(&f, 1, 10, 1, 0);
        f.v.now = 120;
        plan_clear(&p);
        ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
        ck_assert_int_eq(type_of(&p, A), gavel ? 0 : -1);
        ck_assert_int_eq(type_of(&p, B), gavel ? -1 : 0);
        plan_free(&p);
        ops->destroy(st);
    }
}
END_TEST

START_TEST(round_recompute_on_batch_change)
{
    /* The same jobs after the interval: no recompute (received time goes on
     * accumulating); once a job changed its batch, the next call after the
     * interval recomputes (received time starts over). */
    fx_t f;
    const int gpus[1] = {1};
    fx_init(&f, 1, gpus);
    fx_job(&f, 1, 1e6, 1, 0);
    const policy_ops_t *ops = policy_find("max-min-fairness");
    const char *k[] = {"recompute_interval"}, *val[] = {"1000"};
    policy_args_t args = {1, k, val, 0, NULL};
    void *st;
    char err[256];
    ck_assert_int_eq(ops->create(&st, &args, err, sizeof err), 0);
    plan_t p;
    plan_init(&p);
    ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
    fx_apply(&f, &p);
    const gr_state_t *rs = gavel_round_state(st);
    f.v.now = 1080;
    plan_clear(&p);
    ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
    ck_assert_double_eq_tol(gr_received(rs, 10, 0), 1080, EPS);
    f.jobs[0].batch_changes = 1;
    f.v.now = 1440;
    plan_clear(&p);
    ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
    ck_assert_double_eq_tol(gr_received(rs, 10, 0), 0, EPS);
    f.v.now = 1800; /* 360 s after that recompute: too soon for another */
    f.jobs[0].batch_changes = 2;
    plan_clear(&p);
    ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
    ck_assert_double_eq_tol(gr_received(rs, 10, 0), 360, EPS);
    plan_free(&p);
    ops->destroy(st);
}
END_TEST

START_TEST(round_new_jobs_wait)
{
    /* Two GPUs, A allocated at t = 0; B arrives before the next recompute
     * may happen. By default B takes the idle GPU at priority 0; with
     * new_jobs=wait (Gavel's and Shockwave's placement) it waits, the GPU
     * idles, and B runs once the allocation is recomputed. */
    for (int wait = 0; wait < 2; wait++) {
        fx_t f;
        const int gpus[1] = {2};
        fx_init(&f, 1, gpus);
        int A = fx_job(&f, 1, 1e6, 1, 0);
        const policy_ops_t *ops = policy_find("max-min-fairness");
        const char *k[] = {"recompute_interval", "new_jobs"}, *val[] = {"1000", "wait"};
        policy_args_t args = {wait ? 2 : 1, k, val, 0, NULL};
        void *st;
        char err[256];
        ck_assert_int_eq(ops->create(&st, &args, err, sizeof err), 0);
        plan_t p;
        plan_init(&p);
        ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
        fx_apply(&f, &p);
        int B = fx_job(&f, 1, 1e6, 1, 0);
        f.v.now = 360;
        plan_clear(&p);
        ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
        ck_assert_int_eq(type_of(&p, A), 0);
        ck_assert_int_eq(type_of(&p, B), wait ? -1 : 0);
        fx_apply(&f, &p);
        f.v.now = 1080;
        plan_clear(&p);
        ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
        ck_assert_int_eq(type_of(&p, B), 0);
        plan_free(&p);
        ops->destroy(st);
    }
}
END_TEST

START_TEST(round_received_start_half_round)
{
    /* One GPU; min-total-duration gives A (900 units left, rate 1) 0.9 and B
     * (100) 0.1. Round 1: A first either way. Round 2: by default B has
     * received nothing and its 0.1 x 1e9 wins; with received_start=half_round
     * (Gavel's code) A's 0.9 / (360 + 180) beats B's 0.1 / (0 + 180). */
    for (int half = 0; half < 2; half++) {
        fx_t f;
        const int gpus[1] = {1};
        fx_init(&f, 1, gpus);
        int A = fx_job(&f, 1, 900, 1, 0), B = fx_job(&f, 1, 100, 1, 0);
        const policy_ops_t *ops = policy_find("min-total-duration");
        const char *k[] = {"received_start"}, *val[] = {"half_round"};
        policy_args_t args = {half, k, val, 0, NULL};
        void *st;
        char err[256];
        ck_assert_int_eq(ops->create(&st, &args, err, sizeof err), 0);
        plan_t p;
        plan_init(&p);
        ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
        ck_assert_int_eq(type_of(&p, A), 0);
        const gr_state_t *rs = gavel_round_state(st);
        if (half)
            ck_assert_double_eq_tol(gr_priority(rs, 11, 0), 0.1 / 180, 1e-9);
        fx_apply(&f, &p);
        f.v.now = 360;
        plan_clear(&p);
        ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
        ck_assert_int_eq(type_of(&p, A), half ? 0 : -1);
        ck_assert_int_eq(type_of(&p, B), half ? -1 : 0);
        plan_free(&p);
        ops->destroy(st);
    }
}
END_TEST

START_TEST(policies_run_every_lp)
{
    /* Every LP policy decides on a small mixed case without error and fills
     * both GPUs (work-conserving on the first round). */
    static const char *const names[] = {"max-min-fairness", "max-min-fairness-perf",
                                        "max-min-fairness-packed", "finish-time-fairness",
                                        "min-total-duration", "max-sum-throughput-perf",
                                        "fifo-perf"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        fx_t f;
        const int gpus[2] = {1, 1};
        fx_init(&f, 2, gpus);
        fx_job(&f, 1, 100, 4, 1);
        fx_job(&f, 1, 50, 2, 1);
        fx_job(&f, 1, 10, 1, 1);
        const policy_ops_t *ops = policy_find(names[i]);
        ck_assert_msg(ops != NULL, "%s not registered", names[i]);
        void *st;
        char err[256] = "";
        ck_assert_int_eq(ops->create(&st, NULL, err, sizeof err), 0);
        plan_t p;
        plan_init(&p);
        ck_assert_msg(ops->schedule(st, &f.v, &p, err, sizeof err) == 0, "%s: %s", names[i], err);
        ck_assert_msg(p.n == 2, "%s ran %d jobs", names[i], p.n);
        plan_free(&p);
        ops->destroy(st);
    }
}
END_TEST

static int create_fails(const char *policy, const char *key, const char *value)
{
    const policy_ops_t *ops = policy_find(policy);
    const char *k[] = {key}, *val[] = {value};
    policy_args_t args = {1, k, val, 0, NULL};
    void *st = NULL;
    char err[256] = "";
    int rc = ops->create(&st, &args, err, sizeof err);
    if (rc == 0)
        ops->destroy(st);
    return rc != 0 && err[0];
}

START_TEST(bad_params_rejected)
{
    ck_assert(create_fails("max-min-fairness", "recompute_interval", "-1"));
    ck_assert(create_fails("max-min-fairness", "recompute_interval", "soon"));
    ck_assert(create_fails("max-min-fairness-packed", "pair_candidates", "-3"));
    ck_assert(create_fails("max-min-fairness", "warm_start", "2"));
    ck_assert(!create_fails("min-total-duration", "warm_start", "1"));
    ck_assert(create_fails("finish-time-fairness", "alpha", "0.2"));
    ck_assert(create_fails("allox", "alpha", "1.5"));
    ck_assert(create_fails("allox", "alpha", "nan"));
    ck_assert(create_fails("allox", "recompute_interval", "10")); /* needs mechanism=gavel */
    ck_assert(create_fails("allox", "mechanism", "lottery"));
    ck_assert(create_fails("allox", "new_jobs", "wait")); /* needs mechanism=gavel */
    ck_assert(create_fails("max-min-fairness", "new_jobs", "soon"));
    ck_assert(create_fails("max-min-fairness", "received_start", "one"));
    ck_assert(create_fails("allox", "received_start", "half_round")); /* mechanism=gavel */
    ck_assert(!create_fails("allox", "alpha", "0.5"));
    ck_assert(create_fails("allox", "solver", "hungarian"));
    ck_assert(!create_fails("allox", "solver", "simplex"));
    ck_assert(create_fails("max-min-fairness", "rules", "python"));
    ck_assert(!create_fails("max-min-fairness", "rules", "gavel"));
    ck_assert(create_fails("allox", "rules", "gavel")); /* mechanism=gavel */
    ck_assert(create_fails("isolated", "mechanism", "slurm"));
    ck_assert(!create_fails("isolated", "mechanism", "gavel"));
    ck_assert(create_fails("isolated", "new_jobs", "wait")); /* mechanism=gavel */
    ck_assert(!create_fails("gandiva", "mechanism", "gavel"));
    ck_assert(create_fails("gandiva", "rules", "gavel")); /* mechanism=gavel */
    ck_assert(!create_fails("fifo-packed", "rules", "gavel"));
    ck_assert(!create_fails("min-total-duration", "bisect", "1"));
    ck_assert(create_fails("min-total-duration", "bisect", "2"));
    ck_assert(create_fails("max-min-fairness", "bisect", "1")); /* min-total-duration's */
    ck_assert(!create_fails("gandiva-fair", "mechanism", "gavel"));
    ck_assert(create_fails("gandiva-fair", "rules", "gavel"));  /* mechanism=gavel */
    ck_assert(create_fails("gandiva-fair", "mechanism", "own2"));
}
END_TEST

/* bisect=1 (gavel_center.c): Gavel's bisection keeps the first T of its
 * halvings of [100, 1e6] at or above T* once the bounds are within 5 %, and
 * the allocation is the analytic centre: every job above R/T, the capacity
 * row slack, and the centring condition holds. */
START_TEST(lp_min_makespan_bisect_center)
{
    double T = gl_gavel_bisect_T(1000.0);
    ck_assert(T >= 1000.0 && T <= 1000.0 * 1.06);
    ck_assert_double_eq_tol(gl_gavel_bisect_T(1000.0), T, 1e-9); /* deterministic */
    double T2 = gl_gavel_bisect_T(3e6); /* beyond 1e6: widened to [1e6, 1e7] */
    ck_assert(T2 >= 3e6 && T2 <= 3e6 * 1.06);
    /* three jobs on one type of 4 GPUs: rates 1, 2, 1; GPUs 1, 2, 1; work 100, 100, 50 */
    const double rate[3][MAXT] = {{1}, {2}, {1}}, cap[1] = {4}, R[3] = {100, 100, 50};
    gl_row_t rows[3];
    double r2[6], x[3], Ts;
    char err[256];
    gl_lp_t lp = singles(3, 1, rate, cap, rows, r2);
    rows[1].gpus = 2;
    ck_assert_int_eq(gl_min_makespan(&lp, R, x, &Ts, err, sizeof err), 0);
    double Tb = gl_gavel_bisect_T(Ts);
    ck_assert_int_eq(gl_center_single(&lp, R, Tb, x), 0);
    const double g[3] = {1, 2, 1};
    double used = 0;
    for (int j = 0; j < 3; j++) {
        ck_assert(x[j] * rate[j][0] >= R[j] / Tb && x[j] < 1);
        used += g[j] * x[j];
    }
    ck_assert(used < cap[0]);
    double lambda = 1 / (cap[0] - used);
    for (int j = 0; j < 3; j++) {
        double lo = R[j] / (Tb * rate[j][0]);
        double f = 1 / x[j] + 1 / (x[j] - lo) - 1 / (1 - x[j]) - g[j] * lambda;
        ck_assert_double_le(fabs(f), 1e-6 * (1 / x[j] + 1 / (x[j] - lo)));
    }
    ck_assert_int_eq(gl_center_single(&lp, R, Ts * 0.9, x), -1); /* infeasible T */
}
END_TEST

/* pyrandom.h gives CPython's draws: random.Random(s).randrange(n) for n =
 * 3, 6, 9, 3, ... and then shuffle([0, 1, 2]), as python3 prints them. */
START_TEST(python_random_as_cpython)
{
    static const uint64_t seeds[] = {0, 5, 1, 123456789};
    static const unsigned want[4][11] = {{1, 3, 0, 1, 4, 7, 1, 2, 0, 2, 1},
                                         {2, 2, 5, 2, 5, 8, 0, 3, 1, 2, 0},
                                         {0, 4, 1, 1, 0, 7, 1, 3, 0, 1, 2},
                                         {2, 3, 8, 2, 4, 6, 1, 5, 0, 2, 1}};
    pyrandom_t r;
    for (int s = 0; s < 4; s++) {
        pyrandom_seed(&r, seeds[s]);
        for (int i = 0; i < 8; i++)
            ck_assert_uint_eq(pyrandom_below(&r, (uint32_t)(i % 3 + 1) * 3), want[s][i]);
        int x[3] = {0, 1, 2};
        pyrandom_shuffle(&r, x, 3);
        for (int i = 0; i < 3; i++)
            ck_assert_int_eq(x[i], (int)want[s][8 + i]);
    }
    pyrandom_seed(&r, 5000000000ull); /* two 32-bit words: getrandbits(32) */
    ck_assert_uint_eq(pyrandom_u32(&r), 372202282u);
}
END_TEST

/* pyrandom_sample2 is CPython 3.11's random.Random(0).sample(range(n), 2),
 * four times each for n = 5, 30 (its set branch) and 3, in that order. */
START_TEST(python_sample_as_cpython)
{
    static const int n[3] = {5, 30, 3};
    static const int want[3][4][2] = {{{3, 4}, {0, 2}, {4, 3}, {3, 2}},
                                      {{15, 11}, {18, 28}, {29, 6}, {16, 4}},
                                      {{1, 0}, {0, 1}, {2, 0}, {1, 0}}};
    pyrandom_t r;
    pyrandom_seed(&r, 0);
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 4; i++) {
            int d[2];
            pyrandom_sample2(&r, n[k], d);
            ck_assert_int_eq(d[0], want[k][i][0]);
            ck_assert_int_eq(d[1], want[k][i][1]);
        }
}
END_TEST

int main(void)
{
#ifndef HAVE_GLPK
    puts("test_gavel: SKIP: built without GLPK (libglpk-dev)");
    return 77;
#endif
    const TTest *const tests[] = {
        lp_max_min_perf_hand_solved,
        lp_min_makespan_hand_solved,
        lp_min_makespan_bisect_center,
        lp_max_sum_hand_solved,
        lp_ftf_bisection_hand_solved,
        lp_packed_prefers_a_good_pair,
        lp_assign_is_integral,
        lp_assign_flow_matches_simplex,
        lp_warm_start_same_optimum,
        lp_needs_certificates_are_sound,
        round_alternates_by_priority,
        round_lease_extension_lists_kept_jobs_first,
        round_recompute_waits_for_interval,
        allox_matching_hand_solved,
        allox_gavel_mechanism_preempts,
        round_recompute_on_batch_change,
        round_new_jobs_wait,
        round_received_start_half_round,
        policies_run_every_lp,
        bad_params_rejected,
        python_random_as_cpython,
        python_sample_as_cpython,
    };
    return check_main("gavel", tests, sizeof tests / sizeof tests[0]);
}
