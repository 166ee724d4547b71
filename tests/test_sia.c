/* test_sia.c: unit tests of the sia policy (policies/sia.c).
 *
 * The view is built by hand: Sia's own example cluster of §3.3, one node of
 * 2 GPUs of type A and one node of 4 GPUs of type B (configurations (1,1,A),
 * (1,2,A), (1,1,B), (1,2,B), (1,4,B)), jobs with an elastic range, and a fake
 * perf model whose goodput is a table per (job, type, GPU count), whatever
 * the batch. The brute force enumerates every assignment of a configuration
 * (or none) to each of 3 jobs and scores it with Sia's objective as the paper
 * writes it, independently of the policy's code. */
#include "policies/policies.h"
#include "policies/sia.h"

#include "tests/check_main.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXJ 4
#define NT 2
#define MAXG 6
#define NCFG 5

typedef struct fx {
    view_gpu_type_t types[NT];
    view_node_t nodes[2];
    view_job_t jobs[MAXJ];
    int holder[MAXG];
    int ids[MAXJ][MAXG];
    double curve[MAXJ][NT][MAXG + 1]; /* goodput of job j on k GPUs of type t */
    view_perf_t perf;
    view_t v;
} fx_t;

static const sia_config_t CFG[NCFG] = {{0, 1, 1}, {0, 1, 2}, {1, 1, 1}, {1, 1, 2}, {1, 1, 4}};

static double fx_goodput(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch,
                         int accum)
{
    (void)nodes, (void)batch, (void)accum;
    const fx_t *f = ctx;
    if (gpus < 1 || gpus > MAXG || type < 0 || type >= NT)
        return 0;
    return f->curve[j - f->jobs][type][gpus];
}

static double fx_tput(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch)
{
    return fx_goodput(ctx, j, type, gpus, nodes, batch, 0);
}

static int fx_limits(void *ctx, const view_job_t *j, int type, view_batch_limits_t *out)
{
    (void)ctx, (void)j, (void)type;
    *out = (view_batch_limits_t){32, 1024, 16, 64, 1000};
    return 0;
}

static void fx_init(fx_t *f)
{
    memset(f, 0, sizeof *f);
    f->types[0] = (view_gpu_type_t){"a", 2, 2, 16};
    f->types[1] = (view_gpu_type_t){"b", 4, 4, 16};
    f->nodes[0] = (view_node_t){0, 2, 0, 0, 1, 16, 128};
    f->nodes[1] = (view_node_t){1, 4, 2, 0, 1, 32, 256};
    for (int g = 0; g < MAXG; g++)
        f->holder[g] = -1;
    f->perf = (view_perf_t){.ctx = f,
                            .throughput = fx_tput,
                            .samples_throughput = fx_goodput,
                            .goodput = fx_goodput,
                            .batch_limits = fx_limits};
    f->v = (view_t){.now = 1e6,
                    .round_len = 60,
                    .seed = 1,
                    .n_types = NT,
                    .types = f->types,
                    .n_nodes = 2,
                    .nodes = f->nodes,
                    .n_gpus = MAXG,
                    .gpu_holder = f->holder,
                    .jobs = f->jobs,
                    .perf = &f->perf};
}

/* A queued elastic job (1..4 GPUs) that has run before (noise scale known). */
static int fx_job(fx_t *f)
{
    int j = f->v.n_jobs++;
    f->jobs[j] = (view_job_t){.id = 10 + j,
                              .submit = j,
                              .priority = 1,
                              .gpus_requested = 1,
                              .min_gpus = 1,
                              .max_gpus = 4,
                              .cur_type = -1,
                              .first_start = NAN,
                              .last_start = NAN,
                              .throughput = NAN,
                              .total_work = NAN,
                              .remaining_work = NAN,
                              .grad_noise_scale = 100,
                              .accum_steps = -1,
                              .epoch = NAN};
    return j;
}

static void fx_hold(fx_t *f, int j, int type, const int *ids, int n)
{
    view_job_t *jb = &f->jobs[j];
    jb->state = VIEW_RUNNING;
    jb->cur_type = type;
    jb->cur_gpus = n;
    jb->cur_nodes = 1;
    for (int i = 0; i < n; i++) {
        f->ids[j][i] = ids[i];
        f->holder[ids[i]] = j;
    }
    jb->cur_gpu_ids = f->ids[j];
}

static plan_t run_sia(const fx_t *f, const char *const *keys, const char *const *vals, int n)
{
    policy_args_t a = {n, keys, vals, 0, NULL};
    void *st = NULL;
    char err[256] = "";
    ck_assert_msg(sia_create(&st, &a, err, sizeof err) == 0, "%s", err);
    plan_t p;
    plan_init(&p);
    ck_assert_msg(sia_schedule(st, &f->v, &p, err, sizeof err) == 0, "%s", err);
    sia_destroy(st);
    return p;
}

