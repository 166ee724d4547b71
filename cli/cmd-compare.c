/* cmd-compare.c: `mlsched compare` — every (policy, seed) on one trace and
 * cluster, each as its own `mlsched simulate` process (up to -j at once, or a
 * Slurm job array), merged into the results database in one transaction, then
 * ONE table: the columns the Gavel and Shockwave papers print, the mean over
 * seeds, each metric relative to a baseline policy. */
#include "cli/cmd.h"
#include "cli/experiment_opts.h"
#include "cli/html.h"
#include "cli/plot.h"
#include "sim/experiment.h"
#include "sim/results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cmp_opts {
    const char *cluster, *plots, *plot_policies, *html, *baseline, *label;
    exp_opts_t x; /* the options compare shares with sweep */
} cmp_opts_t;

#define C cmp_opts_t
static const opt_t options[] = {
    OPT_STRING("trace", 't', "FILE", C, x.trace, "canonical trace CSV"),
    OPT_SHARED_CLUSTER(C, cluster, "cluster JSON, bundled name (36v100) or spec (v100=32x1,k80=4x8)"),
    OPT_STRING("policies", 'p', "LIST", C, x.policies, "all (default) or a comma list of policies"),
    OPT_STRING("seeds", 's', "LIST", C, x.seeds, "comma list of seeds (default 1)"),
    OPT_STRING("baseline", 0, "POLICY", C, baseline,
               "relate every metric to this policy (default fifo\n"
               "when it is run; 'none' for no relative values)"),
    OPT_STRING("plots", 0, "DIR", C, plots,
               "then draw the runs' figures (as `mlsched plot`) into DIR"),
    OPT_STRING("plot-policies", 0, "LIST", C, plot_policies,
               "only these policies in the --plots figures (names\n"
               "or patterns; the HTML report has them all)"),
    OPT_STRING("html", 0, "DIR", C, html,
               "then write the runs' HTML report (as `mlsched report\n"
               "--html`) into DIR"),
    OPT_STRING("label", 0, "TEXT", C, label, "stored with every run (passed to every simulate)"),
    OPT_INCLUDE(C, x, exp_opts_table),
    OPT_END_ROW};
#undef C

static const opt_cmd_t command = {
    .who = "compare",
    .usage = "--trace FILE --cluster FILE|SPEC [options]",
    .about = "Runs every policy (and seed) on one trace and cluster, each as its own\n"
             "`mlsched simulate` process, merges the runs into the results database in one\n"
             "transaction, and prints one comparison table (mean over seeds; each metric\n"
             "relative to the baseline policy as (Nx)).",
    .opts = options,
    .footer = "Progress goes to stderr (redrawn in place on a terminal). A run that fails is\n"
              "reported with its stderr; the others are still merged.\n"
              "Exit status: 0 all runs done, 1 a run failed (or the experiment), 2 usage.",
};

static int bad(const char *fmt, const char *arg)
{
    return cmd_usage_error("compare", fmt, arg);
}

static int parse_args(int argc, char **argv, cmp_opts_t *o)
{
    exp_opts_init(&o->x, "1");
    int rc = opt_parse_only(&command, o, argc, argv);
    if (rc)
        return rc;
    if (!o->x.trace || !o->cluster)
        return bad("%s", "--trace and --cluster are required");
    return 0;
}

/* Adds the options every run shares. */
static void common_args(const cmp_opts_t *o, exp_run_t *r)
{
    const char *flag[] = {"--throughputs", "--round",       "--cadence", "--restart-overhead",
                          "--placement",   "--spread-rate", "--measure", "--label"};
    const exp_opts_t *x = &o->x;
    const char *val[] = {x->throughputs, x->round,       x->cadence, x->overhead,
                         x->placement,   x->spread_rate, x->measure, o->label};
    exp_opts_like(x, r);
    for (int i = 0; i < 8; i++)
        if (val[i]) {
            exp_arg(r, "%s", flag[i]);
            exp_arg(r, "%s", val[i]);
        }
}

/* --param POLICY.KEY=VALUE: checks every one names a policy that runs. */
static int check_params(const cmp_opts_t *o, char **pol, size_t np)
{
    for (size_t i = 0; i < o->x.params.n; i++) {
        const char *p = o->x.params.v[i], *dot = strchr(p, '.'), *eq = strchr(p, '=');
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
            exp_arg(r, "%s", o->x.trace);
            exp_arg(r, "--cluster");
            exp_arg(r, "%s", o->cluster);
            exp_arg(r, "--policy");
            exp_arg(r, "%s", pol[i]);
            exp_arg(r, "--seed");
            exp_arg(r, "%ld", seeds[k]);
            common_args(o, r);
            exp_opts_policy_params(&o->x, pol[i], r);
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
    result_print_opts_t po = {o->x.format, NULL, 0, 0, baseline != NULL, baseline, RES_BY_ALL};
    merge_stats_t merged;
    int rc = exp_opts_execute(&o->x, e, RES_BY_ALL, baseline, &po, &merged);
    if (!merged.runs)
        return rc;
    mls_err_t err = {{0}};
    result_filter_t f = {0};
    f.run_lo = merged.first_run; /* this experiment's runs, not older ones in the db */
    f.run_hi = merged.last_run;
    if (o->plots) {
        plot_req_t pr = {o->x.db, o->plots, "png", baseline, o->plot_policies, f, 0, 0};
        if (plot_draw(&pr, &err) < 0) {
            fprintf(stderr, "mlsched compare: figures: %s\n", err.msg);
            return MLS_EXIT_FAIL;
        }
        printf("figures in %s/\n", o->plots);
    }
    html_req_t h = {o->x.db, o->html, baseline, f, RES_BY_ALL, NULL};
    if (o->html && html_report(&h, &err) < 0) {
        fprintf(stderr, "mlsched compare: HTML report: %s\n", err.msg);
        return MLS_EXIT_FAIL;
    }
    return rc;
}

static int run(const cmp_opts_t *o)
{
    char **pol = NULL;
    size_t np = 0, ns = 0;
    long *seeds = NULL;
    const char *badp;
    int rc = 0;
    if (exp_policies(o->x.policies, &pol, &np, &badp) < 0)
        rc = bad("unknown policy '%s' in --policies (see mlsched policies)", badp);
    else if (exp_seeds(o->x.seeds, &seeds, &ns) < 0)
        rc = bad("--seeds wants a comma list of integers >= 0, got '%s'", o->x.seeds);
    else
        rc = check_params(o, pol, np);
    const char *baseline = rc ? NULL : pick_baseline(o, pol, np);
    if (rc == 0 && baseline && !policy_in(baseline, pol, np))
        rc = bad("--baseline '%s' is not among the policies run", baseline);
    if (rc == 0) {
        experiment_t e;
        exp_init(&e, "compare", o->x.db);
        exp_opts_apply(&o->x, &e);
        build_runs(o, &e, pol, np, seeds, ns);
        if (o->x.dry_run)
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
