/* test_live_pack.c: space sharing carried out live. The pack control file
 * (live/pack.h): valid files, a round trip through format and parse and
 * through write and read, and malformed files, each rejected with a message
 * naming the file, the line and the field. The pair rates every caller
 * shares (view_perf_pair() and view->perf->pair_throughput, sim/view_perf.h)
 * on a small table with an asymmetric pair entry, so that the order of the
 * two jobs matters. */
#include "live/pack.h"
#include "model/perf.h"
#include "sim/view_perf.h"
#include "tests/check_main.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse(const char *text, live_pack_t *pk, mls_err_t *err)
{
    return live_pack_parse(text, strlen(text), "P", pk, err);
}

START_TEST(test_parse_partner)
{
    live_pack_t pk;
    mls_err_t err;
    ck_assert_msg(parse("mlsched-pack 1\n# a comment\npartner 7\nrole joiner\n\n"
                        "workload LM (batch size 20)  \r\nsince 1763859123.25\n",
                        &pk, &err) == 0,
                  "%s", err.msg);
    ck_assert_int_eq(pk.partner, 7);
    ck_assert_int_eq(pk.owner, 0);
    ck_assert_str_eq(pk.workload, "LM (batch size 20)");
    ck_assert_double_eq_tol(pk.since, 1763859123.25, 1e-6);
    ck_assert_int_eq(parse("mlsched-pack 1\nsince 5\npartner none", &pk, &err), 0);
    ck_assert_int_eq(pk.partner, -1);
    ck_assert_str_eq(pk.workload, "");
    ck_assert_double_eq(pk.since, 5);
}
END_TEST

START_TEST(test_round_trip)
{
    live_pack_t in = {.partner = 12, .owner = 1, .workload = "A3C", .since = 1700000000.5};
    live_pack_t out;
    mls_err_t err;
    for (int alone = 0; alone < 2; alone++) {
        if (alone)
            in = (live_pack_t){.partner = -1, .since = 3.25};
        char *text = live_pack_format(&in);
        ck_assert_msg(parse(text, &out, &err) == 0, "%s", err.msg);
        free(text);
        ck_assert_int_eq(out.partner, in.partner);
        ck_assert_int_eq(out.owner, in.owner);
        ck_assert_str_eq(out.workload, in.workload);
        ck_assert_double_eq_tol(out.since, in.since, 1e-6);
    }
    char dir[] = "/tmp/test_live_pack-XXXXXX", path[128];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/job-1-1.pack", dir);
    ck_assert_int_eq(live_pack_read(path, &out, &err), 1); /* absent: alone */
    ck_assert_int_eq(out.partner, -1);
    in = (live_pack_t){.partner = 3, .owner = 0, .workload = "CycleGAN", .since = 10};
    ck_assert_msg(live_pack_write(path, &in, &err) == 0, "%s", err.msg);
    ck_assert_msg(live_pack_read(path, &out, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(out.partner, 3);
    ck_assert_str_eq(out.workload, "CycleGAN");
    FILE *f = fopen(path, "w");
    fputs("partner 3\n", f);
    fclose(f);
    ck_assert_int_eq(live_pack_read(path, &out, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "job-1-1.pack:1: the first line"));
    unlink(path);
    rmdir(dir);
}
END_TEST

/* Each malformed text and the words its error must hold. */
START_TEST(test_malformed)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"", "P: empty"},
        {"mlsched-pack 2\npartner none\nsince 1\n", "P:1: the first line"},
        {"mlsched-pack 1\npartner none\n", "P: since: missing"},
        {"mlsched-pack 1\nsince 1\n", "P: partner: missing"},
        {"mlsched-pack 1\npartner none\nsince 1\ncolour red\n", "P:4: 'colour': unknown key"},
        {"mlsched-pack 1\npartner none\npartner none\nsince 1\n", "P:3: partner: given twice"},
        {"mlsched-pack 1\npartner -3\nsince 1\n", "P:2: partner: '-3' is not a job id"},
        {"mlsched-pack 1\npartner 7x\nsince 1\n", "P:2: partner: '7x'"},
        {"mlsched-pack 1\npartner\nsince 1\n", "P:2: partner: '' is not"},
        {"mlsched-pack 1\npartner none\nsince nan\n", "P:3: since: 'nan'"},
        {"mlsched-pack 1\npartner none\nsince -1\n", "P:3: since: '-1'"},
        {"mlsched-pack 1\npartner 4\nrole boss\nworkload A3C\nsince 1\n",
         "P:3: role: 'boss' is not owner or joiner"},
        {"mlsched-pack 1\npartner 4\nworkload A3C\nsince 1\n", "P: role: missing"},
        {"mlsched-pack 1\npartner 4\nrole owner\nsince 1\n", "P: workload: missing"},
        {"mlsched-pack 1\npartner 4\nrole owner\nworkload\nsince 1\n", "P:4: workload: empty"},
        {"mlsched-pack 1\npartner none\nrole owner\nsince 1\n", "P: role: given with partner"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        live_pack_t pk;
        mls_err_t err = {""};
        ck_assert_msg(parse(cases[i].text, &pk, &err) == -1, "case %zu parsed", i);
        ck_assert_msg(strstr(err.msg, cases[i].want), "case %zu: '%s' lacks '%s'", i, err.msg,
                      cases[i].want);
    }
    live_pack_t pk;
    mls_err_t err;
    char nul[] = "mlsched-pack 1\npartner none\0\nsince 1\n";
    ck_assert_int_eq(live_pack_parse(nul, sizeof nul - 1, "P", &pk, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "NUL"));
    size_t n = LIVE_PACK_MAX_FILE + 10;
    char *big = malloc(n);
    memset(big, 'x', n);
    ck_assert_int_eq(live_pack_parse(big, n, "P", &pk, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "more than"));
    memset(big, '\n', n); /* long and only newlines: still no crash */
    ck_assert_int_eq(live_pack_parse(big, LIVE_PACK_MAX_FILE, "P", &pk, &err), -1);
    free(big);
    char longw[1200] = "mlsched-pack 1\npartner 1\nrole owner\nworkload ";
    size_t k = strlen(longw);
    memset(longw + k, 'w', 700);
    strcpy(longw + k + 700, "\nsince 1\n");
    ck_assert_int_eq(parse(longw, &pk, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "workload: empty or longer"));
}
END_TEST