/* The configuration index job j got in plan p (-1: none). */
static int plan_cfg(const plan_t *p, int j)
{
    int k = plan_find(p, j);
    if (k < 0)
        return -1;
    for (int c = 0; c < NCFG; c++)
        if (CFG[c].type == p->allocs[k].type && CFG[c].gpus == p->allocs[k].gpus)
            return c;
    ck_abort_msg("job %d got %d GPUs of type %d: not a configuration", j, p->allocs[k].gpus,
                 p->allocs[k].type);
    return -1;
}

/* Sia's objective by the paper: G = goodput / the row's smallest goodput,
 * p < 0: minimise sum G^p + lambda x (jobs left out), written here as
 * -(that). choice[j] = configuration or -1. */
static double paper_objective(const fx_t *f, const int *choice, double p, double lambda)
{
    double cost = 0;
    for (int j = 0; j < f->v.n_jobs; j++) {
        if (choice[j] < 0) {
            cost += lambda;
            continue;
        }
        double lo = INFINITY;
        for (int c = 0; c < NCFG; c++)
            lo = fmin(lo, f->curve[j][CFG[c].type][CFG[c].gpus]);
        cost += pow(f->curve[j][CFG[choice[j]].type][CFG[choice[j]].gpus] / lo, p);
    }
    return -cost;
}

/* Every assignment of 3 jobs to a configuration or none that fits; the best
 * objective, its assignment, and how many assignments reach it. */
static int brute_force(const fx_t *f, double p, double lambda, int *best, double *best_obj)
{
    int n_best = 0;
    *best_obj = -INFINITY;
    int ch[3];
    for (ch[0] = -1; ch[0] < NCFG; ch[0]++)
        for (ch[1] = -1; ch[1] < NCFG; ch[1]++)
            for (ch[2] = -1; ch[2] < NCFG; ch[2]++) {
                int used[NT] = {0, 0};
                for (int j = 0; j < 3; j++)
                    if (ch[j] >= 0)
                        used[CFG[ch[j]].type] += CFG[ch[j]].gpus;
                if (used[0] > 2 || used[1] > 4)
                    continue;
                double o = paper_objective(f, ch, p, lambda);
                if (o > *best_obj + 1e-12) {
                    *best_obj = o;
                    memcpy(best, ch, sizeof ch);
                    n_best = 1;
                } else if (fabs(o - *best_obj) <= 1e-12) {
                    n_best++;
                }
            }
    return n_best;
}

START_TEST(configs_of_the_papers_example)
{
    fx_t f;
    fx_init(&f);
    sia_config_t c[8];
    ck_assert_int_eq(sia_configs(&f.v, c, 8), NCFG);
    for (int k = 0; k < NCFG; k++) {
        ck_assert_int_eq(c[k].type, CFG[k].type);
        ck_assert_int_eq(c[k].nodes, CFG[k].nodes);
        ck_assert_int_eq(c[k].gpus, CFG[k].gpus);
    }
    /* 3 nodes of 8 GPUs: 1, 2, 4, 8 on one node, then 16, 24 */
    view_node_t n3[3] = {{0, 8, 0, 0, 1, 8, 64}, {0, 8, 8, 0, 1, 8, 64}, {0, 8, 16, 0, 0, 8, 64}};
    view_gpu_type_t t = {"rtx", 24, 24, 11};
    view_t v = {.n_types = 1, .types = &t, .n_nodes = 3, .nodes = n3};
    ck_assert_int_eq(sia_configs(&v, c, 8), 5); /* node 2 is down: 1, 2, 4, 8, 16 */
    ck_assert_int_eq(c[4].gpus, 16);
    ck_assert_int_eq(c[4].nodes, 2);
}
END_TEST

/* Sia's Table 1: maximising J1 + J2 picks J1 on (1,4,B) and J2 on (1,2,A). */
START_TEST(select_matches_papers_table_1)
{
    const double g[2 * NCFG] = {1, 1.5, 1.5, 2.5, 3.5, 1.2, 2.1, 1, 1.9, 3.6};
    int cap[NT] = {2, 4}, choice[2];
    char err[128];
    ck_assert_int_eq(sia_select(2, NCFG, g, CFG, NT, cap, NULL, 5, choice, err, sizeof err), 0);
    ck_assert_int_eq(choice[0], 4);
    ck_assert_int_eq(choice[1], 1);
    /* forcing J1 onto (1,2,A) moves J2 to (1,4,B) */
    int fixed[2] = {1, -1};
    ck_assert_int_eq(sia_select(2, NCFG, g, CFG, NT, cap, fixed, 5, choice, err, sizeof err), 0);
    ck_assert_int_eq(choice[0], 1);
    ck_assert_int_eq(choice[1], 4);
    /* a forced pair that does not fit is an error, not a trimmed plan */
    int cap1[NT] = {1, 4};
    ck_assert_int_eq(sia_select(2, NCFG, g, CFG, NT, cap1, fixed, 5, choice, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "restarting") != NULL, "%s", err);
}
END_TEST

