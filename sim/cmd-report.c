/* cmd-report.c: `mlsched report` — the comparison table of the runs already
 * in a results database: grouped (a policy's seeds averaged), related to a
 * baseline policy, filtered by policy/trace/cluster/label patterns, printed
 * as aligned text, markdown, CSV or JSON (see results.h). */
#include "cmd.h"
#include "experiment.h"
#include "experiment_opts.h"
#include "results.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rep_opts {
    const char *db, *baseline;
    result_filter_t f;
    result_print_opts_t po;
    unsigned by;
    int metrics[RES_N_METRICS];
} rep_opts_t;

static void usage(FILE *out)
{
    fprintf(out, "usage: mlsched report --db FILE [options]\n"
                 "\n"
                 "Prints the comparison table of the runs in a results database: one row per\n"
                 "policy (and parameters, trace, cluster, label), the mean over its seeds, each\n"
                 "metric relative to the baseline policy of the same trace/cluster/label.\n"
                 "\n"
                 "  -d, --db FILE          results database (default results/results.db)\n"
                 "  -f, --format FMT       table (default), markdown, csv or json\n"
                 "  -b, --baseline POLICY  relate metrics to this policy (default fifo when\n"
                 "                         present; 'none' for no relative values)\n"
                 "      --policy PATTERN   only these policies (patterns: * ? [...])\n"
                 "      --trace PATTERN    only runs of these trace paths\n"
                 "      --cluster PATTERN  only runs on these clusters\n"
                 "      --label PATTERN    only runs with these labels\n"
                 "      --runs LO:HI       only run ids in [LO, HI]\n"
                 "      --by FIELDS        what tells groups apart besides the policy: a comma\n"
                 "                         list of trace, cluster, label, params, or 'all'\n"
                 "                         (default); 'label' averages a sweep's generated\n"
                 "                         traces (one per seed) together\n"
                 "      --ci               show the 95%% confidence interval over seeds\n"
                 "      --metrics LIST     columns: keys of run_summary (avg_jct, p50_jct,\n"
                 "                         p95_jct, p99_jct, makespan, avg_queue_delay,\n"
                 "                         unfair_fraction, worst_ftf, jain_index, utilization,\n"
                 "                         decision_time_mean) or 'all'\n"
                 "  -h, --help             this text\n"
                 "\n"
                 "Exit status: 0 printed, 1 the database cannot be read, 2 usage.\n");
}

static int bad(const char *fmt, const char *arg)
{
    return cmd_usage_error("report", fmt, arg);
}

static int parse_by(const char *s, unsigned *by)
{
    if (!strcmp(s, "all")) {
        *by = RES_BY_ALL;
        return 0;
    }
    static const char *const names[] = {"trace", "cluster", "label", "params"};
    char **items;
    size_t n;
    int rc = exp_split(s, ',', &items, &n);
    *by = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        int k = 0;
        while (k < 4 && strcmp(items[i], names[k]))
            k++;
        if (k == 4)
            rc = -1;
        else
            *by |= 1u << k;
    }
    exp_split_free(items, n);
    return rc;
}

static int parse_metrics(const char *s, rep_opts_t *o)
{
    if (!strcmp(s, "all")) {
        for (int m = 0; m < RES_N_METRICS; m++)
            o->metrics[m] = m;
        o->po.n_metrics = RES_N_METRICS;
        o->po.metrics = o->metrics;
        return 0;
    }
    char **items;
    size_t n;
    int rc = exp_split(s, ',', &items, &n);
    for (size_t i = 0; i < n && rc == 0; i++)
        if (i >= RES_N_METRICS || (o->metrics[i] = results_metric_find(items[i])) < 0)
            rc = -1;
    o->po.n_metrics = n;
    o->po.metrics = o->metrics;
    exp_split_free(items, n);
    return rc;
}

