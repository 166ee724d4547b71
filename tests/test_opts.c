/* test_opts.c: the option-table parser (cli/opts.c) every subcommand uses —
 * values of each kind, `--opt=value` and `--opt value`, repeated list
 * options, stop-at-argument commands, and the usage errors (unknown option,
 * missing argument, bad number naming the option) with exit status 2 in the
 * one form "mlsched WHO: MESSAGE (see mlsched WHO --help)"; and the --help
 * generated from a table. Output is captured by pointing fd 1 and 2 at a
 * temporary file. */
#include "cli/cmd.h"
#include "cli/opts.h"
#include "policies/policy.h"

#include "tests/check_main.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct t_opts {
    int quiet, count, whole;
    long seed;
    double rate;
    const char *name;
    opt_list_t tags;
    opt_params_t params;
    unsigned cadence;
} t_opts_t;

#define T t_opts_t
static const opt_t rows[] = {
    OPT_FLAG("quiet", 'q', T, quiet, "say less"),
    OPT_NUM(OPT_INT, "count", 'n', "N", T, count, 1, 100, 0, NULL, "how many"),
    OPT_NUM(OPT_WHOLE, "whole", 0, "N", T, whole, 0, 1e9, 0, NULL, "a whole number"),
    OPT_SHARED_SEED(T, seed, "the seed"),
    OPT_GROUP("numbers:"),
    OPT_NUM(OPT_DOUBLE, "rate", 0, "R", T, rate, 0, 1e300, OPT_ABOVE_LO, NULL, "a rate\nper hour"),
    OPT_STRING("name", 0, "TEXT", T, name, "a name"),
    OPT_LIST("tag", 't', "TAG", T, tags, "a tag (repeatable)"),
    OPT_SHARED_PARAM(T, params, "a policy parameter (repeatable)"),
    OPT_SHARED_CADENCE(T, cadence, "events, rounds or both"),
    OPT_END_ROW};
#undef T

static const opt_cmd_t cmd = {
    .who = "t",
    .usage = "[options] ARG...",
    .about = "Tests the parser.",
    .opts = rows,
    .footer = "Exit status: 0, 2 usage.",
};
static const opt_cmd_t stop_cmd = {
    .who = "t run",
    .usage = "-- PROG",
    .opts = rows,
    .flags = OPT_STOP_AT_ARG,
};

static char out[8192];
static t_opts_t o;

/* Parses the NULL-ended argv with c; what it printed is in `out`. */
static int parse(const opt_cmd_t *c, char **argv, int *first)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    opt_params_free(&o.params);
    memset(&o, 0, sizeof o);
    fflush(stdout);
    fflush(stderr);
    FILE *tmp = tmpfile();
    ck_assert_ptr_nonnull(tmp);
    int save1 = dup(1), save2 = dup(2);
    dup2(fileno(tmp), 1);
    dup2(fileno(tmp), 2);
    int f = -1, rc = opt_parse(c, &o, argc, argv, &f);
    fflush(stdout);
    fflush(stderr);
    dup2(save1, 1);
    dup2(save2, 2);
    close(save1);
    close(save2);
    rewind(tmp);
    size_t n = fread(out, 1, sizeof out - 1, tmp);
    out[n] = '\0';
    fclose(tmp);
    if (first)
        *first = f;
    return rc;
}

#define ARGV(...) ((char *[]){"t", __VA_ARGS__, NULL})

START_TEST(values_of_each_kind)
{
    int first;
    ck_assert_int_eq(parse(&cmd,
                           ARGV("-q", "--count", "7", "--whole=1e3", "-s", "42", "--rate=0.5",
                                "--name", "x", "a", "b"),
                           &first),
                     0);
    ck_assert(o.quiet == 1 && o.count == 7 && o.whole == 1000 && o.seed == 42);
    ck_assert(o.rate == 0.5);
    ck_assert_str_eq(o.name, "x");
    ck_assert_int_eq(first, 10); /* a and b, after the options */
    ck_assert_str_eq(out, "");
    /* -nVALUE, a prefix of a long name, the last of a repeated option */
    ck_assert_int_eq(parse(&cmd, ARGV("-n3", "--cou", "4", "--name=a", "--name=b"), &first), 0);
    ck_assert(o.count == 4);
    ck_assert_str_eq(o.name, "b");
}
END_TEST

