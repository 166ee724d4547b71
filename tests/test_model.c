/* test_model.c: the inputs of a run — clusters (JSON and spec), the
 * throughput table, the canonical trace (reading, writing, every malformed
 * case with its FILE:LINE: field message) and the generator. Real files
 * under ../shared/data are used when present and skipped otherwise. */
#include "model/cluster.h"
#include "model/perf.h"
#include "model/trace.h"
#include "tests/check_main.h"
#include "traces/generate.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIX MLS_SRCDIR "/tests/fixtures/model/"
#define SHARED MLS_SRCDIR "/../shared/data/"

static void expect_err(int rc, const mls_err_t *err, const char *needle)
{
    ck_assert_int_eq(rc, -1);
    ck_assert_msg(strstr(err->msg, needle), "message '%s' lacks '%s'", err->msg, needle);
}

/* ---- clusters ---------------------------------------------------------------- */

START_TEST(cluster_spec)
{
    mls_cluster_t c;
    mls_err_t err = {{0}};
    ck_assert_int_eq(cluster_from_spec(&c, "v100=3x4,K80=2x8", &err), 0);
    ck_assert_int_eq(c.n_types, 2);
    ck_assert_int_eq(c.n_gpus, 28);
    ck_assert_int_eq(c.n_nodes, 5);
    ck_assert_int_eq(cluster_type_index(&c, "k80"), 1);
    ck_assert_int_eq(c.types[1].total_gpus, 16);
    ck_assert_int_eq(c.gpu_node[11], 2);
    ck_assert_int_eq(c.gpu_node[12], 3);
    ck_assert_str_eq(c.nodes[3].name, "k80-0");
    char *js = cluster_to_json(&c);
    ck_assert_ptr_nonnull(strstr(js, "\"count\":3"));
    free(js);
    cluster_free(&c);
    expect_err(cluster_from_spec(&c, "v100=0x4", &err), &err, "'v100=0x4'");
    expect_err(cluster_from_spec(&c, "v100", &err), &err, "TYPE=NODESxGPUS");
    expect_err(cluster_from_spec(&c, "v100=2x4y", &err), &err, "unexpected 'y'");
    expect_err(cluster_load(&c, "/no/such.json", &err), &err, "/no/such.json");
}
END_TEST

/* A bundled cluster by name, from the source tree when this test (a binary
 * of the build tree) runs; MLSCHED_DATADIR comes first; an unknown name is an
 * error naming the place searched. */
START_TEST(cluster_by_name)
{
    mls_cluster_t c;
    mls_err_t err = {{0}};
    ck_assert_msg(cluster_load(&c, "gavel-108", &err) == 0, "%s", err.msg);
    ck_assert_int_eq(c.n_gpus, 108);
    cluster_free(&c);
    ck_assert_msg(cluster_load(&c, "36v100.json", &err) == 0, "%s", err.msg);
    ck_assert_int_eq(c.n_gpus, 36);
    cluster_free(&c);
    ck_assert_int_eq(cluster_load(&c, "no-such-cluster", &err), -1);
    ck_assert_msg(strstr(err.msg, "no bundled cluster of that name") &&
                      strstr(err.msg, "traces/clusters/no-such-cluster.json"),
                  "%s", err.msg);
    char dir[] = "/tmp/mls_data_XXXXXX", path[256];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/clusters", dir);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/clusters/gavel-108.json", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{\"name\": \"mine\", \"node_groups\": [{\"gpu_type\": \"v100\", \"count\": 2}]}", f);
    fclose(f);
    setenv("MLSCHED_DATADIR", dir, 1);
    ck_assert_msg(cluster_load(&c, "gavel-108", &err) == 0, "%s", err.msg);
    unsetenv("MLSCHED_DATADIR");
    ck_assert_int_eq(c.n_gpus, 2);
    cluster_free(&c);
    unlink(path);
    snprintf(path, sizeof path, "%s/clusters", dir);
    rmdir(path);
    rmdir(dir);
}
END_TEST

