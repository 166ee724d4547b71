/* cmd-merge.c: `mlsched merge -o OUT.db IN.db...` — folds the runs of several
 * results databases into one (new run ids, every table, one transaction; see
 * merge.h). The step that ends a Slurm job array, and a way to pool results
 * made on several machines. */
#include "cli/cmd.h"
#include "cli/opts.h"
#include "sim/merge.h"

#include <stdio.h>
#include <string.h>

typedef struct merge_opts {
    const char *out;
    int quiet;
} merge_opts_t;

static const opt_t options[] = {
    OPT_STRING("output", 'o', "FILE", merge_opts_t, out, "the database to merge into"),
    OPT_FLAG("quiet", 'q', merge_opts_t, quiet, "print nothing on success"), OPT_END_ROW};

static const opt_cmd_t command = {
    .who = "merge",
    .usage = "-o OUT.db IN.db...",
    .about = "Appends every run of every input database to OUT.db (created when absent),\n"
             "with new run ids, with all their rows (runs, jobs, timeline, summary), in one\n"
             "transaction: a failed merge leaves OUT.db as it was. Inputs must have the\n"
             "same results schema version as this mlsched.",
    .opts = options,
    .footer = "Exit status: 0 merged, 1 an input could not be merged (nothing was), 2 usage.",
};

static int exec_merge(int argc, char **argv)
{
    merge_opts_t o = {NULL, 0};
    int optind, rc = opt_parse(&command, &o, argc, argv, &optind);
    if (rc)
        return rc < 0 ? MLS_EXIT_OK : rc;
    const char *out = o.out;
    int quiet = o.quiet;
    if (!out || optind >= argc)
        return cmd_usage_error("merge", "%s", "wants -o OUT.db and at least one input");
    merge_stats_t st;
    mls_err_t err = {{0}};
    if (merge_dbs(out, (const char *const *)(argv + optind), (size_t)(argc - optind), &st, &err) <
        0) {
        fprintf(stderr, "mlsched merge: %s (nothing was merged)\n", err.msg);
        return MLS_EXIT_FAIL;
    }
    if (!quiet) {
        if (st.runs)
            printf("merged %ld runs from %d databases into %s (runs %lld-%lld)\n", st.runs,
                   argc - optind, out, (long long)st.first_run, (long long)st.last_run);
        else
            printf("no runs in the inputs; %s unchanged\n", out);
    }
    return MLS_EXIT_OK;
}

const cmd_entry_t cmd_merge_entry = {"merge", "fold the runs of several result databases into one",
                                     exec_merge};