/* A table with A and B on v100, and an asymmetric pair entry under A. */
static mls_perf_t *pair_table(char *path, size_t len)
{
    snprintf(path, len, "/tmp/test_live_pack-%d.json", (int)getpid());
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{\"v100\": {\"('A', 1)\": {\"null\": 10.0, \"('B', 1)\": [6.0, 3.0]},\n"
          "          \"('B', 1)\": {\"null\": 5.0, \"('A', 1)\": [2.0, 7.0]},\n"
          "          \"('C', 1)\": {\"null\": 4.0}}}\n",
          f);
    fclose(f);
    mls_perf_t *pm;
    mls_err_t err;
    ck_assert_msg(perf_load(&pm, path, &err) == 0, "%s", err.msg);
    return pm;
}

START_TEST(test_pair_rates)
{
    char path[128];
    mls_perf_t *pm = pair_table(path, sizeof path);
    int a = perf_workload_index(pm, "A"), b = perf_workload_index(pm, "B");
    int c = perf_workload_index(pm, "C"), t = perf_gpu_type_index(pm, "v100");
    double r[2] = {-1, -1};
    ck_assert_int_eq(view_perf_pair(pm, a, b, t, 1, r), 0);
    ck_assert_double_eq(r[0], 6.0);
    ck_assert_double_eq(r[1], 3.0);
    ck_assert_int_eq(view_perf_pair(pm, b, a, t, 1, r), 0); /* the entry under B */
    ck_assert_double_eq(r[0], 2.0);
    ck_assert_double_eq(r[1], 7.0);
    r[0] = r[1] = -1;
    ck_assert_int_eq(view_perf_pair(pm, a, c, t, 1, r), -1); /* no pair data */
    ck_assert_int_eq(view_perf_pair(pm, a, b, t, 2, r), -1); /* not on 2 GPUs */
    ck_assert_int_eq(view_perf_pair(pm, -1, b, t, 1, r), -1);
    ck_assert_int_eq(view_perf_pair(pm, a, b, -1, 1, r), -1);
    ck_assert_int_eq(view_perf_pair(NULL, a, b, t, 1, r), -1);
    ck_assert_double_eq(r[0], -1); /* untouched on failure */

    /* through the view: cluster type 1 is v100, type 0 is unknown to the
     * model; view workload k is perf workload wmap[k] */
    int typemap[2] = {-1, t}, node_gpus[2] = {4, 4}, wmap[3] = {c, b, a};
    view_perf_src_t src = {.perf = pm,
                           .n_types = 2,
                           .typemap = typemap,
                           .type_node_gpus = node_gpus,
                           .wmap = wmap};
    view_perf_t vp;
    view_perf_bind(&vp, &src);
    view_job_t ja = {.workload = 2}, jb = {.workload = 1}, jc = {.workload = 0};
    ck_assert_int_eq(vp.pair_throughput(vp.ctx, &ja, &jb, 1, 1, r), 0);
    ck_assert_double_eq(r[0], 6.0);
    ck_assert_double_eq(r[1], 3.0);
    ck_assert_int_eq(vp.pair_throughput(vp.ctx, &ja, &jb, 0, 1, r), -1);
    ck_assert_int_eq(vp.pair_throughput(vp.ctx, &ja, &jb, 2, 1, r), -1);
    ck_assert_int_eq(vp.pair_throughput(vp.ctx, &ja, &jc, 1, 1, r), -1);
    perf_free(pm);
    unlink(path);
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {
        test_parse_partner,
        test_round_trip,
        test_malformed,
        test_pair_rates,
    };
    return check_main("live_pack", tests, sizeof tests / sizeof tests[0]);
}
