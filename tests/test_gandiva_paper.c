/* test_gandiva_paper.c: the gandiva-paper policy run on the engine, against
 * schedules worked out by hand.
 *
 * The perf model here is linear: a job does 1 work unit/s per V100 (0.5 per
 * K80, in the one case with two types);
 * two jobs sharing GPUs each do `pair` times their solo rate (set per test:
 * 0.6, a packing that pays, normalized throughput 1.2; 0.3, one that loses,
 * 0.6). Rounds (the quantum) are 60 s. Each case states its timeline. */
#include "policies/policy.h"
#include "sim/engine.h"
#include "sim/overheads.h"
#include "tests/check_main.h"
#include "tests/engine_fixture.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tperf {
    mls_perf_t base;
    double pair;
    int n_types; /* 1: v100; 2: v100 and k80 (half as fast) */
} tperf_t;

static int tp_n_workloads(const mls_perf_t *pm)
{
    (void)pm;
    return 1;
}

static const char *tp_workload_name(const mls_perf_t *pm, int w)
{
    (void)pm;
    (void)w;
    return "w0";
}

static int tp_n_types(const mls_perf_t *pm)
{
    return ((const tperf_t *)pm)->n_types;
}

static const char *tp_type_name(const mls_perf_t *pm, int t)
{
    (void)pm;
    return t == 0 ? "v100" : "k80";
}

static double tp_throughput(const mls_perf_t *pm, int w, int t, int gpus, int nodes, int batch)
{
    (void)pm;
    (void)w;
    (void)nodes;
    (void)batch;
    return t == 0 ? gpus : 0.5 * gpus;
}

static int tp_pair(const mls_perf_t *pm, int a, int b, int t, int gpus, double out[2])
{
    (void)a;
    (void)b;
    out[0] = out[1] = ((const tperf_t *)pm)->pair * (t == 0 ? gpus : 0.5 * gpus);
    return 0;
}

static void tp_destroy(mls_perf_t *pm)
{
    free(pm);
}

static const perf_ops_t tp_ops = {.backend = "test",
                                  .n_workloads = tp_n_workloads,
                                  .workload_name = tp_workload_name,
                                  .n_gpu_types = tp_n_types,
                                  .gpu_type_name = tp_type_name,
                                  .throughput = tp_throughput,
                                  .pair = tp_pair,
                                  .destroy = tp_destroy};

typedef struct world {
    mls_cluster_t cluster;
    mls_trace_t trace;
    tperf_t *perf;
    overheads_t ovh;
    engine_config_t cfg;
    sim_result_t res;
} world_t;

/* Overheads: start 0, suspend `suspend`, restart/resize/migrate `other`. */
static void world_init(world_t *w, int nodes, int gpus_per_node, double pair, double suspend,
                       double other)
{
    memset(w, 0, sizeof *w);
    fixture_cluster(&w->cluster, nodes, gpus_per_node);
    trace_init(&w->trace);
    w->perf = calloc(1, sizeof *w->perf);
    w->perf->base.ops = &tp_ops;
    w->perf->pair = pair;
    w->perf->n_types = 1;
    engine_config_defaults(&w->cfg);
    w->cfg.round_len = 60;
    overheads_init(&w->ovh, other);
    w->ovh.def[OVH_START] = 0;
    w->ovh.def[OVH_SUSPEND] = suspend;
    w->cfg.overheads = &w->ovh;
}

static void world_run(world_t *w, const char *param)
{
    const char *keys[] = {"pack"}, *vals[] = {param};
    policy_args_t args = {param ? 1 : 0, keys, vals, 0, NULL};
    mls_err_t err = {{0}};
    const policy_ops_t *p = policy_find("gandiva-paper");
    ck_assert_ptr_nonnull(p);
    int rc = engine_run(&w->trace, &w->cluster, &w->perf->base, p, &args, &w->cfg, &w->res, &err);
    ck_assert_msg(rc == 0, "engine_run: %s", err.msg);
}

static void world_free(world_t *w)
{
    sim_result_free(&w->res);
    w->perf->base.ops->destroy(&w->perf->base);
    overheads_free(&w->ovh);
    cluster_free(&w->cluster);
    trace_free(&w->trace);
}

