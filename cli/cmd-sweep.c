/* cmd-sweep.c: `mlsched sweep` — the same comparison over a grid (arrival
 * rates, clusters, engine settings, policy parameters) × seeds, as in Gavel's
 * continuous-load sweeps. Each grid point is a label ("rate=4;round=360")
 * stored with its runs; the table gives, per grid point and policy, the mean
 * and the 95% confidence interval over seeds (Student t).
 *
 * Axes: --rates (one generated trace per rate and seed, `mlsched trace
 * generate`), --clusters (when more than one), and every --grid KEY=v1,v2
 * where KEY is an engine setting (round, restart-overhead, cadence, placement,
 * spread-rate, measure)
 * or POLICY.KEY (a parameter of that policy only: other policies do not
 * multiply along it). The runs are enumerated with a mixed-radix counter. */
#include "cli/cmd.h"
#include "cli/experiment_opts.h"
#include "policies/policy.h"
#include "sim/experiment.h"
#include "sim/results.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_AXES 16

typedef struct axis {
    char key[128];    /* "round", or "las.quantum" */
    char *policy;     /* NULL: an engine setting; else the policy it belongs to */
    const char *pkey; /* the policy's key (inside key) */
    char **values;
    size_t n;
} axis_t;

typedef struct sweep_opts {
    const char *trace_gen, *rates, *clusters, *trace_dir, *metrics;
    const char *cluster_list[MAX_AXES];
    size_t n_cluster_list;
    axis_t axes[MAX_AXES];
    size_t n_axes;
    exp_opts_t x; /* the options sweep shares with compare */
} sweep_opts_t;

/* Everything derived from the options. */
typedef struct sweep_plan {
    char **pol, **rates, **clusters, **gen;
    size_t np, nr, nc, ngen;
    long *seeds;
    size_t ns;
    char trace_dir[PATH_MAX];
    int metrics[RES_N_METRICS];
    size_t n_metrics;
} sweep_plan_t;

static int bad(const char *fmt, const char *arg)
{
    return cmd_usage_error("sweep", fmt, arg);
}

static const char *const engine_keys[] = {"round",       "restart-overhead", "cadence", "placement",
                                           "spread-rate", "measure",          NULL};

static int add_axis(sweep_opts_t *o, const char *spec)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof o->axes[0].key)
        return bad("--grid wants KEY=V1,V2,..., got '%s'", spec);
    if (o->n_axes >= MAX_AXES)
        return bad("%s", "too many --grid axes");
    axis_t *a = &o->axes[o->n_axes];
    memset(a, 0, sizeof *a);
    memcpy(a->key, spec, (size_t)(eq - spec));
    if (exp_split(eq + 1, ',', &a->values, &a->n) < 0) {
        exp_split_free(a->values, a->n);
        return bad("--grid '%s' has an empty value", spec);
    }
    o->n_axes++;
    char *dot = strchr(a->key, '.');
    if (dot) {
        a->policy = xstrdup(a->key);
        a->policy[dot - a->key] = '\0';
        a->pkey = dot + 1;
        if (!*a->pkey || !policy_find(a->policy))
            return bad("--grid '%s': not POLICY.KEY with a known policy", spec);
        return 0;
    }
    for (int k = 0; engine_keys[k]; k++)
        if (!strcmp(a->key, engine_keys[k]))
            return 0;
    return bad("--grid key '%s' is not round, restart-overhead, cadence, placement, "
               "spread-rate, measure or POLICY.KEY",
               a->key);
}

/* -c, --cluster (repeatable: an axis). */
static int add_cluster(void *base, size_t off, const char *arg, const char *who)
{
    sweep_opts_t *o = base;
    (void)off;
    (void)who;
    if (o->n_cluster_list >= MAX_AXES)
        return bad("%s", "too many --cluster");
    o->cluster_list[o->n_cluster_list++] = arg;
    return 0;
}

