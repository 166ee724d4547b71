/* test_deeppool.c: DeepPool (Park et al., MLSys 2022) — the multiplexed pair
 * rates of the perf model and the deeppool policy's plan on tiny views.
 *
 * tests/fixtures/deeppool/tiny.json (table backend, v100): foreground
 * "Burst (batch size 32)" at 100 / 180 / 300 work units/s on 1 / 2 / 4 GPUs,
 * idle fractions 0.25 on 2 GPUs and 0.5 on 4, interference 0.1; background
 * "Bg (batch size 64)" at 50 / 98 / 190 on 1 / 2 / 4; "Other (batch size 8)"
 * with a measured pair with Bg on 1 GPU ([30, 20]). A measured Burst-Bg pair
 * on 2 GPUs ([1, 1]) must be ignored: the multiplexing model wins. The
 * policy's views are built over that model through view_perf_bind(), the
 * binding the engine and the daemon use, and every plan is validated by the
 * mechanism's own checker (mech_check_plan). */
#include "model/perf.h"
#include "policies/policies.h"
#include "sim/mechanism.h"
#include "sim/view_perf.h"
#include "tests/check_main.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define FIX MLS_SRCDIR "/tests/fixtures/deeppool/"

static mls_perf_t *load_tiny(int *fg, int *bg, int *other, int *t)
{
    mls_perf_t *pm = NULL;
    mls_err_t err;
    ck_assert_msg(perf_load(&pm, FIX "tiny.json", &err) == 0, "%s", err.msg);
    *fg = perf_workload_index(pm, "Burst (batch size 32)");
    *bg = perf_workload_index(pm, "Bg (batch size 64)");
    *other = perf_workload_index(pm, "Other (batch size 8)");
    *t = perf_gpu_type_index(pm, "v100");
    ck_assert(*fg >= 0 && *bg >= 0 && *other >= 0 && *t >= 0);
    ck_assert_int_eq(perf_gpu_type_index(pm, "multiplex"), -1); /* not a GPU type */
    return pm;
}

START_TEST(multiplexed_pair_rates)
{
    int fg, bg, other, t;
    mls_perf_t *pm = load_tiny(&fg, &bg, &other, &t);
    double r[2];
    /* 4 GPUs: 300 x (1 - 0.1) = 270, 190 x 0.5 = 95, in either order */
    ck_assert_int_eq(view_perf_pair(pm, fg, bg, t, 4, r), 0);
    ck_assert_double_eq_tol(r[0], 270, 1e-9);
    ck_assert_double_eq_tol(r[1], 95, 1e-9);
    ck_assert_int_eq(view_perf_pair(pm, bg, fg, t, 4, r), 0);
    ck_assert_double_eq_tol(r[0], 95, 1e-9);
    ck_assert_double_eq_tol(r[1], 270, 1e-9);
    /* 2 GPUs: the model, not the measured [1, 1]: 162 and 98 x 0.25 = 24.5 */
    ck_assert_int_eq(view_perf_pair(pm, fg, bg, t, 2, r), 0);
    ck_assert_double_eq_tol(r[0], 162, 1e-9);
    ck_assert_double_eq_tol(r[1], 24.5, 1e-9);
    /* 3 GPUs: the idle fraction of 2 (0.25); rates scaled from 2 GPUs:
     * 180 x 3/2 x 0.9 = 243, 98 x 3/2 x 0.25 = 36.75 */
    ck_assert_int_eq(view_perf_pair(pm, fg, bg, t, 3, r), 0);
    ck_assert_double_eq_tol(r[0], 243, 1e-9);
    ck_assert_double_eq_tol(r[1], 36.75, 1e-9);
    /* 1 GPU: no idle fraction at or below 1: not a foreground there; no
     * measured pair either: they cannot share */
    r[0] = r[1] = -7;
    ck_assert_int_eq(view_perf_pair(pm, fg, bg, t, 1, r), -1);
    ck_assert(r[0] == -7 && r[1] == -7);
    /* two foregrounds: the measured table (none) */
    ck_assert_int_eq(view_perf_pair(pm, fg, fg, t, 4, r), -1);
    /* no foreground: the measured pair, as before */
    ck_assert_int_eq(view_perf_pair(pm, bg, other, t, 1, r), 0);
    ck_assert_double_eq_tol(r[0], 30, 1e-9);
    ck_assert_double_eq_tol(r[1], 20, 1e-9);
    /* the background cannot run on 8 GPUs? it can (extrapolated): 380 x 0.5 */
    ck_assert_int_eq(view_perf_pair(pm, fg, bg, t, 8, r), 0);
    ck_assert_double_eq_tol(r[0], 540, 1e-9);
    ck_assert_double_eq_tol(r[1], 190, 1e-9);
    double idle, slow;
    ck_assert_int_eq(pm->ops->multiplex(pm, bg, t, 4, &idle, &slow), -1);
    ck_assert_int_eq(pm->ops->multiplex(pm, fg, t, 4, &idle, &slow), 0);
    ck_assert_double_eq_tol(idle, 0.5, 1e-12);
    ck_assert_double_eq_tol(slow, 0.1, 1e-12);
    perf_free(pm);
}
END_TEST