START_TEST(equals_and_space_forms_agree)
{
    ck_assert_int_eq(parse(&cmd, ARGV("--count=5"), NULL), 0);
    int a = o.count;
    ck_assert_int_eq(parse(&cmd, ARGV("--count", "5"), NULL), 0);
    ck_assert_int_eq(a, o.count);
    ck_assert_int_eq(o.count, 5);
    ck_assert_int_eq(parse(&cmd, ARGV("--cadence=rounds"), NULL), 0);
    ck_assert_uint_eq(o.cadence, MLS_CADENCE_ROUNDS);
    ck_assert_int_eq(parse(&cmd, ARGV("--cadence", "both"), NULL), 0);
    ck_assert_uint_eq(o.cadence, MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS);
}
END_TEST

START_TEST(repeated_list_options_keep_order)
{
    ck_assert_int_eq(
        parse(&cmd, ARGV("-t", "a", "--tag=b", "--tag", "c", "-P", "k=v=w", "--param=x=1"), NULL),
        0);
    ck_assert_int_eq((int)o.tags.n, 3);
    ck_assert_str_eq(o.tags.v[0], "a");
    ck_assert_str_eq(o.tags.v[1], "b");
    ck_assert_str_eq(o.tags.v[2], "c");
    ck_assert_int_eq(o.params.n, 2);
    ck_assert_str_eq(o.params.keys[0], "k");
    ck_assert_str_eq(o.params.values[0], "v=w");
    ck_assert_str_eq(o.params.keys[1], "x");
    ck_assert_str_eq(o.params.values[1], "1");
    opt_params_free(&o.params);
}
END_TEST

START_TEST(unknown_option)
{
    ck_assert_int_eq(parse(&cmd, ARGV("--bogus"), NULL), MLS_EXIT_USAGE);
    ck_assert_str_eq(out, "mlsched t: unknown option '--bogus' (see mlsched t --help)\n");
    ck_assert_int_eq(parse(&cmd, ARGV("-qz"), NULL), MLS_EXIT_USAGE);
    ck_assert_str_eq(out, "mlsched t: unknown option '-z' (see mlsched t --help)\n");
    ck_assert_int_eq(parse(&cmd, ARGV("--quiet=1"), NULL), MLS_EXIT_USAGE);
    ck_assert_str_eq(out, "mlsched t: --quiet=1 takes no argument (see mlsched t --help)\n");
    /* --c: --count or --cadence */
    ck_assert_int_eq(parse(&cmd, ARGV("--c", "1"), NULL), MLS_EXIT_USAGE);
    ck_assert_str_eq(out, "mlsched t: ambiguous option '--c' (more than one option starts so) "
                          "(see mlsched t --help)\n");
}
END_TEST

START_TEST(missing_argument)
{
    ck_assert_int_eq(parse(&cmd, ARGV("-q", "--count"), NULL), MLS_EXIT_USAGE);
    ck_assert_str_eq(out, "mlsched t: --count wants an argument (see mlsched t --help)\n");
    ck_assert_int_eq(parse(&cmd, ARGV("-n"), NULL), MLS_EXIT_USAGE);
    ck_assert_str_eq(out, "mlsched t: -n wants an argument (see mlsched t --help)\n");
}
END_TEST