static int grid_call(void *base, size_t off, const char *arg, const char *who)
{
    (void)off;
    (void)who;
    return add_axis(base, arg);
}

#define W sweep_opts_t
static const opt_t options[] = {
    OPT_STRING("trace", 't', "FILE", W, x.trace, "one trace for every run, or:"),
    OPT_STRING("trace-gen", 0, "ARGS", W, trace_gen,
               "`mlsched trace generate` arguments (e.g. \"--jobs 2000\n"
               "--multi-gpu\"); one trace per rate and seed"),
    OPT_STRING("rates", 0, "LIST", W, rates, "arrival rates, jobs/hour (e.g. 2,4,6,8): an axis"),
    OPT_STRING("trace-dir", 0, "DIR", W, trace_dir,
               "where generated traces go (default: sweep-traces/\nbeside the database)"),
    OPT_CALL("cluster", 'c', "FILE|SPEC", W, cluster_list, add_cluster, NULL,
             "the cluster (repeat for a cluster axis)"),
    OPT_STRING("clusters", 0, "LIST", W, clusters,
               "clusters separated by ';' (or ',' when no item is an\ninline spec)"),
    OPT_STRING("policies", 'p', "LIST", W, x.policies, "all (default) or a comma list"),
    OPT_STRING("seeds", 's', "LIST", W, x.seeds, "seeds (default 0,1,2)"),
    OPT_CALL("grid", 'g', "KEY=V1,V2...", W, axes, grid_call, NULL,
             "an axis: round, restart-overhead, cadence, placement,\n"
             "spread-rate, measure (values split on ','), or\n"
             "POLICY.KEY (repeatable)"),
    OPT_STRING("metrics", 0, "LIST", W, metrics,
               "more columns besides avg_jct (keys of run_summary,\n"
               "see mlsched report --help) or 'all'"),
    OPT_INCLUDE(W, x, exp_opts_table),
    OPT_END_ROW};
#undef W

static const opt_cmd_t command = {
    .who = "sweep",
    .usage = "(--trace FILE | --trace-gen ARGS --rates LIST)\n"
             "                     --cluster FILE|SPEC [options]",
    .about = "Runs every policy over a grid of settings and seeds (each run its own\n"
             "`mlsched simulate` process), labels each run with its grid point, merges them\n"
             "into the database in one transaction, and prints per grid point and policy the\n"
             "mean and 95% confidence interval over seeds.",
    .opts = options,
    .footer = "Exit status: 0 all runs done, 1 a run failed (or the sweep), 2 usage.",
};

static int parse_args(int argc, char **argv, sweep_opts_t *o)
{
    exp_opts_init(&o->x, "0,1,2");
    int rc = opt_parse_only(&command, o, argc, argv);
    if (rc)
        return rc;
    if (!o->x.trace == !o->trace_gen)
        return bad("%s", "give either --trace or --trace-gen (with --rates)");
    if (!o->trace_gen != !o->rates)
        return bad("%s", "--trace-gen and --rates go together");
    if (!o->clusters && !o->n_cluster_list)
        return bad("%s", "--cluster (or --clusters) is required");
    return 0;
}

static void free_opts(sweep_opts_t *o)
{
    for (size_t i = 0; i < o->n_axes; i++) {
        exp_split_free(o->axes[i].values, o->axes[i].n);
        free(o->axes[i].policy);
    }
}

static void free_sweep_plan(sweep_plan_t *p)
{
    exp_split_free(p->pol, p->np);
    exp_split_free(p->rates, p->nr);
    exp_split_free(p->clusters, p->nc);
    exp_split_free(p->gen, p->ngen);
    free(p->seeds);
}

/* Splits the --trace-gen string on blanks. */
static void split_words(const char *s, char ***out, size_t *n)
{
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    while (*s) {
        s += strspn(s, " \t");
        size_t len = strcspn(s, " \t");
        if (!len)
            break;
        xgrow((void **)out, &cap, *n + 1, sizeof **out);
        (*out)[*n] = xmalloc(len + 1);
        memcpy((*out)[*n], s, len);
        (*out)[(*n)++][len] = '\0';
        s += len;
    }
}