START_TEST(models_without_multiplex_unchanged)
{
    mls_perf_t *pm = NULL;
    mls_err_t err;
    ck_assert(perf_load(&pm, MLS_SRCDIR "/tests/fixtures/elastic/knee.json", &err) == 0);
    double idle, slow, r[2];
    ck_assert_int_eq(pm->ops->multiplex(pm, 0, 0, 8, &idle, &slow), -1);
    ck_assert_int_eq(view_perf_pair(pm, 0, 0, 0, 8, r), -1);
    perf_free(pm);
    ck_assert_int_eq(perf_load(&pm, FIX "bad.json", &err), -1);
    ck_assert_msg(strstr(err.msg, "multiplex") && strstr(err.msg, "[0, 1)"), "%s", err.msg);
}
END_TEST

/* ---- the policy on tiny views over tiny.json ---------------------------------- */

typedef struct fx {
    mls_perf_t *pm;
    int typemap[1], node_gpus[1];
    view_perf_src_t src;
    view_perf_t perf;
    view_gpu_type_t types[1];
    view_node_t nodes[2];
    view_job_t jobs[8];
    int holder[8];
    view_t v;
    int fg, bg;
} fx_t;

/* v100: 2 nodes x 4 GPUs. */
static void fx_init(fx_t *f)
{
    memset(f, 0, sizeof *f);
    int other, t;
    f->pm = load_tiny(&f->fg, &f->bg, &other, &t);
    f->typemap[0] = t;
    f->node_gpus[0] = 4;
    f->src = (view_perf_src_t){
        .perf = f->pm, .n_types = 1, .typemap = f->typemap, .type_node_gpus = f->node_gpus};
    view_perf_bind(&f->perf, &f->src);
    f->types[0] = (view_gpu_type_t){"v100", 8, 8, 16.0};
    f->nodes[0] = (view_node_t){0, 4, 0, 0, 1, 32, 256.0};
    f->nodes[1] = (view_node_t){0, 4, 4, 0, 1, 32, 256.0};
    for (int i = 0; i < 8; i++)
        f->holder[i] = -1;
    f->v = (view_t){.round_len = 0,
                    .n_types = 1,
                    .types = f->types,
                    .n_nodes = 2,
                    .nodes = f->nodes,
                    .n_gpus = 8,
                    .gpu_holder = f->holder,
                    .jobs = f->jobs,
                    .perf = &f->perf};
}

/* A queued job (added in arrival order). */
static int fx_job(fx_t *f, int w, double prio, int gpus, int min, int max)
{
    int j = f->v.n_jobs++;
    f->jobs[j] = (view_job_t){.id = 10 + j,
                              .submit = j,
                              .workload = w,
                              .priority = prio,
                              .deadline = INFINITY,
                              .duration_estimate = NAN,
                              .gpus_requested = gpus,
                              .min_gpus = min,
                              .max_gpus = max,
                              .cur_type = -1,
                              .cur_partner = -1,
                              .first_start = NAN,
                              .last_start = NAN,
                              .throughput = NAN,
                              .total_work = NAN,
                              .remaining_work = NAN,
                              .grad_noise_scale = NAN,
                              .epoch = NAN,
                              .accum_steps = -1};
    return j;
}

