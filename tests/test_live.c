/* test_live.c: the live runner's request parser (live/proto.h) and state
 * store (live/state.h): valid and invalid requests of every op, submissions
 * checked against a cluster and the perf model, and a job row that survives
 * a close and reopen of the database field by field. */
#include "live/proto.h"
#include "live/state.h"
#include "model/cluster.h"
#include "model/perf.h"
#include "tests/check_main.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[64];

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_live-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Parses s; returns the rc and leaves the error in err. */
static int parse(const char *s, live_request_t *r, mls_err_t *err)
{
    return live_parse_request(s, strlen(s), r, err);
}

static void expect_error(const char *s, const char *want)
{
    live_request_t r;
    mls_err_t err = {""};
    ck_assert_int_eq(parse(s, &r, &err), -1);
    if (!strstr(err.msg, want))
        ck_abort_msg("'%s': error '%s' lacks '%s'", s, err.msg, want);
}

START_TEST(submit_valid)
{
    live_request_t r;
    mls_err_t err;
    const char *s = "{\"op\":\"submit\",\"argv\":[\"/bin/sleep\",\"1\"],\"workload\":\"A3C\","
                    "\"gpus\":2,\"work\":100.5,\"max_gpus\":4,\"user\":\"ann\",\"id\":9,"
                    "\"submit_at\":12}";
    ck_assert_int_eq(parse(s, &r, &err), 0);
    ck_assert_int_eq(r.op, LIVE_OP_SUBMIT);
    ck_assert_int_eq(r.sub.argc, 2);
    ck_assert_str_eq(r.sub.argv[1], "1");
    ck_assert_ptr_null(r.sub.argv[2]);
    ck_assert_str_eq(r.sub.workload, "A3C");
    ck_assert_int_eq(r.sub.gpus, 2);
    ck_assert_int_eq(r.sub.min_gpus, 2);
    ck_assert_int_eq(r.sub.max_gpus, 4);
    ck_assert_double_eq(r.sub.work, 100.5);
    ck_assert_double_eq(r.sub.priority, 1);
    ck_assert_int_eq(r.sub.id, 9);
    ck_assert_double_eq(r.sub.submit_at, 12);
    /* a round trip through the stored JSON */
    char *json = live_submit_to_json(&r.sub);
    live_submit_t back;
    ck_assert_int_eq(live_submit_from_json(json, &back, &err), 0);
    ck_assert_str_eq(back.user, "ann");
    ck_assert_int_eq(back.max_gpus, 4);
    ck_assert_double_eq(back.submit_at, 12);
    free(json);
    live_submit_free(&back);
    live_request_free(&r);
}
END_TEST

/* The fuzzer's finding: a work of 77777777777777771 is the double
 * 77777777777777776; cJSON wrote it as 7.77777777777778e+16 (15 digits, within
 * a unit in the last place), which reads back as 77777777777777792. The stored
 * submission must read back as the same job, to the bit. */
START_TEST(store_exact_numbers)
{
    const char *s = "{\"op\":\"submit\",\"argv\":[\"x\"],\"workload\":\"A3C\",\"gpus\":1,"
                    "\"work\":77777777777777771,\"priority\":0.30000000000000004,"
                    "\"submit_at\":12.345678901234567}";
    live_request_t r;
    mls_err_t err;
    ck_assert_int_eq(parse(s, &r, &err), 0);
    ck_assert_double_eq(r.sub.work, 77777777777777776.0);
    char *json = live_submit_to_json(&r.sub);
    live_submit_t back;
    ck_assert_int_eq(live_submit_from_json(json, &back, &err), 0);
    ck_assert_msg(back.work == r.sub.work, "work %.17g read back as %.17g (%s)", r.sub.work,
                  back.work, json);
    ck_assert_msg(back.priority == r.sub.priority, "priority %.17g read back as %.17g",
                  r.sub.priority, back.priority);
    ck_assert_msg(back.submit_at == r.sub.submit_at, "submit_at changed");
    free(json);
    live_submit_free(&back);
    live_request_free(&r);
}
END_TEST

START_TEST(other_ops)
{
    live_request_t r;
    mls_err_t err;
    ck_assert_int_eq(parse("{\"op\":\"status\"}", &r, &err), 0);
    ck_assert_int_eq(r.op, LIVE_OP_STATUS);
    ck_assert_int_eq(parse("{\"op\":\"drain\"}", &r, &err), 0);
    ck_assert_int_eq(r.op, LIVE_OP_DRAIN);
    ck_assert_int_eq(parse("{\"op\":\"cancel\",\"id\":3}", &r, &err), 0);
    ck_assert_int_eq(r.id, 3);
    ck_assert_int_eq(parse("{\"op\":\"report\",\"id\":3,\"iter\":10,\"iter_time\":0.5,"
                           "\"batch\":32,\"gns\":7}",
                           &r, &err),
                     0);
    ck_assert_int_eq(r.op, LIVE_OP_REPORT);
    ck_assert_double_eq(r.prog.iter, 10);
    ck_assert_double_eq(r.prog.iter_time, 0.5);
    ck_assert_int_eq(r.prog.batch, 32);
    ck_assert_double_eq(r.prog.gns, 7);
    ck_assert(isnan(r.prog.samples));
}
END_TEST

