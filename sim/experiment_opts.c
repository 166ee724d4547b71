/* experiment_opts.c: the options compare and sweep share, parsed, described
 * and applied in one place (see experiment_opts.h), so that a flag means the
 * same in both and is spelled, checked and explained once. */
#include "experiment_opts.h"

#include "cmd.h"

#include <string.h>

void exp_opts_init(exp_opts_t *o, const char *seeds)
{
    memset(o, 0, sizeof *o);
    o->policies = "all";
    o->seeds = seeds;
    o->db = "results/results.db";
    o->jobs = exp_ncpu();
}

int exp_opts_format(const char *arg, result_format_t *format, const char *who)
{
    int f = results_format_parse(arg);
    if (f < 0)
        return cmd_usage_error(who, "--format wants table, markdown, csv or json, got '%s'", arg);
    *format = (result_format_t)f;
    return 0;
}

static int parse_jobs(exp_opts_t *o, const char *arg, const char *who)
{
    long l;
    if (mls_parse_long(arg, &l) < 0 || l < 1 || l > 4096)
        return cmd_usage_error(who, "-j wants a number of processes >= 1, got '%s'", arg);
    o->jobs = (int)l;
    o->jobs_set = 1;
    return 0;
}

static int parse_backend(exp_opts_t *o, const char *arg, const char *who)
{
    if (strcmp(arg, "local") && strcmp(arg, "slurm"))
        return cmd_usage_error(who, "--backend wants local or slurm, got '%s'", arg);
    o->slurm = !strcmp(arg, "slurm");
    return 0;
}

/* The options that only store their argument: where it goes, or NULL. */
static const char **string_slot(exp_opts_t *o, int c)
{
    switch (c) {
    case 't':
        return &o->trace;
    case 'p':
        return &o->policies;
    case 's':
        return &o->seeds;
    case 'd':
        return &o->db;
    case 'r':
        return &o->round;
    case EXP_O_THR:
        return &o->throughputs;
    case EXP_O_CAD:
        return &o->cadence;
    case EXP_O_OVH:
        return &o->overhead;
    case EXP_O_MEAS:
        return &o->measure;
    case EXP_O_SDIR:
        return &o->slurm_dir;
    default:
        return NULL;
    }
}

/* The options without an argument: the flag they set, or NULL. */
static int *flag_slot(exp_opts_t *o, int c)
{
    switch (c) {
    case 'q':
        return &o->quiet;
    case EXP_O_WAIT:
        return &o->wait;
    case EXP_O_DRY:
        return &o->dry_run;
    default:
        return NULL;
    }
}

int exp_opts_parse(exp_opts_t *o, int c, const char *arg, const char *who)
{
    const char **str = string_slot(o, c);
    int *flag = flag_slot(o, c);
    if (str)
        *str = arg;
    else if (flag)
        *flag = 1;
    else if (c == 'j')
        return parse_jobs(o, arg, who);
    else if (c == EXP_O_FMT)
        return exp_opts_format(arg, &o->format, who);
    else if (c == EXP_O_BACK)
        return parse_backend(o, arg, who);
    else if (c == 'P' && o->n_params >= EXP_MAX_PARAMS)
        return cmd_usage_error(who, "%s", "too many --param");
    else if (c == 'P')
        o->params[o->n_params++] = arg;
    else if (c == EXP_O_SARG && o->n_sbatch >= EXP_MAX_SBATCH)
        return cmd_usage_error(who, "%s", "too many --sbatch-arg");
    else if (c == EXP_O_SARG)
        o->sbatch[o->n_sbatch++] = (char *)arg;
    else
        return EXP_OPT_NOT_MINE;
    return EXP_OPT_TAKEN;
}

