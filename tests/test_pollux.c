/* test_pollux.c: Pollux's throughput model against hand values, the fit
 * recovering known parameters from noisy synthetic samples, and the fit's
 * error on the real Pollux profiles (../shared/data/pollux/profiles, skipped
 * when absent; the median relative errors are printed). */
#include "model/pollux_catalog.h"
#include "model/pollux_measured.h"
#include "model/pollux_model.h"
#include "tests/check_main.h"

#include <check.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const pollux_params_t truth = {0.02, 0.0005, 0.01, 0.002, 0.05, 0.01, 2.0};

START_TEST(formulas)
{
    pollux_params_t p = {0.1, 0.01, 0.2, 0.05, 0.4, 0.1, 1.0};
    /* one GPU: T = T_grad = 0.1 + 0.01*10 = 0.2; throughput 10/0.2 = 50 */
    ck_assert(fabs(pollux_iter_time(&p, 1, 1, 10, 0) - 0.2) < 1e-12);
    ck_assert(fabs(pollux_throughput(&p, 1, 1, 10, 0) - 50) < 1e-9);
    /* 4 GPUs on one node, gamma 1: T = 0.2 + (0.2 + 0.05*2) = 0.5 */
    ck_assert(fabs(pollux_iter_time(&p, 1, 4, 10, 0) - 0.5) < 1e-12);
    /* across nodes and with 2 accumulation steps: 2*0.2 + 0.2 + 0.4 + 0.1*2 = 1.2 */
    ck_assert(fabs(pollux_iter_time(&p, 2, 4, 10, 2) - 1.2) < 1e-12);
    ck_assert(fabs(pollux_throughput(&p, 2, 4, 10, 2) - 4 * 10 * 3 / 1.2) < 1e-9);
    /* efficiency: 1 at the initial batch, falls as the batch grows */
    ck_assert(fabs(pollux_efficiency(100, 32, 32) - 1) < 1e-12);
    ck_assert(pollux_efficiency(100, 32, 256) < pollux_efficiency(100, 32, 128));
    ck_assert(pollux_efficiency(1e4, 32, 256) > pollux_efficiency(100, 32, 256));
}
END_TEST

START_TEST(fit_recovers)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 5);
    pollux_sample_t s[200];
    size_t n = 0;
    int gpus[] = {1, 2, 4, 8, 16};
    for (int g = 0; g < 5; g++)
        for (int m = 8; m <= 256; m *= 2)
            for (int nodes = 1; nodes <= (gpus[g] > 4 ? 2 : 1) + (gpus[g] > 1); nodes++) {
                double t = pollux_iter_time(&truth, nodes, gpus[g], m, 0);
                s[n++] = (pollux_sample_t){nodes, gpus[g], m, 0,
                                           t * (1 + gsl_ran_gaussian(r, 0.01))};
            }
    pollux_params_t fit;
    pollux_fit_report_t rep;
    mls_err_t err = {{0}};
    ck_assert_msg(pollux_fit(s, n, &fit, &rep, &err) == 0, "%s", err.msg);
    /* predictions within a few % of the truth everywhere the samples reach */
    for (size_t i = 0; i < n; i++) {
        double t = pollux_iter_time(&truth, s[i].nodes, s[i].gpus, s[i].local_bsz, 0);
        double f = pollux_iter_time(&fit, s[i].nodes, s[i].gpus, s[i].local_bsz, 0);
        ck_assert_msg(fabs(f - t) / t < 0.03, "sample %zu: %g vs %g", i, f, t);
    }
    ck_assert(fabs(fit.beta_grad - truth.beta_grad) / truth.beta_grad < 0.05);
    ck_assert(rep.median_rel_err < 0.02 && rep.identified_local && rep.identified_node);
    gsl_rng_free(r);
}
END_TEST

START_TEST(fit_rejects_bad)
{
    pollux_sample_t s[3] = {{1, 1, 8, 0, 0.1}, {1, 1, 16, 0, -1}, {1, 1, 32, 0, 0.3}};
    pollux_params_t p;
    mls_err_t err = {{0}};
    ck_assert_int_eq(pollux_fit(s, 2, &p, NULL, &err), -1);
    ck_assert_int_eq(pollux_fit(s, 3, &p, NULL, &err), -1);
    ck_assert_msg(strstr(err.msg, "sample 1"), "%s", err.msg);
}
END_TEST