static int plan_clusters(const sweep_opts_t *o, sweep_plan_t *p)
{
    if (!o->clusters) {
        p->clusters = xcalloc(o->n_cluster_list + 1, sizeof *p->clusters);
        for (size_t i = 0; i < o->n_cluster_list; i++)
            p->clusters[p->nc++] = xstrdup(o->cluster_list[i]);
        return 0;
    }
    char sep = strchr(o->clusters, ';') || strchr(o->clusters, '=') ? ';' : ',';
    if (exp_split(o->clusters, sep, &p->clusters, &p->nc) < 0)
        return bad("--clusters '%s' has an empty item", o->clusters);
    return 0;
}

static int plan_rates(const sweep_opts_t *o, sweep_plan_t *p)
{
    if (!o->rates)
        return 0;
    if (exp_split(o->rates, ',', &p->rates, &p->nr) < 0)
        return bad("--rates '%s' has an empty item", o->rates);
    for (size_t i = 0; i < p->nr; i++) {
        double r;
        if (mls_parse_double(p->rates[i], &r) < 0 || !(r > 0) || !isfinite(r))
            return bad("--rates wants jobs/hour > 0, got '%s'", p->rates[i]);
    }
    split_words(o->trace_gen, &p->gen, &p->ngen);
    if (o->trace_dir)
        snprintf(p->trace_dir, sizeof p->trace_dir, "%s", o->trace_dir);
    else {
        snprintf(p->trace_dir, sizeof p->trace_dir, "%s", o->x.db);
        char *slash = strrchr(p->trace_dir, '/');
        snprintf(slash ? slash + 1 : p->trace_dir,
                 sizeof p->trace_dir - (size_t)(slash ? slash + 1 - p->trace_dir : 0),
                 "sweep-traces");
    }
    return 0;
}

static int plan_metrics(const sweep_opts_t *o, sweep_plan_t *p)
{
    p->metrics[p->n_metrics++] = RES_AVG_JCT;
    if (!o->metrics)
        return 0;
    if (!strcmp(o->metrics, "all")) {
        for (int m = 1; m < RES_N_METRICS; m++)
            p->metrics[p->n_metrics++] = m;
        return 0;
    }
    char **items;
    size_t n;
    int rc = exp_split(o->metrics, ',', &items, &n) < 0;
    for (size_t i = 0; i < n && !rc; i++) {
        int m = results_metric_find(items[i]);
        if (m < 0) {
            rc = bad("--metrics: unknown metric '%s' (see mlsched report --help)", items[i]);
            break;
        }
        if (m != RES_AVG_JCT && p->n_metrics < RES_N_METRICS)
            p->metrics[p->n_metrics++] = m;
    }
    exp_split_free(items, n);
    return rc ? MLS_EXIT_USAGE : 0;
}

static int make_sweep_plan(const sweep_opts_t *o, sweep_plan_t *p)
{
    const char *badp;
    int rc = 0;
    if (exp_policies(o->x.policies, &p->pol, &p->np, &badp) < 0)
        return bad("unknown policy '%s' in --policies (see mlsched policies)", badp);
    if (exp_seeds(o->x.seeds, &p->seeds, &p->ns) < 0)
        return bad("--seeds wants a comma list of integers >= 0, got '%s'", o->x.seeds);
    if ((rc = plan_clusters(o, p)) || (rc = plan_rates(o, p)) || (rc = plan_metrics(o, p)))
        return rc;
    for (size_t i = 0; i < o->x.params.n; i++) {
        const char *dot = strchr(o->x.params.v[i], '.'), *eq = strchr(o->x.params.v[i], '=');
        if (!dot || !eq || dot > eq)
            return bad("--param wants POLICY.KEY=VALUE, got '%s'", o->x.params.v[i]);
    }
    return 0;
}

