/* test_diagnose.c: the diagnosis of a run (sim/diagnose.h) from the engine's
 * results in memory equals, to the last bit, the one read back from the
 * results database the run was stored in: on hand-made results with the
 * cases where the two could part (ties for the last finish and the slowest
 * job, job ids out of order, unknown values, unmeasured jobs, a timeline out
 * of time order) and on small engine runs of a loaded heterogeneous cluster
 * (queueing, idle GPUs, jobs slowed by packing on K80s). */
#include "policies/policy.h"
#include "sim/diagnose.h"
#include "sim/engine.h"
#include "sim/store.h"
#include "tests/check_main.h"
#include "tests/engine_fixture.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[64];

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_diagnose-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Same bits, or both NaN. */
static void same_real(const char *what, double a, double b)
{
    ck_assert_msg((isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof a), "%s: %.17g vs %.17g", what,
                  a, b);
}

static void same_job(const char *what, const diag_job_t *a, const diag_job_t *b)
{
    ck_assert_msg(a->id == b->id && a->gpus == b->gpus && a->preemptions == b->preemptions,
                  "%s: job %lld vs %lld", what, (long long)a->id, (long long)b->id);
    same_real(what, a->submit, b->submit);
    same_real(what, a->queue_delay, b->queue_delay);
    same_real(what, a->run_time, b->run_time);
    same_real(what, a->isolated, b->isolated);
    same_real(what, a->finish, b->finish);
}

static void same_diag(const run_diag_t *a, const run_diag_t *b)
{
    ck_assert(a->run_id == b->run_id);
    ck_assert_int_eq(a->jobs, b->jobs);
    ck_assert_int_eq(a->unfinished, b->unfinished);
    same_real("utilization", a->utilization, b->utilization);
    same_real("makespan", a->makespan, b->makespan);
    same_real("p99_finish", a->p99_finish, b->p99_finish);
    same_job("last", &a->last, &b->last);
    ck_assert_int_eq(a->n_slow, b->n_slow);
    for (int i = 0; i < a->n_slow && i < DIAG_TOP; i++)
        same_job("slow", &a->slow[i], &b->slow[i]);
    same_real("last_submit", a->last_submit, b->last_submit);
    same_real("q_half", a->q_half, b->q_half);
    same_real("q_end", a->q_end, b->q_end);
    same_real("q_peak", a->q_peak, b->q_peak);
    same_real("drained", a->drained, b->drained);
    ck_assert_int_eq(a->burst, b->burst);
    ck_assert_int_eq(a->saturated, b->saturated);
    same_real("idle_waiting", a->idle_waiting, b->idle_waiting);
}

/* Stores res and diagnoses it both ways; *mem gets the in-memory one. */
static void both_ways(const mls_trace_t *trace, const sim_result_t *res, run_diag_t *mem)
{
    char db[128];
    snprintf(db, sizeof db, "%s/r.db", tmpdir);
    run_info_t info = {"fifo",    "",     0,           "t.csv",   "0123456789abcdef",
                       "fixture", "{}",   res->n_gpus, "fixture", 1,
                       360,       "both", 20,          "all",     NULL,
                       NULL,      NULL,   NULL,        0,         NULL};
    int64_t id = 0;
    mls_err_t err = {{0}};
    ck_assert_msg(store_write_run(db, &info, trace, res, &id, &err) == 0, "%s", err.msg);
    run_diag_t stored;
    ck_assert_msg(run_diagnose(db, id, &stored, &err) == 0, "%s", err.msg);
    run_diagnose_result(res, id, mem);
    same_diag(&stored, mem);
}

static job_result_t job(int64_t id, double submit, double start, double finish, double run,
                        double alone)
{
    job_result_t j;
    memset(&j, 0, sizeof j);
    j.id = id;
    j.gpus = 1 + (int)(id % 4);
    j.preemptions = (int)(id % 3);
    j.submit = submit;
    j.first_start = start;
    j.finish = finish;
    j.run_time = run;
    j.isolated_time = alone;
    j.gpu_seconds = run * j.gpus;
    j.rho = j.contention = 1;
    j.deadline = INFINITY;
    j.measured = 1;
    j.finished = isfinite(finish);
    j.feedback = NAN;
    return j;
}

/* Ties go to the lower job id whatever the order of the results; NaN is
 * what the database holds as NULL; unmeasured jobs do not count. */
