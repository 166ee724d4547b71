/* test_curves.c: the curve file (round trip, every malformed case and its
 * message), the curves perf backend (batch interpolation and extrapolation
 * against hand values, memory refusal, GPU-count scaling with and without a
 * fit), the catalog round trip, the fitter recovering known parameters from
 * synthetic curves, the progress-line parsers and the run statistics. */
#include "model/curve_catalog.h"
#include "model/curves.h"
#include "model/perf.h"
#include "profiler/nvml.h"
#include "profiler/progress.h"
#include "profiler/wrap.h"
#include "tests/check_main.h"

#include <check.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEADER CURVES_MAGIC "\n# gpu_type=x\n" CURVES_HEADER "\n"

/* A temporary file holding text; the path is static storage of the caller. */
static void write_tmp(char *path, size_t n, const char *name, const char *text)
{
    snprintf(path, n, "/tmp/mls-test-curves-%ld-%s", (long)getpid(), name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static int near(double a, double b, double rel)
{
    return fabs(a - b) <= rel * fabs(b) + 1e-12;
}

/* ---- the curve file ------------------------------------------------------------- */

static const char *good =
    CURVES_MAGIC "\n"
                 "# gpu_name=NVIDIA H100 80GB HBM3\n"
                 "# gpu_type=h100\n"
                 "# gpu_mem_bytes=85520809984\n"
                 "# a comment without a key\n" CURVES_HEADER "\n"
                 "wl-a,H100,1,1,8,1,0.001575,0.001512,0.001634,0,5078.72,253755392,40\n"
                 "wl-a,h100,1,1,16,1,0.001557,0.001502,0.001644,0,10278.76,343932928,40\n"
                 "wl-a,h100,2,1,16,2,0.004,0.0039,0.0041,0.001,16000,343932928,30\n";

START_TEST(round_trip)
{
    curve_set_t cs, back;
    mls_err_t err = {{0}};
    char p1[256], p2[300], p3[300];
    curves_init(&cs);
    curves_init(&back);
    write_tmp(p1, sizeof p1, "rt.csv", good);
    ck_assert_msg(curves_read(&cs, p1, &err) == 0, "%s", err.msg);
    ck_assert_int_eq((int)cs.n, 3);
    ck_assert_str_eq(cs.rows[0].gpu_type, "h100"); /* lower-cased */
    ck_assert_str_eq(curves_meta(&cs, -1, "gpu_name"), "NVIDIA H100 80GB HBM3");
    ck_assert_ptr_null(curves_meta(&cs, -1, "a comment without a key"));
    ck_assert(cs.rows[2].accum_steps == 2 && cs.rows[2].sync_time == 0.001);
    ck_assert(cs.rows[0].mem_bytes == 253755392 && cs.rows[0].iters == 40);
    snprintf(p2, sizeof p2, "%s.out", p1);
    ck_assert_msg(curves_write(&cs, p2, &err) == 0, "%s", err.msg);
    ck_assert_msg(curves_read(&back, p2, &err) == 0, "%s", err.msg);
    ck_assert_int_eq((int)back.n, 3);
    for (size_t i = 0; i < 3; i++) {
        const curve_row_t *a = &cs.rows[i], *b = &back.rows[i];
        ck_assert_str_eq(a->workload, b->workload);
        ck_assert(a->num_gpus == b->num_gpus && a->local_bsz == b->local_bsz &&
                  a->accum_steps == b->accum_steps && a->mem_bytes == b->mem_bytes);
        ck_assert(near(a->iter_time, b->iter_time, 1e-5) && near(a->iter_p90, b->iter_p90, 1e-5));
        ck_assert(near(a->samples_per_s, b->samples_per_s, 1e-6));
    }
    ck_assert_str_eq(curves_meta(&back, -1, "gpu_mem_bytes"), "85520809984");
    /* writing what was read back gives the same bytes */
    snprintf(p3, sizeof p3, "%s.again", p1);
    ck_assert(curves_write(&back, p3, &err) == 0);
    char *t2 = mls_read_file(p2, &err), *t3 = mls_read_file(p3, &err);
    ck_assert_str_eq(t2, t3);
    free(t2);
    free(t3);
    /* optional columns may be left out */
    curve_set_t few;
    curves_init(&few);
    ck_assert_msg(curves_parse(&few,
                               CURVES_MAGIC "\nworkload,gpu_type,num_gpus,num_nodes,local_bsz,"
                                            "accum_steps,samples_per_s,iter_time_s\n"
                                            "w,v100,1,1,10,1,100,0.1\n",
                               "few.csv", &err) == 0,
                  "%s", err.msg);
    ck_assert(few.rows[0].iter_p10 == 0.1 && few.rows[0].iter_p90 == 0.1 &&
              few.rows[0].mem_bytes == 0);
    curves_free(&few);
    unlink(p1);
    unlink(p2);
    unlink(p3);
    curves_free(&cs);
    curves_free(&back);
}
END_TEST

static const struct {
    const char *text, *want;
} malformed[] = {
    {"", "bad.csv:1: empty file"},
    {"workload,gpu_type\n", "bad.csv:1: not a curve file"},
    {CURVES_MAGIC "\n# gpu_type=x\n", "bad.csv:2: no header line"},
    {CURVES_MAGIC "\n" CURVES_HEADER "\n", "bad.csv:2: no rows"},
    {CURVES_MAGIC "\nworkload,gpu_type,num_gpus,num_nodes,local_bsz,accum_steps,samples_per_s\n"
                  "w,x,1,1,1,1,1\n",
     "bad.csv:2: header: missing column 'iter_time_s'"},
    {CURVES_MAGIC "\n" CURVES_HEADER ",speed\n", "bad.csv:2: header: unknown column 'speed'"},
    {CURVES_MAGIC "\nworkload,workload\n", "bad.csv:2: header: column 'workload' twice"},
    {CURVES_MAGIC "\n# gpu_mem_bytes=lots\n" CURVES_HEADER "\n",
     "bad.csv:2: gpu_mem_bytes: 'lots' is not a number"},
    {HEADER "w,x,1,1,8,1,0.1,0.1,0.1,0,80,0\n", "bad.csv:4: row has 12 fields, the header 13"},
    {HEADER "w,x,1,1,8,1,0,0,0,0,80,0,1\n", "bad.csv:4: iter_time_s: must be > 0, got 0"},
    {HEADER "w,x,1,1,8,1,-0.1,0.1,0.1,0,80,0,1\n", "bad.csv:4: iter_time_s: must be > 0"},
    {HEADER "w,x,1,1,8,1,abc,0.1,0.1,0,80,0,1\n", "bad.csv:4: iter_time_s: 'abc' is not a number"},
    {HEADER "w,x,1,1,8,1,0.1,0.1,0.1,0,500,0,1\n",
     "bad.csv:4: samples_per_s: 500, but num_gpus*local_bsz*accum_steps/iter_time_s = 80"},
    {HEADER "w,x,2,1,8,2,0.1,0.1,0.1,0,80,0,1\n", "bad.csv:4: samples_per_s: 80, but"},
    {HEADER "w,x,0,1,8,1,0.1,0.1,0.1,0,0,0,1\n", "bad.csv:4: num_gpus: must be >= 1, got 0"},
    {HEADER "w,x,1,2,8,1,0.1,0.1,0.1,0,80,0,1\n", "bad.csv:4: num_nodes: must be in 1..num_gpus"},
    {HEADER "w,x,1,1,0,1,0.1,0.1,0.1,0,0,0,1\n", "bad.csv:4: local_bsz: must be >= 1"},
    {HEADER "w,x,1,1,8,0,0.1,0.1,0.1,0,0,0,1\n", "bad.csv:4: accum_steps: must be >= 1"},
    {HEADER "w,x,1,1,8.5,1,0.1,0.1,0.1,0,80,0,1\n", "bad.csv:4: local_bsz: '8.5' is not an integer"},
    {HEADER "w,x,1,1,8,1,0.1,0.2,0.3,0,80,0,1\n", "bad.csv:4: iter_time_p10_s: must be in"},
    {HEADER "w,x,1,1,8,1,0.1,0.1,0.05,0,80,0,1\n", "bad.csv:4: iter_time_p90_s: must be >="},
    {HEADER "w,x,1,1,8,1,0.1,0.1,0.1,0.1,80,0,1\n", "bad.csv:4: sync_time_s: must be in"},
    {HEADER "w,x,1,1,8,1,0.1,0.1,0.1,0,80,-5,1\n", "bad.csv:4: mem_bytes: '-5' is not a byte"},
    {HEADER ",x,1,1,8,1,0.1,0.1,0.1,0,80,0,1\n", "bad.csv:4: workload: empty"},
    {HEADER "w,x,1,1,8,1,0.1,0.1,0.1,0,80,0,1\n"
            "w,y,1,1,8,1,0.1,0.1,0.1,0,80,0,1\n"
            "w,X,1,1,8,1,0.2,0.2,0.2,0,40,0,1\n",
     "bad.csv:6: duplicate row: w on X, 1 GPU(s), 1 node(s), batch 8, accum 1 is already at "
     "bad.csv:4"},
};

START_TEST(malformed_cases)
{
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
        curve_set_t cs;
        mls_err_t err = {{0}};
        curves_init(&cs);
        ck_assert_msg(curves_parse(&cs, malformed[i].text, "bad.csv", &err) == -1,
                      "case %zu accepted", i);
        ck_assert_msg(strstr(err.msg, malformed[i].want), "case %zu: got '%s', wanted '%s'", i,
                      err.msg, malformed[i].want);
        ck_assert_int_eq((int)cs.n, 0); /* nothing kept from a bad file */
        curves_free(&cs);
    }
}
END_TEST

START_TEST(duplicate_across_files)
{
    curve_set_t cs;
    mls_err_t err = {{0}};
    curves_init(&cs);
    const char *one = HEADER "w,x,1,1,8,1,0.1,0.1,0.1,0,80,0,1\n";
    ck_assert(curves_parse(&cs, one, "a.csv", &err) == 0);
    ck_assert(curves_parse(&cs, one, "b.csv", &err) == -1);
    ck_assert_msg(strstr(err.msg, "b.csv:4: duplicate row") && strstr(err.msg, "a.csv:4"), "%s",
                  err.msg);
    ck_assert_int_eq((int)cs.n, 1);
    curves_free(&cs);
}
END_TEST

/* ---- the backend ---------------------------------------------------------------- */

/* 1 GPU: batch 16 T 0.1 mem 1000; 32: 0.15, 1500; 64: 0.25, 2500.
 * 2 GPUs on one node: batch 32 T 0.2. Memory per GPU: MEM. */
static mls_perf_t *hand_model(const char *mem_line)
{
    char text[2048], path[256];
    snprintf(text, sizeof text,
             CURVES_MAGIC "\n# gpu_type=x\n%s" CURVES_HEADER "\n"
                          "w,x,1,1,32,1,0.15,0.15,0.15,0,213.333,1500,10\n"
                          "w,x,1,1,16,1,0.1,0.1,0.1,0,160,1000,10\n"
                          "w,x,1,1,64,1,0.25,0.25,0.25,0,256,2500,10\n"
                          "w,x,2,1,32,1,0.2,0.2,0.2,0,320,1500,10\n"
                          "w,x,1,1,64,2,0.5,0.5,0.5,0,256,2500,10\n",
             mem_line);
    write_tmp(path, sizeof path, "hand.csv", text);
    mls_perf_t *pm = NULL;
    mls_err_t err = {{0}};
    ck_assert_int_eq(perf_curves_sniff(path), 1);
    ck_assert_str_eq(perf_backend_for(path)->name, "curves");
    ck_assert_msg(perf_load(&pm, path, &err) == 0, "%s", err.msg);
    ck_assert_str_eq(pm->ops->backend, "curves");
    unlink(path);
    return pm;
}

START_TEST(interpolation)
{
    mls_perf_t *pm = hand_model("# gpu_mem_bytes=4000\n");
    ck_assert_str_eq(pm->ops->backend, "curves");
    int w = perf_workload_index(pm, "w"), t = perf_gpu_type_index(pm, "X");
    ck_assert(w == 0 && t == 0);
    /* between measured batches: T linear (24: 0.125 s; 48: 0.2 s) */
    ck_assert(near(perf_throughput(pm, w, t, 1, 1, 24), 24 / 0.125, 1e-12));
    ck_assert(near(perf_throughput(pm, w, t, 1, 1, 48), 48 / 0.2, 1e-12));
    ck_assert(near(perf_throughput(pm, w, t, 1, 1, 32), 32 / 0.15, 1e-12));
    /* below the smallest: T clamped at 0.1 s */
    ck_assert(near(perf_throughput(pm, w, t, 1, 1, 8), 8 / 0.1, 1e-12));
    /* default batch (0): the largest measured on one GPU, 64 */
    ck_assert(near(perf_throughput(pm, w, t, 1, 1, 0), 64 / 0.25, 1e-12));
    /* above the largest, no fit: samples/s stays at 256; memory 2500 + 31.25/sample */
    ck_assert(near(perf_throughput(pm, w, t, 1, 1, 96), 256, 1e-12)); /* mem 3500 */
    ck_assert(near(perf_throughput(pm, w, t, 1, 1, 112), 256, 1e-12)); /* mem 4000: fits */
    /* memory refusal: 128 needs 4500 B > 4000 */
    ck_assert(perf_throughput(pm, w, t, 1, 1, 128) == 0);
    /* measured 2 GPUs exactly; 4 GPUs scaled linearly from it (no fit) */
    ck_assert(near(perf_throughput(pm, w, t, 2, 1, 32), 320, 1e-12));
    ck_assert(near(perf_throughput(pm, w, t, 4, 1, 32), 640, 1e-12));
    ck_assert(near(perf_throughput(pm, w, t, 4, 2, 32), 640, 1e-12));
    /* 2 GPUs at batch 16: below the 2-GPU config's batches, clamped T 0.2 */
    ck_assert(near(perf_throughput(pm, w, t, 2, 1, 16), 2 * 16 / 0.2, 1e-12));
    /* 3 GPUs: from the 2-GPU config, x 3/2 */
    ck_assert(near(perf_throughput(pm, w, t, 3, 1, 32), 480, 1e-12));
    /* unknown workload/type, bad sizes: 0 */
    ck_assert(perf_throughput(pm, w, 5, 1, 1, 32) == 0);
    ck_assert(perf_throughput(pm, w, t, 0, 1, 32) == 0);
    ck_assert(perf_throughput(pm, w, t, 1, 2, 32) == 0);
    double r[2];
    ck_assert_int_eq(pm->ops->pair(pm, w, w, t, 1, r), -1);
    /* no fit: accumulation leaves samples/s as it is */
    ck_assert(near(pm->ops->samples_rate(pm, w, t, 2, 1, 32, 3), 320, 1e-12));
    perf_free(pm);
}
END_TEST

START_TEST(memory_refusal)
{
    /* without the GPU's memory, batches above the measured ones are refused */
    mls_perf_t *pm = hand_model("");
    ck_assert(perf_throughput(pm, 0, 0, 1, 1, 96) == 0);
    ck_assert(perf_throughput(pm, 0, 0, 1, 1, 64) > 0);
    perf_free(pm);
    /* a smaller GPU: measured batches whose memory exceeds it are refused too */
    pm = hand_model("# gpu_mem_bytes=2000\n");
    ck_assert(perf_throughput(pm, 0, 0, 1, 1, 64) == 0);        /* 2500 B */
    ck_assert(perf_throughput(pm, 0, 0, 1, 1, 56) == 0);        /* 2250 B */
    ck_assert(near(perf_throughput(pm, 0, 0, 1, 1, 48), 240, 1e-12)); /* 2000 B: fits */
    ck_assert(perf_throughput(pm, 0, 0, 1, 1, 0) == 0);         /* default 64 */
    perf_free(pm);
}
END_TEST

/* ---- fit and catalog -------------------------------------------------------------- */

static const pollux_params_t truth = {0.02, 0.0005, 0.01, 0.002, 0.05, 0.01, 2.0};

/* Rows of w on "y" from the truth at GPUs 1, 2, 4 (one node), 8 (two nodes) and 12
 * (three): two counts of each kind, so that each sync term's alpha and beta are
 * identified. */
static void synthetic(curve_set_t *cs)
{
    int gpus[] = {1, 2, 4, 8, 12}, nodes[] = {1, 1, 1, 2, 3};
    for (int g = 0; g < 5; g++)
        for (int m = 16; m <= 256; m *= 2) {
            curve_row_t r = {.workload = "syn", .gpu_type = "y", .num_gpus = gpus[g],
                             .num_nodes = nodes[g], .local_bsz = m, .accum_steps = 1,
                             .file = -1, .line = (long)cs->n + 1};
            r.iter_time = r.iter_p10 = r.iter_p90 =
                pollux_iter_time(&truth, nodes[g], gpus[g], m, 0);
            r.samples_per_s = curves_expected_rate(&r);
            r.mem_bytes = 1000000 + 10000 * m;
            ck_assert(curves_add(cs, &r, "synthetic", NULL) == 0);
        }
}

START_TEST(fit_recovers)
{
    curve_set_t cs;
    curve_catalog_t cat;
    mls_err_t err = {{0}};
    curves_init(&cs);
    catalog_init(&cat);
    synthetic(&cs);
    ck_assert_msg(catalog_build(&cat, &cs, 1, &err) == 0, "%s", err.msg);
    ck_assert_int_eq((int)cs.n, 0); /* taken over */
    const curve_fit_t *f = catalog_fit_of(&cat, "syn", "Y");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(f->rows, 25);
    ck_assert_msg(f->rep.median_rel_err < 1e-3, "median error %g", f->rep.median_rel_err);
    ck_assert(f->rep.identified_local && f->rep.identified_node);
    ck_assert_msg(near(f->p.alpha_grad, truth.alpha_grad, 0.02) &&
                      near(f->p.beta_grad, truth.beta_grad, 0.02),
                  "grad %g %g", f->p.alpha_grad, f->p.beta_grad);
    ck_assert_int_eq(catalog_default_batch(&cat, "syn"), 256);
    catalog_set_gpu_mem(&cat, "y", 4000000);

    /* the catalog round trip, then the backend on it */
    char path[256];
    snprintf(path, sizeof path, "/tmp/mls-test-curves-%ld-cat.json", (long)getpid());
    ck_assert_msg(catalog_write(&cat, path, &err) == 0, "%s", err.msg);
    curve_catalog_t back;
    catalog_init(&back);
    ck_assert_msg(catalog_read(&back, path, &err) == 0, "%s", err.msg);
    ck_assert_int_eq((int)back.curves.n, 25);
    const curve_fit_t *g = catalog_fit_of(&back, "syn", "y");
    ck_assert(g && g->p.gamma == f->p.gamma && g->p.beta_node == f->p.beta_node &&
              g->rep.identified_node);
    ck_assert(catalog_gpu_of(&back, "y")->mem_bytes == 4000000);
    ck_assert_int_eq(perf_curves_sniff(path), 2);
    ck_assert_str_eq(perf_backend_for(path)->name, "curves");
    mls_perf_t *pm = NULL;
    ck_assert_msg(perf_load(&pm, path, &err) == 0, "%s", err.msg);
    int w = perf_workload_index(pm, "syn"), t = perf_gpu_type_index(pm, "y");
    /* measured points are the rows themselves */
    ck_assert(near(perf_throughput(pm, w, t, 4, 1, 64),
                   pollux_throughput(&truth, 1, 4, 64, 0), 1e-9));
    /* unmeasured GPU counts follow the fit: 3 on one node, 16 over 4 nodes */
    ck_assert(near(perf_throughput(pm, w, t, 3, 1, 64), pollux_throughput(&truth, 1, 3, 64, 0),
                   0.02));
    ck_assert(near(perf_throughput(pm, w, t, 16, 4, 64),
                   pollux_throughput(&truth, 4, 16, 64, 0), 0.02));
    /* above the largest batch, through the fit, within memory (1e6 + 1e4 m <= 4e6) */
    ck_assert(near(perf_throughput(pm, w, t, 1, 1, 300), pollux_throughput(&truth, 1, 1, 300, 0),
                   0.01));
    ck_assert(perf_throughput(pm, w, t, 1, 1, 301) == 0);
    /* samples/s with accumulation follows the fit's ratio */
    ck_assert(pm->ops->samples_rate(pm, w, t, 4, 1, 64, 0) == perf_throughput(pm, w, t, 4, 1, 64));
    ck_assert(near(pm->ops->samples_rate(pm, w, t, 4, 1, 64, 2),
                   pollux_throughput(&truth, 1, 4, 64, 2), 0.02));
    perf_free(pm);
    unlink(path);
    catalog_free(&back);
    catalog_free(&cat);
}
END_TEST

START_TEST(catalog_errors)
{
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"{\"format\": \"mlsched-curves-catalog v1\", \"rows\": []}", "columns: must be"},
        {"{\"format\": \"other\"}", "format: must be"},
        {"{\"format\": \"mlsched-curves-catalog v1\",", "not valid JSON"},
        {"{\"format\": \"mlsched-curves-catalog v1\", \"columns\": [\"workload\", \"gpu_type\", "
         "\"num_gpus\", \"num_nodes\", \"local_bsz\", \"accum_steps\", \"iter_time_s\", "
         "\"iter_time_p10_s\", \"iter_time_p90_s\", \"sync_time_s\", \"samples_per_s\", "
         "\"mem_bytes\", \"iters\"], \"rows\": [[\"w\", \"x\", 1, 1, 8, 1, -1, 0.1, 0.1, 0, 80, "
         "0, 1]]}",
         "rows[0]: iter_time_s: must be > 0"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char path[256];
        write_tmp(path, sizeof path, "badcat.json", bad[i].text);
        curve_catalog_t cat;
        mls_err_t err = {{0}};
        catalog_init(&cat);
        ck_assert_int_eq(catalog_read(&cat, path, &err), -1);
        ck_assert_msg(strstr(err.msg, bad[i].want), "case %zu: %s", i, err.msg);
        catalog_free(&cat);
        unlink(path);
    }
}
END_TEST

