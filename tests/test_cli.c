/* test_cli.c: what the subcommands' command lines share — the options of
 * compare and sweep (experiment_opts), the rate and trim parsers of util,
 * JSON files loaded with FILE:LINE errors and saved atomically (json_util),
 * and the skip-or-fail rule of the importers. */
#include "cli/cmd.h"
#include "cli/experiment_opts.h"
#include "cli/opts.h"
#include "model/json_util.h"
#include "model/util.h"
#include "traces/import.h"

#include "tests/check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A command like compare: its own -c plus the experiment rows. */
typedef struct test_opts {
    const char *cluster;
    exp_opts_t x;
} test_opts_t;

static const opt_t test_rows[] = {OPT_STRING("trace", 't', "FILE", test_opts_t, x.trace, "trace"),
                                  OPT_SHARED_CLUSTER(test_opts_t, cluster, "cluster"),
                                  OPT_INCLUDE(test_opts_t, x, exp_opts_table), OPT_END_ROW};
static const opt_cmd_t test_cmd = {
    .who = "test",
    .opts = test_rows,
};

static int parse_on(test_opts_t *o, char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    memset(o, 0, sizeof *o);
    exp_opts_init(&o->x, "0,1,2");
    FILE *saved = stderr;
    stderr = fopen("/dev/null", "w");
    int rc = opt_parse_only(&test_cmd, o, argc, argv);
    fclose(stderr);
    stderr = saved;
    return rc;
}

START_TEST(shared_options_parse)
{
    test_opts_t t;
    char *none[] = {"test", NULL};
    ck_assert_int_eq(parse_on(&t, none), 0);
    ck_assert_str_eq(t.x.policies, "all");
    ck_assert_str_eq(t.x.seeds, "0,1,2");
    ck_assert_str_eq(t.x.db, "results/results.db");
    ck_assert_int_ge(t.x.jobs, 1);
    char *j3[] = {"test",  "-j", "3",  "--format",  "csv", "--backend",
                  "slurm", "-r", "60", "--dry-run", NULL};
    ck_assert_int_eq(parse_on(&t, j3), 0);
    ck_assert(t.x.jobs == 3 && t.x.jobs_set);
    ck_assert_int_eq(t.x.format, RES_FMT_CSV);
    ck_assert_int_eq(t.x.slurm, 1);
    ck_assert_str_eq(t.x.round, "60");
    ck_assert_int_eq(t.x.dry_run, 1);
    char *j0[] = {"test", "-j", "0", NULL}, *jx[] = {"test", "-j", "x", NULL};
    char *xml[] = {"test", "--format", "xml", NULL}, *pbs[] = {"test", "--backend", "pbs", NULL};
    ck_assert_int_eq(parse_on(&t, j0), MLS_EXIT_USAGE);
    ck_assert_int_eq(parse_on(&t, jx), MLS_EXIT_USAGE);
    ck_assert_int_eq(parse_on(&t, xml), MLS_EXIT_USAGE);
    ck_assert_int_eq(parse_on(&t, pbs), MLS_EXIT_USAGE);
    /* -P up to OPT_LIST_MAX times, --sbatch-arg up to EXP_MAX_SBATCH */
    char *many[2 * OPT_LIST_MAX + 4] = {"test"};
    for (int i = 0; i < OPT_LIST_MAX; i++) {
        many[1 + 2 * i] = "-P";
        many[2 + 2 * i] = "las.k=1";
    }
    ck_assert_int_eq(parse_on(&t, many), 0);
    ck_assert_int_eq((int)t.x.params.n, OPT_LIST_MAX);
    many[1 + 2 * OPT_LIST_MAX] = "-P";
    many[2 + 2 * OPT_LIST_MAX] = "las.k=1";
    ck_assert_int_eq(parse_on(&t, many), MLS_EXIT_USAGE);
    for (int i = 0; i <= EXP_MAX_SBATCH; i++) {
        many[1 + i] = "--sbatch-arg=-x";
        many[2 + i] = NULL;
    }
    ck_assert_int_eq(parse_on(&t, many), MLS_EXIT_USAGE);
    many[1 + EXP_MAX_SBATCH] = NULL;
    ck_assert_int_eq(parse_on(&t, many), 0);
    ck_assert_int_eq((int)t.x.sbatch.n, EXP_MAX_SBATCH);
}
END_TEST

