/* test_engine.c: the engine against hand-computed schedules.
 *
 * Three 1-GPU jobs on two GPUs, rate 1 work unit/s:
 *   j0 at t=0, 100 units; j1 at t=0, 30 units; j2 at t=10, 20 units.
 * The expected finish times below were worked out by hand (see each test). */
#include "sim/engine.h"
#include "tests/check_main.h"
#include "tests/engine_fixture.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct world {
    mls_cluster_t cluster;
    mls_trace_t trace;
    mls_perf_t *perf;
    engine_config_t cfg;
    sim_result_t res;
} world_t;

static void three_jobs(world_t *w, double overhead)
{
    double rates[] = {1.0};
    memset(w, 0, sizeof *w);
    fixture_cluster(&w->cluster, 2, 1);
    trace_init(&w->trace);
    fixture_job(&w->trace, 0, 0, 0, 1, 100);
    fixture_job(&w->trace, 1, 0, 0, 1, 30);
    fixture_job(&w->trace, 2, 10, 0, 1, 20);
    w->perf = fixture_perf(1, rates);
    engine_config_defaults(&w->cfg);
    w->cfg.round_len = 0;
    w->cfg.restart_overhead = overhead;
}

static void world_free(world_t *w)
{
    sim_result_free(&w->res);
    perf_free(w->perf);
    cluster_free(&w->cluster);
    trace_free(&w->trace);
}

static void run_policy(world_t *w, const char *name)
{
    mls_err_t err = {{0}};
    const policy_ops_t *p = policy_find(name);
    ck_assert_ptr_nonnull(p);
    int rc = engine_run(&w->trace, &w->cluster, w->perf, p, NULL, &w->cfg, &w->res, &err);
    ck_assert_msg(rc == 0, "engine_run(%s): %s", name, err.msg);
}

static void expect_finish(const world_t *w, const double *finish)
{
    for (size_t i = 0; i < w->res.n_jobs; i++) {
        ck_assert(w->res.jobs[i].finished);
        ck_assert_msg(fabs(w->res.jobs[i].finish - finish[i]) < 1e-9,
                      "job %zu finished at %.9f, expected %.9f", i, w->res.jobs[i].finish,
                      finish[i]);
    }
}

/* fifo: j0 and j1 start at 0; j2 waits for j1 (done at 30) and ends at 50. */
START_TEST(fifo_no_overhead)
{
    world_t w;
    three_jobs(&w, 0);
    run_policy(&w, "fifo");
    double f[] = {100, 30, 50};
    expect_finish(&w, f);
    ck_assert(fabs(w.res.summary.avg_jct - (100 + 30 + 40) / 3.0) < 1e-9);
    ck_assert(fabs(w.res.summary.makespan - 100) < 1e-9);
    ck_assert(fabs(w.res.summary.avg_queue_delay - 20 / 3.0) < 1e-9);
    /* busy: 100 + 30 + 20 GPU-s over 2 GPUs x 100 s */
    ck_assert(fabs(w.res.summary.utilization - 150 / 200.0) < 1e-9);
    world_free(&w);
}
END_TEST

/* Early feedback (Gandiva): the time from submission to a job's first 40
 * work units. fifo, 20 s overhead: j0 and j1 start at 0 and move from 20:
 * 60 s; j2 (20 units, fewer than 40) waits for j1 (done at 50), restarts
 * 50..70 and ends at 90: its feedback is its JCT, 80 s. */
START_TEST(early_feedback)
{
    world_t w;
    three_jobs(&w, 20);
    w.cfg.feedback_work = 40;
    run_policy(&w, "fifo");
    ck_assert(fabs(w.res.jobs[0].feedback - 60) < 1e-9);
    ck_assert(fabs(w.res.jobs[1].feedback - (20 + 30)) < 1e-9); /* 30 units: at its end, 50 */
    ck_assert(fabs(w.res.jobs[2].feedback - 80) < 1e-9);
    ck_assert(fabs(w.res.summary.avg_feedback - (60 + 50 + 80) / 3.0) < 1e-9);
    world_free(&w);
}
END_TEST

