/* test_perf_models.c: the pollux backend and batch-size adaptation against hand
 * values, through the backend and through the engine.
 *
 * tests/fixtures/pollux/tiny.json: workload "toy", dataset 100 samples, 3
 * epochs, M0 10, max batch 80, phi [10 20 40] at B 10 and [30 60 120] at B 40;
 * on t4: alpha_grad 0.1, beta_grad 0.01, alpha_local 0.2, beta_local 0.05,
 * alpha_node 0.4, beta_node 0.1, gamma 1, local batch 5..20.
 * tests/fixtures/pollux/adapt_table.json: ResNet-18 at batch 64, 128, 256
 * runs 10, 6, 3.5 iterations/s on one v100. */
#include "model/perf_pollux.h"
#include "sim/adapt.h"
#include "sim/engine.h"
#include "tests/check_main.h"
#include "tests/engine_fixture.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FIX MLS_SRCDIR "/tests/fixtures/pollux/"

static mls_perf_t *load(const char *path)
{
    mls_perf_t *pm = NULL;
    mls_err_t err = {{0}};
    ck_assert_msg(perf_load(&pm, path, &err) == 0, "%s", err.msg);
    return pm;
}

static int close_to(double a, double b, double tol)
{
    return fabs(a - b) <= tol * (fabs(b) > 1 ? fabs(b) : 1);
}

/* Efficiency at M = 20 in epoch e: phi interpolated a third of the way from
 * B 10 to B 40. */
static double toy_phi(int e)
{
    const double lo[] = {10, 20, 40}, hi[] = {30, 60, 120};
    return lo[e] + (hi[e] - lo[e]) / 3;
}

START_TEST(pollux_backend_hand_values)
{
    mls_perf_t *pm = load(FIX "tiny.json");
    ck_assert_str_eq(pm->ops->backend, "pollux");
    int w = perf_workload_index(pm, "toy"), t = perf_gpu_type_index(pm, "T4");
    ck_assert_int_eq(w, 0);
    ck_assert_int_eq(t, 0);
    /* one GPU at M0: T = 0.1 + 0.01 x 10 = 0.2 s, 50 samples/s, efficiency 1 */
    ck_assert(close_to(pm->ops->goodput(pm, w, t, 1, 1, 10, 0, 0), 50, 1e-12));
    ck_assert(close_to(pm->ops->samples_rate(pm, w, t, 1, 1, 10, 0), 50, 1e-12));
    /* two GPUs, one node, 10 each: T = 0.2 + (0.2 + 0) = 0.4 s, 50 samples/s,
     * M = 20, phi = 10 + 20/3 */
    double phi = 10 + 20.0 / 3;
    ck_assert(close_to(perf_pollux_phi(pm, w, 20, 0), phi, 1e-12));
    ck_assert(close_to(pm->ops->goodput(pm, w, t, 2, 1, 10, 0, 0), 50 * (phi + 10) / (phi + 20),
                       1e-12));
    /* across 2 nodes with one accumulation step: T = 0.2 + 0.2 + 0.4 = 0.8,
     * 2 x 10 x 2 / 0.8 = 50 samples/s at M = 40: phi(B 40, epoch 1) = 60 */
    ck_assert(close_to(pm->ops->samples_rate(pm, w, t, 2, 2, 10, 1), 50, 1e-12));
    ck_assert(close_to(pm->ops->goodput(pm, w, t, 2, 2, 10, 1, 150), 50 * 70.0 / 100, 1e-12));
    /* micro-batch over the GPU's limit: cannot run */
    ck_assert(pm->ops->goodput(pm, w, t, 1, 1, 21, 0, 0) == 0);
    /* the table-style query splits a per-GPU batch of 40 on one GPU into
     * 2 x 20: T = 0.3 + 0.3, 40 / 0.6 samples/s; M = 40, phi 30 */
    ck_assert(close_to(pm->ops->throughput(pm, w, t, 1, 1, 40), 40 / 0.6 * 40 / 70, 1e-12));
    /* epoch boundaries every 100 samples; none after the last profiled epoch */
    ck_assert(close_to(pm->ops->next_change(pm, w, 0), 100, 0));
    ck_assert(close_to(pm->ops->next_change(pm, w, 100), 200, 0));
    ck_assert(isinf(pm->ops->next_change(pm, w, 250)));
    perf_batch_limits_t l;
    ck_assert_int_eq(pm->ops->batch_limits(pm, w, t, &l), 0);
    ck_assert_int_eq(l.init_batch, 10);
    ck_assert_int_eq(l.max_batch, 80);
    ck_assert_int_eq(l.max_local_batch, 20);
    ck_assert(l.epoch_work == 100);
    perf_free(pm);
}
END_TEST

