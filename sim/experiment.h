/* experiment.h: a set of `mlsched simulate` runs done as one experiment.
 *
 * compare and sweep both describe their work as a list of runs (each the
 * arguments of one `mlsched simulate`, without --db) plus preparatory commands
 * (trace generation) that must all succeed first. An experiment then runs:
 *   locally — a process pool (runner.h) of this same binary, each run into its
 *     own temporary database, a live progress line, then ONE merge of the
 *     successful runs into the target database (merge.h); or
 *   on Slurm — a job array whose task i runs line i of a task list file into
 *     its own database; with `wait`, squeue is polled until the array is gone
 *     and the task databases are merged the same way.
 * A failed run is reported with its stderr; the others still finish and are
 * merged. The caller prints the table of the merged runs. */
#ifndef MLS_EXPERIMENT_H
#define MLS_EXPERIMENT_H

#include "model/util.h"
#include "sim/merge.h"
#include "sim/results.h"

#include <stddef.h>
#include <stdio.h>

typedef struct exp_run {
    char *name;  /* e.g. "fifo seed 1" */
    char **argv; /* NULL-ended; argv[0] is the subcommand ("simulate") */
    size_t argc, cap;
} exp_run_t;

typedef struct experiment {
    const char *who; /* "compare" or "sweep", for messages */
    const char *db;  /* target database */
    int jobs;        /* processes at once (local) or array throttle (Slurm, 0 none) */
    int quiet;       /* no progress line */
    exp_run_t *runs, *prep;
    size_t n_runs, cap_runs, n_prep, cap_prep;
} experiment_t;

typedef struct exp_slurm {
    const char *dir;          /* work folder (shared file system); NULL: beside the db */
    char *const *sbatch_args; /* extra sbatch arguments, e.g. "--partition=debug" */
    size_t n_sbatch_args;
    int wait;    /* poll squeue until done, then merge */
    double poll; /* s between polls (default 2) */
} exp_slurm_t;

typedef struct exp_outcome {
    merge_stats_t merged; /* the runs now in the db */
    size_t failed;        /* runs that failed */
    int submitted;        /* Slurm without wait: submitted, nothing merged */
} exp_outcome_t;

void exp_init(experiment_t *e, const char *who, const char *db);
void exp_free(experiment_t *e);
/* A new run (or preparatory command) named `name`, with argv[0] = sub. */
exp_run_t *exp_add_run(experiment_t *e, const char *name, const char *sub);
exp_run_t *exp_add_prep(experiment_t *e, const char *name, const char *sub);
/* Appends one argument (printf format). */
void exp_arg(exp_run_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints every command the experiment would run, one per line, shell-quoted. */
void exp_print_plan(FILE *out, const experiment_t *e, const char *exe);

/* Runs it. Returns 0 when the experiment itself worked (even with failed runs:
 * see out->failed), -1 with a message when it could not (no temporary folder,
 * a failed preparation, a failed merge, sbatch refused). */
int exp_run_local(experiment_t *e, exp_outcome_t *out, mls_err_t *err);
int exp_run_slurm(experiment_t *e, const exp_slurm_t *so, exp_outcome_t *out, mls_err_t *err);

/* Shared by both backends: runs the preparatory commands (all must succeed). */
int exp_prepare(experiment_t *e, const char *exe, mls_err_t *err);
/* Prints one failed run: its name, exit status and stderr, indented. */
void exp_report_failure(const char *who, const char *name, int status, const char *stderr_text);

/* ---- helpers of the compare and sweep command lines ---------------------- */

/* Splits "a,b,c" (no empty items). Returns 0, or -1 on an empty item. */
int exp_split(const char *s, char sep, char ***items, size_t *n);
void exp_split_free(char **items, size_t n);
/* "all" or a comma list of registered policies; -1 and the bad name in *bad. */
int exp_policies(const char *spec, char ***names, size_t *n, const char **bad);
/* "1,2,3" -> integers >= 0; -1 when one is not. */
int exp_seeds(const char *s, long **seeds, size_t *n);
/* Loads the merged runs of `m` from db, groups them by `by` and prints them. */
int exp_show(const char *db, const merge_stats_t *m, unsigned by, const char *baseline,
             const result_print_opts_t *po, mls_err_t *err);
/* Number of online processors (at least 1). */
int exp_ncpu(void);

#endif
