/* test_results.c: reading run summaries back from a database built here with
 * the real store (sim/store.h): filters, grouping over seeds with 95% t
 * intervals, baselines, the four output formats, and merging databases. */
#include "sim/merge.h"
#include "sim/results.h"
#include "sim/store.h"
#include "tests/check_main.h"

#include <check.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[64];

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_results-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

static void path_of(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", tmpdir, name);
}

/* Appends one run whose summary is avg_jct = jct (other metrics derived). */
static int64_t add_run(const char *db, const char *policy, int oracle, long seed, const char *label,
                       double jct)
{
    mls_trace_t trace;
    memset(&trace, 0, sizeof trace);
    sim_result_t res;
    memset(&res, 0, sizeof res);
    res.n_gpus = 8;
    run_summary_t *s = &res.summary;
    s->jobs = 10;
    s->avg_jct = jct;
    s->p50_jct = jct / 2;
    s->p95_jct = s->p99_jct = 2 * jct;
    s->makespan = 10 * jct;
    s->avg_queue_delay = jct / 10;
    s->utilization = 0.5;
    s->unfair_fraction = 0.25;
    s->worst_ftf = 1.5;
    s->jain_index = 0.9;
    s->decision_time_mean = NAN; /* stored as NULL */
    run_info_t info = {policy,     "",     oracle, "t.csv",   "0123456789abcdef",
                       "v100=2x4", "{}",   8,      "catalog", (uint64_t)seed,
                       360,        "both", 20,     "all",     label,
                       NULL,       NULL,   NULL,      0,    NULL};
    int64_t id = 0;
    mls_err_t err = {{0}};
    ck_assert_msg(store_write_run(db, &info, &trace, &res, &id, &err) == 0, "%s", err.msg);
    return id;
}

/* fifo: 100, 110, 120 (seeds 1-3); srtf (oracle): 50, 60, 70; las: 80 (label x). */
static void build(const char *db)
{
    double f[] = {100, 110, 120}, s[] = {50, 60, 70};
    for (int i = 0; i < 3; i++) {
        add_run(db, "fifo", 0, i + 1, NULL, f[i]);
        add_run(db, "srtf", 1, i + 1, NULL, s[i]);
    }
    add_run(db, "las", 0, 1, "x", 80);
}

START_TEST(load_all_and_filtered)
{
    char db[128];
    path_of(db, sizeof db, "r.db");
    build(db);
    result_set_t rs;
    mls_err_t err = {{0}};
    ck_assert_int_eq(results_load(db, NULL, &rs, &err), 0);
    ck_assert_uint_eq(rs.n, 7);
    ck_assert_str_eq(rs.rows[0].policy, "fifo");
    ck_assert_int_eq(rs.rows[1].oracle, 1);
    ck_assert_str_eq(rs.rows[6].label, "x");
    ck_assert_str_eq(rs.rows[0].label, "");
    ck_assert(fabs(rs.rows[0].m[RES_AVG_JCT] - 100) < 1e-9);
    ck_assert(fabs(rs.rows[0].m[RES_MAKESPAN] - 1000) < 1e-9);
    ck_assert(isnan(rs.rows[0].m[RES_DECISION]));
    results_free(&rs);

    result_filter_t f = {0};
    f.policy = "s*";
    ck_assert_int_eq(results_load(db, &f, &rs, &err), 0);
    ck_assert_uint_eq(rs.n, 3);
    results_free(&rs);
    memset(&f, 0, sizeof f);
    f.run_lo = 2;
    f.run_hi = 3;
    ck_assert_int_eq(results_load(db, &f, &rs, &err), 0);
    ck_assert_uint_eq(rs.n, 2);
    ck_assert_int_eq(rs.rows[0].run_id, 2);
    results_free(&rs);
    memset(&f, 0, sizeof f);
    f.label = "x";
    ck_assert_int_eq(results_load(db, &f, &rs, &err), 0);
    ck_assert_uint_eq(rs.n, 1);
    results_free(&rs);
}
END_TEST