/* Goodput per GPU falls as the batch grows past M0 at fixed progress, and
 * rises with progress at a fixed batch above M0 (phi grows). */
/* The backend table: every row loads files whose ops name that row, the
 * specific formats are asked before the table fallback. */
START_TEST(backend_table)
{
    ck_assert_int_eq((int)perf_backend_count(), 3);
    ck_assert_ptr_null(perf_backend_at(perf_backend_count()));
    ck_assert_str_eq(perf_backend_at(perf_backend_count() - 1)->name, "table");
    const char *files[] = {FIX "tiny.json", FIX "adapt_table.json"};
    const char *names[] = {"pollux", "table"};
    for (int i = 0; i < 2; i++) {
        const perf_backend_t *b = perf_backend_for(files[i]);
        ck_assert_str_eq(b->name, names[i]);
        mls_perf_t *pm = load(files[i]);
        ck_assert_str_eq(pm->ops->backend, b->name);
        perf_free(pm);
    }
    mls_perf_t *pm = NULL;
    mls_err_t err = {{0}};
    ck_assert_int_lt(perf_load(&pm, FIX "no-such-file.json", &err), 0);
    ck_assert_ptr_null(pm);
}
END_TEST

START_TEST(pollux_monotone)
{
    mls_perf_t *pm = load(FIX "tiny.json");
    double prev = INFINITY;
    for (int m = 10; m <= 80; m += 5) {
        double e = pollux_efficiency(perf_pollux_phi(pm, 0, m, 1), 10, m);
        ck_assert_msg(e <= prev + 1e-12, "efficiency rose at M=%d", m);
        prev = e;
    }
    for (int m = 20; m <= 80; m += 20) {
        double g0 = pm->ops->goodput(pm, 0, 0, 4, 1, m / 4, 0, 0);
        double g1 = pm->ops->goodput(pm, 0, 0, 4, 1, m / 4, 0, 100);
        double g2 = pm->ops->goodput(pm, 0, 0, 4, 1, m / 4, 0, 200);
        ck_assert_msg(g0 < g1 && g1 < g2, "M=%d: %g %g %g", m, g0, g1, g2);
    }
    perf_free(pm);
}
END_TEST

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void expect_load_error(const char *text, const char *want)
{
    char path[] = "/tmp/mls_pollux_bad_XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    close(fd);
    write_file(path, text);
    mls_perf_t *pm = NULL;
    mls_err_t err = {{0}};
    ck_assert_int_eq(perf_load(&pm, path, &err), -1);
    ck_assert_ptr_null(pm);
    ck_assert_msg(strstr(err.msg, path) && strstr(err.msg, want), "got '%s', want '%s'",
                  err.msg, want);
    unlink(path);
}

#define HEAD "{\"format\": \"mlsched-pollux-catalog\", \"version\": 1, \"workloads\": {\"toy\": {"
#define GNS "\"gns\": {\"batch_sizes\": [10], \"phi\": [[5, 6]]}, "
#define MODEL                                                                                  \
    "\"models\": {\"t4\": {\"alpha_grad\": 0.1, \"beta_grad\": 0.01, \"alpha_local\": 0.2, "    \
    "\"beta_local\": 0.05, \"alpha_node\": 0.4, \"beta_node\": 0.1, \"gamma\": 1, "             \
    "\"min_local_batch\": 5, \"max_local_batch\": 20}}"