START_TEST(real_profiles)
{
    const char *apps[] = {"bert", "cifar10", "deepspeech2", "imagenet", "ncf", "yolov3"};
    char path[512];
    snprintf(path, sizeof path, "%s/../shared/data/pollux/profiles/cifar10/placements.csv",
             MLS_SRCDIR);
    if (access(path, R_OK) != 0) {
        printf("real_profiles: SKIP: ../shared/data is absent\n");
        return;
    }
    for (size_t a = 0; a < 6; a++) {
        snprintf(path, sizeof path, "%s/../shared/data/pollux/profiles/%s/placements.csv",
                 MLS_SRCDIR, apps[a]);
        pollux_sample_t *s;
        mls_err_t err = {{0}};
        long got = pollux_read_placements(path, &s, &err);
        ck_assert_msg(got >= 10, "%s: %ld samples: %s", path, got, err.msg);
        size_t n = (size_t)got;
        pollux_params_t p;
        pollux_fit_report_t rep;
        ck_assert_msg(pollux_fit(s, n, &p, &rep, &err) == 0, "%s: %s", apps[a], err.msg);
        printf("pollux fit %-12s %5zu samples: median rel. error %5.2f%%, max %6.2f%%, "
               "gamma %.2f\n",
               apps[a], n, 100 * rep.median_rel_err, 100 * rep.max_rel_err, p.gamma);
        ck_assert_msg(rep.median_rel_err < 0.08, "%s: median error %g", apps[a],
                      rep.median_rel_err);
        free(s);
    }
}
END_TEST

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* The measured step times: means per (nodes, GPUs, local batch), linear in
 * the local batch, scalability.csv for more nodes; (3 nodes, 5 GPUs) has no
 * pairs around it to interpolate from. */