START_TEST(utility_signs)
{
    ck_assert(fabs(sia_utility(4, -0.5, 1.1) - 0.6) < 1e-12);        /* 1.1 - 4^-0.5 */
    ck_assert(fabs(sia_utility(4, 0.5, 1.1) - 3.1) < 1e-12);         /* 1.1 + 4^0.5 */
    ck_assert(fabs(sia_utility(0, -0.5, 1.1) - (1.1 - 100)) < 1e-9); /* floor 1e-4 */
    ck_assert(fabs(sia_utility(1e-4, -2, 0) + 3000) < 1e-9);         /* clipped at 3000 */
    /* rounded as Sia's code: 1.9^-0.5 = 0.7255 -> 0.73; 0.125 -> 0.12 (half to even) */
    ck_assert(fabs(sia_utility_rounded(1.9, -0.5, 1.1, 2) - (1.1 - 0.73)) < 1e-12);
    ck_assert(fabs(sia_utility_rounded(64, -0.5, 1.1, 2) - (1.1 - 0.12)) < 1e-12);
    ck_assert(fabs(sia_utility_rounded(1.9, -0.5, 1.1, -1) - sia_utility(1.9, -0.5, 1.1)) == 0);
    ck_assert(fabs(sia_utility_rounded(1e-4, -2, 0, 2) + 3000) < 1e-9);
}
END_TEST

/* The policy on hand-made 3-job views agrees with the brute force: first a
 * case worked out by hand, then 60 seeded random goodput tables. */
static void set_curve(fx_t *f, int j, const double a[3], const double b[5])
{
    f->curve[j][0][1] = a[1];
    f->curve[j][0][2] = a[2];
    for (int k = 1; k <= 4; k++)
        f->curve[j][1][k] = b[k];
}

static void check_against_brute_force(const fx_t *f, const char *what)
{
    int best[3];
    double best_obj;
    int n_best = brute_force(f, -0.5, 1.1, best, &best_obj);
    /* the program itself: the brute force scores unrounded utilities */
    const char *keys[] = {"explore", "decimals"}, *vals[] = {"0", "-1"};
    plan_t p = run_sia(f, keys, vals, 2);
    int got[3];
    for (int j = 0; j < 3; j++)
        got[j] = plan_cfg(&p, j);
    double obj = paper_objective(f, got, -0.5, 1.1);
    ck_assert_msg(fabs(obj - best_obj) < 1e-9, "%s: objective %.9f, brute force %.9f", what, obj,
                  best_obj);
    if (n_best == 1)
        for (int j = 0; j < 3; j++)
            ck_assert_msg(got[j] == best[j], "%s: job %d got config %d, brute force %d", what, j,
                          got[j], best[j]);
    plan_free(&p);
}

START_TEST(policy_matches_brute_force)
{
    fx_t f;
    fx_init(&f);
    for (int j = 0; j < 3; j++)
        fx_job(&f);
    /* Job 0 scales well on B (4.3x its 1-GPU A rate on 4 B GPUs), job 1
     * gains little from more GPUs but is 2x faster on A, job 2 is in
     * between; 6 GPUs for 3 jobs, so some job is squeezed. */
    set_curve(&f, 0, (double[]){0, 1.0, 1.6}, (double[]){0, 1.2, 2.3, 0, 4.3});
    set_curve(&f, 1, (double[]){0, 2.0, 2.4}, (double[]){0, 1.0, 1.3, 0, 1.5});
    set_curve(&f, 2, (double[]){0, 1.5, 2.6}, (double[]){0, 1.0, 1.9, 0, 3.0});
    for (int j = 0; j < 3; j++)
        f.curve[j][1][3] = 0; /* 3 GPUs is not a configuration */
    check_against_brute_force(&f, "hand case");

    unsigned long x = 12345;
    for (int round = 0; round < 60; round++) {
        for (int j = 0; j < 3; j++) {
            double prev = 0;
            for (int t = 0; t < NT; t++) {
                prev = 0;
                for (int k = 1; k <= (t ? 4 : 2); k++) {
                    x = x * 6364136223846793005UL + 1442695040888963407UL;
                    double step = 0.2 + (double)(x >> 33) / (double)(1UL << 31) * 1.3;
                    prev += step / k;
                    f.curve[j][t][k] = prev;
                }
                f.curve[j][t][3] = 0;
            }
        }
        char what[32];
        snprintf(what, sizeof what, "random case %d", round);
        check_against_brute_force(&f, what);
    }
}
END_TEST

