/* experiment_opts.h: the command-line options that compare and sweep share.
 *
 * Both describe an experiment of `mlsched simulate` runs and take the same
 * options for where the results go (-j, -d, --format), what every run is
 * passed (--throughputs, -r, --cadence, --restart-overhead, --measure,
 * -P/--param) and how the runs are done (--backend, --wait, --slurm-dir,
 * --sbatch-arg, --dry-run, -q). A command puts EXP_OPTS_LONGOPTS into its
 * getopt_long table and EXP_OPTS_SHORTOPTS into its short option string,
 * hands every option it does not know itself to exp_opts_parse(), and prints
 * exp_opts_usage() in its --help. Messages name the command (`who`). */
#ifndef MLS_EXPERIMENT_OPTS_H
#define MLS_EXPERIMENT_OPTS_H

#include "experiment.h"
#include "results.h"

#include <getopt.h>
#include <stdio.h>

#define EXP_MAX_PARAMS 64
#define EXP_MAX_SBATCH 32

typedef struct exp_opts {
    const char *trace, *policies, *seeds;                           /* -t, -p, -s */
    const char *db;                                                 /* -d */
    const char *throughputs, *round, *overhead, *cadence, *measure; /* passed to simulate */
    const char *params[EXP_MAX_PARAMS];                             /* -P POLICY.KEY=VALUE */
    int n_params;
    char *sbatch[EXP_MAX_SBATCH]; /* --sbatch-arg */
    size_t n_sbatch;
    int jobs, jobs_set, quiet, dry_run, slurm, wait;
    const char *slurm_dir;
    result_format_t format;
} exp_opts_t;

/* getopt codes of the shared long options that have no short letter. */
enum {
    EXP_O_FMT = 512,
    EXP_O_THR,
    EXP_O_CAD,
    EXP_O_OVH,
    EXP_O_MEAS,
    EXP_O_BACK,
    EXP_O_WAIT,
    EXP_O_SDIR,
    EXP_O_SARG,
    EXP_O_DRY
};

/* clang-format off */
#define EXP_OPTS_LONGOPTS                                                                          \
    {"trace", required_argument, 0, 't'}, {"policies", required_argument, 0, 'p'},                 \
    {"seeds", required_argument, 0, 's'}, {"help", no_argument, 0, 'h'},                           \
    {"jobs", required_argument, 0, 'j'}, {"db", required_argument, 0, 'd'},                        \
    {"format", required_argument, 0, EXP_O_FMT},                                                   \
    {"throughputs", required_argument, 0, EXP_O_THR}, {"round", required_argument, 0, 'r'},        \
    {"cadence", required_argument, 0, EXP_O_CAD},                                                  \
    {"restart-overhead", required_argument, 0, EXP_O_OVH},                                         \
    {"measure", required_argument, 0, EXP_O_MEAS}, {"param", required_argument, 0, 'P'},           \
    {"backend", required_argument, 0, EXP_O_BACK}, {"wait", no_argument, 0, EXP_O_WAIT},           \
    {"slurm-dir", required_argument, 0, EXP_O_SDIR},                                               \
    {"sbatch-arg", required_argument, 0, EXP_O_SARG}, {"dry-run", no_argument, 0, EXP_O_DRY},      \
    {"quiet", no_argument, 0, 'q'}
/* clang-format on */

/* What exp_opts_parse() made of an option. */
enum { EXP_OPT_TAKEN = 0, EXP_OPT_NOT_MINE = -1 };

/* Defaults: all policies, the given seeds, db results/results.db, as many
 * jobs as cores, table format. */
void exp_opts_init(exp_opts_t *o, const char *seeds);
/* Handles getopt code c with argument arg: EXP_OPT_TAKEN, EXP_OPT_NOT_MINE
 * (not a shared option: the caller's "unknown option"), or MLS_EXIT_USAGE
 * after printing why (a bad -j, --format or --backend, too many -P). */
int exp_opts_parse(exp_opts_t *o, int c, const char *arg, const char *who);
/* A command's own options: handles c, or answers EXP_OPT_NOT_MINE; 0 or an
 * exit status otherwise. */
typedef int (*exp_own_opt_fn)(void *cmd_opts, int c, const char *arg);
/* The whole command line: getopt_long over argv with the command's short
 * options `own_short` plus the shared ones, each option to own() first, then
 * to exp_opts_parse(); -h prints usage(stdout). Returns 0, -1 after --help,
 * or MLS_EXIT_USAGE after printing why (also for a stray argument). */
int exp_opts_getopt(exp_opts_t *o, int argc, char **argv, const char *own_short,
                    const struct option *longopts, exp_own_opt_fn own, void *cmd_opts,
                    void (*usage)(FILE *), const char *who);
/* --format FMT: 0, or MLS_EXIT_USAGE after printing why (report's -f too). */
int exp_opts_format(const char *arg, result_format_t *format, const char *who);
/* The --help lines of the shared options. */
void exp_opts_usage(FILE *out);

/* Applies -j and -q to e (Slurm without -j: no array throttle). */
void exp_opts_apply(const exp_opts_t *o, experiment_t *e);
/* Adds "--param KEY=VALUE" to r for every -P POLICY.KEY=VALUE of policy pol. */
void exp_opts_policy_params(const exp_opts_t *o, const char *pol, exp_run_t *r);
/* Runs e on the chosen backend (exp_run_local or exp_run_slurm). */
int exp_opts_run(const exp_opts_t *o, experiment_t *e, exp_outcome_t *out, mls_err_t *err);
/* Runs e, then prints the table of the runs merged into o->db (grouped by
 * `by`, printed per po) and, on stderr, how many runs failed. *merged: the
 * runs merged (0 when Slurm only submitted, or on an error). Returns
 * MLS_EXIT_OK, or MLS_EXIT_FAIL when a run or the experiment failed. */
int exp_opts_execute(const exp_opts_t *o, experiment_t *e, unsigned by, const char *baseline,
                     const result_print_opts_t *po, long *merged);

#endif
