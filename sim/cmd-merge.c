/* cmd-merge.c: `mlsched merge -o OUT.db IN.db...` — folds the runs of several
 * results databases into one (new run ids, every table, one transaction; see
 * merge.h). The step that ends a Slurm job array, and a way to pool results
 * made on several machines. */
#include "cmd.h"
#include "merge.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: mlsched merge -o OUT.db IN.db...\n"
                 "\n"
                 "Appends every run of every input database to OUT.db (created when absent),\n"
                 "with new run ids, with all their rows (runs, jobs, timeline, summary), in one\n"
                 "transaction: a failed merge leaves OUT.db as it was. Inputs must have the\n"
                 "same results schema version as this mlsched.\n"
                 "\n"
                 "  -o, --output FILE   the database to merge into\n"
                 "  -q, --quiet         print nothing on success\n"
                 "  -h, --help          this text\n"
                 "\n"
                 "Exit status: 0 merged, 1 an input could not be merged (nothing was), 2 usage.\n");
}

static int exec_merge(int argc, char **argv)
{
    static const struct option lo[] = {{"output", required_argument, 0, 'o'},
                                       {"quiet", no_argument, 0, 'q'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    const char *out = NULL;
    int quiet = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:qh", lo, NULL)) != -1) {
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case 'q':
            quiet = 1;
            break;
        case 'h':
            usage(stdout);
            return MLS_EXIT_OK;
        default:
            fprintf(stderr, "mlsched merge: unknown option (see mlsched merge --help)\n");
            return MLS_EXIT_USAGE;
        }
    }
    if (!out || optind >= argc) {
        fprintf(stderr, "mlsched merge: wants -o OUT.db and at least one input"
                        " (see mlsched merge --help)\n");
        return MLS_EXIT_USAGE;
    }
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