/* ---- pairs ---------------------------------------------------------------------------- */

#define PAIRS_FIX MLS_SRCDIR "/tests/fixtures/curve_pairs/"

/* The fixture's pair through fit -> catalog -> curves backend: wa at 32 x 1 /
 * 0.16 s = 200 samples/s, wb at 16 x 1 / 0.064 s = 250; in either order; no
 * other GPU count, type or pair; the catalog round trip keeps it. */
START_TEST(pair_rates)
{
    curve_set_t cs;
    curve_catalog_t cat;
    mls_err_t err = {{0}};
    curves_init(&cs);
    catalog_init(&cat);
    const char *files[] = {PAIRS_FIX "pairs.csv", PAIRS_FIX "wa.csv", PAIRS_FIX "wb.csv"};
    for (size_t i = 0; i < 3; i++)
        ck_assert_msg(curves_read(&cs, files[i], &err) == 0, "%s", err.msg);
    ck_assert_int_eq((int)cs.n_pairs, 1);
    ck_assert_int_eq(cs.pairs[0].line, 7);
    ck_assert_msg(catalog_build(&cat, &cs, 1, &err) == 0, "%s", err.msg);
    char path[256];
    write_tmp(path, sizeof path, "paircat.json", "");
    ck_assert_msg(catalog_write(&cat, path, &err) == 0, "%s", err.msg);
    mls_perf_t *pm = NULL;
    ck_assert_msg(perf_load(&pm, path, &err) == 0, "%s", err.msg);
    ck_assert_str_eq(pm->ops->backend, "curves");
    int a = perf_workload_index(pm, "wa"), b = perf_workload_index(pm, "wb"),
        t = perf_gpu_type_index(pm, "H100");
    ck_assert(a >= 0 && b >= 0 && t >= 0);
    double r[2] = {0, 0};
    ck_assert_int_eq(pm->ops->pair(pm, a, b, t, 1, r), 0);
    ck_assert(near(r[0], 200, 1e-12) && near(r[1], 250, 1e-12));
    ck_assert_int_eq(pm->ops->pair(pm, b, a, t, 1, r), 0);
    ck_assert(near(r[0], 250, 1e-12) && near(r[1], 200, 1e-12));
    ck_assert_int_eq(pm->ops->pair(pm, a, b, t, 2, r), -1); /* not measured on 2 GPUs */
    ck_assert_int_eq(pm->ops->pair(pm, a, a, t, 1, r), -1); /* nor wa with wa */
    ck_assert_int_eq(pm->ops->pair(pm, a, b, t + 1, 1, r), -1);
    ck_assert_int_eq(pm->ops->pair(pm, a, -1, t, 1, r), -1);
    ck_assert(near(perf_throughput(pm, a, t, 1, 1, 32), 320, 1e-9)); /* solo unchanged */
    perf_free(pm);
    curve_catalog_t back;
    catalog_init(&back);
    ck_assert_msg(catalog_read(&back, path, &err) == 0, "%s", err.msg);
    ck_assert_int_eq((int)back.curves.n_pairs, 1);
    const curve_pair_t *p = &back.curves.pairs[0];
    ck_assert_str_eq(p->workload[0], "wa");
    ck_assert_str_eq(p->workload[1], "wb");
    ck_assert(p->num_gpus == 1 && p->local_bsz[0] == 32 && p->local_bsz[1] == 16 &&
              p->iters == 30 && p->iter_time[0] == 0.16 && p->iter_time[1] == 0.064);
    ck_assert_str_eq(curves_meta(&back.curves, 0, "date"), "2026-11-27");
    catalog_free(&back);
    unlink(path);
    catalog_free(&cat);
    curves_free(&cs);
}
END_TEST

