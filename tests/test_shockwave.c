/* test_shockwave.c: unit tests of the shockwave policy (policies/shockwave.c,
 * policies/shockwave_market.c).
 *
 * - The market on a 3-job case worked out by hand (below), with and without a
 *   binding finish-time-fairness row, and the relaxation when a row cannot
 *   hold; the policy's plan on the same market, round by round.
 * - The optimality gap of the solver + round packing against a brute force
 *   that enumerates every schedule (a 0/1 per job and round) of tiny
 *   markets; the gaps are printed.
 * - The predictor on hand-computed posteriors and on a job whose batch
 *   schedule is known; the policy never calls the oracle batch schedule.
 * - Bad parameters. */
#include "policies/policies.h"
#include "policies/shockwave.h"

#include "tests/check_main.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Hand-computed market: one GPU, W = 4 rounds of 100 s, three 1-GPU jobs of
 * 1000 s run time (a round moves a job by 0.1), at progress 0, 0.2, 0.4.
 * With k = 0 and no fairness rows the program maximises
 * log(0.1 nA) + log(0.2 + 0.1 nB) + log(0.4 + 0.1 nC), nA + nB + nC <= 4
 * (log(0) counted as log(1e-6)). Water filling: A to 0.2, then A and B
 * together to 0.3: n = (3, 1, 0), product 0.3 x 0.3 x 0.4 = 0.036; the next
 * best are (2, 2, 0) and (4, 0, 0), 0.032. With a fairness row forcing B to 2
 * rounds (cap_B = R_B - 200): (2, 2, 0), 0.032, beats (1, 2, 1), 0.02. */
static sw_job_t hand_jobs[3] = {{1, 0.0, 1e-3, 1000, INFINITY, 1},
                                {1, 0.2, 1e-3, 800, INFINITY, 1},
                                {1, 0.4, 1e-3, 600, INFINITY, 1}};

static sw_market_t hand_market(const sw_job_t *jobs, double k)
{
    return (sw_market_t){3, jobs, 1, 4, 100, k, 12, 1, 1000, 0, NULL};
}

START_TEST(market_hand_equilibrium)
{
    sw_job_t jobs[3];
    memcpy(jobs, hand_jobs, sizeof jobs);
    sw_market_t m = hand_market(jobs, 0);
    int n[3];
    sw_solution_t sol;
    char err[256] = "";
    ck_assert_int_eq(sw_solve(&m, n, &sol, err, sizeof err), 0);
    ck_assert_int_eq(n[0], 3);
    ck_assert_int_eq(n[1], 1);
    ck_assert_int_eq(n[2], 0);
    ck_assert(!sol.relaxed && sol.optimal);
    ck_assert_double_eq_tol(sol.objective, log(0.036) / 12, 1e-12);
    /* the greedy counts (the simplex's start, the plan without GLPK) agree */
    int g[3];
    double w1[3] = {1, 1, 1};
    ck_assert_double_eq_tol(sw_greedy(&m, w1, 0, g), log(0.036) / 12, 1e-12);
    ck_assert(g[0] == 3 && g[1] == 1 && g[2] == 0);
    /* rounds: B (shortest predicted remaining time, 800 s) first, then A,
     * which needs each of the 3 rounds left */
    unsigned char sched[4 * 3];
    int got[3];
    double w[3] = {1, 1, 1};
    sw_assign_rounds(&m, n, w, sched, got);
    const unsigned char want[4][3] = {{0, 1, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}};
    for (int r = 0; r < 4; r++)
        for (int j = 0; j < 3; j++)
            ck_assert_int_eq(sched[r * 3 + j], want[r][j]);
    /* the makespan term (k = 1e-3): max remaining 700 s is also least at (3, 1, 0) */
    m.k = 1e-3;
    ck_assert_int_eq(sw_solve(&m, n, &sol, err, sizeof err), 0);
    ck_assert(n[0] == 3 && n[1] == 1 && n[2] == 0);
    ck_assert_double_eq_tol(sol.objective, log(0.036) / 12 - 1e-3 * 700, 1e-12);
}
END_TEST