/* fifo, 20 s restart overhead: j0 0..120, j1 0..50, j2 50+20+20 = 90. */
START_TEST(fifo_overhead)
{
    world_t w;
    three_jobs(&w, 20);
    run_policy(&w, "fifo");
    double f[] = {120, 50, 90};
    expect_finish(&w, f);
    world_free(&w);
}
END_TEST

/* srtf: at 10, remaining j0 90, j1 20, j2 20: j1 and j2 run, j0 is
 * preempted; both end at 30; j0 resumes with 90 left and ends at 120. */
START_TEST(srtf_no_overhead)
{
    world_t w;
    three_jobs(&w, 0);
    run_policy(&w, "srtf");
    double f[] = {120, 30, 30};
    expect_finish(&w, f);
    ck_assert_int_eq(w.res.jobs[0].preemptions, 1);
    ck_assert_int_eq(w.res.jobs[0].restarts, 1);
    world_free(&w);
}
END_TEST

/* srtf, 20 s overhead: at 10 nothing has progressed (overhead until 20):
 * remaining j0 100, j1 30, j2 20, so j0 is preempted. j1 ends 20+30 = 50,
 * j2 starts at 10 and ends 10+20+20 = 50; j0 restarts at 50, ends 170. */
START_TEST(srtf_overhead)
{
    world_t w;
    three_jobs(&w, 20);
    run_policy(&w, "srtf");
    double f[] = {170, 50, 50};
    expect_finish(&w, f);
    world_free(&w);
}
END_TEST

/* las (event-driven): at 10, attained j0 10, j1 10, j2 0: j2 and j0 (tie on
 * service broken by submit, id) run, j1 waits. j2 ends at 30; then j0 (30 s
 * attained) and j1 run: j1 has 20 left (ends 50), j0 70 left (ends 100). */
START_TEST(las_no_overhead)
{
    world_t w;
    three_jobs(&w, 0);
    run_policy(&w, "las");
    double f[] = {100, 50, 30};
    expect_finish(&w, f);
    world_free(&w);
}
END_TEST

/* las with 20 s overhead: at 10 attained (GPU-seconds held) j0 10, j1 10,
 * j2 0: j2 starts (ends 10+20+20 = 50), j1 is preempted having made no
 * progress (overhead until 20), j0 keeps running: 20..120. At 50, j1 (10
 * attained) restarts: 50+20+30 = 100. */
START_TEST(las_overhead)
{
    world_t w;
    three_jobs(&w, 20);
    run_policy(&w, "las");
    double f[] = {120, 100, 50};
    expect_finish(&w, f);
    world_free(&w);
}
END_TEST

/* A job alone on its request takes work / rate + overhead; rho = 1. */
START_TEST(alone_rho_is_one)
{
    world_t w;
    double rates[] = {2.0};
    memset(&w, 0, sizeof w);
    fixture_cluster(&w.cluster, 1, 4);
    trace_init(&w.trace);
    fixture_job(&w.trace, 7, 5, 0, 4, 800);
    w.perf = fixture_perf(1, rates);
    engine_config_defaults(&w.cfg);
    run_policy(&w, "fifo");
    ck_assert(fabs(w.res.jobs[0].finish - (5 + 20 + 100)) < 1e-9);
    ck_assert(fabs(w.res.jobs[0].rho - 1) < 1e-9);
    world_free(&w);
}
END_TEST

/* Two runs of the same inputs give identical per-job results. */
START_TEST(deterministic)
{
    world_t a, b;
    three_jobs(&a, 20);
    three_jobs(&b, 20);
    a.cfg.round_len = b.cfg.round_len = 37;
    run_policy(&a, "las");
    run_policy(&b, "las");
    ck_assert_int_eq((int)a.res.n_jobs, (int)b.res.n_jobs);
    ck_assert(memcmp(a.res.jobs, b.res.jobs, a.res.n_jobs * sizeof *a.res.jobs) == 0);
    world_free(&a);
    world_free(&b);
}
END_TEST