/* The restart factor (Equation 2): a job running on (1,1,A) whose best other
 * configuration is only 1.5x better stays when r = 0.5, and moves when its
 * age makes r ~ 1. */
START_TEST(restart_factor_keeps_a_running_job)
{
    fx_t f;
    fx_init(&f);
    int j = fx_job(&f);
    set_curve(&f, j, (double[]){0, 2.0, 2.2}, (double[]){0, 1.0, 1.9, 0, 3.0});
    int ids[1] = {0};
    fx_hold(&f, j, 0, ids, 1);
    /* age 90, 1 restart, S = 30: r = (90 - 30) / (90 + 30) = 0.5; (1,4,B) has
     * G = 3/1 x 0.5 = 1.5 -> u = 1.1 - 1.5^-0.5 = 0.284; staying on (1,1,A):
     * G = 2 -> u = 1.1 - 2^-0.5 = 0.393 */
    f.v.now = 90;
    f.jobs[j].submit = 0;
    f.jobs[j].restarts = 1;
    const char *keys[] = {"explore"}, *vals[] = {"0"}; /* (1,4,B) allowed at once */
    plan_t p = run_sia(&f, keys, vals, 1);
    ck_assert_int_eq(plan_cfg(&p, j), 0);
    int k = plan_find(&p, j);
    ck_assert_int_eq(p.ids[p.allocs[k].ids_off], 0); /* same GPU: no restart */
    plan_free(&p);
    /* much older: r -> 1, (1,4,B) is 3 vs 2: it moves */
    f.v.now = 1e6;
    p = run_sia(&f, keys, vals, 1);
    ck_assert_int_eq(plan_cfg(&p, j), 4);
    plan_free(&p);
}
END_TEST

/* A job that has never run starts on one GPU, on the type where its
 * single-GPU rate is highest (Sia's min-profiling). */
START_TEST(new_job_starts_on_one_gpu_of_its_fastest_type)
{
    fx_t f;
    fx_init(&f);
    int j = fx_job(&f);
    f.jobs[j].grad_noise_scale = NAN;
    set_curve(&f, j, (double[]){0, 1.0, 2.0}, (double[]){0, 1.7, 3.4, 0, 6.8});
    plan_t p = run_sia(&f, NULL, NULL, 0);
    ck_assert_int_eq(plan_cfg(&p, j), 2); /* (1,1,B) */
    plan_free(&p);
    /* after it has held 1 GPU, the exploration bound allows 2, not 4 */
    f.jobs[j].grad_noise_scale = 100;
    int ids[1] = {2};
    fx_hold(&f, j, 1, ids, 1);
    const char *keys[] = {"explore"}, *vals[] = {"1"};
    p = run_sia(&f, keys, vals, 1);
    ck_assert_int_eq(plan_cfg(&p, j), 3); /* (1,2,B) */
    plan_free(&p);
}
END_TEST

START_TEST(bad_params_are_refused)
{
    const char *keys[] = {"p"}, *zero[] = {"0"};
    policy_args_t a = {1, keys, zero, 0, NULL};
    void *st = NULL;
    char err[256] = "";
    ck_assert_int_eq(sia_create(&st, &a, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "p=0") != NULL, "%s", err);
    const char *k2[] = {"lambda"}, *neg[] = {"-1"};
    a = (policy_args_t){1, k2, neg, 0, NULL};
    ck_assert_int_eq(sia_create(&st, &a, err, sizeof err), -1);
    const char *k3[] = {"bogus"}, *one[] = {"1"};
    a = (policy_args_t){1, k3, one, 0, NULL};
    ck_assert_int_eq(sia_create(&st, &a, err, sizeof err), -1);
    const char *k4[] = {"decimals"}, *many[] = {"10"};
    a = (policy_args_t){1, k4, many, 0, NULL};
    ck_assert_int_eq(sia_create(&st, &a, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "decimals=10") != NULL, "%s", err);
    ck_assert_ptr_null(policy_find("sia") ? NULL : (void *)1);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {configs_of_the_papers_example,
                            select_matches_papers_table_1,
                            utility_signs,
                            policy_matches_brute_force,
                            restart_factor_keeps_a_running_job,
                            new_job_starts_on_one_gpu_of_its_fastest_type,
                            bad_params_are_refused};
    return check_main("sia", tests, sizeof tests / sizeof tests[0]);
}