START_TEST(invalid)
{
    expect_error("{\"op\":\"submit\"", "malformed JSON");
    expect_error("", "malformed JSON");
    expect_error("[1,2]", "not a JSON object");
    expect_error("{}", "field 'op'");
    expect_error("{\"op\":\"launch\"}", "unknown op 'launch'");
    expect_error("{\"op\":\"status\",\"x\":1}", "field 'x': unknown");
    expect_error("{\"op\":\"cancel\"}", "field 'id': missing");
    expect_error("{\"op\":\"cancel\",\"id\":1.5}", "not an integer");
    expect_error("{\"op\":\"cancel\",\"id\":-1}", "not an integer");
    expect_error("{\"op\":\"submit\",\"workload\":\"A3C\",\"gpus\":1,\"work\":1}",
                 "field 'argv': missing");
    expect_error("{\"op\":\"submit\",\"argv\":\"ls\",\"workload\":\"A3C\",\"gpus\":1,\"work\":1}",
                 "not an array");
    expect_error("{\"op\":\"submit\",\"argv\":[],\"workload\":\"A3C\",\"gpus\":1,\"work\":1}",
                 "wants 1 to");
    expect_error("{\"op\":\"submit\",\"argv\":[\"a\",3],\"workload\":\"A3C\",\"gpus\":1,"
                 "\"work\":1}",
                 "element 1 is not a string");
    expect_error("{\"op\":\"submit\",\"argv\":[\"a\"],\"workload\":\"A3C\",\"gpus\":\"2\","
                 "\"work\":1}",
                 "field 'gpus': not a finite number");
    expect_error("{\"op\":\"submit\",\"argv\":[\"a\"],\"workload\":\"A3C\",\"gpus\":0,"
                 "\"work\":1}",
                 "field 'gpus'");
    expect_error("{\"op\":\"submit\",\"argv\":[\"a\"],\"workload\":\"A3C\",\"gpus\":1,"
                 "\"work\":0}",
                 "field 'work'");
    expect_error("{\"op\":\"submit\",\"argv\":[\"a\"],\"workload\":\"A3C\",\"gpus\":2,"
                 "\"work\":1,\"min_gpus\":3}",
                 "'min_gpus' <= 'gpus'");
    expect_error("{\"op\":\"submit\",\"argv\":[\"a\"],\"workload\":\"\",\"gpus\":1,\"work\":1}",
                 "field 'workload'");
    expect_error("{\"op\":\"report\",\"id\":1}", "field 'iter': missing");
    expect_error("{\"op\":\"report\",\"id\":1,\"iter\":1,\"iter_time\":0}", "iter_time");
    /* over the size limit, whatever the content */
    size_t n = LIVE_MAX_REQUEST + 10;
    char *big = malloc(n + 1);
    memset(big, ' ', n);
    big[n] = '\0';
    live_request_t r;
    mls_err_t err;
    ck_assert_int_eq(live_parse_request(big, n, &r, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "more than the limit"));
    free(big);
}
END_TEST

START_TEST(check_against_cluster)
{
    mls_cluster_t c;
    mls_perf_t *pm;
    mls_err_t err;
    ck_assert_int_eq(cluster_load(&c, "v100=1x4", &err), 0);
    ck_assert_int_eq(perf_load_or_default(&pm, NULL, &err), 0);
    live_request_t r;
    ck_assert_int_eq(parse("{\"op\":\"submit\",\"argv\":[\"a\"],\"workload\":\"A3C\",\"gpus\":1,"
                           "\"work\":1}",
                           &r, &err),
                     0);
    ck_assert_int_eq(live_check_submit(&r.sub, &c, pm, &err), 0);
    r.sub.gpus = r.sub.min_gpus = r.sub.max_gpus = 5;
    ck_assert_int_eq(live_check_submit(&r.sub, &c, pm, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "needs 5 GPUs"));
    r.sub.gpus = r.sub.min_gpus = r.sub.max_gpus = 1;
    free(r.sub.workload);
    r.sub.workload = strdup("NoSuchNet");
    ck_assert_int_eq(live_check_submit(&r.sub, &c, pm, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "workload 'NoSuchNet': unknown"));
    live_request_free(&r);
    perf_free(pm);
    cluster_free(&c);
}
END_TEST