START_TEST(market_fairness_rows)
{
    sw_job_t jobs[3];
    memcpy(jobs, hand_jobs, sizeof jobs);
    jobs[1].cap = 800 - 200; /* B must run 2 rounds */
    sw_market_t m = hand_market(jobs, 0);
    int n[3];
    sw_solution_t sol;
    char err[256] = "";
    ck_assert_int_eq(sw_solve(&m, n, &sol, err, sizeof err), 0);
    ck_assert(!sol.relaxed);
    ck_assert(n[0] == 2 && n[1] == 2 && n[2] == 0);
    /* C asks for 700 s within a 400 s window: relaxed; C's rho 2 gives it
     * weight 2^12, so it takes all four rounds */
    jobs[1].cap = INFINITY;
    jobs[2].cap = 600 - 700;
    jobs[2].rho = 2;
    ck_assert_int_eq(sw_solve(&m, n, &sol, err, sizeof err), 0);
    ck_assert(sol.relaxed);
    double w[3];
    sw_weights(&m, 1, w);
    ck_assert_double_eq_tol(w[2], 4096, 1e-9);
    ck_assert_double_eq(w[0], 1);
    ck_assert(n[0] == 0 && n[1] == 0 && n[2] == 4);
}
END_TEST

/* Brute force: every 0/1 schedule of J jobs over W rounds that fits G GPUs
 * per round; the best objective with the fairness caps when one satisfies
 * them, else the best with the relaxed weights. */
static double brute(const sw_market_t *m, int *relaxed)
{
    int J = m->n, W = m->window, bits = J * W;
    double best[2] = {-INFINITY, -INFINITY}, w[2][8];
    sw_weights(m, 0, w[0]);
    sw_weights(m, 1, w[1]);
    for (long s = 0; s < (1L << bits); s++) {
        int n[8] = {0}, ok = 1;
        for (int r = 0; r < W && ok; r++) {
            int used = 0;
            for (int j = 0; j < J; j++)
                if ((s >> (r * J + j)) & 1) {
                    used += m->jobs[j].gpus;
                    n[j]++;
                }
            ok = used <= m->gpus;
        }
        for (int mode = 0; ok && mode < 2; mode++) {
            double v = sw_objective(m, n, w[mode], mode == 0);
            if (v > best[mode])
                best[mode] = v;
        }
    }
    *relaxed = best[0] == -INFINITY;
    return best[*relaxed];
}

static unsigned long lcg(unsigned long *x)
{
    *x = *x * 6364136223846793005UL + 1442695040888963407UL;
    return *x >> 33;
}

static double unit(unsigned long *x)
{
    return (double)(lcg(x) % 1000000) / 1e6;
}

/* Random markets: J jobs at random progress (0 for 30 %), exclusive
 * remaining time 100..700 s, predicted remaining time up to 1.5 x that,
 * fairness caps that bind for 30 % of the jobs, k in {0, 1e-3, 1e-2}, 100 s
 * rounds, lambda 4. Ours: sw_plan (solve, pack, repair); its objective on
 * the rounds the packing gave. Kinds: 0: four 1-GPU jobs, 3 GPUs, 3 rounds;
 * 1: four jobs of 1 or 2 GPUs on 3 GPUs, 3 rounds (2-GPU gangs that never
 * share a round: the hardest packing); 2: six jobs of 1, 2 or 4 GPUs on 8
 * GPUs, 2 rounds. */
static const struct {
    const char *name;
    int jobs, gpus, rounds, max_gang, cases;
    double mean_max, worst_max;
} gap_kinds[3] = {{"1-GPU jobs, 3 GPUs", 4, 3, 3, 1, 300, 1e-9, 1e-9},
                  {"1-2 GPU gangs, 3 GPUs", 4, 3, 3, 2, 300, 0.01, 0.5},
                  {"1/2/4 GPU gangs, 8 GPUs", 6, 8, 2, 4, 200, 0.03, 0.5}};