static void expect(const world_t *w, size_t i, double finish)
{
    ck_assert(w->res.jobs[i].finished);
    ck_assert_msg(fabs(w->res.jobs[i].finish - finish) < 1e-6, "job %zu finished at %.6f, not %.6f",
                  i, w->res.jobs[i].finish, finish);
}

/* Time-slicing: A and B (1 GPU, 120 units) on one GPU, no packing; suspend
 * 0.5 s, start free. A 0-60 (60), B 60-120 (60), A resumes at 120, runs
 * 120.5-180 (119.5), B 180.5-240 (119.5); at 240 both received 120 s, A (the
 * earlier) goes: 240.5-241 ends; B resumes at 241, ends at 242. Each was
 * resumed twice, each resume costing the suspend 0.5 s, not a restart. */
START_TEST(time_slice_equal_shares)
{
    world_t w;
    world_init(&w, 1, 1, 0.6, 0.5, 30);
    fixture_job(&w.trace, 0, 0, 0, 1, 120);
    fixture_job(&w.trace, 1, 0, 0, 1, 120);
    world_run(&w, "0");
    expect(&w, 0, 241);
    expect(&w, 1, 242);
    ck_assert_int_eq(w.res.jobs[0].preemptions, 2);
    ck_assert_int_eq(w.res.jobs[1].preemptions, 2);
    ck_assert_int_eq(w.res.jobs[1].restarts, 2);
    world_free(&w);
}
END_TEST

/* Three jobs on two GPUs (C arrives at 30): C joins A's slot with A's time
 * received so far (30 s), not 0, so it does not run A out: C 60-120, A
 * 120-180, C 180-240, A 240-300. B, alone on GPU 1, ends at 300 and frees it:
 * C (suspended, 120 done) moves there and ends at 480; A (180 done) keeps GPU
 * 0 alone and ends at 420. */
START_TEST(time_slice_joiner_gets_equal_share)
{
    world_t w;
    world_init(&w, 1, 2, 0.6, 0, 0);
    fixture_job(&w.trace, 0, 0, 0, 1, 300);
    fixture_job(&w.trace, 1, 0, 0, 1, 300);
    fixture_job(&w.trace, 2, 30, 0, 1, 300);
    world_run(&w, "0");
    expect(&w, 0, 420);
    expect(&w, 1, 300);
    expect(&w, 2, 480);
    world_free(&w);
}
END_TEST

/* Packing that pays (pair rate 0.6 each): A 0-60 and B 60-120 alone (their
 * solo rates, 1, are observed), packed at 120; measured at 180: 0.6 + 0.6 =
 * 1.2 >= 1, kept. Each has 240 left at 0.6/s: both end at 520 (time-slicing
 * alone would end at 540 and 600). */
START_TEST(packing_kept_by_measured_rates)
{
    world_t w;
    world_init(&w, 1, 1, 0.6, 0, 0);
    fixture_job(&w.trace, 0, 0, 0, 1, 300);
    fixture_job(&w.trace, 1, 0, 0, 1, 300);
    world_run(&w, NULL);
    expect(&w, 0, 520);
    expect(&w, 1, 520);
    world_free(&w);
}
END_TEST

/* Packing that loses (0.3 each): packed at 120, measured at 180 (0.6 < 1),
 * reverted and never tried again: A 78 and B 78 done, both received 120 s.
 * Quanta alternate from 180, A first: A has 258 at 540, its 42 left run
 * 540-582; B (258 at 540) 582-624. */
START_TEST(packing_reverted_by_measured_rates)
{
    world_t w;
    world_init(&w, 1, 1, 0.3, 0, 0);
    fixture_job(&w.trace, 0, 0, 0, 1, 300);
    fixture_job(&w.trace, 1, 0, 0, 1, 300);
    world_run(&w, NULL);
    expect(&w, 0, 582);
    expect(&w, 1, 624);
    world_free(&w);
}
END_TEST

/* Migration: two nodes of 4 GPUs. A, B, C (2 GPUs each, rate 2) start at 0:
 * A on GPUs 0-1, B on 2-3 (best fit), C on 4-5. B (20 units) ends at 10. D
 * (4 GPUs) arrives at 20: 4 GPUs are free, but 2 on each node; no slot of 4
 * to share. Gandiva moves A (40 done) to GPUs 6-7 (migrate cost 5 s: it
 * resumes at 25, 360 left: ends at 205) and D starts at once on node 0
 * (400 units at 4/s: ends at 120). C ends at 200. Without migration D would
 * wait for A or C. */
