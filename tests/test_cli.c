/* test_cli.c: what the subcommands' command lines share — the options of
 * compare and sweep (experiment_opts), the rate and trim parsers of util,
 * JSON files loaded with FILE:LINE errors and saved atomically (json_util),
 * and the skip-or-fail rule of the importers. */
#include "cmd.h"
#include "experiment_opts.h"
#include "import.h"
#include "json_util.h"
#include "util.h"

#include "check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

START_TEST(shared_options_parse)
{
    exp_opts_t o;
    exp_opts_init(&o, "0,1,2");
    ck_assert_str_eq(o.policies, "all");
    ck_assert_str_eq(o.seeds, "0,1,2");
    ck_assert_str_eq(o.db, "results/results.db");
    ck_assert_int_ge(o.jobs, 1);
    ck_assert_int_eq(exp_opts_parse(&o, 'j', "3", "test"), EXP_OPT_TAKEN);
    ck_assert(o.jobs == 3 && o.jobs_set);
    ck_assert_int_eq(exp_opts_parse(&o, 'j', "0", "test"), MLS_EXIT_USAGE);
    ck_assert_int_eq(exp_opts_parse(&o, 'j', "x", "test"), MLS_EXIT_USAGE);
    ck_assert_int_eq(o.jobs, 3);
    ck_assert_int_eq(exp_opts_parse(&o, EXP_O_FMT, "csv", "test"), EXP_OPT_TAKEN);
    ck_assert_int_eq(o.format, RES_FMT_CSV);
    ck_assert_int_eq(exp_opts_parse(&o, EXP_O_FMT, "xml", "test"), MLS_EXIT_USAGE);
    ck_assert_int_eq(exp_opts_parse(&o, EXP_O_BACK, "pbs", "test"), MLS_EXIT_USAGE);
    ck_assert_int_eq(exp_opts_parse(&o, EXP_O_BACK, "slurm", "test"), EXP_OPT_TAKEN);
    ck_assert_int_eq(o.slurm, 1);
    ck_assert_int_eq(exp_opts_parse(&o, 'r', "60", "test"), EXP_OPT_TAKEN);
    ck_assert_str_eq(o.round, "60");
    ck_assert_int_eq(exp_opts_parse(&o, EXP_O_DRY, NULL, "test"), EXP_OPT_TAKEN);
    ck_assert_int_eq(o.dry_run, 1);
    ck_assert_int_eq(exp_opts_parse(&o, 'c', "v100=1x1", "test"), EXP_OPT_NOT_MINE);
    ck_assert_int_eq(exp_opts_parse(&o, '?', NULL, "test"), EXP_OPT_NOT_MINE);
    for (int i = 0; i < EXP_MAX_PARAMS; i++)
        ck_assert_int_eq(exp_opts_parse(&o, 'P', "las.k=1", "test"), EXP_OPT_TAKEN);
    ck_assert_int_eq(exp_opts_parse(&o, 'P', "las.k=1", "test"), MLS_EXIT_USAGE);
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

static int own_option(void *opts, int c, const char *arg)
{
    if (c != 'c')
        return EXP_OPT_NOT_MINE;
    *(const char **)opts = arg;
    return 0;
}

static void no_usage(FILE *out)
{
    (void)out;
}

static int getopt_on(exp_opts_t *o, const char **cluster, int argc, char **argv)
{
    static const struct option lo[] = {
        {"cluster", required_argument, 0, 'c'}, EXP_OPTS_LONGOPTS, {0, 0, 0, 0}};
    exp_opts_init(o, "1");
    return exp_opts_getopt(o, argc, argv, "c:", lo, own_option, cluster, no_usage, "test");
}

START_TEST(own_and_shared_options_in_one_line)
{
    exp_opts_t o;
    const char *cluster = NULL;
    char *ok[] = {"test", "--trace", "t.csv", "-c", "v100=1x1", "-P", "fifo.k=v", "--wait", NULL};
    ck_assert_int_eq(getopt_on(&o, &cluster, 8, ok), 0);
    ck_assert_str_eq(o.trace, "t.csv");
    ck_assert_str_eq(cluster, "v100=1x1");
    ck_assert(o.n_params == 1 && o.wait == 1);
    char *stray[] = {"test", "-c", "x", "extra", NULL};
    ck_assert_int_eq(getopt_on(&o, &cluster, 4, stray), MLS_EXIT_USAGE);
    char *help[] = {"test", "--help", NULL};
    ck_assert_int_eq(getopt_on(&o, &cluster, 2, help), -1);
    char *unknown[] = {"test", "--no-such-option", NULL};
    ck_assert_int_eq(getopt_on(&o, &cluster, 2, unknown), MLS_EXIT_USAGE);
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