START_TEST(brute_force_gap)
{
    unsigned long x = 12345;
    for (int kind = 0; kind < 3; kind++) {
        int J = gap_kinds[kind].jobs, cases = gap_kinds[kind].cases;
        double worst = 0, sum = 0;
        int exact = 0, relaxed_n = 0, lost = 0;
        for (int c = 0; c < cases; c++) {
            sw_job_t jobs[8];
            for (int j = 0; j < J; j++) {
                double F = unit(&x) < 0.3 ? 0 : 0.9 * unit(&x);
                double T = 100 + 600 * unit(&x);
                double R = T * (1 + 0.5 * unit(&x));
                double cap = unit(&x) < 0.3 ? R - 100 * (lcg(&x) % 3) : INFINITY;
                int g =
                    1 << (lcg(&x) % (gap_kinds[kind].max_gang == 4 ? 3 : gap_kinds[kind].max_gang));
                jobs[j] = (sw_job_t){g, F, (1 - F) / T, R, cap, 0.5 + 2 * unit(&x)};
            }
            static const double ks[3] = {0, 1e-3, 1e-2};
            sw_market_t m = {
                J, jobs, gap_kinds[kind].gpus, gap_kinds[kind].rounds, 100, ks[c % 3], 4, 1, 1000,
                0, NULL};
            int relaxed;
            double b = brute(&m, &relaxed);
            int got[8];
            unsigned char sched[8 * 3];
            sw_solution_t sol;
            char err[256] = "";
            ck_assert_int_eq(sw_plan(&m, got, sched, &sol, err, sizeof err), 0);
            double w[8];
            sw_weights(&m, sol.relaxed, w);
            double ours = sw_objective(&m, got, w, !sol.relaxed);
            relaxed_n += relaxed;
            if (sol.relaxed != relaxed || ours == -INFINITY) {
                /* the counts met the fairness caps but their packing did not */
                ck_assert(kind > 0);
                lost++;
                continue;
            }
            double gap = (b - ours) / fabs(b);
            ck_assert_msg(gap > -1e-9, "case %d: brute %.9g ours %.9g", c, b, ours);
            exact += gap < 1e-9;
            worst = gap > worst ? gap : worst;
            sum += gap > 0 ? gap : 0;
        }
        double mean = sum / (cases - lost);
        printf("shockwave brute force (%s): %d markets, %d relaxed, %d whose packing broke a "
               "fairness cap; of the others, optimum in %d, mean gap %.3f %%, worst %.2f %%\n",
               gap_kinds[kind].name, cases, relaxed_n, lost, exact, 100 * mean, 100 * worst);
        ck_assert(mean <= gap_kinds[kind].mean_max);
        ck_assert(worst <= gap_kinds[kind].worst_max);
    }
}
END_TEST

/* Dirichlet posterior by hand: 100 epochs, 30 done at batch 32 (epoch 10 s),
 * the next doubling 64 (6 s) not seen. Prior 50 each; posterior 80, 50;
 * expected epochs 100 x 80/130 = 61.54 and 38.46; remaining 31.54 at 32 and
 * 38.46 at 64 (sum 70); time 315.4 + 230.8 = 546.2 s. The true schedule
 * (doubling at epoch 50) leaves 20 x 10 + 50 x 6 = 500 s; assuming the
 * batch stays, 700 s. */
START_TEST(predictor_hand)
{
    sw_mode_t modes[2] = {{32, 30, 10, 1}, {64, 0, 6, 1}};
    double rem[2];
    double t = sw_predict(modes, 2, 100, 30, rem);
    ck_assert_double_eq_tol(rem[0], 100.0 * 80 / 130 - 30, 1e-9);
    ck_assert_double_eq_tol(rem[1], 100.0 * 50 / 130, 1e-9);
    ck_assert_double_eq_tol(t, 10 * (100.0 * 80 / 130 - 30) + 6 * 100.0 * 50 / 130, 1e-9);
    ck_assert(fabs(t - 500) < 200.0);
    /* after the doubling (epoch 60: 50 at 32, 10 at 64; 128 at 4 s next): a
     * gns job never returns to 32; the 40 epochs left split 17.08 : 20.83 */
    sw_mode_t after[3] = {{32, 50, 10, 0}, {64, 10, 6, 1}, {128, 0, 4, 1}};
    double rem3[3];
    t = sw_predict(after, 3, 100, 60, rem3);
    double a = 100.0 * (100.0 / 3 + 10) / 160 - 10, b = 100.0 * (100.0 / 3) / 160;
    ck_assert_double_eq(rem3[0], 0);
    ck_assert_double_eq_tol(rem3[1], 40 * a / (a + b), 1e-9);
    ck_assert_double_eq_tol(rem3[2], 40 * b / (a + b), 1e-9);
    ck_assert_double_eq_tol(t, 6 * rem3[1] + 4 * rem3[2], 1e-9);
}
END_TEST

/* A small view: one type, one node of `gpus` GPUs, jobs of 1 GPU whose rate
 * is 1 work unit/s at batch 32 and 1.6 at 64 (others unknown: the rate at
 * the current batch, as the table backend answers). */
typedef struct fx {
    view_gpu_type_t type;
    view_node_t node;
    view_job_t jobs[4];
    int holder[8];
    view_perf_t perf;
    view_t v;
    int schedule_calls;
} fx_t;