START_TEST(pollux_bad_catalog)
{
    expect_load_error(HEAD "\"completion_epochs\": 3, \"init_batch\": 10, \"max_batch\": 80, "
                           GNS MODEL "}}}",
                      "workloads.toy.dataset_size: missing");
    expect_load_error(HEAD "\"dataset_size\": 100, \"completion_epochs\": 3, \"init_batch\": 10, "
                           "\"max_batch\": 80, " GNS
                           "\"models\": {\"t4\": {\"alpha_grad\": 0.1, \"beta_grad\": 0.01}}}}}",
                      "workloads.toy.models.t4.alpha_local: missing");
    expect_load_error(HEAD "\"dataset_size\": 100, \"completion_epochs\": 3, \"init_batch\": 10, "
                           "\"max_batch\": 80, "
                           "\"gns\": {\"batch_sizes\": [10, 20], \"phi\": [[5, 6]]}, " MODEL
                           "}}}",
                      "workloads.toy.gns.phi: must hold one array per batch size");
    expect_load_error(HEAD "\"dataset_size\": 100, \"completion_epochs\": 3, \"init_batch\": 10, "
                           "\"max_batch\": 80, \"colour\": 1, " GNS MODEL "}}}",
                      "workloads.toy.colour: unknown field");
    expect_load_error(HEAD "\"dataset_size\": -1, \"completion_epochs\": 3, \"init_batch\": 10, "
                           "\"max_batch\": 80, " GNS MODEL "}}}",
                      "workloads.toy.dataset_size: must be a number");
    expect_load_error("{\"format\": \"mlsched-pollux-catalog\", \"version\": 1,\n \"workloads\": ",
                      ":2: not valid JSON");
}
END_TEST

/* ---- through the engine ------------------------------------------------------ */

typedef struct world {
    mls_cluster_t cluster;
    mls_trace_t trace;
    mls_perf_t *perf;
    engine_config_t cfg;
    sim_result_t res;
} world_t;

static void world_init(world_t *w, const char *perf, const char *cluster)
{
    memset(w, 0, sizeof *w);
    mls_err_t err = {{0}};
    ck_assert_msg(cluster_from_spec(&w->cluster, cluster, &err) == 0, "%s", err.msg);
    trace_init(&w->trace);
    w->perf = load(perf);
    engine_config_defaults(&w->cfg);
    w->cfg.round_len = 0;
    w->cfg.restart_overhead = 0;
}

static void add_job(world_t *w, int64_t id, const char *workload, int gpus, double work,
                    int batch, mls_adapt_mode_t mode)
{
    mls_job_t j = {0};
    j.id = id;
    j.user = strtab_intern(&w->trace.users, "u");
    j.workload = strtab_intern(&w->trace.workloads, workload);
    j.gpus = j.min_gpus = j.max_gpus = gpus;
    j.work = work;
    j.duration = NAN;
    j.priority = 1;
    j.deadline = INFINITY;
    j.batch_size = batch;
    j.mode = mode;
    trace_add(&w->trace, &j);
}

static void run(world_t *w, const policy_ops_t *p)
{
    mls_err_t err = {{0}};
    int rc = engine_run(&w->trace, &w->cluster, w->perf, p, NULL, &w->cfg, &w->res, &err);
    ck_assert_msg(rc == 0, "engine_run: %s", err.msg);
}

static void world_free(world_t *w)
{
    sim_result_free(&w->res);
    perf_free(w->perf);
    cluster_free(&w->cluster);
    trace_free(&w->trace);
}

/* A toy job on 2 GPUs of one node at 10 per GPU: 50 samples/s, efficiency
 * (phi_e + 10) / (phi_e + 20) in each of its 3 epochs of 100 samples. */
START_TEST(engine_pollux_epochs)
{
    world_t w;
    world_init(&w, FIX "tiny.json", "t4=1x4");
    add_job(&w, 1, "toy", 2, 300, 10, ADAPT_STATIC);
    run(&w, policy_find("fifo"));
    double t = 0;
    for (int e = 0; e < 3; e++)
        t += 100 / (50 * (toy_phi(e) + 10) / (toy_phi(e) + 20));
    ck_assert_msg(close_to(w.res.jobs[0].finish, t, 1e-12), "finish %.12f, hand %.12f",
                  w.res.jobs[0].finish, t);
    ck_assert(close_to(w.res.jobs[0].isolated_time, t, 1e-12));
    world_free(&w);
}
END_TEST

