/* experiment_opts.c: the options compare and sweep share — one table of
 * rows (see opts.h) both include, and how they are applied — so that a flag
 * means the same in both and is spelled, checked and explained once. */
#include "cli/experiment_opts.h"

#include "cli/cmd.h"
#include "cli/like.h"

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

int exp_opts_format_call(void *base, size_t off, const char *arg, const char *who)
{
    return exp_opts_format(arg, (result_format_t *)((char *)base + off), who);
}

static int parse_jobs(void *base, size_t off, const char *arg, const char *who)
{
    exp_opts_t *o = (exp_opts_t *)((char *)base + off);
    long l;
    (void)who;
    if (mls_parse_long(arg, &l) < 0 || l < 1 || l > 4096)
        return -1;
    o->jobs = (int)l;
    o->jobs_set = 1;
    return 0;
}

static int parse_backend(void *base, size_t off, const char *arg, const char *who)
{
    (void)who;
    if (strcmp(arg, "local") && strcmp(arg, "slurm"))
        return -1;
    *(int *)((char *)base + off) = !strcmp(arg, "slurm");
    return 0;
}

/* --like PEER: the engine settings it sets, given before it, are dropped
 * (simulate's rule: a flag after --like overrides it, one before does not). */
static int parse_like(void *base, size_t off, const char *arg, const char *who)
{
    exp_opts_t *o = (exp_opts_t *)((char *)base + off);
    const like_peer_t *p = like_find(arg);
    (void)who;
    if (!p)
        return -1;
    o->like = p->name;
    if (p->round_len >= 0)
        o->round = NULL;
    if (p->cadence)
        o->cadence = NULL;
    if (p->restart_overhead >= 0)
        o->overhead = NULL;
    if (p->placement)
        o->placement = NULL;
    if (p->spread_rate)
        o->spread_rate = NULL;
    return 0;
}

#define X exp_opts_t
/* -j stores into the whole struct (jobs and jobs_set): offset of the struct. */
const opt_t exp_opts_table[] = {
    {.kind = OPT_CALL,
     .name = "jobs",
     .letter = 'j',
     .arg = "N",
     .off = 0,
     .help = "runs at once (default: number of cores)",
     .call = parse_jobs,
     .bad = "-j wants a number of processes >= 1, got '%s'"},
    OPT_SHARED_DB(X, db, "results database (default results/results.db)"),
    OPT_CALL("format", 0, "FMT", X, format, exp_opts_format_call, NULL,
             "table (default), markdown, csv or json"),
    OPT_GROUP("passed to every simulate:"),
    {.kind = OPT_CALL,
     .name = "like",
     .arg = "PEER",
     .off = 0,
     .help = "gavel, shockwave, pollux, tiresias or helios (see\n"
             "simulate; a flag after it overrides one setting)",
     .call = parse_like,
     .bad = "--like wants gavel, shockwave, pollux, tiresias or helios, got '%s'"},
    OPT_SHARED_THROUGHPUTS(X, throughputs, "perf model (Gavel-format throughput JSON)"),
    OPT_STRING("round", 'r', "S", X, round, "round length in seconds"),
    OPT_STRING("cadence", 0, "MODE", X, cadence, "events, rounds or both"),
    OPT_STRING("restart-overhead", 0, "S", X, overhead, "seconds lost at every (re)start"),
    OPT_STRING("placement", 0, "MODE", X, placement, "spread, consolidate, auto or hold (see simulate)"),
    OPT_STRING("spread-rate", 0, "HOW", X, spread_rate, "placed or consolidated (see simulate)"),
    OPT_STRING("measure", 0, "LO:HI", X, measure, "measure jobs with ids in [LO, HI) only"),
    OPT_LIST("param", 'P', "POLICY.KEY=VALUE", X, params, "a parameter of one policy (repeatable)"),
    OPT_GROUP("backends:"),
    OPT_CALL("backend", 0, "local|slurm", X, slurm, parse_backend,
             "--backend wants local or slurm, got '%s'",
             "run here (default) or as a Slurm job array"),
    OPT_FLAG("wait", 0, X, wait,
             "Slurm: wait for the array (poll squeue), then merge\n"
             "and print the table"),
    OPT_STRING("slurm-dir", 0, "DIR", X, slurm_dir,
               "Slurm: work folder on a shared file system\n"
               "(default: a new folder beside the database)"),
    {.kind = OPT_LIST,
     .name = "sbatch-arg",
     .arg = "ARG",
     .off = offsetof(X, sbatch),
     .hi = EXP_MAX_SBATCH,
     .help = "Slurm: extra sbatch argument (repeatable), e.g.\n"
             "--sbatch-arg=--partition=debug"},
    OPT_FLAG("dry-run", 0, X, dry_run, "print the runs and do nothing"),
    OPT_FLAG("quiet", 'q', X, quiet, "no progress line"),
    OPT_END_ROW};
#undef X

void exp_opts_apply(const exp_opts_t *o, experiment_t *e)
{
    e->jobs = o->slurm && !o->jobs_set ? 0 : o->jobs;
    e->quiet = o->quiet;
}

void exp_opts_like(const exp_opts_t *o, exp_run_t *r)
{
    if (o->like) {
        exp_arg(r, "--like");
        exp_arg(r, "%s", o->like);
    }
}

void exp_opts_policy_params(const exp_opts_t *o, const char *pol, exp_run_t *r)
{
    size_t len = strlen(pol);
    for (size_t i = 0; i < o->params.n; i++)
        if (!strncmp(o->params.v[i], pol, len) && o->params.v[i][len] == '.') {
            exp_arg(r, "--param");
            exp_arg(r, "%s", o->params.v[i] + len + 1);
        }
}

int exp_opts_run(const exp_opts_t *o, experiment_t *e, exp_outcome_t *out, mls_err_t *err)
{
    if (!o->slurm)
        return exp_run_local(e, out, err);
    exp_slurm_t so = {o->slurm_dir, (char *const *)o->sbatch.v, o->sbatch.n, o->wait, 0};
    return exp_run_slurm(e, &so, out, err);
}

int exp_opts_execute(const exp_opts_t *o, experiment_t *e, unsigned by, const char *baseline,
                     const result_print_opts_t *po, merge_stats_t *merged)
{
    exp_outcome_t out;
    mls_err_t err = {{0}};
    memset(merged, 0, sizeof *merged);
    int rc = exp_opts_run(o, e, &out, &err);
    if (rc == 0 && out.submitted)
        return MLS_EXIT_OK;
    if (rc == 0)
        rc = exp_show(o->db, &out.merged, by, baseline, po, &err);
    if (rc < 0) {
        fprintf(stderr, "mlsched %s: %s\n", e->who, err.msg);
        return MLS_EXIT_FAIL;
    }
    *merged = out.merged;
    if (out.failed)
        fprintf(stderr, "mlsched %s: %zu of %zu runs FAILED (see above); %ld merged into %s\n",
                e->who, out.failed, e->n_runs, out.merged.runs, o->db);
    return out.failed ? MLS_EXIT_FAIL : MLS_EXIT_OK;
}