/* fifo declares progress_unread: the engine leaves the progress of a job that
 * did not change as it was (at t=10, j0 and j1 run on unchanged), and every
 * result is, to the bit, that of the same policy with every field at now. */
START_TEST(progress_unread_same_results)
{
    world_t a, b;
    three_jobs(&a, 0);
    three_jobs(&b, 0);
    const policy_ops_t *fifo = policy_find("fifo");
    ck_assert(fifo->progress_unread);
    policy_ops_t eager = *fifo;
    eager.progress_unread = 0;
    run_policy(&a, "fifo");
    mls_err_t err = {{0}};
    ck_assert(engine_run(&b.trace, &b.cluster, b.perf, &eager, NULL, &b.cfg, &b.res, &err) == 0);
    ck_assert_int_eq((int)a.res.n_jobs, (int)b.res.n_jobs);
    ck_assert(memcmp(a.res.jobs, b.res.jobs, a.res.n_jobs * sizeof *a.res.jobs) == 0);
    ck_assert_int_eq((int)a.res.summary.decisions, (int)b.res.summary.decisions);
    world_free(&a);
    world_free(&b);
}
END_TEST

/* Queued-only decisions (policy_ops_t.schedule_queued): fifo, las and
 * tiresias-las decide from the queued jobs when they can, and the results
 * are, to the bit, those of the same policy on the full view at every
 * decision. 80 jobs of 1, 2 or 4 GPUs on two GPU types (k80 at half speed),
 * busy enough that las and tiresias-las preempt (so both paths are taken),
 * long enough that tiresias-las demotes running jobs between full views. */
static void busy_world(world_t *w)
{
    double rates[] = {1.0, 2.0, 0.5};
    mls_err_t err = {{0}};
    memset(w, 0, sizeof *w);
    ck_assert(cluster_from_spec(&w->cluster, "v100=3x4,k80=2x2", &err) == 0);
    trace_init(&w->trace);
    unsigned long x = 12345; /* a small LCG: the same jobs every run */
    double t = 0;
    for (int i = 0; i < 80; i++) {
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        t += (double)((x >> 33) % 900);
        int gpus = 1 << ((x >> 20) % 3);
        fixture_job(&w->trace, i, t, (int)((x >> 40) % 3), gpus, 200 + (double)((x >> 10) % 40000));
    }
    w->perf = fixture_perf(3, rates);
    engine_config_defaults(&w->cfg);
    w->cfg.round_len = 300;
    w->cfg.restart_overhead = 10;
}

START_TEST(queued_only_same_results)
{
    const char *names[] = {"fifo", "las", "tiresias-las"};
    int preempted = 0;
    for (int k = 0; k < 3; k++) {
        world_t a, b;
        busy_world(&a);
        busy_world(&b);
        const policy_ops_t *p = policy_find(names[k]);
        ck_assert_ptr_nonnull(p->schedule_queued);
        policy_ops_t full = *p;
        full.schedule_queued = NULL;
        run_policy(&a, names[k]);
        mls_err_t err = {{0}};
        ck_assert(engine_run(&b.trace, &b.cluster, b.perf, &full, NULL, &b.cfg, &b.res, &err) == 0);
        ck_assert_int_eq((int)a.res.n_jobs, (int)b.res.n_jobs);
        for (size_t i = 0; i < a.res.n_jobs; i++) {
            const job_result_t *x = &a.res.jobs[i], *y = &b.res.jobs[i];
            ck_assert_msg(x->finished && y->finished && x->finish == y->finish &&
                              x->first_start == y->first_start &&
                              x->gpu_seconds == y->gpu_seconds &&
                              x->preemptions == y->preemptions && x->restarts == y->restarts,
                          "%s: job %zu: finish %.17g vs %.17g on the full view", names[k], i,
                          x->finish, y->finish);
            preempted += k > 0 && x->preemptions > 0;
        }
        ck_assert_int_eq((int)a.res.summary.decisions, (int)b.res.summary.decisions);
        world_free(&a);
        world_free(&b);
    }
    ck_assert_msg(preempted > 0, "the busy world preempts no job: it tests only the easy path");
}
END_TEST

