/* test_import.c: the production-trace pipeline at the C level — times and
 * windows, the record -> job mapping (work = duration x reference
 * throughput, so a job alone on its traced allocation takes its traced
 * duration; counts of every dropped or adjusted record; rebasing, order,
 * seeds; the Pollux buckets), the streamed Philly JSON on a file far larger
 * than any buffer, and the writer's shortest number form against the
 * straightforward search it replaces. */
#include "model/perf.h"
#include "model/trace.h"
#include "tests/check_main.h"
#include "traces/import.h"
#include "traces/mapping.h"
#include "traces/records.h"

#include <check.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- times and windows ------------------------------------------------------------- */

START_TEST(parse_times)
{
    double t;
    ck_assert_int_eq(rec_parse_time("1970-01-01 00:00:00", &t), 0);
    ck_assert(t == 0);
    ck_assert_int_eq(rec_parse_time("2017-10-07 01:11:39", &t), 0);
    ck_assert(t == 1507338699);
    ck_assert_int_eq(rec_parse_time("2017-10-07T01:11:39Z", &t), 0);
    ck_assert(t == 1507338699);
    ck_assert_int_eq(rec_parse_time("2023-03-01 00:18:22+08:00", &t), 0);
    ck_assert(t == 1677601102);
    ck_assert_int_eq(rec_parse_time("2023-03-01 00:18:22-0130", &t), 0);
    ck_assert(t == 1677635302);
    ck_assert_int_eq(rec_parse_time("2020-02-29", &t), 0);
    ck_assert(t == 1582934400);
    ck_assert_int_eq(rec_parse_time("2020-06-09 18:41:01.25", &t), 0);
    ck_assert(fabs(t - 1591728061.25) < 1e-6);
    const char *bad[] = {"NaN", "", "2017-13-01", "2017-10-07 24:00:00", "2017-10-07 01:11:39 PST",
                         "17-10-07", "2017-10-07 1:11:39", "2017-10-07 01:11:39+25:00"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(rec_parse_time(bad[i], &t) < 0, "'%s' parsed", bad[i]);
}
END_TEST

START_TEST(parse_windows)
{
    import_filters_t f;
    ck_assert_int_eq(import_parse_window("3600:7200", &f), 0);
    ck_assert(f.win_lo == 3600 && f.win_hi == 7200 && !f.win_absolute);
    ck_assert_int_eq(import_parse_window("2017-10-03:2017-10-04", &f), 0);
    ck_assert(f.win_absolute && f.win_hi - f.win_lo == 86400);
    ck_assert_int_eq(import_parse_window("2017-10-03 12:00:00:2017-10-03 13:30", &f), 0);
    ck_assert(f.win_absolute && f.win_hi - f.win_lo == 5400);
    ck_assert_int_lt(import_parse_window("5:1", &f), 0);
    ck_assert_int_lt(import_parse_window("-5:10", &f), 0);
    ck_assert_int_lt(import_parse_window("0:2017-10-03", &f), 0);
    ck_assert_int_lt(import_parse_window("10", &f), 0);
    unsigned m;
    ck_assert_int_eq(import_parse_status("pass,Killed", &m), 0);
    ck_assert_uint_eq(m, (1u << REC_PASS) | (1u << REC_KILLED));
    ck_assert_int_lt(import_parse_status("pass,done", &m), 0);
}
END_TEST

/* ---- mapping ------------------------------------------------------------------------- */

static void add(import_records_t *rs, double submit, double dur, double gpus, const char *vc)
{
    import_record_t r = record_blank();
    r.submit = submit;
    r.duration = dur;
    r.gpus = gpus;
    r.line = (long)rs->n + 2;
    r.vc = vc ? strtab_intern(&rs->vcs, vc) : -1;
    r.status = REC_PASS;
    records_add(rs, &r);
}

static mls_perf_t *catalog(void)
{
    mls_perf_t *pm = NULL;
    mls_err_t err = {{0}};
    ck_assert_msg(perf_load_or_default(&pm, NULL, &err) == 0, "%s", err.msg);
    return pm;
}

START_TEST(work_is_duration_times_rate)
{
    mls_perf_t *pm = catalog();
    import_records_t rs;
    records_init(&rs);
    records_begin_file(&rs, "t.csv");
    add(&rs, 1000, 600, 4, "a");
    add(&rs, 500, 3600, 1, "b");
    add(&rs, 700, 100, 0, "a");   /* CPU-only */
    add(&rs, 800, 200, 1.5, "a"); /* rounded up to 2 */
    add(&rs, 900, NAN, 1, "a");   /* running */
    import_record_t never = record_blank();
    never.submit = 100;
    never.attempts = 0;
    records_add(&rs, &never);
    import_options_t o;
    import_options_defaults(&o);
    mls_trace_t t;
    trace_init(&t);
    import_report_t rep = {0};
    mls_err_t err = {{0}};
    ck_assert_msg(import_map_records(&rs, pm, &o, &t, NULL, &rep, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(t.n, 3);
    ck_assert_int_eq(rep.cpu_only, 1);
    ck_assert_int_eq(rep.rounded_up, 1);
    ck_assert_int_eq(rep.no_duration, 1);
    ck_assert_int_eq(rep.no_attempts, 1);
    ck_assert_int_eq(rep.jobs, 3);
    /* sorted, rebased to the first kept submit (500), ids in order */
    ck_assert(t.jobs[0].submit == 0 && t.jobs[1].submit == 300 && t.jobs[2].submit == 500);
    ck_assert_int_eq(t.jobs[1].gpus, 2);
    int ref = perf_gpu_type_index(pm, "v100");
    for (size_t i = 0; i < t.n; i++) {
        ck_assert_int_eq(t.jobs[i].id, (int64_t)i);
        int w = perf_workload_index(pm, t.workloads.names[t.jobs[i].workload]);
        double rate = perf_throughput(pm, w, ref, t.jobs[i].gpus, 1, 0);
        ck_assert_msg(perf_max_gpus(pm, w, ref) >= t.jobs[i].gpus, "workload runs there");
        ck_assert(fabs(t.jobs[i].work / rate - t.jobs[i].duration) < 1e-9 * t.jobs[i].duration);
    }
    /* the same seed, the same mapping */
    mls_trace_t t2;
    trace_init(&t2);
    import_report_t rep2 = {0};
    ck_assert(import_map_records(&rs, pm, &o, &t2, NULL, &rep2, &err) == 0);
    for (size_t i = 0; i < t.n; i++)
        ck_assert_str_eq(t2.workloads.names[t2.jobs[i].workload],
                         t.workloads.names[t.jobs[i].workload]);
    /* --vc filters and counts */
    trace_free(&t2);
    trace_init(&t2);
    memset(&rep2, 0, sizeof rep2);
    o.filters.vcs = "a";
    ck_assert(import_map_records(&rs, pm, &o, &t2, NULL, &rep2, &err) == 0);
    ck_assert_int_eq(t2.n, 2);
    ck_assert_int_eq(rep2.filtered, 1);
    trace_free(&t2);
    trace_free(&t);
    records_free(&rs);
    perf_free(pm);
}
END_TEST

/* Rates above the largest measured count, by hand from the catalog's numbers
 * (traces/catalog/default-throughputs.json: ResNet-50 (batch size 64) on v100
 * runs 17.3 it/s on 8 GPUs of one node, 19.76 over several nodes) and from
 * tests/fixtures/bigjobs/table.json, whose "Net" has no unconsolidated entry
 * at 8 (30 at 4 over nodes against 36 on one node: a penalty of 30/36). */
START_TEST(extrapolated_rates)
{
    mls_perf_t *pm = catalog();
    int w = perf_workload_index(pm, "ResNet-50 (batch size 64)"), v = perf_gpu_type_index(pm, "v100");
    ck_assert_int_eq(perf_max_gpus(pm, w, v), 8);
    ck_assert(!perf_extrapolated(pm, w, v, 8) && perf_extrapolated(pm, w, v, 16));
    ck_assert(fabs(perf_throughput(pm, w, v, 8, 1, 0) - 17.3) < 1e-12);  /* measured: unchanged */
    ck_assert(fabs(perf_throughput(pm, w, v, 16, 2, 0) - 19.76 / 8 * 16) < 1e-9);
    ck_assert(fabs(perf_throughput(pm, w, v, 64, 8, 0) - 158.08) < 1e-9);
    ck_assert(fabs(perf_throughput(pm, w, v, 16, 1, 0) - 34.6) < 1e-9); /* one 16-GPU node */
    ck_assert(fabs(perf_throughput(pm, w, v, 128, 16, 0) - 316.16) < 1e-9);
    int types[2] = {v, perf_gpu_type_index(pm, "k80")};
    ck_assert_int_eq(perf_measured_gpus(pm, w, types, 2), 8);
    perf_free(pm);
    mls_err_t err = {{0}};
    ck_assert_msg(perf_load(&pm, MLS_SRCDIR "/tests/fixtures/bigjobs/table.json", &err) == 0, "%s",
                  err.msg);
    w = perf_workload_index(pm, "Net (batch size 32)");
    v = perf_gpu_type_index(pm, "v100");
    ck_assert(fabs(perf_throughput(pm, w, v, 16, 1, 0) - 128) < 1e-9);
    ck_assert(fabs(perf_throughput(pm, w, v, 16, 2, 0) - 8 * 30.0 / 36 * 16) < 1e-9);
    ck_assert(fabs(perf_throughput(pm, w, v, 8, 2, 0) - 60) < 1e-9); /* in the table: as before */
    int solo = perf_workload_index(pm, "Solo (batch size 8)");
    ck_assert_int_eq(perf_max_gpus(pm, solo, v), 1);
    ck_assert(fabs(perf_throughput(pm, solo, v, 4, 2, 0) - 20) < 1e-9); /* no penalty known */
    int both[2] = {v, -1};
    ck_assert_int_eq(perf_measured_gpus(pm, w, both, 2), 8);
    perf_free(pm);
}
END_TEST

/* A job above the largest measured count imports by default (no --skip-bad):
 * one of the workloads measured at that count, work = duration x the
 * extrapolated rate over ceil(GPUs / 8) nodes, counted in the report; the
 * jobs within the table get the workloads they get without it. */
START_TEST(jobs_above_the_table)
{
    mls_perf_t *pm = catalog();
    import_records_t rs;
    records_init(&rs);
    records_begin_file(&rs, "big.csv");
    for (int i = 0; i < 50; i++)
        add(&rs, 20 * i, 600, 1 + i % 8, NULL);
    add(&rs, 10, 600, 64, NULL);
    add(&rs, 15, 3600, 16, NULL);
    import_options_t o;
    import_options_defaults(&o);
    mls_trace_t t, small;
    trace_init(&t);
    trace_init(&small);
    import_report_t rep = {0}, rep_small = {0};
    mls_err_t err = {{0}};
    ck_assert_msg(import_map_records(&rs, pm, &o, &t, NULL, &rep, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(t.n, 52);
    ck_assert_int_eq(rep.extrapolated, 2);
    ck_assert_int_eq(rep.extrapolated_max_gpus, 64);
    ck_assert(fabs(rep.extrapolated_gpu_hours - (64 * 600 + 16 * 3600) / 3600.0) < 1e-9);
    int v = perf_gpu_type_index(pm, "v100"), big = 0;
    for (size_t i = 0; i < t.n; i++) {
        const mls_job_t *j = &t.jobs[i];
        int w = perf_workload_index(pm, t.workloads.names[j->workload]);
        if (j->gpus <= 8)
            continue;
        big++;
        ck_assert_int_eq(perf_max_gpus(pm, w, v), 8);
        double rate = perf_throughput(pm, w, v, j->gpus, j->gpus / 8, 0);
        ck_assert(fabs(j->work / rate - j->duration) < 1e-9 * j->duration);
    }
    ck_assert_int_eq(big, 2);
    /* the same records without the two: the others' workloads do not move */
    o.filters.max_gpus = 8;
    ck_assert(import_map_records(&rs, pm, &o, &small, NULL, &rep_small, &err) == 0);
    ck_assert_int_eq(small.n, 50);
    ck_assert_int_eq(rep_small.extrapolated, 0);
    for (size_t i = 0, k = 0; i < t.n; i++) {
        if (t.jobs[i].gpus > 8)
            continue;
        ck_assert_str_eq(t.workloads.names[t.jobs[i].workload],
                         small.workloads.names[small.jobs[k].workload]);
        ck_assert(t.jobs[i].work == small.jobs[k++].work);
    }
    trace_free(&small);
    trace_free(&t);
    records_free(&rs);
    perf_free(pm);
}
END_TEST

START_TEST(gpu_time_buckets)
{
    mls_perf_t *pm = catalog();
    import_records_t rs;
    records_init(&rs);
    for (int i = 0; i < 200; i++) {
        add(&rs, i, 1800, 1, NULL);          /* 0.5 GPU-h: cifar10 / ncf */
        add(&rs, i + 0.5, 3600 * 5, 1, NULL); /* 5 GPU-h: deepspeech2 / bert */
        add(&rs, i + 0.7, 3600 * 200, 1, NULL); /* imagenet */
    }
    import_options_t o;
    import_options_defaults(&o);
    o.mapping = MAP_GPU_TIME_BUCKETS;
    mls_trace_t t;
    trace_init(&t);
    import_report_t rep = {0};
    mls_err_t err = {{0}};
    ck_assert(import_map_records(&rs, pm, &o, &t, NULL, &rep, &err) == 0);
    int seen[3][2] = {{0}};
    for (size_t i = 0; i < t.n; i++) {
        const char *w = t.workloads.names[t.jobs[i].workload];
        double h = t.jobs[i].duration / 3600;
        int b = h < 1 ? 0 : h < 10 ? 1 : 2;
        if (b == 0) {
            ck_assert_msg(!strncmp(w, "ResNet-18", 9) || !strncmp(w, "Recommendation", 14), "%s",
                          w);
            seen[0][!strncmp(w, "ResNet-18", 9)]++;
        } else if (b == 1) {
            ck_assert_msg(!strncmp(w, "LM", 2) || !strncmp(w, "Transformer", 11), "%s", w);
            seen[1][!strncmp(w, "LM", 2)]++;
        } else
            ck_assert_msg(!strncmp(w, "ResNet-50", 9), "%s", w);
    }
    /* 1:1 within a bucket */
    ck_assert(seen[0][0] > 60 && seen[0][1] > 60 && seen[1][0] > 60 && seen[1][1] > 60);
    trace_free(&t);
    records_free(&rs);
    perf_free(pm);
}
END_TEST

/* ---- streamed Philly JSON ---------------------------------------------------------- */

START_TEST(philly_json_stream)
{
    char path[] = "/tmp/mls_philly_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *fp = fdopen(fd, "w");
    enum { JOBS = 20000 };
    fputs("[\n", fp);
    for (int i = 0; i < JOBS; i++)
        fprintf(fp,
                "%s {\"status\": \"Pass\", \"vc\": \"vc%d\", \"jobid\": \"app_{%d}\\\"\",\n"
                "  \"attempts\": [{\"start_time\": \"2017-10-07 01:%02d:00\", \"end_time\": "
                "\"2017-10-07 02:00:00\", \"detail\": [{\"ip\": \"m%d\", \"gpus\": [\"gpu0\", "
                "\"gpu1\"]}]}],\n  \"submitted_time\": \"2017-10-07 01:00:00\", \"user\": \"u\"}\n",
                i ? "," : "", i % 7, i, i % 60, i);
    fputs("]\n", fp);
    fclose(fp);
    import_records_t rs;
    records_init(&rs);
    long skipped = 0;
    mls_err_t err = {{0}};
    ck_assert_msg(import_philly(&rs, path, 0, &skipped, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(rs.n, JOBS);
    ck_assert_int_eq(rs.vcs.n, 7);
    ck_assert(rs.r[JOBS - 1].gpus == 2 && rs.r[JOBS - 1].nodes == 1);
    ck_assert(rs.r[61].duration == 3600 - 60);
    ck_assert_int_eq(rs.r[JOBS - 1].line, 2 + 3 * (JOBS - 1));
    records_free(&rs);
    unlink(path);
}
END_TEST

/* ---- the writer's number form ------------------------------------------------------ */

static void reference_format(char *buf, size_t cap, double v)
{
    for (int prec = 10; prec <= 17; prec++) {
        snprintf(buf, cap, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
}

static void same_form(double v)
{
    char a[64], b[64];
    trace_format_num(a, sizeof a, v);
    reference_format(b, sizeof b, v);
    ck_assert_msg(!strcmp(a, b), "%.17g: '%s', reference '%s'", v, a, b);
}

START_TEST(number_form)
{
    const double edge[] = {0,       -0.0,    0.1,      1e-5,     1.5e-5,    123456789012.5,
                           1e10,    9999999999.5, 99999999995.0, 1e17, 5e-324,
                           1.7976931348623157e308,
                           0.5,     2.5,     46861.880000000005, 1e-4, 9.99999999995e-5,
                           417930592.64, 28060595.810000002, 1e21, 123.456, -7.25e-7,
                           0.30000000000000004, 9.999999999999999e22, 125, 0.125};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
        same_form(edge[i]);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    for (int i = 0; i < 200000; i++) {
        double mant = gsl_rng_uniform(r) * 10, v;
        int e = (int)gsl_rng_uniform_int(r, 40) - 20;
        switch (i % 4) {
        case 0: v = mant * pow(10, e); break;                          /* any double */
        case 1: v = round(mant * 1e6) / 1e2 * pow(10, e % 4); break; /* short decimals */
        case 2: v = floor(mant * 1e4) * (0.001 + gsl_rng_uniform(r)); break; /* products */
        default: v = (double)gsl_rng_uniform_int(r, 1000000) * 0.5 + 1e10; break;
        }
        same_form(i % 8 == 3 ? -v : v);
    }
    gsl_rng_free(r);
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {
        parse_times,
        parse_windows,
        work_is_duration_times_rate,
        extrapolated_rates,
        jobs_above_the_table,
        gpu_time_buckets,
        philly_json_stream,
        number_form,
    };
    const check_opts_t opts = {.timeout_s = 60};
    return check_main_opts("import", tests, sizeof tests / sizeof tests[0], &opts);
}