static int parse_runs(const char *s, result_filter_t *f)
{
    long lo, hi;
    char extra;
    if (sscanf(s, "%ld:%ld%c", &lo, &hi, &extra) != 2 || lo < 1 || hi < lo)
        return -1;
    f->run_lo = lo;
    f->run_hi = hi;
    return 0;
}

static int parse_args(int argc, char **argv, rep_opts_t *o)
{
    enum { O_POL = 256, O_TRACE, O_CLUSTER, O_LABEL, O_RUNS, O_BY, O_CI, O_MET };
    static const struct option lo[] = {{"db", required_argument, 0, 'd'},
                                       {"format", required_argument, 0, 'f'},
                                       {"baseline", required_argument, 0, 'b'},
                                       {"policy", required_argument, 0, O_POL},
                                       {"trace", required_argument, 0, O_TRACE},
                                       {"cluster", required_argument, 0, O_CLUSTER},
                                       {"label", required_argument, 0, O_LABEL},
                                       {"runs", required_argument, 0, O_RUNS},
                                       {"by", required_argument, 0, O_BY},
                                       {"ci", no_argument, 0, O_CI},
                                       {"metrics", required_argument, 0, O_MET},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    o->db = "results/results.db";
    o->by = RES_BY_ALL;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "d:f:b:h", lo, NULL)) != -1) {
        switch (c) {
        case 'd':
            o->db = optarg;
            break;
        case 'f':
            if (exp_opts_format(optarg, &o->po.format, "report") != 0)
                return MLS_EXIT_USAGE;
            break;
        case 'b':
            o->baseline = optarg;
            break;
        case O_POL:
            o->f.policy = optarg;
            break;
        case O_TRACE:
            o->f.trace = optarg;
            break;
        case O_CLUSTER:
            o->f.cluster = optarg;
            break;
        case O_LABEL:
            o->f.label = optarg;
            break;
        case O_RUNS:
            if (parse_runs(optarg, &o->f) < 0)
                return bad("--runs wants LO:HI with 1 <= LO <= HI, got '%s'", optarg);
            break;
        case O_BY:
            if (parse_by(optarg, &o->by) < 0)
                return bad("--by wants trace, cluster, label, params or all, got '%s'", optarg);
            break;
        case O_CI:
            o->po.show_ci = 1;
            break;
        case O_MET:
            if (parse_metrics(optarg, o) < 0)
                return bad("--metrics: unknown metric in '%s'", optarg);
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
    return 0;
}

/* --baseline, else fifo when some run is fifo, else none. */
static const char *pick_baseline(const rep_opts_t *o, const result_set_t *rs)
{
    if (o->baseline)
        return strcmp(o->baseline, "none") ? o->baseline : NULL;
    for (size_t i = 0; i < rs->n; i++)
        if (!strcmp(rs->rows[i].policy, "fifo"))
            return "fifo";
    return NULL;
}

static int exec_report(int argc, char **argv)
{
    rep_opts_t o;
    memset(&o, 0, sizeof o);
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc < 0 ? MLS_EXIT_OK : rc;
    result_set_t rs;
    mls_err_t err = {{0}};
    if (results_load(o.db, &o.f, &rs, &err) < 0) {
        fprintf(stderr, "mlsched report: %s\n", err.msg);
        return MLS_EXIT_FAIL;
    }
    if (rs.n == 0) {
        fprintf(stderr, "mlsched report: %s: no runs match\n", o.db);
        results_free(&rs);
        return MLS_EXIT_FAIL;
    }
    const char *baseline = pick_baseline(&o, &rs);
    result_group_t *g;
    size_t ng;
    results_group(&rs, o.by, baseline, &g, &ng);
    o.po.baseline = baseline;
    o.po.show_rel = baseline != NULL;
    o.po.by = o.by;
    results_print(stdout, g, ng, &o.po);
    free(g);
    results_free(&rs);
    return MLS_EXIT_OK;
}

const cmd_entry_t cmd_report_entry = {"report", "print the comparison table of a results database",
                                      exec_report};
