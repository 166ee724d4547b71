/* cmd-compare.c: `mlsched compare` — every (policy, seed) on one trace and
 * cluster, each as its own `mlsched simulate` process (up to -j at once, or a
 * Slurm job array), merged into the results database in one transaction, then
 * ONE table: the columns the Gavel and Shockwave papers print, the mean over
 * seeds, each metric relative to a baseline policy. */
#include "cmd.h"
#include "experiment.h"
#include "results.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS 64
#define MAX_SBATCH 32

typedef struct cmp_opts {
    const char *trace, *cluster, *policies, *seeds, *db, *plots, *baseline;
    const char *throughputs, *round, *overhead, *measure, *cadence, *label;
    const char *params[MAX_PARAMS];
    int n_params;
    char *sbatch[MAX_SBATCH];
    size_t n_sbatch;
    int jobs, jobs_set, quiet, dry_run, slurm, wait;
    const char *slurm_dir;
    result_format_t format;
} cmp_opts_t;

static void usage(FILE *out)
{
    fprintf(out, "usage: mlsched compare --trace FILE --cluster FILE|SPEC [options]\n"
                 "\n"
                 "Runs every policy (and seed) on one trace and cluster, each as its own\n"
                 "`mlsched simulate` process, merges the runs into the results database in one\n"
                 "transaction, and prints one comparison table (mean over seeds; each metric\n"
                 "relative to the baseline policy as (Nx)).\n"
                 "\n"
                 "  -t, --trace FILE          canonical trace CSV\n"
                 "  -c, --cluster FILE|SPEC   cluster JSON or inline spec (v100=32x1,k80=4x8)\n"
                 "  -p, --policies LIST       all (default) or a comma list of policies\n"
                 "  -s, --seeds LIST          comma list of seeds (default 1)\n"
                 "  -j, --jobs N              runs at once (default: number of cores)\n"
                 "  -d, --db FILE             results database (default results/results.db)\n"
                 "      --baseline POLICY     relate every metric to this policy (default fifo\n"
                 "                            when it is run; 'none' for no relative values)\n"
                 "      --plots DIR           then draw figures with `mlsched plot` into DIR\n"
                 "      --format FMT          table (default), markdown, csv or json\n"
                 "  passed to every simulate:\n"
                 "      --throughputs FILE    perf model (Gavel-format throughput JSON)\n"
                 "  -r, --round S             round length in seconds\n"
                 "      --cadence MODE        events, rounds or both\n"
                 "      --restart-overhead S  seconds lost at every (re)start\n"
                 "      --measure LO:HI       measure jobs with ids in [LO, HI) only\n"
                 "  -P, --param POLICY.KEY=VALUE  a parameter of one policy (repeatable)\n"
                 "      --label TEXT          stored with every run\n"
                 "  backends:\n"
                 "      --backend local|slurm run here (default) or as a Slurm job array\n"
                 "      --wait                Slurm: wait for the array (poll squeue), then merge\n"
                 "                            and print the table\n"
                 "      --slurm-dir DIR       Slurm: work folder on a shared file system\n"
                 "                            (default: a new folder beside the database)\n"
                 "      --sbatch-arg ARG      Slurm: extra sbatch argument (repeatable), e.g.\n"
                 "                            --sbatch-arg=--partition=debug\n"
                 "      --dry-run             print the runs and do nothing\n"
                 "  -q, --quiet               no progress line\n"
                 "  -h, --help                this text\n"
                 "\n"
                 "Progress goes to stderr (redrawn in place on a terminal). A run that fails is\n"
                 "reported with its stderr; the others are still merged.\n"
                 "Exit status: 0 all runs done, 1 a run failed (or the experiment), 2 usage.\n");
}

static int bad(const char *fmt, const char *arg)
{
    fprintf(stderr, "mlsched compare: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see mlsched compare --help)\n");
    return MLS_EXIT_USAGE;
}

static int parse_backend(cmp_opts_t *o, const char *s)
{
    if (!strcmp(s, "slurm"))
        o->slurm = 1;
    else if (strcmp(s, "local"))
        return -1;
    return 0;
}