static double fx_tput(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch)
{
    (void)ctx, (void)type, (void)nodes;
    int b = batch > 0 ? batch : j->batch_size;
    return gpus * (b == 64 ? 1.6 : b == 32 ? 1.0 : j->batch_size == 64 ? 1.6 : 1.0);
}

static int fx_schedule(void *ctx, const view_job_t *j, view_batch_step_t *out, int max)
{
    (void)j, (void)out, (void)max;
    ((fx_t *)ctx)->schedule_calls++;
    return -1;
}

static void fx_init(fx_t *f, int gpus)
{
    memset(f, 0, sizeof *f);
    f->type = (view_gpu_type_t){"v100", gpus, gpus, 16};
    f->node = (view_node_t){0, gpus, 0, 0, 1, 8, 64};
    for (int g = 0; g < 8; g++)
        f->holder[g] = -1;
    f->perf = (view_perf_t){.ctx = f, .throughput = fx_tput, .batch_schedule = fx_schedule};
    f->v = (view_t){.round_len = 100,
                    .n_types = 1,
                    .types = &f->type,
                    .n_nodes = 1,
                    .nodes = &f->node,
                    .n_gpus = gpus,
                    .gpu_holder = f->holder,
                    .jobs = f->jobs,
                    .perf = &f->perf};
}

static void fx_job(fx_t *f, double total, double done)
{
    int j = f->v.n_jobs++;
    f->jobs[j] = (view_job_t){.id = 10 + j,
                              .submit = 0,
                              .priority = 1,
                              .gpus_requested = 1,
                              .min_gpus = 1,
                              .max_gpus = 1,
                              .batch_size = 32,
                              .cur_type = -1,
                              .first_start = NAN,
                              .last_start = NAN,
                              .throughput = NAN,
                              .work_done = done,
                              .total_work = total,
                              .remaining_work = total - done,
                              .accum_steps = -1,
                              .grad_noise_scale = NAN,
                              .epoch = NAN};
}

static void *fx_create(const char *const *keys, const char *const *vals, int n)
{
    policy_args_t a = {n, keys, vals, 0, NULL};
    void *s = NULL;
    char err[256] = "";
    ck_assert_msg(shockwave_create(&s, &a, err, sizeof err) == 0, "%s", err);
    return s;
}

/* The hand market through the policy: 1 GPU, 100 s rounds, window 4, k = 0,
 * jobs of 1000 work units at 1 unit/s done 0, 200, 400. Rounds B, A, A, A:
 * the plan is followed (no re-solve) while no event comes. */
START_TEST(policy_plan_rounds)
{
    fx_t f;
    fx_init(&f, 1);
    fx_job(&f, 1000, 0);
    fx_job(&f, 1000, 200);
    fx_job(&f, 1000, 400);
    const char *k[] = {"window", "k"}, *val[] = {"4", "0"};
    void *s = fx_create(k, val, 2);
    const int want[4] = {1, 0, 0, 0};
    for (int r = 0; r < 4; r++) {
        f.v.now = 100.0 * r;
        f.v.round = r;
        f.v.reasons = r ? MLS_WHY_ROUND : MLS_WHY_ARRIVAL;
        plan_t p;
        plan_init(&p);
        char err[256] = "";
        ck_assert_msg(shockwave_schedule(s, &f.v, &p, err, sizeof err) == 0, "%s", err);
        ck_assert_int_eq(p.n, 1);
        ck_assert_int_eq(p.allocs[0].job, want[r]);
        plan_free(&p);
    }
    shockwave_destroy(s);
}
END_TEST

/* resolve=1 (Sia's wrapper re-solves every round): the same unchanged
 * market re-solved at round 1 starts its plan over, B first again, where
 * the window-long plan above runs A. */
START_TEST(policy_resolve_every_round)
{
    fx_t f;
    fx_init(&f, 1);
    fx_job(&f, 1000, 0);
    fx_job(&f, 1000, 200);
    fx_job(&f, 1000, 400);
    const char *k[] = {"window", "k", "resolve"}, *val[] = {"4", "0", "1"};
    void *s = fx_create(k, val, 3);
    for (int r = 0; r < 2; r++) {
        f.v.now = 100.0 * r;
        f.v.round = r;
        f.v.reasons = r ? MLS_WHY_ROUND : MLS_WHY_ARRIVAL;
        plan_t p;
        plan_init(&p);
        char err[256] = "";
        ck_assert_msg(shockwave_schedule(s, &f.v, &p, err, sizeof err) == 0, "%s", err);
        ck_assert_int_eq(p.n, 1);
        ck_assert_int_eq(p.allocs[0].job, 1);
        plan_free(&p);
    }
    shockwave_destroy(s);
}
END_TEST