START_TEST(cluster_json)
{
    mls_cluster_t c;
    mls_err_t err = {{0}};
    ck_assert_msg(cluster_load(&c, MLS_SRCDIR "/traces/clusters/gavel-108.json", &err) == 0,
                  "%s", err.msg);
    ck_assert_int_eq(c.n_gpus, 108);
    ck_assert_int_eq(c.n_types, 3);
    ck_assert(c.types[cluster_type_index(&c, "K80")].mem_gb == 12);
    /* round trip through cluster_to_json */
    char *js = cluster_to_json(&c);
    char path[] = "/tmp/mls_cl_XXXXXX";
    int fd = mkstemp(path);
    ck_assert(write(fd, js, strlen(js)) == (ssize_t)strlen(js));
    close(fd);
    mls_cluster_t d;
    ck_assert_msg(cluster_from_json_file(&d, path, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(d.n_gpus, 108);
    ck_assert_int_eq(d.n_nodes, c.n_nodes);
    remove(path);
    free(js);
    cluster_free(&c);
    cluster_free(&d);
    expect_err(cluster_load(&c, FIX "bad_gpus.json", &err), &err,
               "node_groups[0].gpus_per_node");
    expect_err(cluster_load(&c, FIX "unknown_key.json", &err), &err,
               "node_groups[0].colour: unknown key");
    expect_err(cluster_load(&c, FIX "syntax.json", &err), &err, "syntax.json:3: not valid JSON");
}
END_TEST

/* ---- the throughput table ------------------------------------------------------ */

START_TEST(table_lookups)
{
    mls_perf_t *pm;
    mls_err_t err = {{0}};
    ck_assert_msg(perf_load(&pm, FIX "tiny_table.json", &err) == 0, "%s", err.msg);
    int m8 = perf_workload_index(pm, "M (batch size 8)"), n = perf_workload_index(pm, "N");
    int v = perf_gpu_type_index(pm, "V100"), k = perf_gpu_type_index(pm, "k80");
    ck_assert(m8 >= 0 && n >= 0 && v >= 0 && k >= 0);
    ck_assert_int_eq(pm->ops->n_gpu_types(pm), 2); /* _unconsolidated folds into v100 */
    ck_assert(perf_throughput(pm, m8, v, 1, 1, 0) == 2.0);
    ck_assert(perf_throughput(pm, m8, v, 4, 1, 0) == 6.0);
    ck_assert(perf_throughput(pm, m8, v, 4, 2, 0) == 4.0);   /* unconsolidated */
    ck_assert(perf_throughput(pm, m8, v, 2, 1, 0) == 4.0);   /* sf 1 scaled x2 */
    ck_assert(perf_throughput(pm, m8, v, 8, 1, 0) == 12.0);  /* sf 4 scaled x2 */
    ck_assert(perf_throughput(pm, m8, v, 1, 1, 16) == 3.5);  /* sibling batch size */
    ck_assert(perf_throughput(pm, m8, k, 1, 1, 0) == 0);     /* not measured on k80 */
    double r[2];
    ck_assert_int_eq(pm->ops->pair(pm, m8, n, v, 1, r), 0);
    ck_assert(r[0] == 0.5 && r[1] == 1.5);
    ck_assert_int_eq(pm->ops->pair(pm, n, m8, k, 1, r), -1); /* 0.0 = cannot share */
    ck_assert_int_eq(pm->ops->pair(pm, m8, n, v, 4, r), -1); /* no pair at sf 4 */
    perf_free(pm);
    expect_err(perf_load(&pm, FIX "bad_rate.json", &err), &err, "null: must be a rate");
    expect_err(perf_load(&pm, FIX "syntax.json", &err), &err, "not valid JSON");
}
END_TEST

/* Another batch size of the same model is the first such workload in the
 * table's order (the sibling links made at load), never another model's;
 * counts up to 64 (read from the rates worked out at load) and above (the
 * rule, each call) agree with the extrapolation rule. */
START_TEST(table_siblings)
{
    mls_perf_t *pm;
    mls_err_t err = {{0}};
    ck_assert_msg(perf_load(&pm, FIX "sibling_table.json", &err) == 0, "%s", err.msg);
    int a32 = perf_workload_index(pm, "A (batch size 32)");
    int a64 = perf_workload_index(pm, "A (batch size 64)");
    int b32 = perf_workload_index(pm, "B (batch size 32)"), v = perf_gpu_type_index(pm, "v100");
    ck_assert(a32 >= 0 && a64 >= 0 && b32 >= 0 && v >= 0);
    ck_assert(perf_throughput(pm, a32, v, 1, 1, 64) == 3.0);  /* not 'batch size 064' */
    ck_assert(perf_throughput(pm, b32, v, 1, 1, 64) == 5.0);  /* B's, not A's */
    ck_assert(perf_throughput(pm, a64, v, 1, 1, 32) == 1.0);
    ck_assert(perf_throughput(pm, a32, v, 1, 1, 128) == 1.0); /* no such batch: its own */
    ck_assert(perf_throughput(pm, a32, v, 3, 1, 0) == 3.0);   /* sf 1 scaled x3 */
    ck_assert(perf_throughput(pm, a32, v, 64, 1, 0) == 128.0); /* beyond 8: 16/8 per GPU */
    ck_assert(perf_throughput(pm, a32, v, 64, 8, 0) == 96.0);  /* over nodes: 12/8 */
    ck_assert(perf_throughput(pm, a32, v, 65, 9, 0) == 97.5);
    ck_assert(perf_throughput(pm, a32, v, 128, 1, 0) == 256.0);
    ck_assert(perf_throughput(pm, b32, v, 4, 2, 0) == 8.0); /* no unconsolidated: consolidated */
    ck_assert(perf_throughput(pm, a32, v, 0, 1, 0) == 0);
    ck_assert(perf_throughput(pm, a32, 1, 1, 1, 0) == 0); /* no such type */
    ck_assert(perf_throughput(pm, 99, v, 1, 1, 0) == 0);  /* no such workload */
    perf_free(pm);
}
END_TEST

/* The measured tables load as they are, and read back known entries. */
START_TEST(real_tables)
{
    const char *files[] = {SHARED "gavel/throughputs/simulation_throughputs.json",
                           SHARED "gavel/throughputs/physical_cluster_throughputs.json",
                           SHARED "gavel/throughputs/oracle_throughputs_motivation.json",
                           SHARED "shockwave/throughputs/tacc_throughputs.json",
                           SHARED "shockwave/throughputs/wisr_throughputs.json",
                           SHARED "shockwave/throughputs/actual_throughputs.json"};
    if (access(files[0], R_OK) != 0) {
        printf("real_tables: SKIP: ../shared/data is absent\n");
        return;
    }
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        mls_perf_t *pm;
        mls_err_t err = {{0}};
        ck_assert_msg(perf_load(&pm, files[i], &err) == 0, "%s: %s", files[i], err.msg);
        ck_assert_int_ge(pm->ops->n_workloads(pm), 20);
        perf_free(pm);
    }
    mls_perf_t *pm;
    mls_err_t err = {{0}};
    ck_assert_int_eq(perf_load(&pm, files[0], &err), 0);
    int w = perf_workload_index(pm, "ResNet-18 (batch size 16)");
    int v = perf_gpu_type_index(pm, "v100");
    ck_assert(fabs(perf_throughput(pm, w, v, 1, 1, 0) - 32.353384328946916) < 1e-12);
    int w32 = perf_workload_index(pm, "ResNet-18 (batch size 32)");
    double r[2];
    ck_assert_int_eq(pm->ops->pair(pm, w, w32, v, 1, r), 0);
    ck_assert(fabs(r[0] - 32.353384328946916) < 1e-12 && fabs(r[1] - 29.947157347732464) < 1e-12);
    perf_free(pm);
}
END_TEST

/* ---- the canonical trace ---------------------------------------------------------- */

START_TEST(trace_quirks)
{
    mls_trace_t t;
    mls_err_t err = {{0}};
    trace_init(&t);
    ck_assert_msg(trace_read_csv(&t, FIX "crlf_quoted.csv", 0, &err) == 0, "%s", err.msg);
    ck_assert_int_eq((int)t.n, 2);
    ck_assert_str_eq(t.users.names[t.jobs[0].user], "a, b");
    ck_assert_str_eq(t.workloads.names[t.jobs[1].workload], "W \"x\"");
    ck_assert(t.jobs[1].work == 20 && t.jobs[1].gpus == 2 && t.jobs[1].max_gpus == 2);
    ck_assert(isnan(t.jobs[0].duration) && isinf(t.jobs[0].deadline));
    ck_assert_int_eq((int)strlen(t.checksum), 16);
    /* write and read back */
    char path[] = "/tmp/mls_tr_XXXXXX";
    close(mkstemp(path));
    ck_assert_int_eq(trace_write_csv(&t, path, &err), 0);
    mls_trace_t u;
    trace_init(&u);
    ck_assert_msg(trace_read_csv(&u, path, 0, &err) == 0, "%s", err.msg);
    ck_assert_int_eq((int)u.n, 2);
    ck_assert_str_eq(u.users.names[u.jobs[0].user], "a, b");
    ck_assert_str_eq(u.workloads.names[u.jobs[1].workload], "W \"x\"");
    ck_assert(u.jobs[1].submit == 5);
    remove(path);
    trace_free(&u);
    trace_free(&t);
}
END_TEST

START_TEST(trace_errors)
{
    static const struct {
        const char *file, *needle;
        unsigned flags;
    } cases[] = {
        {"extra_col.csv", "extra_col.csv:1: column 'colour'", 0},
        {"missing_col.csv", "missing_col.csv:1: the required column 'total_work'", 0},
        {"dup_id.csv", "field 'id': job id 1 appears twice", 0},
        {"bad_min.csv", "bad_min.csv:2: field 'min_gpus'", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mls_trace_t t;
        mls_err_t err = {{0}};
        trace_init(&t);
        char path[512];
        snprintf(path, sizeof path, FIX "%s", cases[i].file);
        expect_err(trace_read_csv(&t, path, cases[i].flags, &err), &err, cases[i].needle);
        trace_free(&t);
    }
    mls_trace_t t;
    mls_err_t err = {{0}};
    trace_init(&t);
    ck_assert_msg(trace_read_csv(&t, FIX "extra_col.csv", TRACE_IGNORE_EXTRA, &err) == 0, "%s",
                  err.msg);
    trace_free(&t);
}
END_TEST

/* The optional total_batch column: read, kept through a write (and left
 * out of the header when no job gives one), 0 when absent; a bad value names
 * its line and field. */
static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static int header_has(const char *path, const char *col)
{
    char line[1024] = "";
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    fclose(f);
    return strstr(line, col) != NULL;
}

START_TEST(trace_total_batch)
{
    static const char head[] = "id,submit_time,workload,gpus,total_work,batch_size";
    char in[] = "/tmp/mls_tb_XXXXXX", out[] = "/tmp/mls_tbo_XXXXXX", text[512];
    close(mkstemp(in));
    close(mkstemp(out));
    mls_trace_t t, u;
    mls_err_t err = {{0}};
    snprintf(text, sizeof text, "%s,total_batch\n0,0,cifar10,6,10,342,2048\n1,5,ncf,1,10,0,\n",
             head);
    write_text(in, text);
    trace_init(&t);
    ck_assert_msg(trace_read_csv(&t, in, 0, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(t.jobs[0].total_batch, 2048);
    ck_assert_int_eq(t.jobs[0].batch_size, 342);
    ck_assert_int_eq(t.jobs[1].total_batch, 0);
    ck_assert_int_eq(trace_write_csv(&t, out, &err), 0);
    ck_assert(header_has(out, "total_batch"));
    trace_init(&u);
    ck_assert_msg(trace_read_csv(&u, out, 0, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(u.jobs[0].total_batch, 2048);
    ck_assert_int_eq(u.jobs[1].total_batch, 0);
    trace_free(&u);
    trace_free(&t);
    /* an old trace: no column read, none written */
    snprintf(text, sizeof text, "%s\n0,0,cifar10,6,10,342\n", head);
    write_text(in, text);
    trace_init(&t);
    ck_assert_msg(trace_read_csv(&t, in, 0, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(t.jobs[0].total_batch, 0);
    ck_assert_int_eq(trace_write_csv(&t, out, &err), 0);
    ck_assert(!header_has(out, "total_batch"));
    trace_free(&t);
    static const char *const bad[] = {"-4", "2.5", "0x10", "2147483648"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(text, sizeof text, "%s,total_batch\n0,0,cifar10,6,10,342,%s\n", head, bad[i]);
        write_text(in, text);
        trace_init(&t);
        expect_err(trace_read_csv(&t, in, 0, &err), &err, ":2: field 'total_batch'");
        trace_free(&t);
    }
    remove(in);
    remove(out);
}
END_TEST

/* ---- the generator ----------------------------------------------------------------- */

static void generate(mls_trace_t *t, uint64_t seed, long jobs, int multi)
{
    mls_perf_t *pm;
    mls_err_t err = {{0}};
    ck_assert_msg(perf_load_or_default(&pm, NULL, &err) == 0, "%s", err.msg);
    gen_config_t g;
    gen_config_defaults(&g);
    g.seed = seed;
    g.jobs = jobs;
    g.rate_per_hour = 6;
    g.multi_gpu = multi;
    trace_init(t);
    ck_assert_msg(trace_generate(t, pm, &g, &err) == 0, "%s", err.msg);
    /* total work = duration x isolated v100 throughput at the request */
    int v = perf_gpu_type_index(pm, "v100");
    for (size_t i = 0; i < t->n; i++) {
        const mls_job_t *j = &t->jobs[i];
        int w = perf_workload_index(pm, t->workloads.names[j->workload]);
        double r = perf_throughput(pm, w, v, j->gpus, 1, 0);
        ck_assert(fabs(j->work - j->duration * r) <= 1e-9 * j->work);
    }
    perf_free(pm);
}

START_TEST(generator_mix)
{
    mls_trace_t t;
    generate(&t, 7, 5000, 1);
    long sf[9] = {0}, long_jobs = 0;
    for (size_t i = 0; i < t.n; i++) {
        sf[t.jobs[i].gpus]++;
        long_jobs += t.jobs[i].duration > 60 * 1000;
    }
    /* 70/10/15/5 % and 20 % long jobs, within ~4 standard deviations */
    ck_assert(fabs(sf[1] / 5000.0 - 0.70) < 0.03 && fabs(sf[2] / 5000.0 - 0.10) < 0.02);
    ck_assert(fabs(sf[4] / 5000.0 - 0.15) < 0.02 && fabs(sf[8] / 5000.0 - 0.05) < 0.015);
    ck_assert(fabs(long_jobs / 5000.0 - 0.20) < 0.025);
    /* mean inter-arrival 600 s at 6 jobs/h */
    double gap = t.jobs[t.n - 1].submit / (double)(t.n - 1);
    ck_assert_msg(fabs(gap - 600) < 0.05 * 600, "mean gap %g", gap);
    trace_free(&t);
}
END_TEST

START_TEST(generator_deterministic)
{
    mls_trace_t a, b, c;
    generate(&a, 3, 200, 1);
    generate(&b, 3, 200, 1);
    generate(&c, 4, 200, 1);
    int same = 1, differ = 0;
    for (size_t i = 0; i < a.n; i++) {
        same &= a.jobs[i].submit == b.jobs[i].submit && a.jobs[i].work == b.jobs[i].work;
        differ |= a.jobs[i].submit != c.jobs[i].submit;
    }
    ck_assert(same && differ);
    trace_free(&a);
    trace_free(&b);
    trace_free(&c);
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {
        cluster_spec,
        cluster_json,
        cluster_by_name,
        table_lookups,
        table_siblings,
        real_tables,
        trace_quirks,
        trace_errors,
        trace_total_batch,
        generator_mix,
        generator_deterministic,
    };
    return check_main("model", tests, sizeof tests / sizeof tests[0]);
}