static void make_job(live_job_t *j, int64_t id)
{
    live_request_t r;
    mls_err_t err;
    ck_assert_int_eq(parse("{\"op\":\"submit\",\"argv\":[\"prog\",\"a b\",\"'$x'\"],"
                           "\"workload\":\"A3C\",\"gpus\":2,\"max_gpus\":3,\"work\":50}",
                           &r, &err),
                     0);
    memset(j, 0, sizeof *j);
    j->spec = r.sub;
    j->id = id;
    j->spec.id = id;
    j->gpu_ids = calloc(3, sizeof(int));
    j->first_start = j->last_start = j->finish = j->last_update = j->throughput = NAN;
}

START_TEST(store_roundtrip)
{
    char path[128];
    snprintf(path, sizeof path, "%s/live.db", tmpdir);
    live_db_t *db;
    mls_err_t err;
    ck_assert_int_eq(live_db_open(&db, path, &err), 0);
    live_job_t a, b;
    make_job(&a, 4);
    make_job(&b, 2);
    a.state = LJ_RUNNING;
    a.type = 0;
    a.ngpus = 2;
    a.nodes = 1;
    a.gpu_ids[0] = 3;
    a.gpu_ids[1] = 1;
    a.attempt = 2;
    a.pid = 1234;
    a.pid_start = 987654321ULL;
    a.submit = 1.5;
    a.first_start = 2.25;
    a.attained_service = 10;
    a.work_done = 17;
    a.preemptions = 1;
    a.completions = 0;
    b.state = LJ_DONE;
    b.submit = 0;
    b.finish = 100;
    b.completions = 1;
    ck_assert_int_eq(live_db_put_job(db, &a, &err), 0);
    ck_assert_int_eq(live_db_put_job(db, &b, &err), 0);
    ck_assert_int_eq(live_db_meta_set(db, "epoch", "123.5", &err), 0);
    ck_assert_int_eq(live_db_event(db, 1, 4, "start", "x"), 0);
    ck_assert_int_eq(live_db_decision(db, 1, 5, 2, "4:v100:2", 0.1, NULL), 0);
    a.work_done = 20; /* a second write replaces the row */
    ck_assert_int_eq(live_db_put_job(db, &a, &err), 0);
    live_db_close(db);

    ck_assert_int_eq(live_db_open(&db, path, &err), 0);
    char *epoch = live_db_meta_get(db, "epoch");
    ck_assert_str_eq(epoch, "123.5");
    free(epoch);
    ck_assert_ptr_null(live_db_meta_get(db, "nothing"));
    live_job_t *jobs;
    size_t n;
    ck_assert_int_eq(live_db_load_jobs(db, &jobs, &n, &err), 0);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(jobs[0].id, 2); /* id order */
    ck_assert_int_eq(jobs[0].state, LJ_DONE);
    ck_assert_double_eq(jobs[0].finish, 100);
    ck_assert_int_eq(jobs[0].completions, 1);
    const live_job_t *c = &jobs[1];
    ck_assert_int_eq(c->state, LJ_RUNNING);
    ck_assert_int_eq(c->ngpus, 2);
    ck_assert_int_eq(c->gpu_ids[0], 3);
    ck_assert_int_eq(c->gpu_ids[1], 1);
    ck_assert_int_eq(c->attempt, 2);
    ck_assert_int_eq(c->pid, 1234);
    ck_assert(c->pid_start == 987654321ULL);
    ck_assert_double_eq(c->first_start, 2.25);
    ck_assert(isnan(c->finish));
    ck_assert_double_eq(c->work_done, 20);
    ck_assert_int_eq(c->preemptions, 1);
    ck_assert_int_eq(c->spec.argc, 3);
    ck_assert_str_eq(c->spec.argv[1], "a b");
    ck_assert_str_eq(c->spec.argv[2], "'$x'");
    ck_assert_int_eq(c->spec.max_gpus, 3);
    for (size_t i = 0; i < n; i++)
        live_job_free(&jobs[i]);
    free(jobs);
    live_db_close(db);
    live_job_free(&a);
    live_job_free(&b);

    /* a file that is not a database is refused with its name */
    char bad[128];
    snprintf(bad, sizeof bad, "%s/bad.db", tmpdir);
    FILE *f = fopen(bad, "w");
    fputs("this is not sqlite, not at all, it is plain text of some length\n", f);
    fclose(f);
    ck_assert_int_eq(live_db_open(&db, bad, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "bad.db"));
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {
        submit_valid,
        store_exact_numbers,
        other_ops,
        invalid,
        check_against_cluster,
        store_roundtrip,
    };
    const check_opts_t opts = {.setup = setup, .teardown = teardown};
    return check_main_opts("live", tests, sizeof tests / sizeof tests[0], &opts);
}