START_TEST(ties_and_unknowns)
{
    mls_trace_t trace;
    trace_init(&trace);
    strtab_intern(&trace.users, "u");
    strtab_intern(&trace.workloads, "w");
    job_result_t jobs[] = {
        job(9, 0, 10, 5000, 4000, 1000),       /* ratio 4 */
        job(7, 100, 200, 9000, 8000, 1000),    /* last finish (tie), ratio 8 */
        job(3, 0.0, -0.0, 9000, 2000, 500),    /* last finish (tie, lower id), ratio 4; -0 */
        job(5, 300, NAN, NAN, NAN, 100),       /* never started */
        job(4, 400, 500, 3000, 2500, NAN),     /* time alone unknown */
        job(2, 500, 600, 7000, 4000, 1000),    /* ratio 4: first of the three tied */
        job(8, -0.0, 0, 100, 100, 10),         /* ratio 10 but under 600 s */
        job(6, 3.5e4, 3.6e4, 9.9e4, 6.3e4, 0), /* unmeasured, below */
    };
    jobs[7].measured = 0;
    timeline_sample_t tl[] = {{0, 1, 1, 0},   {100, 1, 1, 2}, {300, 4, 2, 3}, {200, 2, 1, 4},
                              {200, 3, 2, 1}, {500, 8, 4, 0}, {9000, 0, 0, 0}};
    sim_result_t res;
    memset(&res, 0, sizeof res);
    res.jobs = jobs;
    res.n_jobs = sizeof jobs / sizeof jobs[0];
    res.timeline = tl;
    res.n_timeline = sizeof tl / sizeof tl[0];
    res.n_gpus = 8;
    res.summary.jobs = 6;
    res.summary.unfinished = 1;
    res.summary.makespan = 9000;
    res.summary.utilization = NAN;
    run_diag_t d;
    both_ways(&trace, &res, &d);
    ck_assert_int_eq(d.last.id, 3);
    ck_assert_int_eq(d.n_slow, 4);
    ck_assert_int_eq(d.slow[0].id, 7);
    ck_assert_int_eq(d.slow[1].id, 2);
    ck_assert_int_eq(d.slow[2].id, 3);
    same_real("last_submit", d.last_submit, 500);
    trace_free(&trace);
}
END_TEST

/* 80 jobs of 1-4 GPUs arriving faster than 16 GPUs (4 of them K80s at half
 * speed) serve them, under three policies: fifo, themis (GPUs idle while jobs
 * wait) and gandiva-paper (saturated; jobs time-sliced on K80s over 3x their
 * time alone). */
START_TEST(engine_runs)
{
    const char *names[] = {"fifo", "themis", "gandiva-paper"};
    int slow = 0, idle = 0, saturated = 0;
    for (int k = 0; k < 3; k++) {
        double rates[] = {1.0, 2.0, 0.5};
        mls_err_t err = {{0}};
        mls_cluster_t cl;
        ck_assert(cluster_from_spec(&cl, "v100=3x4,k80=2x2", &err) == 0);
        mls_trace_t trace;
        trace_init(&trace);
        unsigned long x = 12345; /* a small LCG: the same jobs every run */
        double t = 0;
        for (int i = 0; i < 80; i++) {
            x = x * 6364136223846793005UL + 1442695040888963407UL;
            t += (double)((x >> 33) % 900);
            fixture_job(&trace, i, t, (int)((x >> 40) % 3), 1 << ((x >> 20) % 3),
                        200 + (double)((x >> 10) % 40000));
        }
        mls_perf_t *pm = fixture_perf(3, rates);
        engine_config_t cfg;
        engine_config_defaults(&cfg);
        cfg.round_len = 300;
        cfg.restart_overhead = 10;
        sim_result_t res = {0};
        ck_assert_msg(engine_run(&trace, &cl, pm, policy_find(names[k]), NULL, &cfg, &res, &err) ==
                          0,
                      "%s: %s", names[k], err.msg);
        run_diag_t d;
        both_ways(&trace, &res, &d);
        slow += d.n_slow > 0;
        idle += d.idle_waiting > 0.1;
        saturated += d.saturated;
        sim_result_free(&res);
        perf_free(pm);
        cluster_free(&cl);
        trace_free(&trace);
    }
    ck_assert_msg(slow && idle && saturated, "slow %d, idle %d, saturated %d", slow, idle,
                  saturated);
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {ties_and_unknowns, engine_runs};
    const check_opts_t opts = {.setup = setup, .teardown = teardown};
    return check_main_opts("diagnose", tests, sizeof tests / sizeof tests[0], &opts);
}
