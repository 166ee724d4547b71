/* cmd-report.c: `mlsched report` — the comparison table of the runs already
 * in a results database: grouped (a policy's seeds averaged), related to a
 * baseline policy, filtered by policy/trace/cluster/label patterns, printed
 * as aligned text, markdown, CSV or JSON (see results.h); with --html, also
 * one self-contained page with the table, the figures and diagnostics
 * (html.h). */
#include "cli/cmd.h"
#include "cli/dbinput.h"
#include "cli/experiment_opts.h"
#include "cli/html.h"
#include "sim/experiment.h"
#include "sim/results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rep_opts {
    opt_list_t dbs;
    const char *db, *baseline, *html;
    result_filter_t f;
    result_print_opts_t po;
    unsigned by;
    int metrics[RES_N_METRICS];
} rep_opts_t;

static int parse_by(void *base, size_t off, const char *s, const char *who)
{
    unsigned *by = (unsigned *)((char *)base + off);
    (void)who;
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

static int parse_metrics(void *base, size_t off, const char *s, const char *who)
{
    rep_opts_t *o = base;
    (void)off;
    (void)who;
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

#define R rep_opts_t
static const opt_t options[] = {
    OPT_LIST("db", 'd', "FILE", R, dbs,
             "results database (default results/results.db), or\n"
             "a live state database (`live serve --state`: its\n"
             "run, labelled live); repeat to compare the runs of\n"
             "several in one table"),
    OPT_CALL("format", 'f', "FMT", R, po.format, exp_opts_format_call, NULL,
             "table (default), markdown, csv or json"),
    OPT_STRING("baseline", 'b', "POLICY", R, baseline,
               "relate metrics to this policy (default fifo when\n"
               "present; 'none' for no relative values)"),
    OPT_STRING("policy", 0, "PATTERN", R, f.policy, "only these policies (patterns: * ? [...])"),
    OPT_STRING("trace", 0, "PATTERN", R, f.trace, "only runs of these trace paths"),
    OPT_STRING("cluster", 0, "PATTERN", R, f.cluster, "only runs on these clusters"),
    OPT_STRING("label", 0, "PATTERN", R, f.label, "only runs with these labels"),
    OPT_CALL("runs", 0, "LO:HI", R, f, db_input_parse_runs,
             "--runs wants LO:HI with 1 <= LO <= HI, got '%s'", "only run ids in [LO, HI]"),
    OPT_CALL("by", 0, "FIELDS", R, by, parse_by,
             "--by wants trace, cluster, label, params or all, got '%s'",
             "what tells groups apart besides the policy: a comma\n"
             "list of trace, cluster, label, params, or 'all'\n"
             "(default); 'label' averages a sweep's generated\n"
             "traces (one per seed) together"),
    OPT_STRING("html", 0, "DIR", R, html,
               "also write DIR/index.html: one self-contained page\n"
               "with the table (sortable), every figure (inline\n"
               "SVG), the run parameters and per-run diagnostics"),
    OPT_FLAG("ci", 0, R, po.show_ci, "show the 95% confidence interval over seeds"),
    OPT_CALL("metrics", 0, "LIST", R, metrics, parse_metrics, "--metrics: unknown metric in '%s'",
             "columns: keys of run_summary (avg_jct, p50_jct,\n"
             "p95_jct, p99_jct, makespan, avg_queue_delay,\n"
             "unfair_fraction, worst_ftf, jain_index, utilization,\n"
             "decision_time_mean) or 'all'"),
    OPT_END_ROW};
#undef R

static const opt_cmd_t command = {
    .who = "report",
    .usage = "--db FILE [options]",
    .about = "Prints the comparison table of the runs in a results database: one row per\n"
             "policy (and parameters, trace, cluster, label), the mean over its seeds, each\n"
             "metric relative to the baseline policy of the same trace/cluster/label.",
    .opts = options,
    .footer = "Exit status: 0 printed, 1 the database cannot be read (or the page not\n"
              "written), 2 usage.",
};

static int parse_args(int argc, char **argv, rep_opts_t *o)
{
    o->by = RES_BY_ALL;
    int rc = opt_parse_only(&command, o, argc, argv);
    if (rc == 0 && !o->dbs.n)
        o->dbs.v[o->dbs.n++] = "results/results.db";
    return rc;
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

/* The table of o->db (and the HTML page with --html). */
static int report(rep_opts_t *o, mls_err_t *err)
{
    result_set_t rs;
    if (results_load(o->db, &o->f, &rs, err) < 0)
        return -1;
    if (rs.n == 0) {
        results_free(&rs);
        return mls_fail(err, "%s: no runs match", o->dbs.n == 1 ? o->dbs.v[0] : o->db);
    }
    const char *baseline = pick_baseline(o, &rs);
    result_group_t *g;
    size_t ng;
    results_group(&rs, o->by, baseline, &g, &ng);
    o->po.baseline = baseline;
    o->po.show_rel = baseline != NULL;
    o->po.by = o->by;
    results_print(stdout, g, ng, &o->po);
    free(g);
    results_free(&rs);
    char title[1024] = "";
    for (size_t i = 0; i < o->dbs.n; i++)
        snprintf(title + strlen(title), sizeof title - strlen(title), "%s%s", i ? " + " : "",
                 o->dbs.v[i]);
    html_req_t h = {o->db, o->html, baseline, o->f, o->by, title};
    return o->html ? html_report(&h, err) : 0;
}

static int exec_report(int argc, char **argv)
{
    rep_opts_t o;
    memset(&o, 0, sizeof o);
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc < 0 ? MLS_EXIT_OK : rc;
    mls_err_t err = {{0}};
    db_input_t in;
    if (db_input_open(o.dbs.v, o.dbs.n, &in, &err) < 0) {
        fprintf(stderr, "mlsched report: %s\n", err.msg);
        return MLS_EXIT_FAIL;
    }
    o.db = in.path;
    rc = report(&o, &err);
    if (rc < 0)
        fprintf(stderr, "mlsched report: %s\n", err.msg);
    db_input_close(&in);
    return rc < 0 ? MLS_EXIT_FAIL : MLS_EXIT_OK;
}

const cmd_entry_t cmd_report_entry = {"report", "print the comparison table of a results database",
                                      exec_report};