/* fifo declares MLS_CADENCE_WHEN_QUEUED. With 20 s overheads the calls are at
 * t=0 (two arrivals), t=10 (j2 arrives), t=50 (j1 done, j2 waits) and t=90 (j2
 * done; none after j0's completion at 120, nothing is left): the one at t=90,
 * with nothing queued, is left out, and every result is what the run that
 * makes all four calls gives. */
START_TEST(when_queued_skips_idle_calls)
{
    world_t a, b;
    three_jobs(&a, 20);
    three_jobs(&b, 20);
    ck_assert(policy_find("fifo")->cadence & MLS_CADENCE_WHEN_QUEUED);
    b.cfg.cadence = MLS_CADENCE_EVENTS; /* no hint: a call at every event */
    run_policy(&a, "fifo");
    run_policy(&b, "fifo");
    ck_assert_int_eq((int)a.res.summary.decisions, 3);
    ck_assert_int_eq((int)b.res.summary.decisions, 4);
    ck_assert_int_eq((int)a.res.n_jobs, (int)b.res.n_jobs);
    ck_assert(memcmp(a.res.jobs, b.res.jobs, a.res.n_jobs * sizeof *a.res.jobs) == 0);
    ck_assert_int_eq((int)a.res.n_timeline, (int)b.res.n_timeline);
    for (size_t i = 0; i < a.res.n_timeline; i++) { /* field by field: the struct has padding */
        const timeline_sample_t *x = &a.res.timeline[i], *y = &b.res.timeline[i];
        ck_assert(x->t == y->t && x->busy_gpus == y->busy_gpus &&
                  x->running_jobs == y->running_jobs && x->queued_jobs == y->queued_jobs);
    }
    world_free(&a);
    world_free(&b);
}
END_TEST

/* las with rounds shorter than the restart overhead never lets a job
 * progress: the engine stops with a clear error instead of looping. */
START_TEST(livelock_detected)
{
    world_t w;
    three_jobs(&w, 20);
    w.cfg.round_len = 7;
    mls_err_t err = {{0}};
    int rc =
        engine_run(&w.trace, &w.cluster, w.perf, policy_find("las"), NULL, &w.cfg, &w.res, &err);
    ck_assert_int_eq(rc, -1);
    ck_assert_msg(strstr(err.msg, "livelock"), "%s", err.msg);
    world_free(&w);
}
END_TEST

/* ---- plans that break a rule are rejected, naming the policy, job and rule */

/* A policy that breaks one rule, chosen by its parameter kind=N. */
static int bad_create(void **st, const policy_args_t *a, char *err, size_t n)
{
    long kind;
    if (policy_arg_long(a, "kind", 0, &kind, err, n) < 0)
        return -1;
    int *k = xmalloc(sizeof *k);
    *k = (int)kind;
    *st = k;
    return 0;
}

static int bad_schedule(void *st, const view_t *v, plan_t *p, char *err, size_t n)
{
    (void)err;
    (void)n;
    int kind = *(int *)st;
    for (int k = 0; k < v->n_jobs; k++) {
        if (kind == 0) /* overcommit: 3 jobs of 1 GPU on 2 GPUs */
            plan_run(p, k, 0, 1);
        else if (kind == 1) /* gang: a 1-GPU job on 2 GPUs */
            plan_run(p, k, 0, 2);
        else if (kind == 2) /* the same GPU twice */
            plan_run_on(p, k, 0, (int[]){0}, 1);
        else if (kind == 3) /* a GPU type that does not exist */
            plan_run(p, k, 5, 1);
    }
    return 0; /* kind 4: runs nothing */
}