/* A job alone on its requested allocation finishes at the duration the
 * perf model gives it (plus its start overhead), under both backends, with
 * and without rounds: progress is exact, so to rounding. */
START_TEST(alone_finishes_at_duration)
{
    double rates[] = {2.5};
    for (int rounds = 0; rounds < 2; rounds++) {
        world_t w;
        memset(&w, 0, sizeof w);
        fixture_cluster(&w.cluster, 1, 4);
        trace_init(&w.trace);
        fixture_job(&w.trace, 1, 7, 0, 4, 1000);
        w.perf = fixture_perf(1, rates);
        engine_config_defaults(&w.cfg);
        w.cfg.round_len = rounds ? 60 : 0;
        run(&w, policy_find("fifo"));
        double dur = 20 + 1000 / (2.5 * 4);
        ck_assert(close_to(w.res.jobs[0].finish - 7, dur, 1e-12));
        ck_assert(close_to(w.res.jobs[0].isolated_time, dur, 1e-12));
        world_free(&w);
    }
    char path[512];
    snprintf(path, sizeof path, "%s/traces/catalog/pollux.json", MLS_SRCDIR);
    world_t w;
    world_init(&w, path, "t4=2x4");
    w.cfg.round_len = 60;
    w.cfg.restart_overhead = 30;
    add_job(&w, 1, "cifar10", 4, 50048.0 * 100, 0, ADAPT_STATIC);
    run(&w, policy_find("fifo"));
    /* the same job walked epoch by epoch through the backend */
    const mls_perf_t *pm = w.perf;
    int wl = perf_workload_index(pm, "cifar10"), t4 = perf_gpu_type_index(pm, "t4");
    perf_batch_limits_t l;
    pm->ops->batch_limits(pm, wl, t4, &l);
    int atomic, accum;
    pollux_split_batch(ceil(fmax(l.init_batch, 4.0 * l.min_local_batch) / 4), 4, l.init_batch,
                       l.max_batch, l.max_local_batch, &atomic, &accum);
    double time = 30;
    for (int e = 0; e < 100; e++)
        time += l.epoch_work / pm->ops->goodput(pm, wl, t4, 4, 1, atomic, accum, e * l.epoch_work);
    ck_assert_msg(close_to(w.res.jobs[0].finish, time, 1e-9), "%.6f vs %.6f",
                  w.res.jobs[0].finish, time);
    world_free(&w);
}
END_TEST

/* A recording policy: fifo, and at each call notes the first job's batch and
 * what the oracle interface shows. */
typedef struct rec {
    int n;
    double when[16];
    int batch[16];
    unsigned why[16];
    int sched_n;
    view_batch_step_t sched[8];
    double eff_before;
} rec_t;

static int rec_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t n)
{
    (void)err;
    (void)n;
    rec_t *r = state;
    if (r->n < 16 && v->n_jobs) {
        r->when[r->n] = v->now;
        r->batch[r->n] = v->jobs[0].batch_size;
        r->why[r->n] = v->reasons;
        if (r->n == 0) {
            r->sched_n = v->perf->batch_schedule(v->perf->ctx, &v->jobs[0], r->sched, 8);
            r->eff_before = v->perf->efficiency(v->perf->ctx, &v->jobs[0], 64);
        }
        r->n++;
    }
    for (int k = 0; k < v->n_jobs; k++)
        plan_run(plan, k, 0, v->jobs[k].gpus_requested);
    return 0;
}

/* The recording policy's state comes back to the test through its one
 * argument, out=<address> (the policy API has no other way out). */
static int rec_create_out(void **state, const policy_args_t *a, char *err, size_t n)
{
    void *p = NULL;
    ck_assert(a && a->n == 1 && sscanf(a->values[0], "%p", &p) == 1);
    (void)err;
    (void)n;
    *state = p;
    return 0;
}

/* gns ResNet-18 at 64 on one GPU over 40 epochs of 50,000 samples (782
 * iterations each): x2 from epoch 10, x4 from 30 (256 = the cap; Shockwave's
 * pattern for (ResNet-18, 64, 1 GPU) doubles at 11 and 31, one epoch ahead).
 * Epoch 10 starts after 10 x 782 iterations at 10/s; epochs 10..29 take
 * 20 x 391 / 6 s; 30..39 take 10 x 196 / 3.5 s. The policy is called at each
 * change and sees the new batch; only an oracle sees the schedule ahead. */