START_TEST(measured_interpolation)
{
    char dir[] = "/tmp/mls-measured-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_file(dir, "placements.csv",
               "placement,local_bsz,step_time,sync_time\n"
               "1,4,0.2,0.0\n1,8,0.4,0.0\n13,4,1.0,0.5\n22,4,2.0,1.0\n");
    write_file(dir, "scalability.csv",
               "num_nodes,num_replicas,local_bsz,step_time,sync_time\n"
               "6,6,4,0.8,0.5\n6,6,8,1.2,0.6\n");
    pollux_steps_t s;
    mls_err_t err = {{0}};
    ck_assert_msg(pollux_steps_read(dir, &s, &err) == 0, "%s", err.msg);
    ck_assert_uint_eq(s.n, 5); /* 13 and 22 are one (2 nodes, 4 GPUs) row */
    double step, sync;
    ck_assert_int_eq(pollux_steps_at(&s, 1, 1, 6, &step, &sync), 0);
    ck_assert(fabs(step - 0.3) < 1e-12 && sync == 0);
    ck_assert_int_eq(pollux_steps_at(&s, 2, 4, 4, &step, &sync), 0);
    ck_assert(fabs(step - 1.5) < 1e-12 && fabs(sync - 0.75) < 1e-12);
    ck_assert_int_eq(pollux_steps_at(&s, 6, 6, 5, &step, &sync), 0);
    ck_assert(fabs(step - 0.9) < 1e-12 && fabs(sync - 0.525) < 1e-12);
    ck_assert_int_eq(pollux_steps_at(&s, 1, 1, 2, &step, &sync), 0); /* clamped */
    ck_assert(fabs(step - 0.2) < 1e-12);
    ck_assert_int_eq(pollux_steps_at(&s, 1, 1, 16, &step, &sync), 0);
    ck_assert(fabs(step - 0.4) < 1e-12);
    ck_assert_int_eq(pollux_steps_at(&s, 3, 5, 4, &step, &sync), -1);
    ck_assert_int_eq(pollux_steps_at(&s, 20, 6, 4, &step, &sync), -1); /* 16 nodes */
    pollux_steps_free(&s);
    write_file(dir, "placements.csv",
               "placement,local_bsz,step_time,sync_time\n1,4,0.2,0.0\n1,x,0.4,0.0\n");
    ck_assert_int_eq(pollux_steps_read(dir, &s, &err), -1);
    ck_assert_msg(strstr(err.msg, "placements.csv:3:") != NULL, "%s", err.msg);
    /* numbers are read as written: decimal only (0x10 is not 16) */
    write_file(dir, "placements.csv",
               "placement,local_bsz,step_time,sync_time\n1,4,0.2,0.0\n1,0x10,0.4,0.0\n");
    ck_assert_int_eq(pollux_steps_read(dir, &s, &err), -1);
    ck_assert_msg(strstr(err.msg, "placements.csv:3:") != NULL, "%s", err.msg);
    write_file(dir, "placements.csv", "placement,local_bsz,step_time\n1,4,0.2\n");
    ck_assert_int_eq(pollux_steps_read(dir, &s, &err), -1);
    ck_assert_msg(strstr(err.msg, "sync_time") != NULL, "%s", err.msg);
    char path[512];
    snprintf(path, sizeof path, "%s/placements.csv", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/scalability.csv", dir);
    unlink(path);
    rmdir(dir);
    /* The real yolov3 profile: 4 GPUs on one node at local batch 8 is
     * measured at 0.501 s (the fitted model says 0.573 s). */
    snprintf(path, sizeof path, "%s/../shared/data/pollux/profiles/yolov3", MLS_SRCDIR);
    if (access(path, R_OK) != 0) {
        printf("measured_interpolation: real yolov3: SKIP: ../shared/data is absent\n");
        return;
    }
    ck_assert_msg(pollux_steps_read(path, &s, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(pollux_steps_at(&s, 1, 4, 8, &step, &sync), 0);
    ck_assert_msg(fabs(step - 0.5009) < 1e-3, "yolov3 4 GPUs: %g s", step);
    pollux_steps_free(&s);
}
END_TEST

/* The artifact's lookups: a placement's own rows (as its smallest
 * rotation), the means of its (nodes, GPUs) pair otherwise, linear across
 * GPUs and node counts where no pair has rows; the efficiency from the
 * validation files' gradient statistics, each linear in the batch. */
START_TEST(measured_placements_and_efficiency)
{
    char dir[] = "/tmp/mls-measured-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_file(dir, "placements.csv",
               "placement,local_bsz,step_time,sync_time\n"
               "1,4,0.2,0.0\n13,4,1.0,0.5\n22,4,2.0,1.0\n");
    write_file(dir, "scalability.csv",
               "num_nodes,num_replicas,local_bsz,step_time,sync_time\n"
               "6,6,4,0.8,0.5\n6,6,8,1.2,0.6\n6,8,4,1.0,0.6\n6,8,8,1.4,0.8\n"
               "8,8,4,2.0,1.0\n8,8,8,3.0,1.4\n");
    pollux_steps_t s;
    mls_err_t err = {{0}};
    ck_assert_msg(pollux_steps_read(dir, &s, &err) == 0, "%s", err.msg);
    double step, sync, eff;
    /* no validation files: no efficiency */
    ck_assert_int_eq(pollux_steps_efficiency(&s, 4, 0, 4, &eff), -1);
    static const int p22[] = {2, 2}, p31[] = {3, 1}, p13[] = {1, 3}, p6[] = {1, 1, 1, 1, 1, 1};
    ck_assert_int_eq(pollux_steps_placed(&s, p22, 2, 4, &step, &sync), 0);
    ck_assert(fabs(step - 2.0) < 1e-12 && fabs(sync - 1.0) < 1e-12);       /* not the mean 1.5 */
    ck_assert_int_eq(pollux_steps_placed(&s, p31, 2, 4, &step, &sync), 0); /* rotation 13 */
    ck_assert(fabs(step - 1.0) < 1e-12);
    ck_assert_int_eq(pollux_steps_placed(&s, p13, 2, 9, &step, &sync), 0); /* one row: clamped */
    ck_assert(fabs(step - 1.0) < 1e-12);
    ck_assert_int_eq(pollux_steps_placed(&s, p6, 6, 6, &step, &sync), 0); /* no row: the pair */
    ck_assert(fabs(step - 1.0) < 1e-12 && fabs(sync - 0.55) < 1e-12);
    /* 6 nodes, 7 GPUs: halfway between the 6- and 8-GPU pairs */
    ck_assert_int_eq(pollux_steps_at(&s, 6, 7, 4, &step, &sync), 0);
    ck_assert(fabs(step - 0.9) < 1e-12 && fabs(sync - 0.55) < 1e-12);
    /* 7 nodes, 8 GPUs: halfway between the 6- and 8-node layers */
    ck_assert_int_eq(pollux_steps_at(&s, 7, 8, 6, &step, &sync), 0);
    ck_assert(fabs(step - 0.5 * (1.2 + 2.5)) < 1e-12 && fabs(sync - 0.5 * (0.7 + 1.2)) < 1e-12);
    /* across pairs nothing is clamped: a batch outside a layer's rows fails */
    ck_assert_int_eq(pollux_steps_at(&s, 7, 8, 9, &step, &sync), -1);
    pollux_steps_free(&s);
    write_file(dir, "validation-4.csv",
               "progress,iteration,metric,grad_sqr,grad_var\n1,1,0,1,3\n2,2,0,0,0\n");
    write_file(dir, "validation-8.csv",
               "progress,iteration,metric,grad_sqr,grad_var\n1,1,0,3,1\n2,2,0,0,0\n");
    ck_assert_msg(pollux_steps_read(dir, &s, &err) == 0, "%s", err.msg);
    /* batch 6: sqr 2, var 2; m0 4: (2 + 2) / (2 + 2 x 6 / 4) = 0.8 */
    ck_assert_int_eq(pollux_steps_efficiency(&s, 6, 0, 4, &eff), 0);
    ck_assert(fabs(eff - 0.8) < 1e-12);
    /* batch 4 exactly: (3 + 1) / (3 + 1) = 1; past the last epoch: its row */
    ck_assert_int_eq(pollux_steps_efficiency(&s, 4, 0, 4, &eff), 0);
    ck_assert(fabs(eff - 1.0) < 1e-12);
    ck_assert_int_eq(pollux_steps_efficiency(&s, 6, 9, 4, &eff), 0);
    ck_assert(fabs(eff - 1.0) < 1e-12); /* no statistics: no loss */
    pollux_steps_free(&s);
    write_file(dir, "validation-8.csv",
               "progress,iteration,metric,grad_sqr,grad_var\n1,1,0,3,1\n2,2,0,-1,0\n");
    ck_assert_int_eq(pollux_steps_read(dir, &s, &err), -1);
    ck_assert_msg(strstr(err.msg, "validation-8.csv:3:") != NULL, "%s", err.msg);
    const char *files[] = {"placements.csv", "scalability.csv", "validation-4.csv",
                           "validation-8.csv"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
}
END_TEST

/* The fit's reader is the measured rates' (pollux_rows_read): sync_time
 * optional for it, but an empty field or a sync_time beyond the step time
 * is an error naming the file, line and field (not a shifted column). */
START_TEST(fit_reader_errors)
{
    char dir[] = "/tmp/mls-placements-XXXXXX", path[512];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/placements.csv", dir);
    pollux_sample_t *s;
    mls_err_t err = {{0}};
    write_file(dir, "placements.csv", "local_bsz,placement,step_time\n8,13,0.5\n");
    ck_assert_int_eq(pollux_read_placements(path, &s, &err), 1);
    ck_assert(s[0].nodes == 2 && s[0].gpus == 4 && s[0].local_bsz == 8 && s[0].iter_time == 0.5);
    free(s);
    write_file(dir, "placements.csv",
               "placement,local_bsz,step_time,sync_time\n1,8,0.2,0\n2,,0.4,0.1\n");
    ck_assert_int_eq(pollux_read_placements(path, &s, &err), -1);
    ck_assert_ptr_null(s);
    ck_assert_msg(strstr(err.msg, "placements.csv:3: local_bsz:") != NULL, "%s", err.msg);
    write_file(dir, "placements.csv", "placement,local_bsz,step_time,sync_time\n1,8,0.2,0.3\n");
    ck_assert_int_eq(pollux_read_placements(path, &s, &err), -1);
    ck_assert_msg(strstr(err.msg, "placements.csv:2: sync_time:") != NULL, "%s", err.msg);
    unlink(path);
    rmdir(dir);
}
END_TEST

int main(void)
{
    gsl_set_error_handler_off();
    const TTest *const tests[] = {
        formulas,
        fit_recovers,
        fit_rejects_bad,
        real_profiles,
        measured_interpolation,
        measured_placements_and_efficiency,
        fit_reader_errors,
    };
    const check_opts_t opts = {.timeout_s = 120, .nofork = 1};
    return check_main_opts("pollux", tests, sizeof tests / sizeof tests[0], &opts);
}