/* ftf=age (Sia's wrapper: finish times as durations from submission). One
 * GPU, 100 s rounds, window 1, k = 0, now 1000; A (submitted at 0, 1000 s
 * left), B (submitted at 900, 300 s left); share 1/2. From the run's start
 * (the authors' code) A's row asks (2000 - 1100) / 2 = 450 s left after the
 * window, infeasible: relaxed, rho_A = 3000 / 2000 = 1.5, rho_B = 1600 / 1500,
 * weights 1.5^12 = 130 and 2.2: A runs. As durations, A's target is 4000 s
 * and both rows hold with no round; equal weights, B's round is worth more
 * (log(1/3) against log(1/10), from log 1e-6): B runs. */
START_TEST(policy_ftf_age)
{
    const char *k[] = {"window", "k", "ftf"};
    const char *val[][3] = {{"1", "0", "submit"}, {"1", "0", "age"}};
    for (int c = 0; c < 2; c++) {
        fx_t f;
        fx_init(&f, 1);
        fx_job(&f, 1000, 0);
        fx_job(&f, 300, 0);
        f.jobs[1].submit = 900;
        f.v.now = 1000;
        f.v.round = 10;
        f.v.reasons = MLS_WHY_ARRIVAL;
        void *s = fx_create(k, val[c], 3);
        plan_t p;
        plan_init(&p);
        char err[256] = "";
        ck_assert_msg(shockwave_schedule(s, &f.v, &p, err, sizeof err) == 0, "%s", err);
        ck_assert_int_eq(p.n, 1);
        ck_assert_int_eq(p.allocs[0].job, c);
        plan_free(&p);
        shockwave_destroy(s);
    }
}
END_TEST

/* Work-conserving fill: 3 GPUs, two 1-GPU jobs planned would leave one idle;
 * every job runs. An adaptive (gns) job: the policy predicts from what it
 * saw and never asks for the oracle batch schedule. */
START_TEST(policy_fill_and_no_oracle_schedule)
{
    fx_t f;
    fx_init(&f, 3);
    for (int j = 0; j < 3; j++)
        fx_job(&f, 10000, 1000 * j);
    f.jobs[0].adapt_mode = 2; /* gns, 100 iterations per epoch at batch 32 */
    f.jobs[0].work_done = 2000;
    f.jobs[0].remaining_work = 8000;
    f.jobs[0].epoch = 20;
    void *s = fx_create(NULL, NULL, 0);
    f.v.reasons = MLS_WHY_ARRIVAL;
    plan_t p;
    plan_init(&p);
    char err[256] = "";
    ck_assert_msg(shockwave_schedule(s, &f.v, &p, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(p.n, 3);
    /* the batch doubles (batch_changes moves): a re-solve, still no oracle */
    f.jobs[0].batch_size = 64;
    f.jobs[0].batch_changes = 1;
    f.jobs[0].remaining_work = 4000;
    f.v.now = 100;
    f.v.reasons = MLS_WHY_ROUND;
    plan_clear(&p);
    ck_assert_msg(shockwave_schedule(s, &f.v, &p, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(p.n, 3);
    ck_assert_int_eq(f.schedule_calls, 0);
    plan_free(&p);
    shockwave_destroy(s);
}
END_TEST

START_TEST(bad_params)
{
    const char *bad[][2] = {{"window", "0"},   {"window", "2.5"}, {"k", "-1"},
                            {"rhomax", "0"},   {"nope", "1"},     {"lambda", "x"},
                            {"ftf", "finish"}, {"resolve", "-1"}, {"resolve", "0.5"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        policy_args_t a = {1, &bad[i][0], &bad[i][1], 0, NULL};
        void *s = NULL;
        char err[256] = "";
        ck_assert_int_eq(shockwave_create(&s, &a, err, sizeof err), -1);
        ck_assert(err[0] != 0);
    }
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {market_hand_equilibrium,
                                  market_fairness_rows,
                                  brute_force_gap,
                                  predictor_hand,
                                  policy_plan_rounds,
                                  policy_resolve_every_round,
                                  policy_ftf_age,
                                  policy_fill_and_no_oracle_schedule,
                                  bad_params};
    return check_main("shockwave", tests, sizeof tests / sizeof tests[0]);
}
