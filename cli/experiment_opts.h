/* experiment_opts.h: the command-line options that compare and sweep share.
 *
 * Both describe an experiment of `mlsched simulate` runs and take the same
 * options for where the results go (-j, -d, --format), what every run is
 * passed (--like, --throughputs, -r, --cadence, --restart-overhead,
 * --placement, --spread-rate, --measure, -P/--param) and how the runs are done (--backend, --wait, --slurm-dir,
 * --sbatch-arg, --dry-run, -q). They are the rows of exp_opts_table (see
 * opts.h), which a command's own table includes with
 * OPT_INCLUDE(its_opts_t, its exp_opts_t field, exp_opts_table); the
 * command declares -t, -p and -s itself (their help differs), storing into
 * the exp_opts_t fields. Values passed to every simulate are kept as text
 * and checked by simulate. */
#ifndef MLS_EXPERIMENT_OPTS_H
#define MLS_EXPERIMENT_OPTS_H

#include "cli/opts.h"
#include "sim/experiment.h"
#include "sim/results.h"

#include <stdio.h>

#define EXP_MAX_SBATCH 32

typedef struct exp_opts {
    const char *trace, *policies, *seeds;                           /* -t, -p, -s */
    const char *db;                                                 /* -d */
    const char *throughputs, *round, *overhead, *cadence, *measure; /* passed to simulate */
    const char *placement, *spread_rate;                            /* passed to simulate */
    const char *like; /* --like PEER: passed first to every simulate */
    opt_list_t params;                                              /* -P POLICY.KEY=VALUE */
    opt_list_t sbatch;                                              /* --sbatch-arg */
    int jobs, jobs_set, quiet, dry_run, slurm, wait;
    const char *slurm_dir;
    result_format_t format;
} exp_opts_t;

/* The shared rows (-j ... -q), headings "passed to every simulate:" and
 * "backends:" included. */
extern const opt_t exp_opts_table[];

/* Defaults: all policies, the given seeds, db results/results.db, as many
 * jobs as cores, table format. */
void exp_opts_init(exp_opts_t *o, const char *seeds);
/* --format FMT: 0, or MLS_EXIT_USAGE after printing why (report's -f too). */
int exp_opts_format(const char *arg, result_format_t *format, const char *who);
/* The OPT_CALL parser of a --format row (a result_format_t). */
int exp_opts_format_call(void *base, size_t off, const char *arg, const char *who);

/* Adds "--like PEER" to r when given (first: the engine flags that follow
 * override it, and those given before it were dropped when it was parsed). */
void exp_opts_like(const exp_opts_t *o, exp_run_t *r);
/* Applies -j and -q to e (Slurm without -j: no array throttle). */
void exp_opts_apply(const exp_opts_t *o, experiment_t *e);
/* Adds "--param KEY=VALUE" to r for every -P POLICY.KEY=VALUE of policy pol. */
void exp_opts_policy_params(const exp_opts_t *o, const char *pol, exp_run_t *r);
/* Runs e on the chosen backend (exp_run_local or exp_run_slurm). */
int exp_opts_run(const exp_opts_t *o, experiment_t *e, exp_outcome_t *out, mls_err_t *err);
/* Runs e, then prints the table of the runs merged into o->db (grouped by
 * `by`, printed per po) and, on stderr, how many runs failed. *merged: the
 * runs merged and their run ids (none when Slurm only submitted, or on an
 * error). Returns
 * MLS_EXIT_OK, or MLS_EXIT_FAIL when a run or the experiment failed. */
int exp_opts_execute(const exp_opts_t *o, experiment_t *e, unsigned by, const char *baseline,
                     const result_print_opts_t *po, merge_stats_t *merged);

#endif