/* Malformed pair files name FILE:LINE: field. */
START_TEST(pair_errors)
{
    static const struct {
        const char *body, *want;
    } bad[] = {
        {"h100,0,wa,32,wb,16,0.16,0.08\n", ":3: num_gpus: must be >= 1"},
        {"h100,1,wa,0,wb,16,0.16,0.08\n", ":3: local_bsz_a: must be >= 1"},
        {"h100,1,wa,32,wb,16,0.16,fast\n", ":3: iter_time_b_s: 'fast' is not a number"},
        {"h100,1,,32,wb,16,0.16,0.08\n", ":3: workload_a: empty"},
        {"h100,1,wa,32,wb,16,0.16\n", ":3: row has 7 fields, the header 8"},
        {"h100,1,wa,32,wb,16,0.16,0.08\nh100,1,wb,16,wa,32,0.1,0.1\n",
         ":4: duplicate pair: wb with wa on h100, 1 GPU(s) is already at"},
        {"", ":2: no rows"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char path[256], text[512];
        snprintf(text, sizeof text, "%s\n%s\n%s", PAIRS_MAGIC,
                 "gpu_type,num_gpus,workload_a,local_bsz_a,workload_b,local_bsz_b,iter_time_a_s,"
                 "iter_time_b_s",
                 bad[i].body);
        write_tmp(path, sizeof path, "badpairs.csv", text);
        curve_set_t cs;
        mls_err_t err = {{0}};
        curves_init(&cs);
        ck_assert_int_eq(curves_read(&cs, path, &err), -1);
        ck_assert_msg(strstr(err.msg, "badpairs.csv") && strstr(err.msg, bad[i].want),
                      "case %zu: %s", i, err.msg);
        ck_assert_int_eq((int)cs.n_pairs, 0);
        curves_free(&cs);
        unlink(path);
    }
}
END_TEST

/* ---- progress lines and statistics -------------------------------------------------- */

START_TEST(progress_lines)
{
    progress_line_t pl;
    mls_err_t err = {{0}};
    ck_assert_int_eq(progress_parse("epoch 1 loss 0.3", &pl, &err), 0);
    ck_assert_int_eq(progress_parse("mlsched-progressive x=1", &pl, &err), 0);
    ck_assert_int_eq(
        progress_parse("[rank0]: mlsched-progress batch=32 iter=7 gns=3 iter_time=0.25 foo",
                       &pl, &err),
        1);
    ck_assert(pl.has[PG_ITER] && pl.value[PG_ITER] == 7 && pl.value[PG_BATCH] == 32);
    ck_assert(progress_iter_time(&pl) == 0.25 && !pl.has[PG_MEM]);
    ck_assert_int_eq(progress_parse("mlsched-progress iter=3", &pl, &err), 1);
    ck_assert(progress_iter_time(&pl) == -1);
    ck_assert_int_eq(progress_parse("mlsched-progress iter=3 iter_time=fast", &pl, &err), -1);
    ck_assert_msg(strstr(err.msg, "iter_time: 'fast' is not a number"), "%s", err.msg);

    progress_regex_t re;
    ck_assert_msg(progress_regex_compile(&re, "step (?<iter>[0-9]+): (?P<iter_time_ms>[0-9.]+) "
                                              "ms/it( \\(x\\))?[[:space:]]*",
                                         &err) == 0,
                  "%s", err.msg);
    ck_assert_int_eq(progress_regex_parse(&re, "[r0] step 12: 25.5 ms/it", &pl, &err), 1);
    ck_assert(pl.value[PG_ITER] == 12 && near(progress_iter_time(&pl), 0.0255, 1e-12));
    ck_assert_int_eq(progress_regex_parse(&re, "loading", &pl, &err), 0);
    progress_regex_free(&re);
    ck_assert_int_eq(progress_regex_compile(&re, "(?<speed>[0-9]+)", &err), -1);
    ck_assert_msg(strstr(err.msg, "unknown group name 'speed'"), "%s", err.msg);
    ck_assert_int_eq(progress_regex_compile(&re, "(?:x)", &err), -1);
    ck_assert_int_eq(progress_regex_compile(&re, "a[b", &err), -1);
    /* groups inside brackets are not groups */
    ck_assert(progress_regex_compile(&re, "[(]x(?<iter_time>[0-9.]+)", &err) == 0);
    ck_assert(re.group[PG_ITER_TIME] == 1);
    ck_assert_int_eq(progress_regex_parse(&re, "(x0.5", &pl, &err), 1);
    ck_assert(progress_iter_time(&pl) == 0.5);
    progress_regex_free(&re);
}
END_TEST

START_TEST(statistics)
{
    double x[10] = {1.04, 0.96, 1.0, 0.98, 1.02, 1.0, 0.98, 1.04, 0.96, 1.02}, med, p10, p90, ci;
    wrap_summarize(x, 10, &med, &p10, &p90, &ci);
    ck_assert(near(med, 1.0, 1e-12) && near(p10, 0.96, 1e-12) && near(p90, 1.04, 1e-12));
    /* n = 10: ranks 2 and 9 (1-based) bound the median: (1.04 - 0.96) / 2 */
    ck_assert_msg(near(ci, 0.04, 1e-9), "ci %g", ci);
    char *argv[] = {"cmd", "--bs={batch}", "{gpus}x{batch}", "a{accum}", NULL};
    char **e = wrap_expand_argv(argv, 64, 2, 3);
    ck_assert_str_eq(e[1], "--bs=64");
    ck_assert_str_eq(e[2], "2x64");
    ck_assert_str_eq(e[3], "a3");
    ck_assert_ptr_null(e[4]);
    wrap_free_argv(e);
    char type[32];
    const char *names[][2] = {{"NVIDIA H100 80GB HBM3", "h100"},
                              {"Tesla V100-SXM2-16GB", "v100"},
                              {"NVIDIA A100-SXM4-80GB", "a100"},
                              {"NVIDIA GeForce RTX 4090", "4090"},
                              {"Tesla K80", "k80"},
                              {"Mystery", "gpu"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        nvml_type_from_name(names[i][0], type, sizeof type);
        ck_assert_str_eq(type, names[i][1]);
    }
}
END_TEST

int main(void)
{
    gsl_set_error_handler_off();
    const TTest *const tests[] = {
        round_trip,
        malformed_cases,
        duplicate_across_files,
        interpolation,
        memory_refusal,
        fit_recovers,
        catalog_errors,
        pair_rates,
        pair_errors,
        progress_lines,
        statistics,
    };
    const check_opts_t opts = {.timeout_s = 120, .nofork = 1};
    return check_main_opts("curves", tests, sizeof tests / sizeof tests[0], &opts);
}