START_TEST(slurm_without_j_has_no_throttle)
{
    exp_opts_t o;
    experiment_t e;
    exp_opts_init(&o, "1");
    exp_init(&e, "test", o.db);
    o.slurm = 1;
    exp_opts_apply(&o, &e);
    ck_assert_int_eq(e.jobs, 0);
    o.jobs = 5;
    o.jobs_set = 1;
    exp_opts_apply(&o, &e);
    ck_assert_int_eq(e.jobs, 5);
    exp_free(&e);
}
END_TEST

START_TEST(own_and_shared_options_in_one_line)
{
    test_opts_t t;
    char *ok[] = {"test", "--trace", "t.csv", "-c", "v100=1x1", "-P", "fifo.k=v", "--wait", NULL};
    ck_assert_int_eq(parse_on(&t, ok), 0);
    ck_assert_str_eq(t.x.trace, "t.csv");
    ck_assert_str_eq(t.cluster, "v100=1x1");
    ck_assert(t.x.params.n == 1 && t.x.wait == 1);
    char *stray[] = {"test", "-c", "x", "extra", NULL};
    ck_assert_int_eq(parse_on(&t, stray), MLS_EXIT_USAGE);
    char *unknown[] = {"test", "--no-such-option", NULL};
    ck_assert_int_eq(parse_on(&t, unknown), MLS_EXIT_USAGE);
}
END_TEST

START_TEST(rates_and_trim)
{
    double r = -1;
    ck_assert_int_eq(mls_parse_rate("3", "h,d", &r), 0);
    ck_assert(r == 3);
    ck_assert_int_eq(mls_parse_rate("48/d", "h,d", &r), 0);
    ck_assert(r == 2);
    ck_assert_int_eq(mls_parse_rate("1/min", "h,d", &r), -1);
    ck_assert_int_eq(mls_parse_rate("1/min", "h,min,s,d", &r), 0);
    ck_assert(r == 60);
    ck_assert_int_eq(mls_parse_rate("1/s", "h,min,s,d", &r), 0);
    ck_assert(r == 3600);
    ck_assert_int_eq(mls_parse_rate("1/m", "h,min,s,d", &r), -1);
    ck_assert_int_eq(mls_parse_rate("1/hh", "h,min,s,d", &r), -1);
    ck_assert_int_eq(mls_parse_rate("-1/h", "h,d", &r), -1);
    ck_assert_int_eq(mls_parse_rate("inf", "h,d", &r), -1);
    ck_assert_int_eq(mls_parse_rate("x/h", "h,d", &r), -1);
    char s[] = " \t 24GB \r\n";
    ck_assert_str_eq(mls_trim(s), "24GB");
    char blank[] = "   ";
    ck_assert_str_eq(mls_trim(blank), "");
}
END_TEST

START_TEST(json_file_errors_name_file_and_line)
{
    char path[] = "/tmp/test_cli_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs("{\n  \"a\": 1,\n  \"b\": [1, 2,\n}\n", f);
    fclose(f);
    mls_err_t err = {{0}};
    ck_assert_ptr_null(mls_json_load(path, &err));
    char want[128];
    snprintf(want, sizeof want, "%s:4: not valid JSON", path);
    ck_assert_str_eq(err.msg, want);

    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "x", 2.5);
    ck_assert_int_eq(mls_json_save(path, root, &err), 0);
    cJSON_Delete(root);
    char *text = mls_read_file(path, &err);
    ck_assert_ptr_nonnull(text);
    ck_assert(text[strlen(text) - 1] == '\n');
    free(text);
    root = mls_json_load(path, &err);
    ck_assert_ptr_nonnull(root);
    ck_assert(cJSON_GetObjectItem(root, "x")->valuedouble == 2.5);
    cJSON_Delete(root);
    unlink(path);
    ck_assert_ptr_null(mls_json_load(path, &err));
}
END_TEST

START_TEST(bad_rows_skip_or_fail)
{
    long skipped = 0;
    ck_assert_int_eq(import_bad_row(0, &skipped), -1);
    ck_assert_int_eq(skipped, 0);
    ck_assert_int_eq(import_bad_row(IMPORT_SKIP_BAD, &skipped), 0);
    ck_assert_int_eq(skipped, 1);
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {shared_options_parse,
                                  slurm_without_j_has_no_throttle,
                                  own_and_shared_options_in_one_line,
                                  rates_and_trim,
                                  json_file_errors_name_file_and_line,
                                  bad_rows_skip_or_fail};
    return check_main("cli", tests, sizeof tests / sizeof tests[0]);
}