/* ---- enumerating the runs ------------------------------------------------ */

/* One point of the grid as it is being built. */
typedef struct point {
    size_t rate, cluster, seed;
    size_t idx[MAX_AXES]; /* value index per axis */
} point_t;

static void trace_path(const sweep_plan_t *p, size_t rate, long seed, char *buf, size_t n)
{
    snprintf(buf, n, "%s/rate-%s-seed-%ld.csv", p->trace_dir, p->rates[rate], seed);
}

static void add_prep(experiment_t *e, const sweep_plan_t *p)
{
    for (size_t r = 0; r < p->nr; r++)
        for (size_t s = 0; s < p->ns; s++) {
            char name[128], path[PATH_MAX + 64];
            snprintf(name, sizeof name, "trace rate=%s seed=%ld", p->rates[r], p->seeds[s]);
            trace_path(p, r, p->seeds[s], path, sizeof path);
            exp_run_t *x = exp_add_prep(e, name, "trace");
            exp_arg(x, "generate");
            for (size_t k = 0; k < p->ngen; k++)
                exp_arg(x, "%s", p->gen[k]);
            exp_arg(x, "--rate");
            exp_arg(x, "%s/h", p->rates[r]);
            exp_arg(x, "--seed");
            exp_arg(x, "%ld", p->seeds[s]);
            exp_arg(x, "-o");
            exp_arg(x, "%s", path);
        }
}

/* Does axis a apply to policy `pol`? Engine axes apply to all. */
static int applies(const axis_t *a, const char *pol)
{
    return !a->policy || !strcmp(a->policy, pol);
}

static void append_label(char *label, size_t n, const char *key, const char *val)
{
    size_t len = strlen(label);
    snprintf(label + len, n - len, "%s%s=%s", len ? ";" : "", key, val);
}

static void make_label(const sweep_opts_t *o, const sweep_plan_t *p, const point_t *pt,
                       const char *pol, char *label, size_t n)
{
    label[0] = '\0';
    if (p->nr)
        append_label(label, n, "rate", p->rates[pt->rate]);
    if (p->nc > 1)
        append_label(label, n, "cluster", p->clusters[pt->cluster]);
    for (size_t k = 0; k < o->n_axes; k++)
        if (applies(&o->axes[k], pol))
            append_label(label, n, o->axes[k].key, o->axes[k].values[pt->idx[k]]);
}

/* The value of engine setting `key`: the grid's, else the fixed option. */
static const char *setting(const sweep_opts_t *o, const point_t *pt, const char *key,
                           const char *fixed)
{
    for (size_t k = 0; k < o->n_axes; k++)
        if (!o->axes[k].policy && !strcmp(o->axes[k].key, key))
            return o->axes[k].values[pt->idx[k]];
    return fixed;
}

static void run_args(const sweep_opts_t *o, const sweep_plan_t *p, const point_t *pt,
                     const char *pol, exp_run_t *r)
{
    char path[PATH_MAX + 64];
    long seed = p->seeds[pt->seed];
    if (p->nr)
        trace_path(p, pt->rate, seed, path, sizeof path);
    exp_arg(r, "--trace");
    exp_arg(r, "%s", p->nr ? path : o->x.trace);
    exp_arg(r, "--cluster");
    exp_arg(r, "%s", p->clusters[pt->cluster]);
    exp_arg(r, "--policy");
    exp_arg(r, "%s", pol);
    exp_arg(r, "--seed");
    exp_arg(r, "%ld", seed);
    const char *keys[] = {"round",     "restart-overhead", "cadence",
                          "placement", "spread-rate",      "measure"};
    const char *fixed[] = {o->x.round,     o->x.overhead,    o->x.cadence,
                           o->x.placement, o->x.spread_rate, o->x.measure};
    exp_opts_like(&o->x, r);
    for (int k = 0; k < 6; k++) {
        const char *v = setting(o, pt, keys[k], fixed[k]);
        if (v) {
            exp_arg(r, "--%s", keys[k]);
            exp_arg(r, "%s", v);
        }
    }
    if (o->x.throughputs) {
        exp_arg(r, "--throughputs");
        exp_arg(r, "%s", o->x.throughputs);
    }
    exp_opts_policy_params(&o->x, pol, r);
    for (size_t k = 0; k < o->n_axes; k++)
        if (o->axes[k].policy && !strcmp(o->axes[k].policy, pol)) {
            exp_arg(r, "--param");
            exp_arg(r, "%s=%s", o->axes[k].pkey, o->axes[k].values[pt->idx[k]]);
        }
}