START_TEST(engine_gns_boundaries)
{
    for (int oracle = 0; oracle < 2; oracle++) {
        rec_t r = {0};
        char addr[32];
        snprintf(addr, sizeof addr, "%p", (void *)&r);
        const char *keys[] = {"out"}, *vals[] = {addr};
        policy_args_t args = {1, keys, vals, 0, NULL};
        policy_ops_t p = {"rec", "test", "records", "", oracle, MLS_CADENCE_EVENTS,
                          rec_create_out, rec_schedule, NULL, NULL, 0, NULL};
        world_t w;
        world_init(&w, FIX "adapt_table.json", "v100=1x1");
        add_job(&w, 1, "ResNet-18 (batch size 64)", 1, 782 * 40, 0, ADAPT_GNS);
        mls_err_t err = {{0}};
        int rc = engine_run(&w.trace, &w.cluster, w.perf, &p, &args, &w.cfg, &w.res, &err);
        ck_assert_msg(rc == 0, "%s", err.msg);
        double t1 = 10 * 782 / 10.0, t2 = t1 + 20 * 391 / 6.0, t3 = t2 + 10 * 196 / 3.5;
        ck_assert_msg(close_to(w.res.jobs[0].finish, t3, 1e-12), "finish %.9f, hand %.9f",
                      w.res.jobs[0].finish, t3);
        ck_assert(close_to(w.res.jobs[0].isolated_time, t3, 1e-12));
        ck_assert_int_eq(r.n, 3); /* arrival, then the two batch changes */
        ck_assert_int_eq(r.batch[0], 64);
        ck_assert_msg(close_to(r.when[1], t1, 1e-12) && r.batch[1] == 128, "%g %d", r.when[1],
                      r.batch[1]);
        ck_assert(close_to(r.when[2], t2, 1e-12) && r.batch[2] == 256);
        ck_assert(r.why[1] & MLS_WHY_BATCH_CHANGE);
        ck_assert(isnan(r.eff_before)); /* a table model has no noise scale */
        if (oracle) {
            ck_assert_int_eq(r.sched_n, 3);
            ck_assert(r.sched[1].epoch == 10 && r.sched[1].batch == 128);
            ck_assert(r.sched[2].epoch == 30 && r.sched[2].batch == 256);
        } else {
            ck_assert_int_eq(r.sched_n, -1);
        }
        world_free(&w);
    }
}
END_TEST

START_TEST(adapt_schedules)
{
    /* gns: Shockwave's pattern per (model, batch, GPUs), one epoch ahead */
    const char *r18 = "ResNet-18 (batch size 64)";
    ck_assert_int_eq(adapt_batch_at(ADAPT_GNS, r18, 64, 1, 9), 64);
    ck_assert_int_eq(adapt_batch_at(ADAPT_GNS, r18, 64, 1, 10), 128);
    ck_assert_int_eq(adapt_batch_at(ADAPT_GNS, r18, 64, 1, 29), 128);
    ck_assert_int_eq(adapt_batch_at(ADAPT_GNS, r18, 64, 1, 30), 256);
    ck_assert_int_eq(adapt_batch_at(ADAPT_GNS, r18, 64, 2, 19), 64); /* 2 GPUs: from 21 */
    ck_assert_int_eq(adapt_batch_at(ADAPT_GNS, r18, 64, 2, 20), 128);
    ck_assert_int_eq(adapt_batch_at(ADAPT_GNS, r18, 64, 8, 500), 64); /* not listed */
    ck_assert_int_eq(adapt_batch_at(ADAPT_GNS, "LM (batch size 5)", 5, 1, 29), 5);
    ck_assert_int_eq(adapt_batch_at(ADAPT_GNS, "LM (batch size 5)", 5, 1, 30), 10);
    ck_assert_int_eq(adapt_batch_at(ADAPT_GNS, "LM (batch size 5)", 5, 1, 80), 80);
    ck_assert_int_eq(adapt_batch_at(ADAPT_GNS, "Transformer (batch size 16)", 16, 1, 300), 16);
    ck_assert_int_eq(adapt_batch_at(ADAPT_GNS, "CycleGAN (batch size 1)", 1, 1, 80), 1);
    /* accordion: the critical regimes at the initial batch, none of the
     * get_accordion_bs_pattern's first-30 % rule */
    ck_assert_int_eq(adapt_batch_at(ADAPT_ACCORDION, r18, 64, 1, 9), 64);
    ck_assert_int_eq(adapt_batch_at(ADAPT_ACCORDION, r18, 64, 1, 10), 256);
    ck_assert_int_eq(adapt_batch_at(ADAPT_ACCORDION, r18, 64, 1, 155), 64);
    ck_assert_int_eq(adapt_batch_at(ADAPT_ACCORDION, "ResNet-50 (batch size 64)", 64, 1, 65), 64);
    ck_assert_int_eq(adapt_batch_at(ADAPT_ACCORDION, "ResNet-50 (batch size 64)", 64, 1, 75),
                     128);
    ck_assert_int_eq(adapt_batch_at(ADAPT_ACCORDION, "Transformer (batch size 64)", 64, 1, 75),
                     64);
    ck_assert_int_eq(adapt_batch_at(ADAPT_ACCORDION, "LM (batch size 80)", 80, 1, 75), 80);
    ck_assert_int_eq(adapt_batch_at(ADAPT_STATIC, r18, 64, 1, 75), 64);
}
END_TEST