/* Job j runs on GPUs first..first+gpus-1 (with partner p, or -1). */
static void fx_run(fx_t *f, int j, int first, int gpus, int p)
{
    view_job_t *jb = &f->jobs[j];
    static int ids[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    jb->state = VIEW_RUNNING;
    jb->cur_type = 0;
    jb->cur_gpus = gpus;
    jb->cur_nodes = 1;
    jb->cur_gpu_ids = &ids[first];
    jb->cur_partner = p;
    if (p < 0 || p > j)
        for (int i = first; i < first + gpus; i++)
            f->holder[i] = j;
    if (p < 0 || p > j)
        f->types[0].free_gpus -= gpus;
}

static void fx_plan(fx_t *f, const char *params, plan_t *p)
{
    const policy_ops_t *ops = policy_find("deeppool");
    ck_assert_ptr_nonnull(ops);
    const char *k[1] = {"multiplex"}, *val[1] = {params};
    policy_args_t a = {params ? 1 : 0, k, val, 0, NULL};
    void *s = NULL;
    char err[256] = "";
    ck_assert_int_eq(ops->create(&s, &a, err, sizeof err), 0);
    plan_init(p);
    ck_assert_int_eq(ops->schedule(s, &f->v, p, err, sizeof err), 0);
    ops->destroy(s);
    mls_err_t e;
    ck_assert_msg(mech_check_plan(&f->v, p, "deeppool", &e) == 0, "%s", e.msg);
}

/* The allocation of job j: its GPU count and partner (-2 when absent). */
static int gpus_of(const plan_t *p, int j, int *partner)
{
    int k = plan_find(p, j);
    *partner = k < 0 ? -2 : p->allocs[k].pack_with;
    return k < 0 ? 0 : p->allocs[k].gpus;
}

START_TEST(policy_packs_background_on_foreground)
{
    fx_t f;
    fx_init(&f);
    int a = fx_job(&f, f.fg, 2, 4, 4, 4); /* foreground */
    int b = fx_job(&f, f.bg, 1, 2, 2, 2); /* rigid 2: cannot share A's 4 GPUs */
    int c = fx_job(&f, f.bg, 1, 4, 4, 4);
    int d = fx_job(&f, f.bg, 1, 4, 4, 4);
    plan_t p;
    fx_plan(&f, NULL, &p);
    int pa, pb, pc, pd;
    ck_assert_int_eq(gpus_of(&p, a, &pa), 4);
    ck_assert_int_eq(pa, c);
    ck_assert_int_eq(gpus_of(&p, c, &pc), 4);
    ck_assert_int_eq(pc, a);
    ck_assert_int_eq(gpus_of(&p, b, &pb), 2); /* alone on what is left */
    ck_assert_int_eq(pb, -1);
    ck_assert_int_eq(gpus_of(&p, d, &pd), 0); /* 2 GPUs left: does not fit */
    plan_free(&p);

    /* multiplex=0: burst parallelism only, background jobs alone */
    fx_plan(&f, "0", &p);
    ck_assert_int_eq(gpus_of(&p, a, &pa), 4);
    ck_assert_int_eq(pa, -1);
    ck_assert_int_eq(gpus_of(&p, b, &pb), 2);
    ck_assert_int_eq(gpus_of(&p, c, &pc), 0); /* 2 left after A and B */
    ck_assert_int_eq(gpus_of(&p, d, &pd), 0);
    plan_free(&p);
    perf_free(f.pm);
}
END_TEST

START_TEST(policy_foreground_preempts_background)
{
    fx_t f;
    fx_init(&f);
    int a = fx_job(&f, f.fg, 2, 4, 4, 4);
    int b = fx_job(&f, f.bg, 1, 4, 4, 4);
    int c = fx_job(&f, f.bg, 1, 4, 4, 4);
    int d = fx_job(&f, f.bg, 1, 4, 4, 4);
    fx_run(&f, a, 0, 4, b);
    fx_run(&f, b, 0, 4, a);
    fx_run(&f, c, 4, 4, -1);              /* a background job alone on the other node */
    int e = fx_job(&f, f.fg, 2, 4, 4, 4); /* a second foreground arrives */
    plan_t p;
    fx_plan(&f, NULL, &p);
    int pa, pb, pc, pd, pe;
    ck_assert_int_eq(gpus_of(&p, a, &pa), 4); /* the pair is kept */
    ck_assert_int_eq(pa, b);
    ck_assert_int_eq(gpus_of(&p, b, &pb), 4);
    ck_assert_int_eq(pb, a);
    ck_assert_int_eq(gpus_of(&p, e, &pe), 4); /* the foreground takes C's GPUs */
    ck_assert_int_eq(pe, d);                  /* and the waiting D soaks them up */
    ck_assert_int_eq(gpus_of(&p, d, &pd), 4);
    ck_assert_int_eq(pd, e);
    ck_assert_int_eq(gpus_of(&p, c, &pc), 0); /* low priority: preempted */
    plan_free(&p);
    perf_free(f.pm);
}
END_TEST

START_TEST(policy_burst_takes_many_gpus)
{
    fx_t f;
    fx_init(&f);
    int a = fx_job(&f, f.fg, 2, 4, 2, 8); /* elastic 2..8: a burst of 8 */
    int b = fx_job(&f, f.bg, 1, 1, 1, 8); /* elastic background */
    int c = fx_job(&f, f.fg, 2, 4, 2, 8); /* no room left: waits */
    plan_t p;
    fx_plan(&f, NULL, &p);
    int pa, pb, pc;
    ck_assert_int_eq(gpus_of(&p, a, &pa), 8);
    ck_assert_int_eq(pa, b);
    ck_assert_int_eq(gpus_of(&p, b, &pb), 8);
    ck_assert_int_eq(gpus_of(&p, c, &pc), 0);
    plan_free(&p);
    perf_free(f.pm);
}
END_TEST

START_TEST(policy_bad_params)
{
    const policy_ops_t *ops = policy_find("deeppool");
    const char *bad[][2] = {{"multiplex", "2"}, {"fg_priority", "x"}, {"gpus", "1"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *k[1] = {bad[i][0]}, *v[1] = {bad[i][1]};
        policy_args_t a = {1, k, v, 0, NULL};
        void *s = NULL;
        char err[256] = "";
        ck_assert_int_eq(ops->create(&s, &a, err, sizeof err), -1);
        ck_assert(err[0]);
    }
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {multiplexed_pair_rates,
                                  models_without_multiplex_unchanged,
                                  policy_packs_background_on_foreground,
                                  policy_foreground_preempts_background,
                                  policy_burst_takes_many_gpus,
                                  policy_bad_params};
    return check_main("deeppool", tests, sizeof tests / sizeof tests[0]);
}