START_TEST(load_errors)
{
    char db[128];
    path_of(db, sizeof db, "missing.db");
    result_set_t rs;
    mls_err_t err = {{0}};
    ck_assert_int_eq(results_load(db, NULL, &rs, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "missing.db"));
    path_of(db, sizeof db, "other.db");
    sqlite3 *h;
    ck_assert_int_eq(sqlite3_open(db, &h), SQLITE_OK);
    sqlite3_exec(h, "CREATE TABLE x(a)", NULL, NULL, NULL);
    sqlite3_close(h);
    ck_assert_int_eq(results_load(db, NULL, &rs, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "not an mlsched results database"));
}
END_TEST

START_TEST(groups_means_and_ci)
{
    char db[128];
    path_of(db, sizeof db, "r.db");
    build(db);
    result_set_t rs;
    mls_err_t err = {{0}};
    ck_assert_int_eq(results_load(db, NULL, &rs, &err), 0);
    result_group_t *g;
    size_t n;
    results_group(&rs, RES_BY_ALL, "fifo", &g, &n);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(g[0].key->policy, "fifo");
    ck_assert_uint_eq(g[0].n, 3);
    ck_assert(fabs(g[0].mean[RES_AVG_JCT] - 110) < 1e-9);
    /* sd 10, n 3: t(0.975, 2) = 4.302653 -> 4.302653 * 10 / sqrt(3) */
    ck_assert(fabs(g[0].ci95[RES_AVG_JCT] - 4.302653 * 10 / sqrt(3)) < 1e-4);
    ck_assert_int_eq(g[1].oracle, 1);
    ck_assert_int_eq(g[1].base, 0);
    ck_assert(fabs(g[1].mean[RES_AVG_JCT] / g[0].mean[RES_AVG_JCT] - 60.0 / 110) < 1e-12);
    ck_assert(isnan(g[2].ci95[RES_AVG_JCT]));
    ck_assert_int_eq(g[2].base, -1); /* las has label x, fifo has none */
    ck_assert(isnan(g[0].mean[RES_DECISION]));
    free(g);
    results_group(&rs, RES_BY_TRACE, NULL, &g, &n); /* labels ignored */
    ck_assert_uint_eq(n, 3);
    ck_assert_int_eq(g[0].base, -1);
    free(g);
    results_free(&rs);
    ck_assert(isnan(results_ci95(1, 1)));
}
END_TEST

static char *print_to_string(const result_group_t *g, size_t n, const result_print_opts_t *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    results_print(f, g, n, o);
    fclose(f);
    return buf;
}

START_TEST(formats)
{
    char db[128];
    path_of(db, sizeof db, "r.db");
    build(db);
    result_set_t rs;
    mls_err_t err = {{0}};
    ck_assert_int_eq(results_load(db, NULL, &rs, &err), 0);
    result_group_t *g;
    size_t n;
    results_group(&rs, RES_BY_ALL, "fifo", &g, &n);
    result_print_opts_t o = {RES_FMT_TABLE, NULL, 0, 1, 1, "fifo", RES_BY_ALL};
    char *s = print_to_string(g, n, &o);
    ck_assert_ptr_nonnull(strstr(s, "avg JCT (min)"));
    ck_assert_ptr_nonnull(strstr(s, "srtf"));
    ck_assert_ptr_nonnull(strstr(s, "(0.55x)"));
    ck_assert_msg(strstr(s, "1.83 ± 0.41") != NULL, "%s", s); /* 110 s = 1.83 min, CI 24.8 s */
    free(s);
    o.format = RES_FMT_MARKDOWN;
    s = print_to_string(g, n, &o);
    ck_assert_ptr_nonnull(strstr(s, "| policy"));
    ck_assert_ptr_nonnull(strstr(s, "|--"));
    free(s);
    o.format = RES_FMT_CSV;
    s = print_to_string(g, n, &o);
    ck_assert_ptr_nonnull(strstr(s, "label,trace,cluster,policy,params,oracle,runs,avg_jct,"));
    ck_assert_ptr_nonnull(strstr(s, ",srtf,,1,3,60,"));
    free(s);
    o.format = RES_FMT_JSON;
    s = print_to_string(g, n, &o);
    ck_assert_ptr_nonnull(strstr(s, "\"baseline\":\t\"fifo\""));
    ck_assert_ptr_nonnull(strstr(s, "\"avg_jct\":\t110"));
    free(s);
    ck_assert_int_eq(results_format_parse("csv"), RES_FMT_CSV);
    ck_assert_int_eq(results_format_parse("xml"), -1);
    ck_assert_int_eq(results_metric_find("worst_ftf"), RES_WORST_FTF);
    ck_assert_int_eq(results_metric_find("nope"), -1);
    free(g);
    results_free(&rs);
}
END_TEST