START_TEST(bad_number_names_the_option)
{
    ck_assert_int_eq(parse(&cmd, ARGV("--count", "x"), NULL), MLS_EXIT_USAGE);
    ck_assert_str_eq(out, "mlsched t: --count wants an integer >= 1 and <= 100, got 'x' "
                          "(see mlsched t --help)\n");
    ck_assert_int_eq(parse(&cmd, ARGV("-n", "101"), NULL), MLS_EXIT_USAGE);
    ck_assert_int_eq(parse(&cmd, ARGV("--count", "2.5"), NULL), MLS_EXIT_USAGE);
    ck_assert_int_eq(parse(&cmd, ARGV("--whole", "2.5"), NULL), MLS_EXIT_USAGE);
    ck_assert_int_eq(parse(&cmd, ARGV("--rate", "0"), NULL), MLS_EXIT_USAGE);
    ck_assert_str_eq(out, "mlsched t: --rate wants a number > 0, got '0' (see mlsched t --help)\n");
    ck_assert_int_eq(parse(&cmd, ARGV("--rate", "inf"), NULL), MLS_EXIT_USAGE);
    ck_assert_int_eq(parse(&cmd, ARGV("--rate", "nan"), NULL), MLS_EXIT_USAGE);
    /* a shared row's own message */
    ck_assert_int_eq(parse(&cmd, ARGV("--seed=-1"), NULL), MLS_EXIT_USAGE);
    ck_assert_str_eq(out, "mlsched t: --seed wants an integer >= 0, got '-1' "
                          "(see mlsched t --help)\n");
    ck_assert_int_eq(parse(&cmd, ARGV("-P", "=v"), NULL), MLS_EXIT_USAGE);
    ck_assert_str_eq(out, "mlsched t: --param wants KEY=VALUE, got '=v' (see mlsched t --help)\n");
    ck_assert_int_eq(parse(&cmd, ARGV("--cadence", "sometimes"), NULL), MLS_EXIT_USAGE);
    ck_assert(strstr(out, "--cadence wants events, rounds or both, got 'sometimes'"));
}
END_TEST

START_TEST(help_is_generated_from_the_table)
{
    ck_assert_int_eq(parse(&cmd, ARGV("-q", "--help", "--bogus"), NULL), -1);
    const char *want = "usage: mlsched t [options] ARG...\n"
                       "\n"
                       "Tests the parser.\n"
                       "\n"
                       "  -q, --quiet               say less\n"
                       "  -n, --count N             how many\n"
                       "      --whole N             a whole number\n"
                       "  -s, --seed N              the seed\n"
                       "  numbers:\n"
                       "      --rate R              a rate\n"
                       "                            per hour\n"
                       "      --name TEXT           a name\n"
                       "  -t, --tag TAG             a tag (repeatable)\n"
                       "  -P, --param KEY=VALUE     a policy parameter (repeatable)\n"
                       "      --cadence MODE        events, rounds or both\n"
                       "  -h, --help                this text\n"
                       "\n"
                       "Exit status: 0, 2 usage.\n";
    ck_assert_str_eq(out, want);
    ck_assert_int_eq(parse(&cmd, ARGV("-h"), NULL), -1);
    ck_assert_str_eq(out, want);
}
END_TEST

START_TEST(stop_at_first_argument)
{
    int first;
    ck_assert_int_eq(parse(&stop_cmd, ARGV("-q", "prog", "--count", "x"), &first), 0);
    ck_assert_int_eq(first, 2);
    ck_assert_int_eq(o.count, 0);
    ck_assert_int_eq(parse(&stop_cmd, ARGV("-n", "2", "--", "prog", "-q"), &first), 0);
    ck_assert_int_eq(first, 4);
    ck_assert(o.count == 2 && !o.quiet);
    /* without the flag, options after arguments are still options */
    ck_assert_int_eq(parse(&cmd, ARGV("a", "-q"), &first), 0);
    ck_assert(o.quiet == 1 && first == 2);
    ck_assert_int_eq(opt_parse_only(&cmd, &o, 2, ARGV("a")), MLS_EXIT_USAGE);
}
END_TEST

START_TEST(cadence_names_round_trip)
{
    const char *names[] = {"events", "rounds", "both"};
    for (int i = 0; i < 3; i++)
        ck_assert_str_eq(opt_cadence_name(opt_cadence_parse(names[i])), names[i]);
    ck_assert_uint_eq(opt_cadence_parse("never"), 0);
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {values_of_each_kind,
                                  equals_and_space_forms_agree,
                                  repeated_list_options_keep_order,
                                  unknown_option,
                                  missing_argument,
                                  bad_number_names_the_option,
                                  help_is_generated_from_the_table,
                                  stop_at_first_argument,
                                  cadence_names_round_trip};
    const check_opts_t opts = {.nofork = 1};
    return check_main_opts("opts", tests, sizeof tests / sizeof tests[0], &opts);
}