static void expect_rejected(const char *kind, const char *rule)
{
    world_t w;
    three_jobs(&w, 0);
    w.trace.jobs[2].submit = 0;
    policy_ops_t bad = {"badpol",   "-",          "-",  "",   0, MLS_CADENCE_EVENTS,
                        bad_create, bad_schedule, free, NULL, 0, NULL};
    const char *keys[] = {"kind"}, *vals[] = {kind};
    policy_args_t args = {1, keys, vals, 0, NULL};
    mls_err_t err = {{0}};
    int rc = engine_run(&w.trace, &w.cluster, w.perf, &bad, &args, &w.cfg, &w.res, &err);
    ck_assert_int_eq(rc, -1);
    ck_assert_msg(strstr(err.msg, "badpol") && strstr(err.msg, rule), "message: %s", err.msg);
    world_free(&w);
}

START_TEST(rejects_overcommit)
{
    expect_rejected("0", "capacity");
}
END_TEST

START_TEST(rejects_gang)
{
    expect_rejected("1", "gang");
}
END_TEST

START_TEST(rejects_gpu_twice)
{
    expect_rejected("2", "capacity");
}
END_TEST

START_TEST(rejects_type)
{
    expect_rejected("3", "GPU type");
}
END_TEST

/* A policy that never places a job is told apart from a livelock (nothing
 * runs, so nothing is preempted): the error names the first waiting job. */
START_TEST(never_placed_named)
{
    world_t w;
    three_jobs(&w, 0);
    w.trace.jobs[2].submit = 0;
    w.cfg.round_len = 60;
    policy_ops_t bad = {"badpol",   "-",          "-",  "",   0, MLS_CADENCE_ROUNDS,
                        bad_create, bad_schedule, free, NULL, 0, NULL};
    const char *keys[] = {"kind"}, *vals[] = {"4"};
    policy_args_t args = {1, keys, vals, 0, NULL};
    mls_err_t err = {{0}};
    int rc = engine_run(&w.trace, &w.cluster, w.perf, &bad, &args, &w.cfg, &w.res, &err);
    ck_assert_int_eq(rc, -1);
    ck_assert_msg(strstr(err.msg, "ran nothing over 100000 events while 3 jobs waited "
                                  "(first: job 0, 1 GPUs)") &&
                      !strstr(err.msg, "livelock"),
                  "%s", err.msg);
    world_free(&w);
}
END_TEST

/* A job larger than the cluster and an unknown workload are input errors. */
START_TEST(rejects_oversized_and_unknown)
{
    world_t w;
    three_jobs(&w, 0);
    fixture_job(&w.trace, 9, 20, 0, 3, 10);
    mls_err_t err = {{0}};
    ck_assert_int_eq(engine_check_trace(&w.trace, &w.cluster, w.perf, &err), -1);
    ck_assert_msg(strstr(err.msg, "job 9") && strstr(err.msg, "gpus"), "%s", err.msg);
    world_free(&w);

    three_jobs(&w, 0);
    fixture_job(&w.trace, 10, 20, 4, 1, 10); /* workload w4 is unknown */
    ck_assert_int_eq(engine_check_trace(&w.trace, &w.cluster, w.perf, &err), -1);
    ck_assert_msg(strstr(err.msg, "job 10") && strstr(err.msg, "w4"), "%s", err.msg);
    world_free(&w);
}
END_TEST

/* --measure: only the window counts, and the run stops when it is done. */
START_TEST(measure_window)
{
    world_t w;
    three_jobs(&w, 0);
    w.cfg.measure_lo = 1;
    w.cfg.measure_hi = 3;
    run_policy(&w, "fifo");
    ck_assert_int_eq(w.res.summary.jobs, 2);
    ck_assert(fabs(w.res.summary.makespan - 50) < 1e-9); /* j2 ends at 50 */
    ck_assert(!w.res.jobs[0].finished);
    world_free(&w);
}
END_TEST