static long count(const char *db, const char *sql)
{
    sqlite3 *h;
    sqlite3_stmt *st;
    ck_assert_int_eq(sqlite3_open(db, &h), SQLITE_OK);
    ck_assert_int_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    long v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return v;
}

START_TEST(merge_two)
{
    char a[128], b[128], out[128];
    path_of(a, sizeof a, "a.db");
    path_of(b, sizeof b, "b.db");
    path_of(out, sizeof out, "out.db");
    build(a);
    add_run(b, "sjf", 0, 4, "y", 42);
    add_run(b, "sjf", 0, 5, "y", 44);
    add_run(out, "fifo", 0, 9, NULL, 1); /* an output with a run already */
    const char *in[] = {a, b};
    merge_stats_t st;
    mls_err_t err = {{0}};
    ck_assert_msg(merge_dbs(out, in, 2, &st, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(st.runs, 9);
    ck_assert_int_eq(st.first_run, 2);
    ck_assert_int_eq(st.last_run, 10);
    ck_assert_int_eq(count(out, "SELECT count(*) FROM run_summary"), 10);
    ck_assert_int_eq(count(out, "SELECT count(*) FROM summary"), 10);
    ck_assert_int_eq(count(out, "SELECT run_id FROM runs WHERE policy='sjf' AND seed=5"), 10);
    ck_assert_int_eq(count(out, "SELECT avg_jct FROM run_summary WHERE run_id=10"), 44);

    /* a fresh output gets the schema; a different schema version is refused */
    char fresh[128];
    path_of(fresh, sizeof fresh, "fresh.db");
    const char *one[] = {b};
    ck_assert_int_eq(merge_dbs(fresh, one, 1, &st, &err), 0);
    ck_assert_int_eq(count(fresh, "SELECT count(*) FROM run_summary"), 2);
    ck_assert_int_eq(count(fresh, "SELECT value FROM meta WHERE key='schema_version'"), 1);
    sqlite3 *h;
    ck_assert_int_eq(sqlite3_open(b, &h), SQLITE_OK);
    sqlite3_exec(h, "UPDATE meta SET value='99' WHERE key='schema_version'", NULL, NULL, NULL);
    sqlite3_close(h);
    ck_assert_int_eq(merge_dbs(out, in, 2, &st, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "version 99"));
    ck_assert_int_eq(count(out, "SELECT count(*) FROM runs"), 10); /* unchanged */
    const char *self[] = {out};
    ck_assert_int_eq(merge_dbs(out, self, 1, &st, &err), -1);
    char missing[128];
    path_of(missing, sizeof missing, "nope.db");
    const char *miss[] = {a, missing};
    ck_assert_int_eq(merge_dbs(out, miss, 2, &st, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "nope.db"));
    ck_assert_int_eq(count(out, "SELECT count(*) FROM runs"), 10);
}
END_TEST

/* A run with one job of 16 GPUs above the 8 measured (300 of its 400
 * GPU-seconds) and one job within the table. */
static void add_extrapolated_run(const char *db)
{
    mls_trace_t trace;
    trace_init(&trace);
    strtab_intern(&trace.users, "u");
    strtab_intern(&trace.workloads, "w");
    job_result_t jobs[2];
    memset(jobs, 0, sizeof jobs);
    for (int k = 0; k < 2; k++) {
        jobs[k].id = k;
        jobs[k].submit = jobs[k].first_start = jobs[k].finish = NAN;
        jobs[k].deadline = INFINITY;
    }
    jobs[0].gpus = 1;
    jobs[0].gpu_seconds = 100;
    jobs[1].gpus = 16;
    jobs[1].gpu_seconds = 300;
    sim_result_t res;
    memset(&res, 0, sizeof res);
    res.jobs = jobs;
    res.n_jobs = 2;
    res.summary.jobs = 2;
    int measured[2] = {0, 8};
    run_info_t info = {"fifo", "", 0, "t.csv", "0123456789abcdef", "v100=2x8", "{}", 16,
                       "catalog", 1, 360, "both", 20, "all", NULL, NULL, NULL, measured, 0, NULL};
    int64_t id = 0;
    mls_err_t err = {{0}};
    ck_assert_msg(store_write_run(db, &info, &trace, &res, &id, &err) == 0, "%s", err.msg);
    trace_free(&trace);
}

/* The extrapolation tables: written with the run; a database from before them
 * (the tables absent) opens, gets them, and merges either way, with no schema
 * version change. */
START_TEST(extrapolation_tables)
{
    char old[128], now[128], out[128], out2[128];
    path_of(old, sizeof old, "old.db");
    path_of(now, sizeof now, "now.db");
    path_of(out, sizeof out, "out.db");
    path_of(out2, sizeof out2, "out2.db");
    add_run(old, "fifo", 0, 1, NULL, 100);
    sqlite3 *h;
    ck_assert_int_eq(sqlite3_open(old, &h), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(h, "DROP TABLE extrapolation; DROP TABLE extrapolated_jobs;",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(h);
    add_run(out2, "fifo", 0, 1, NULL, 100); /* an old output, too */
    ck_assert_int_eq(sqlite3_open(out2, &h), SQLITE_OK);
    sqlite3_exec(h, "DROP TABLE extrapolation; DROP TABLE extrapolated_jobs;", NULL, NULL, NULL);
    sqlite3_close(h);
    add_extrapolated_run(now);
    ck_assert_int_eq(count(now, "SELECT jobs FROM extrapolation WHERE run_id=1"), 1);
    ck_assert_int_eq(count(now, "SELECT gpu_seconds FROM extrapolation"), 300);
    ck_assert_int_eq(count(now, "SELECT 100 * gpu_seconds_share FROM extrapolation"), 75);
    ck_assert_int_eq(count(now, "SELECT job_id * 100 + measured_gpus FROM extrapolated_jobs"), 108);
    /* a new run appended to the old database: the tables appear, the old run has no row */
    add_extrapolated_run(old);
    ck_assert_int_eq(count(old, "SELECT count(*) FROM extrapolation"), 1);
    ck_assert_int_eq(count(old, "SELECT run_id FROM extrapolation"), 2);
    ck_assert_int_eq(count(old, "SELECT value FROM meta WHERE key='schema_version'"), 1);
    /* merges: old and new inputs into a fresh output, a new input into an old output */
    merge_stats_t st;
    mls_err_t err = {{0}};
    const char *in[] = {now, old};
    ck_assert_msg(merge_dbs(out, in, 2, &st, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(count(out, "SELECT count(*) FROM runs"), 3);
    ck_assert_int_eq(count(out, "SELECT count(*) FROM extrapolation"), 2);
    ck_assert_int_eq(count(out, "SELECT sum(run_id) FROM extrapolation"), 1 + 3);
    ck_assert_int_eq(count(out, "SELECT count(*) FROM extrapolated_jobs"), 2);
    const char *in2[] = {now};
    ck_assert_msg(merge_dbs(out2, in2, 1, &st, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(count(out2, "SELECT run_id FROM extrapolated_jobs"), 2);
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {
        load_all_and_filtered,
        load_errors,
        groups_means_and_ci,
        formats,
        merge_two,
        extrapolation_tables,
    };
    const check_opts_t opts = {.setup = setup, .teardown = teardown};
    return check_main_opts("results", tests, sizeof tests / sizeof tests[0], &opts);
}