START_TEST(migration_defragments_for_a_waiting_job)
{
    world_t w;
    world_init(&w, 2, 4, 0.6, 0, 5);
    fixture_job(&w.trace, 0, 0, 0, 2, 400);
    fixture_job(&w.trace, 1, 0, 0, 2, 20);
    fixture_job(&w.trace, 2, 0, 0, 2, 400);
    fixture_job(&w.trace, 3, 20, 0, 4, 400);
    world_run(&w, NULL);
    expect(&w, 0, 205);
    expect(&w, 1, 10);
    expect(&w, 2, 200);
    expect(&w, 3, 120);
    ck_assert_double_eq_tol(w.res.jobs[3].first_start, 20, 1e-9);
    ck_assert_int_eq(w.res.jobs[0].restarts, 1);
    ck_assert_int_eq(w.res.jobs[0].preemptions, 0);
    world_free(&w);
}
END_TEST

/* Grow-shrink: E (elastic 1-4 GPUs, asks 1, 600 units) alone on 4 GPUs grows
 * to 4 at 0 (4/s; resize free here: other overheads 0). F (1 GPU, 60 units)
 * arrives at 60 with E at 240: E gives back what F needs and keeps the idle
 * rest (3 GPUs, 3/s), F ends at 120; E (420 done) grows to 4 again: 180 left
 * at 4/s, ends at 165. */
START_TEST(grow_and_shrink)
{
    world_t w;
    world_init(&w, 1, 4, 0.6, 0, 0);
    fixture_job(&w.trace, 0, 0, 0, 1, 600);
    fixture_job(&w.trace, 1, 60, 0, 1, 60);
    w.trace.jobs[0].max_gpus = 4;
    world_run(&w, NULL);
    expect(&w, 1, 120);
    expect(&w, 0, 165);
    ck_assert_int_eq(w.res.jobs[0].restarts, 2);
    world_free(&w);
}
END_TEST

/* Migration to a faster type: one V100 and one K80 (half as fast). A (100
 * units) takes the V100, B (400) the K80 at 0.5/s. A ends at 100; B (50 done)
 * moves to the V100 (migrate 10 s), resumes at 110 and ends at 460 (800 on
 * the K80). At the next round its measured rate (1/s, up from 0.5) keeps the
 * move. */
START_TEST(migration_to_a_faster_type)
{
    world_t w;
    world_init(&w, 1, 1, 0.6, 0, 10);
    cluster_free(&w.cluster);
    mls_err_t err = {{0}};
    ck_assert_int_eq(cluster_from_spec(&w.cluster, "v100=1x1,k80=1x1", &err), 0);
    w.perf->n_types = 2;
    fixture_job(&w.trace, 0, 0, 0, 1, 100);
    fixture_job(&w.trace, 1, 0, 0, 1, 400);
    world_run(&w, NULL);
    expect(&w, 0, 100);
    expect(&w, 1, 460);
    ck_assert_int_eq(w.res.jobs[1].restarts, 1);
    world_free(&w);
}
END_TEST

START_TEST(bad_params_rejected)
{
    const policy_ops_t *p = policy_find("gandiva-paper");
    const char *keys[] = {"pack"}, *bad[] = {"2"}, *keys2[] = {"quantum"}, *v2[] = {"60"};
    policy_args_t a = {1, keys, bad, 0, NULL}, b = {1, keys2, v2, 0, NULL};
    void *st = NULL;
    char err[200] = "";
    ck_assert_int_eq(p->create(&st, &a, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "0 or 1"), "%s", err);
    err[0] = 0;
    ck_assert_int_eq(p->create(&st, &b, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "quantum"), "%s", err);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {time_slice_equal_shares,
                            time_slice_joiner_gets_equal_share,
                            packing_kept_by_measured_rates,
                            packing_reverted_by_measured_rates,
                            migration_defragments_for_a_waiting_job,
                            migration_to_a_faster_type,
                            grow_and_shrink,
                            bad_params_rejected};
    return check_main("gandiva_paper", tests, sizeof tests / sizeof *tests);
}