/* Advances the mixed-radix counter over the axes that apply to pol; 0 at the end. */
static int next_point(const sweep_opts_t *o, const char *pol, point_t *pt)
{
    for (size_t k = 0; k < o->n_axes; k++) {
        if (!applies(&o->axes[k], pol))
            continue;
        if (++pt->idx[k] < o->axes[k].n)
            return 1;
        pt->idx[k] = 0;
    }
    return 0;
}

static void add_runs(experiment_t *e, const sweep_opts_t *o, const sweep_plan_t *p)
{
    size_t nr = p->nr ? p->nr : 1;
    for (size_t rate = 0; rate < nr; rate++)
        for (size_t c = 0; c < p->nc; c++)
            for (size_t i = 0; i < p->np; i++) {
                point_t pt;
                memset(&pt, 0, sizeof pt);
                pt.rate = rate;
                pt.cluster = c;
                do {
                    char label[1024], name[1200];
                    make_label(o, p, &pt, p->pol[i], label, sizeof label);
                    for (pt.seed = 0; pt.seed < p->ns; pt.seed++) {
                        snprintf(name, sizeof name, "%s %s seed %ld", label, p->pol[i],
                                 p->seeds[pt.seed]);
                        exp_run_t *r = exp_add_run(e, name, "simulate");
                        run_args(o, p, &pt, p->pol[i], r);
                        if (label[0]) {
                            exp_arg(r, "--label");
                            exp_arg(r, "%s", label);
                        }
                    }
                } while (next_point(o, p->pol[i], &pt));
            }
}

static int execute(const sweep_opts_t *o, const sweep_plan_t *p, experiment_t *e)
{
    if (p->nr && mkdir(p->trace_dir, 0777) < 0 && errno != EEXIST) {
        fprintf(stderr, "mlsched sweep: %s: cannot create the trace folder: %s\n", p->trace_dir,
                strerror(errno));
        return MLS_EXIT_FAIL;
    }
    unsigned by = RES_BY_LABEL | RES_BY_CLUSTER | RES_BY_PARAMS;
    result_print_opts_t po = {o->x.format, p->metrics, p->n_metrics, 1, 0, NULL, by};
    merge_stats_t merged;
    return exp_opts_execute(&o->x, e, by, NULL, &po, &merged);
}

static int exec_sweep(int argc, char **argv)
{
    sweep_opts_t o;
    sweep_plan_t p;
    memset(&o, 0, sizeof o);
    memset(&p, 0, sizeof p);
    int rc = parse_args(argc, argv, &o);
    if (rc == 0)
        rc = make_sweep_plan(&o, &p);
    if (rc == 0) {
        experiment_t e;
        exp_init(&e, "sweep", o.x.db);
        exp_opts_apply(&o.x, &e);
        add_prep(&e, &p);
        add_runs(&e, &o, &p);
        if (o.x.dry_run)
            exp_print_plan(stdout, &e, "mlsched");
        else
            rc = execute(&o, &p, &e);
        exp_free(&e);
    }
    free_sweep_plan(&p);
    free_opts(&o);
    return rc < 0 ? MLS_EXIT_OK : rc;
}

const cmd_entry_t cmd_sweep_entry = {"sweep", "run policies over a grid x seeds, with CIs",
                                     exec_sweep};