int exp_opts_getopt(exp_opts_t *o, int argc, char **argv, const char *own_short,
                    const struct option *longopts, exp_own_opt_fn own, void *cmd_opts,
                    void (*usage)(FILE *), const char *who)
{
    char shortopts[64];
    snprintf(shortopts, sizeof shortopts, "%st:p:s:hj:d:r:P:q", own_short);
    optind = 1;
    int c, rc;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            return -1;
        }
        if ((rc = own(cmd_opts, c, optarg)) == EXP_OPT_NOT_MINE)
            rc = exp_opts_parse(o, c, optarg, who);
        if (rc == EXP_OPT_NOT_MINE)
            return cmd_usage_error(who, "%s", "unknown option");
        if (rc != 0)
            return rc;
    }
    if (optind < argc)
        return cmd_usage_error(who, "unexpected argument '%s'", argv[optind]);
    return 0;
}

void exp_opts_usage(FILE *out)
{
    fputs("  -j, --jobs N              runs at once (default: number of cores)\n"
          "  -d, --db FILE             results database (default results/results.db)\n"
          "      --format FMT          table (default), markdown, csv or json\n"
          "  passed to every simulate:\n"
          "      --throughputs FILE    perf model (Gavel-format throughput JSON)\n"
          "  -r, --round S             round length in seconds\n"
          "      --cadence MODE        events, rounds or both\n"
          "      --restart-overhead S  seconds lost at every (re)start\n"
          "      --measure LO:HI       measure jobs with ids in [LO, HI) only\n"
          "  -P, --param POLICY.KEY=VALUE  a parameter of one policy (repeatable)\n"
          "  backends:\n"
          "      --backend local|slurm run here (default) or as a Slurm job array\n"
          "      --wait                Slurm: wait for the array (poll squeue), then merge\n"
          "                            and print the table\n"
          "      --slurm-dir DIR       Slurm: work folder on a shared file system\n"
          "                            (default: a new folder beside the database)\n"
          "      --sbatch-arg ARG      Slurm: extra sbatch argument (repeatable), e.g.\n"
          "                            --sbatch-arg=--partition=debug\n"
          "      --dry-run             print the runs and do nothing\n"
          "  -q, --quiet               no progress line\n",
          out);
}

void exp_opts_apply(const exp_opts_t *o, experiment_t *e)
{
    e->jobs = o->slurm && !o->jobs_set ? 0 : o->jobs;
    e->quiet = o->quiet;
}

void exp_opts_policy_params(const exp_opts_t *o, const char *pol, exp_run_t *r)
{
    size_t len = strlen(pol);
    for (int i = 0; i < o->n_params; i++)
        if (!strncmp(o->params[i], pol, len) && o->params[i][len] == '.') {
            exp_arg(r, "--param");
            exp_arg(r, "%s", o->params[i] + len + 1);
        }
}

int exp_opts_run(const exp_opts_t *o, experiment_t *e, exp_outcome_t *out, mls_err_t *err)
{
    if (!o->slurm)
        return exp_run_local(e, out, err);
    exp_slurm_t so = {o->slurm_dir, o->sbatch, o->n_sbatch, o->wait, 0};
    return exp_run_slurm(e, &so, out, err);
}

int exp_opts_execute(const exp_opts_t *o, experiment_t *e, unsigned by, const char *baseline,
                     const result_print_opts_t *po, long *merged)
{
    exp_outcome_t out;
    mls_err_t err = {{0}};
    *merged = 0;
    int rc = exp_opts_run(o, e, &out, &err);
    if (rc == 0 && out.submitted)
        return MLS_EXIT_OK;
    if (rc == 0)
        rc = exp_show(o->db, &out.merged, by, baseline, po, &err);
    if (rc < 0) {
        fprintf(stderr, "mlsched %s: %s\n", e->who, err.msg);
        return MLS_EXIT_FAIL;
    }
    *merged = out.merged.runs;
    if (out.failed)
        fprintf(stderr, "mlsched %s: %zu of %zu runs FAILED (see above); %ld merged into %s\n",
                e->who, out.failed, e->n_runs, out.merged.runs, o->db);
    return out.failed ? MLS_EXIT_FAIL : MLS_EXIT_OK;
}