/* LIFO on one GPU: the newest job runs, the others wait. */
static int lifo_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t n)
{
    (void)state;
    (void)err;
    (void)n;
    if (v->n_jobs)
        plan_run(plan, v->n_jobs - 1, 0, 1);
    return 0;
}

/* j0 (100 s of work) runs from 0, is preempted at 10 by j1 (5 s), and comes
 * back at 15 on the GPU it left: a Gandiva resume (0.25 s) instead of a
 * restart (5 s) when "suspend" is set; it follows "restart" otherwise. */
START_TEST(suspend_resume)
{
    for (int gandiva = 0; gandiva < 2; gandiva++) {
        double rates[] = {1.0};
        world_t w;
        memset(&w, 0, sizeof w);
        fixture_cluster(&w.cluster, 1, 1);
        trace_init(&w.trace);
        fixture_job(&w.trace, 0, 0, 0, 1, 100);
        fixture_job(&w.trace, 1, 10, 0, 1, 5);
        w.perf = fixture_perf(1, rates);
        engine_config_defaults(&w.cfg);
        w.cfg.round_len = 0;
        char path[] = "/tmp/mls_susp_XXXXXX";
        int fd = mkstemp(path);
        ck_assert(fd >= 0);
        close(fd);
        write_file(path, gandiva
                             ? "{\"default\": {\"start\": 0, \"restart\": 5, \"suspend\": 0.25}}"
                             : "{\"default\": {\"start\": 0, \"restart\": 5}}");
        overheads_t o;
        overheads_init(&o, 20);
        mls_err_t err = {{0}};
        ck_assert_msg(overheads_load_json(&o, path, &err) == 0, "%s", err.msg);
        unlink(path);
        ck_assert(overheads_get(&o, "w0", OVH_SUSPEND) == (gandiva ? 0.25 : 5));
        w.cfg.overheads = &o;
        policy_ops_t lifo = {"lifo", "-", "-", "", 0, MLS_CADENCE_EVENTS, NULL, lifo_schedule,
                             NULL,   NULL, 0, NULL};
        run(&w, &lifo);
        ck_assert(close_to(w.res.jobs[1].finish, 15, 1e-12));
        ck_assert_msg(close_to(w.res.jobs[0].finish, gandiva ? 105.25 : 110, 1e-12), "%.9f",
                      w.res.jobs[0].finish);
        overheads_free(&o);
        world_free(&w);
    }
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {
        pollux_backend_hand_values, backend_table,        pollux_monotone,
        pollux_bad_catalog,         engine_pollux_epochs, alone_finishes_at_duration,
        engine_gns_boundaries,      adapt_schedules,      suspend_resume,
    };
    const check_opts_t opts = {.nofork = 1};
    return check_main_opts("perf_models", tests, sizeof tests / sizeof tests[0], &opts);
}