/* Packs the first two active jobs on one GPU each, the rest alone. */
static int pack_schedule(void *st, const view_t *v, plan_t *p, char *err, size_t n)
{
    (void)st;
    (void)err;
    (void)n;
    for (int k = 0; k < v->n_jobs; k++)
        plan_run(p, k, 0, 1);
    if (v->n_jobs >= 2) {
        p->allocs[0].pack_with = 1;
        p->allocs[1].pack_with = 0;
    }
    return 0;
}

static const policy_ops_t packer = {"packer", "-",           "-",  "",   0, MLS_CADENCE_EVENTS,
                                    NULL,     pack_schedule, NULL, NULL, 0, NULL};

/* Space sharing on one GPU at 0.6 of solo speed: j0 (30 units) ends at 50;
 * j1 (60 units) has done 30 by then and finishes alone at rate 1 at 80.
 * Busy GPU-seconds count the shared GPU once. */
START_TEST(packed_pair)
{
    world_t w;
    double rates[] = {1.0, 1.0, 1.0};
    memset(&w, 0, sizeof w);
    fixture_cluster(&w.cluster, 1, 1);
    trace_init(&w.trace);
    fixture_job(&w.trace, 0, 0, 0, 1, 30);
    fixture_job(&w.trace, 1, 0, 1, 1, 60);
    w.perf = fixture_perf(3, rates);
    engine_config_defaults(&w.cfg);
    w.cfg.round_len = 0;
    w.cfg.restart_overhead = 0;
    mls_err_t err = {{0}};
    ck_assert_msg(engine_run(&w.trace, &w.cluster, w.perf, &packer, NULL, &w.cfg, &w.res, &err) ==
                      0,
                  "%s", err.msg);
    double f[] = {50, 80};
    expect_finish(&w, f);
    ck_assert(fabs(w.res.summary.utilization - 1.0) < 1e-9);
    world_free(&w);
}
END_TEST

/* A pair the perf model refuses (workload 2) is a rejected plan. */
START_TEST(packed_pair_refused)
{
    world_t w;
    double rates[] = {1.0, 1.0, 1.0};
    memset(&w, 0, sizeof w);
    fixture_cluster(&w.cluster, 1, 1);
    trace_init(&w.trace);
    fixture_job(&w.trace, 0, 0, 0, 1, 30);
    fixture_job(&w.trace, 1, 0, 2, 1, 60);
    w.perf = fixture_perf(3, rates);
    engine_config_defaults(&w.cfg);
    mls_err_t err = {{0}};
    ck_assert_int_eq(engine_run(&w.trace, &w.cluster, w.perf, &packer, NULL, &w.cfg, &w.res, &err),
                     -1);
    ck_assert_msg(strstr(err.msg, "space sharing"), "%s", err.msg);
    world_free(&w);
}
END_TEST

/* Node 0 fails at 50 s while j0 (100 units) runs on it; checkpoints every
 * 30 s of progress keep 30 units. fifo moves it to node 1 at once: 70 left,
 * done at 120. A straggler at half speed on node 1 from 60 s on slows it:
 * 10 units by 60, 60 more at 0.5/s: done at 180. */
START_TEST(node_failure_and_straggler)
{
    world_t w;
    double rates[] = {1.0};
    memset(&w, 0, sizeof w);
    fixture_cluster(&w.cluster, 2, 1);
    trace_init(&w.trace);
    fixture_job(&w.trace, 0, 0, 0, 1, 100);
    w.perf = fixture_perf(1, rates);
    engine_config_defaults(&w.cfg);
    w.cfg.round_len = 0;
    w.cfg.restart_overhead = 0;
    fault_plan_t f;
    faults_init(&f);
    f.checkpoint_interval = 30;
    fault_event_t evs[] = {{50, 0, FAULT_FAIL, 1}, {55, 0, FAULT_RECOVER, 1}};
    f.events = evs;
    f.n = 2;
    w.cfg.faults = &f;
    run_policy(&w, "fifo");
    double f1[] = {120};
    expect_finish(&w, f1);
    ck_assert_int_eq(w.res.jobs[0].preemptions, 1);
    sim_result_free(&w.res);

    fault_event_t evs2[] = {{50, 0, FAULT_FAIL, 1}, {60, 1, FAULT_SLOW, 0.5}};
    f.events = evs2;
    run_policy(&w, "fifo");
    double f2[] = {180};
    expect_finish(&w, f2);
    world_free(&w);
}
END_TEST