static int parse_args(int argc, char **argv, cmp_opts_t *o)
{
    enum {
        O_BASE = 256,
        O_PLOTS,
        O_FMT,
        O_THR,
        O_CAD,
        O_OVH,
        O_MEAS,
        O_LABEL,
        O_BACK,
        O_WAIT,
        O_SDIR,
        O_SARG,
        O_DRY
    };
    static const struct option lo[] = {{"trace", required_argument, 0, 't'},
                                       {"cluster", required_argument, 0, 'c'},
                                       {"policies", required_argument, 0, 'p'},
                                       {"seeds", required_argument, 0, 's'},
                                       {"jobs", required_argument, 0, 'j'},
                                       {"db", required_argument, 0, 'd'},
                                       {"baseline", required_argument, 0, O_BASE},
                                       {"plots", required_argument, 0, O_PLOTS},
                                       {"format", required_argument, 0, O_FMT},
                                       {"throughputs", required_argument, 0, O_THR},
                                       {"round", required_argument, 0, 'r'},
                                       {"cadence", required_argument, 0, O_CAD},
                                       {"restart-overhead", required_argument, 0, O_OVH},
                                       {"measure", required_argument, 0, O_MEAS},
                                       {"param", required_argument, 0, 'P'},
                                       {"label", required_argument, 0, O_LABEL},
                                       {"backend", required_argument, 0, O_BACK},
                                       {"wait", no_argument, 0, O_WAIT},
                                       {"slurm-dir", required_argument, 0, O_SDIR},
                                       {"sbatch-arg", required_argument, 0, O_SARG},
                                       {"dry-run", no_argument, 0, O_DRY},
                                       {"quiet", no_argument, 0, 'q'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    o->policies = "all";
    o->seeds = "1";
    o->db = "results/results.db";
    o->jobs = exp_ncpu();
    optind = 1;
    int c, f;
    long l;
    while ((c = getopt_long(argc, argv, "t:c:p:s:j:d:r:P:qh", lo, NULL)) != -1) {
        switch (c) {
        case 't':
            o->trace = optarg;
            break;
        case 'c':
            o->cluster = optarg;
            break;
        case 'p':
            o->policies = optarg;
            break;
        case 's':
            o->seeds = optarg;
            break;
        case 'j':
            if (mls_parse_long(optarg, &l) < 0 || l < 1 || l > 4096)
                return bad("-j wants a number of processes >= 1, got '%s'", optarg);
            o->jobs = (int)l;
            o->jobs_set = 1;
            break;
        case 'd':
            o->db = optarg;
            break;
        case O_BASE:
            o->baseline = optarg;
            break;
        case O_PLOTS:
            o->plots = optarg;
            break;
        case O_FMT:
            if ((f = results_format_parse(optarg)) < 0)
                return bad("--format wants table, markdown, csv or json, got '%s'", optarg);
            o->format = (result_format_t)f;
            break;
        case O_THR:
            o->throughputs = optarg;
            break;
        case 'r':
            o->round = optarg;
            break;
        case O_CAD:
            o->cadence = optarg;
            break;
        case O_OVH:
            o->overhead = optarg;
            break;
        case O_MEAS:
            o->measure = optarg;
            break;
        case 'P':
            if (o->n_params >= MAX_PARAMS)
                return bad("%s", "too many --param");
            o->params[o->n_params++] = optarg;
            break;
        case O_LABEL:
            o->label = optarg;
            break;
        case O_BACK:
            if (parse_backend(o, optarg) < 0)
                return bad("--backend wants local or slurm, got '%s'", optarg);
            break;
        case O_WAIT:
            o->wait = 1;
            break;
        case O_SDIR:
            o->slurm_dir = optarg;
            break;
        case O_SARG:
            if (o->n_sbatch >= MAX_SBATCH)
                return bad("%s", "too many --sbatch-arg");
            o->sbatch[o->n_sbatch++] = optarg;
            break;
        case O_DRY:
            o->dry_run = 1;
            break;
        case 'q':
            o->quiet = 1;
            break;
        case 'h':
            usage(stdout);
            return -1;
        default:
            return bad("%s", "unknown option");
        }
    }
    if (optind < argc)
        return bad("unexpected argument '%s'", argv[optind]);
    if (!o->trace || !o->cluster)
        return bad("%s", "--trace and --cluster are required");
    return 0;
}

/* Adds the options every run shares. */
static void common_args(const cmp_opts_t *o, exp_run_t *r)
{
    const char *flag[] = {"--throughputs",      "--round",   "--cadence",
                          "--restart-overhead", "--measure", "--label"};
    const char *val[] = {o->throughputs, o->round, o->cadence, o->overhead, o->measure, o->label};
    for (int i = 0; i < 6; i++)
        if (val[i]) {
            exp_arg(r, "%s", flag[i]);
            exp_arg(r, "%s", val[i]);
        }
}

/* --param POLICY.KEY=VALUE: checks every one names a policy that runs. */
static int check_params(const cmp_opts_t *o, char **pol, size_t np)
{
    for (int i = 0; i < o->n_params; i++) {
        const char *p = o->params[i], *dot = strchr(p, '.'), *eq = strchr(p, '=');
        if (!dot || !eq || dot > eq || dot == p || eq == dot + 1)
            return bad("--param wants POLICY.KEY=VALUE, got '%s'", p);
        size_t k = 0;
        while (k < np && (strlen(pol[k]) != (size_t)(dot - p) || strncmp(pol[k], p, dot - p)))
            k++;
        if (k == np)
            return bad("--param '%s' names a policy that is not among --policies", p);
    }
    return 0;
}

static void build_runs(const cmp_opts_t *o, experiment_t *e, char **pol, size_t np,
                       const long *seeds, size_t ns)
{
    for (size_t i = 0; i < np; i++)
        for (size_t k = 0; k < ns; k++) {
            char name[256];
            snprintf(name, sizeof name, "%s seed %ld", pol[i], seeds[k]);
            exp_run_t *r = exp_add_run(e, name, "simulate");
            exp_arg(r, "--trace");
            exp_arg(r, "%s", o->trace);
            exp_arg(r, "--cluster");
            exp_arg(r, "%s", o->cluster);
            exp_arg(r, "--policy");
            exp_arg(r, "%s", pol[i]);
            exp_arg(r, "--seed");
            exp_arg(r, "%ld", seeds[k]);
            common_args(o, r);
            size_t len = strlen(pol[i]);
            for (int p = 0; p < o->n_params; p++)
                if (!strncmp(o->params[p], pol[i], len) && o->params[p][len] == '.') {
                    exp_arg(r, "--param");
                    exp_arg(r, "%s", o->params[p] + len + 1);
                }
        }
}

static int policy_in(const char *name, char **pol, size_t np)
{
    for (size_t i = 0; i < np; i++)
        if (!strcmp(pol[i], name))
            return 1;
    return 0;
}

/* The baseline: --baseline, else fifo when it runs, else none. */
static const char *pick_baseline(const cmp_opts_t *o, char **pol, size_t np)
{
    if (o->baseline)
        return strcmp(o->baseline, "none") ? o->baseline : NULL;
    for (size_t i = 0; i < np; i++)
        if (!strcmp(pol[i], "fifo"))
            return "fifo";
    return NULL;
}

static int execute(const cmp_opts_t *o, experiment_t *e, const char *baseline)
{
    exp_outcome_t out;
    mls_err_t err = {{0}};
    int rc;
    if (o->slurm) {
        exp_slurm_t so = {o->slurm_dir, o->sbatch, o->n_sbatch, o->wait, 0};
        rc = exp_run_slurm(e, &so, &out, &err);
    } else {
        rc = exp_run_local(e, &out, &err);
    }
    if (rc == 0 && out.submitted)
        return MLS_EXIT_OK;
    if (rc == 0) {
        result_print_opts_t po = {o->format, NULL, 0, 0, baseline != NULL, baseline, RES_BY_ALL};
        rc = exp_show(o->db, &out.merged, RES_BY_ALL, baseline, &po, &err);
    }
    if (rc < 0) {
        fprintf(stderr, "mlsched compare: %s\n", err.msg);
        return MLS_EXIT_FAIL;
    }
    if (out.failed)
        fprintf(stderr, "mlsched compare: %zu of %zu runs FAILED (see above); %ld merged into %s\n",
                out.failed, e->n_runs, out.merged.runs, o->db);
    if (o->plots && out.merged.runs && exp_plots(o->db, o->plots) < 0)
        return MLS_EXIT_FAIL;
    return out.failed ? MLS_EXIT_FAIL : MLS_EXIT_OK;
}

static int run(const cmp_opts_t *o)
{
    char **pol = NULL;
    size_t np = 0, ns = 0;
    long *seeds = NULL;
    const char *badp;
    int rc = 0;
    if (exp_policies(o->policies, &pol, &np, &badp) < 0)
        rc = bad("unknown policy '%s' in --policies (see mlsched policies)", badp);
    else if (exp_seeds(o->seeds, &seeds, &ns) < 0)
        rc = bad("--seeds wants a comma list of integers >= 0, got '%s'", o->seeds);
    else
        rc = check_params(o, pol, np);
    const char *baseline = rc ? NULL : pick_baseline(o, pol, np);
    if (rc == 0 && baseline && !policy_in(baseline, pol, np))
        rc = bad("--baseline '%s' is not among the policies run", baseline);
    if (rc == 0) {
        experiment_t e;
        exp_init(&e, "compare", o->db);
        e.jobs = o->slurm && !o->jobs_set ? 0 : o->jobs; /* Slurm: no throttle */
        e.quiet = o->quiet;
        build_runs(o, &e, pol, np, seeds, ns);
        if (o->dry_run)
            exp_print_plan(stdout, &e, "mlsched");
        else
            rc = execute(o, &e, baseline);
        exp_free(&e);
    }
    exp_split_free(pol, np);
    free(seeds);
    return rc;
}

static int exec_compare(int argc, char **argv)
{
    cmp_opts_t o;
    memset(&o, 0, sizeof o);
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc < 0 ? MLS_EXIT_OK : rc;
    return run(&o);
}

const cmd_entry_t cmd_compare_entry = {"compare", "run every policy on a trace, print one table",
                                       exec_compare};