/* Elastic job 0 gets 2 GPUs alone and 1 GPU while job 1 is there. */
static int resize_schedule(void *st, const view_t *v, plan_t *p, char *err, size_t n)
{
    (void)st;
    (void)err;
    (void)n;
    for (int k = 0; k < v->n_jobs; k++)
        plan_run(p, k, 0, v->n_jobs == 1 ? v->jobs[k].max_gpus : 1);
    return 0;
}

/* Overheads by kind: start 1, restart 2, resize 3, migrate 4.
 * A (2 GPUs, rate 2) starts at 0, progresses from 1: 18 units by 10. B
 * arrives: A is resized to 1 GPU (3 s, progress from 13 at rate 1), B starts
 * (1 s) and ends at 16. A is resized back to 2 GPUs: 21 done, progress from
 * 19 at rate 2, 79 left: ends at 58.5. */
START_TEST(overheads_by_kind)
{
    world_t w;
    double rates[] = {1.0};
    memset(&w, 0, sizeof w);
    fixture_cluster(&w.cluster, 1, 2);
    trace_init(&w.trace);
    fixture_job(&w.trace, 0, 0, 0, 2, 100);
    fixture_job(&w.trace, 1, 10, 0, 1, 5);
    w.trace.jobs[0].min_gpus = 1;
    w.perf = fixture_perf(1, rates);
    engine_config_defaults(&w.cfg);
    w.cfg.round_len = 0;
    overheads_t o;
    overheads_init(&o, 20);
    o.def[OVH_START] = 1;
    o.def[OVH_RESTART] = 2;
    o.def[OVH_RESIZE] = 3;
    o.def[OVH_MIGRATE] = 4;
    w.cfg.overheads = &o;
    policy_ops_t resizer = {"resizer",       "-",  "-",  "", 0,   MLS_CADENCE_EVENTS, NULL,
                            resize_schedule, NULL, NULL, 0,  NULL};
    mls_err_t err = {{0}};
    ck_assert_msg(engine_run(&w.trace, &w.cluster, w.perf, &resizer, NULL, &w.cfg, &w.res, &err) ==
                      0,
                  "%s", err.msg);
    double f[] = {58.5, 16};
    expect_finish(&w, f);
    ck_assert_int_eq(w.res.jobs[0].restarts, 2);
    ck_assert_int_eq(w.res.jobs[0].preemptions, 0);
    overheads_free(&o);
    world_free(&w);
}
END_TEST

START_TEST(overheads_json)
{
    char path[] = "/tmp/mls_ovh_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs("{\"default\": {\"start\": 5, \"resize\": 30},"
          " \"workloads\": {\"w0\": {\"restart\": 45}}}",
          f);
    fclose(f);
    overheads_t o;
    overheads_init(&o, 20);
    mls_err_t err = {{0}};
    ck_assert_msg(overheads_load_json(&o, path, &err) == 0, "%s", err.msg);
    ck_assert(overheads_get(&o, "w0", OVH_RESTART) == 45);
    ck_assert(overheads_get(&o, "w0", OVH_RESIZE) == 30);
    ck_assert(overheads_get(&o, "w1", OVH_START) == 5);
    ck_assert(overheads_get(&o, "w1", OVH_MIGRATE) == 20);
    overheads_free(&o);

    f = fopen(path, "w");
    fputs("{\"default\": {\"restrat\": 5}}", f);
    fclose(f);
    overheads_init(&o, 20);
    ck_assert_int_eq(overheads_load_json(&o, path, &err), -1);
    ck_assert_msg(strstr(err.msg, "default.restrat"), "%s", err.msg);
    overheads_free(&o);

    /* "gpus": the smallest entry that holds the job (Helios's 7/30/60 s),
     * after the workload's own entry, before the default */
    f = fopen(path, "w");
    fputs("{\"default\": {\"restart\": 0}, \"workloads\": {\"w0\": {\"restart\": 45}},"
          " \"gpus\": {\"8\": {\"restart\": 30}, \"1\": {\"restart\": 7},"
          " \"64\": {\"restart\": 60}}}",
          f);
    fclose(f);
    overheads_init(&o, 20);
    ck_assert_msg(overheads_load_json(&o, path, &err) == 0, "%s", err.msg);
    ck_assert(overheads_get_job(&o, "w1", 1, OVH_RESTART) == 7);
    ck_assert(overheads_get_job(&o, "w1", 2, OVH_RESTART) == 30);
    ck_assert(overheads_get_job(&o, "w1", 8, OVH_RESTART) == 30);
    ck_assert(overheads_get_job(&o, "w1", 16, OVH_RESTART) == 60);
    ck_assert(overheads_get_job(&o, "w1", 128, OVH_RESTART) == 0);
    ck_assert(overheads_get_job(&o, "w1", 4, OVH_SUSPEND) == 30); /* follows restart */
    ck_assert(overheads_get_job(&o, "w1", 4, OVH_START) == 20);
    ck_assert(overheads_get_job(&o, "w0", 1, OVH_RESTART) == 45);
    overheads_free(&o);
    const char *bad[] = {"{\"gpus\": {\"0\": {}}}", "{\"gpus\": {\"x\": {}}}",
                         "{\"gpus\": {\"8\": {}, \"08\": {}}}", "{\"gpus\": []}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        f = fopen(path, "w");
        fputs(bad[i], f);
        fclose(f);
        overheads_init(&o, 20);
        ck_assert_msg(overheads_load_json(&o, path, &err) == -1, "%s accepted", bad[i]);
        ck_assert_msg(strstr(err.msg, "gpus"), "%s", err.msg);
        overheads_free(&o);
    }
    remove(path);
}
END_TEST

static Suite *engine_suite(void)
{
    Suite *s = suite_create("engine");
    TCase *tc = tcase_create("schedules");
    tcase_add_test(tc, fifo_no_overhead);
    tcase_add_test(tc, fifo_overhead);
    tcase_add_test(tc, early_feedback);
    tcase_add_test(tc, srtf_no_overhead);
    tcase_add_test(tc, srtf_overhead);
    tcase_add_test(tc, las_no_overhead);
    tcase_add_test(tc, las_overhead);
    tcase_add_test(tc, alone_rho_is_one);
    tcase_add_test(tc, deterministic);
    tcase_add_test(tc, when_queued_skips_idle_calls);
    tcase_add_test(tc, progress_unread_same_results);
    tcase_add_test(tc, queued_only_same_results);
    tcase_add_test(tc, measure_window);
    tcase_add_test(tc, packed_pair);
    tcase_add_test(tc, node_failure_and_straggler);
    tcase_add_test(tc, overheads_by_kind);
    tcase_add_test(tc, overheads_json);
    suite_add_tcase(s, tc);
    TCase *bad = tcase_create("bad input");
    tcase_add_test(bad, rejects_overcommit);
    tcase_add_test(bad, rejects_gang);
    tcase_add_test(bad, rejects_gpu_twice);
    tcase_add_test(bad, rejects_type);
    tcase_add_test(bad, rejects_oversized_and_unknown);
    tcase_add_test(bad, packed_pair_refused);
    tcase_add_test(bad, livelock_detected);
    tcase_add_test(bad, never_placed_named);
    suite_add_tcase(s, bad);
    return s;
}

int main(void)
{
    return check_run_suite(engine_suite(), 0);
}
