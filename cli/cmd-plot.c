/* cmd-plot.c: `mlsched plot` — paper-style figures from a results database.
 *
 * For each figure it writes the data (plain whitespace tables, one block per
 * run, blocks separated by two blank lines as gnuplot's `index` expects) and a
 * copy of the figure's gnuplot script from scripts/plots/ with the variables it
 * needs defined at its top, both beside the figure; then runs gnuplot on it.
 * So `gnuplot DIR/jct_cdf.gp` redraws a figure after a user restyles it. */
#include "cli/cmd.h"
#include "cli/opts.h"
#include "model/datadir.h"
#include "model/util.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct run_row {
    long id;
    char policy[64], title[96], label[128];
    long seed;
    int oracle;
    double avg_jct, makespan, worst_ftf, unfair;
} run_row_t;

typedef struct plot_ctx {
    sqlite3 *db;
    const char *out_dir, *format, *baseline, *label_glob;
    run_row_t *runs;
    size_t n, cap;
    char titles[4096], oracle[1024];
} plot_ctx_t;


static const char *terminal(const char *format)
{
    if (!strcmp(format, "pdf"))
        return "pdfcairo size 3.3in,2.2in font \\\",7\\\"";
    if (!strcmp(format, "svg"))
        return "svg size 660,440 font \\\"sans,11\\\"";
    return "pngcairo size 1000,660 font \\\",14\\\"";
}

static int load_runs(plot_ctx_t *c, mls_err_t *err)
{
    const char *sql = "SELECT r.run_id, r.policy, r.seed, r.oracle, coalesce(r.label, ''),"
                      " s.avg_jct, s.makespan, s.worst_ftf, s.unfair_fraction"
                      " FROM runs r JOIN summary s ON s.run_id = r.run_id"
                      " WHERE ?1 IS NULL OR r.label GLOB ?1 ORDER BY r.policy, r.seed, r.run_id";
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
        return mls_fail(err, "cannot read runs: %s (is this an mlsched results database?)",
                        sqlite3_errmsg(c->db));
    if (c->label_glob)
        sqlite3_bind_text(st, 1, c->label_glob, -1, SQLITE_STATIC);
    while (sqlite3_step(st) == SQLITE_ROW) {
        xgrow((void **)&c->runs, &c->cap, c->n + 1, sizeof *c->runs);
        run_row_t *r = &c->runs[c->n++];
        memset(r, 0, sizeof *r);
        r->id = sqlite3_column_int64(st, 0);
        snprintf(r->policy, sizeof r->policy, "%s", (const char *)sqlite3_column_text(st, 1));
        r->seed = sqlite3_column_int64(st, 2);
        r->oracle = sqlite3_column_int(st, 3);
        snprintf(r->label, sizeof r->label, "%s", (const char *)sqlite3_column_text(st, 4));
        r->avg_jct = sqlite3_column_double(st, 5);
        r->makespan = sqlite3_column_double(st, 6);
        r->worst_ftf = sqlite3_column_double(st, 7);
        r->unfair = sqlite3_column_double(st, 8);
    }
    sqlite3_finalize(st);
    if (!c->n)
        return mls_fail(err, "no runs to plot");
    return 0;
}

/* One line per policy: its first run (the lowest seed) stands for it in the
 * per-run figures, so a figure stays readable with many seeds. */
static int is_first_of_policy(const plot_ctx_t *c, size_t i)
{
    return i == 0 || strcmp(c->runs[i].policy, c->runs[i - 1].policy) != 0;
}

static void make_titles(plot_ctx_t *c)
{
    c->titles[0] = c->oracle[0] = '\0';
    for (size_t i = 0; i < c->n; i++) {
        if (!is_first_of_policy(c, i))
            continue;
        size_t tl = strlen(c->titles), ol = strlen(c->oracle);
        int says_oracle = strstr(c->runs[i].policy, "oracle") != NULL;
        snprintf(c->titles + tl, sizeof c->titles - tl, "%s%s%s", tl ? " " : "",
                 c->runs[i].policy, c->runs[i].oracle && !says_oracle ? "(oracle)" : "");
        snprintf(c->oracle + ol, sizeof c->oracle - ol, "%s%d", ol ? " " : "",
                 c->runs[i].oracle);
    }
}

static int n_policies(const plot_ctx_t *c)
{
    int n = 0;
    for (size_t i = 0; i < c->n; i++)
        n += is_first_of_policy(c, i);
    return n;
}

static FILE *open_out(const plot_ctx_t *c, const char *name, mls_err_t *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", c->out_dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        mls_fail(err, "%s: cannot write: %s", path, strerror(errno));
    return f;
}

/* Writes one block per policy from a query returning columns per row. */
static int write_blocks(plot_ctx_t *c, const char *file, const char *sql, int ncols,
                        mls_err_t *err)
{
    FILE *f = open_out(c, file, err);
    if (!f)
        return -1;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK) {
        fclose(f);
        return mls_fail(err, "query failed: %s", sqlite3_errmsg(c->db));
    }
    for (size_t i = 0; i < c->n; i++) {
        if (!is_first_of_policy(c, i))
            continue;
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, c->runs[i].id);
        fprintf(f, "# %s run %ld\n", c->runs[i].policy, c->runs[i].id);
        long rows = 0, total = 0;
        while (sqlite3_step(st) == SQLITE_ROW) {
            for (int k = 0; k < ncols; k++)
                fprintf(f, "%s%.6g", k ? " " : "", sqlite3_column_double(st, k));
            fputc('\n', f);
            rows++;
        }
        (void)total;
        if (!rows) /* gnuplot needs a point per block */
            fprintf(f, "%s\n", ncols == 2 ? "NaN NaN" : "NaN NaN NaN");
        fprintf(f, "\n\n");
    }
    sqlite3_finalize(st);
    return fclose(f) == 0 ? 0 : mls_fail(err, "%s/%s: write error", c->out_dir, file);
}

/* The last non-empty line of a file, trimmed (a static buffer), or "no message". */
static const char *last_line(const char *path)
{
    static char line[512];
    char buf[512];
    FILE *f = fopen(path, "r");
    snprintf(line, sizeof line, "no message");
    while (f && fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\r\n")] = '\0';
        if (buf[strspn(buf, " \t^")])
            snprintf(line, sizeof line, "%s", buf + strspn(buf, " \t"));
    }
    if (f)
        fclose(f);
    return line;
}

static int run_gnuplot(const plot_ctx_t *c, const char *figure, const char *vars,
                       mls_err_t *err)
{
    char src[4096], dst[4096], out[4096];
    char name[64];
    snprintf(name, sizeof name, "%s.gp", figure);
    mls_data_find(MLS_DATA_PLOTS, name, src, sizeof src);
    snprintf(dst, sizeof dst, "%s/%s.gp", c->out_dir, figure);
    snprintf(out, sizeof out, "%s.%s", figure, c->format);
    char *body = mls_read_file(src, err);
    if (!body)
        return -1;
    FILE *f = fopen(dst, "w");
    if (!f) {
        free(body);
        return mls_fail(err, "%s: cannot write: %s", dst, strerror(errno));
    }
    fprintf(f, "# Written by mlsched plot; edit the style below and run: gnuplot %s.gp\n"
               "term = \"%s\"\nout = \"%s\"\n%s\n%s",
            figure, terminal(c->format), out, vars, body);
    fclose(f);
    free(body);
    char log[4200];
    snprintf(log, sizeof log, "%s/%s.log", c->out_dir, figure);
    pid_t pid = fork();
    if (pid == 0) {
        if (chdir(c->out_dir) != 0)
            _exit(126);
        char gp[4200], lg[4200];
        snprintf(gp, sizeof gp, "%s.gp", figure);
        snprintf(lg, sizeof lg, "%s.log", figure);
        if (!freopen(lg, "w", stderr))
            _exit(126);
        execlp("gnuplot", "gnuplot", gp, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        return mls_fail(err, "gnuplot not found: install the Debian package gnuplot-nox");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        /* one figure gnuplot cannot draw (e.g. no valid point) is skipped with
         * its reason; the others and the exit status are about the runs */
        printf("plot: %s skipped: gnuplot could not draw it: %s (script %s)\n", figure,
               last_line(log), dst);
        return 0;
    }
    unlink(log);
    printf("plot: %s/%s\n", c->out_dir, out);
    return 0;
}

static int fig_cdfs(plot_ctx_t *c, mls_err_t *err)
{
    char vars[8192];
    snprintf(vars, sizeof vars, "datafile = \"%%s\"\ntitles = \"%s\"\noracle = \"%s\"\nnruns = %d",
             c->titles, c->oracle, n_policies(c));
    char v1[8300], v2[8300];
    snprintf(v1, sizeof v1, vars, "jct_cdf.dat");
    snprintf(v2, sizeof v2, vars, "ftf_cdf.dat");
    const char *jct = "SELECT jct / 3600.0, (row_number() OVER (ORDER BY jct)) * 1.0 /"
                      " count(*) OVER () FROM jobs WHERE run_id = ?1 AND measured = 1 AND"
                      " jct IS NOT NULL ORDER BY jct";
    const char *ftf = "SELECT ftf_rho, (row_number() OVER (ORDER BY ftf_rho)) * 1.0 /"
                      " count(*) OVER () FROM jobs WHERE run_id = ?1 AND measured = 1 AND"
                      " ftf_rho IS NOT NULL ORDER BY ftf_rho";
    const char *tl = "SELECT t / 3600.0, 100.0 * utilization, queued_jobs FROM timeline"
                     " WHERE run_id = ?1 ORDER BY t";
    char v3[8300];
    snprintf(v3, sizeof v3, vars, "timeline.dat");
    if (write_blocks(c, "jct_cdf.dat", jct, 2, err) < 0 || run_gnuplot(c, "jct_cdf", v1, err) < 0 ||
        write_blocks(c, "ftf_cdf.dat", ftf, 2, err) < 0 || run_gnuplot(c, "ftf_cdf", v2, err) < 0 ||
        write_blocks(c, "timeline.dat", tl, 3, err) < 0 || run_gnuplot(c, "timeline", v3, err) < 0)
        return -1;
    return 0;
}

/* Mean of a metric over a policy's runs. */
static double policy_mean(const plot_ctx_t *c, const char *policy, int metric)
{
    double sum = 0;
    int n = 0;
    for (size_t i = 0; i < c->n; i++) {
        const run_row_t *r = &c->runs[i];
        if (strcmp(r->policy, policy))
            continue;
        double v = metric == 0 ? r->avg_jct : metric == 1 ? r->makespan
                                            : metric == 2 ? r->worst_ftf
                                                          : r->unfair;
        sum += v;
        n++;
    }
    return n ? sum / n : NAN;
}

static int fig_bars(plot_ctx_t *c, mls_err_t *err)
{
    const char *base = c->baseline;
    if (!base || isnan(policy_mean(c, base, 0))) {
        printf("plot: relative_bars skipped: baseline policy '%s' has no run\n",
               base ? base : "(none)");
        return 0;
    }
    FILE *f = open_out(c, "relative_bars.dat", err);
    if (!f)
        return -1;
    fprintf(f, "# policy avg_jct makespan worst_rho unfair_fraction, relative to %s\n", base);
    for (size_t i = 0; i < c->n; i++) {
        if (!is_first_of_policy(c, i))
            continue;
        fprintf(f, "%s", c->runs[i].policy);
        for (int m = 0; m < 4; m++) {
            double b = policy_mean(c, base, m), v = policy_mean(c, c->runs[i].policy, m);
            fprintf(f, " %.6g", b > 0 ? v / b : NAN);
        }
        fputc('\n', f);
    }
    fclose(f);
    char vars[512];
    snprintf(vars, sizeof vars, "datafile = \"relative_bars.dat\"\nbaseline = \"%s\"", base);
    return run_gnuplot(c, "relative_bars", vars, err);
}

static double label_rate(const char *label)
{
    const char *p = strstr(label, "rate=");
    return p ? atof(p + 5) : NAN;
}

static int fig_load(plot_ctx_t *c, mls_err_t *err)
{
    int any = 0;
    for (size_t i = 0; i < c->n; i++)
        any |= !isnan(label_rate(c->runs[i].label));
    if (!any) {
        printf("plot: jct_vs_load skipped: no runs labelled rate=R (use mlsched sweep --rates)\n");
        return 0;
    }
    FILE *f = open_out(c, "jct_vs_load.dat", err);
    if (!f)
        return -1;
    double *vals = xmalloc(sizeof(double) * c->n), *rates = xmalloc(sizeof(double) * c->n);
    for (size_t i = 0; i < c->n; i++) {
        if (!is_first_of_policy(c, i))
            continue;
        const char *pol = c->runs[i].policy;
        fprintf(f, "# %s: rate mean_jct_h ci_lo ci_hi\n", pol);
        size_t nr = 0;
        for (size_t k = 0; k < c->n; k++) { /* distinct rates of this policy, ascending */
            double r = label_rate(c->runs[k].label);
            if (strcmp(c->runs[k].policy, pol) || isnan(r))
                continue;
            size_t pos = 0;
            while (pos < nr && rates[pos] < r)
                pos++;
            if (pos < nr && rates[pos] == r)
                continue;
            memmove(rates + pos + 1, rates + pos, (nr - pos) * sizeof *rates);
            rates[pos] = r;
            nr++;
        }
        for (size_t q = 0; q < nr; q++) {
            size_t n = 0;
            for (size_t k = 0; k < c->n; k++)
                if (!strcmp(c->runs[k].policy, pol) && label_rate(c->runs[k].label) == rates[q])
                    vals[n++] = c->runs[k].avg_jct / 3600;
            double mean = gsl_stats_mean(vals, 1, n);
            double half = n > 1 ? gsl_cdf_tdist_Pinv(0.975, (double)n - 1) *
                                      gsl_stats_sd(vals, 1, n) / sqrt((double)n)
                                : 0;
            fprintf(f, "%g %.6g %.6g %.6g\n", rates[q], mean, mean - half, mean + half);
        }
        fprintf(f, "\n\n");
    }
    free(vals);
    free(rates);
    fclose(f);
    char vars[8192];
    snprintf(vars, sizeof vars, "datafile = \"jct_vs_load.dat\"\ntitles = \"%s\"\nnpol = %d",
             c->titles, n_policies(c));
    return run_gnuplot(c, "jct_vs_load", vars, err);
}

/* GPUs held per user over time for one run (the baseline's, else the first):
 * jobs count from their first start to their finish (time lost to
 * preemption inside that span is not subtracted: an approximation). */
static int fig_users(plot_ctx_t *c, mls_err_t *err)
{
    const run_row_t *run = &c->runs[0];
    for (size_t i = 0; i < c->n; i++)
        if (c->baseline && !strcmp(c->runs[i].policy, c->baseline)) {
            run = &c->runs[i];
            break;
        }
    /* every user at every sample of the run, 0 when it holds nothing, so a
     * series does not stop (or bridge a gap) where the user's jobs do */
    const char *sql =
        "SELECT u.user, tl.t / 3600.0, 100.0 * coalesce(sum(j.gpus), 0) / r.n_gpus"
        " FROM timeline tl JOIN runs r ON r.run_id = tl.run_id"
        " CROSS JOIN (SELECT DISTINCT user FROM jobs WHERE run_id = ?1) u"
        " LEFT JOIN jobs j ON j.run_id = tl.run_id AND j.user = u.user"
        " AND j.first_start <= tl.t AND (j.finish IS NULL OR j.finish > tl.t)"
        " WHERE tl.run_id = ?1 GROUP BY u.user, tl.t ORDER BY u.user, tl.t";
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
        return mls_fail(err, "query failed: %s", sqlite3_errmsg(c->db));
    sqlite3_bind_int64(st, 1, run->id);
    FILE *f = open_out(c, "user_share.dat", err);
    if (!f) {
        sqlite3_finalize(st);
        return -1;
    }
    char users[4096] = "", last[256] = "";
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *u = (const char *)sqlite3_column_text(st, 0);
        if (strcmp(u, last)) {
            if (n)
                fprintf(f, "\n\n");
            fprintf(f, "# user %s\n", u);
            snprintf(last, sizeof last, "%s", u);
            size_t l = strlen(users);
            snprintf(users + l, sizeof users - l, "%s%s", l ? " " : "", u);
            n++;
        }
        fprintf(f, "%.6g %.6g\n", sqlite3_column_double(st, 1), sqlite3_column_double(st, 2));
    }
    sqlite3_finalize(st);
    fclose(f);
    if (!n || n > 30) {
        printf("plot: user_share skipped: %d users\n", n);
        return 0;
    }
    char vars[8192];
    snprintf(vars, sizeof vars,
             "datafile = \"user_share.dat\"\nusers = \"%s\"\nnusers = %d\n"
             "runtitle = \"%s, run %ld\"",
             users, n, run->policy, run->id);
    return run_gnuplot(c, "user_share", vars, err);
}

typedef struct plot_opts {
    const char *db, *out_dir, *format, *baseline, *label_glob;
} plot_opts_t;

static const opt_t options[] = {
    OPT_SHARED_DB(plot_opts_t, db, "results database"),
    OPT_STRING("out", 'o', "DIR", plot_opts_t, out_dir,
               "where figures, data and scripts go (created)"),
    OPT_STRING("format", 'f', "F", plot_opts_t, format,
               "png (default), svg or pdf (3.3in paper column)"),
    OPT_STRING("baseline", 'b', "P", plot_opts_t, baseline,
               "baseline policy for relative bars (default fifo)"),
    OPT_STRING("label", 'l', "GLOB", plot_opts_t, label_glob, "only runs whose label matches"),
    OPT_END_ROW};

static const opt_cmd_t command = {
    .who = "plot",
    .usage = "--db FILE --out DIR [--format png|svg|pdf] [--baseline P]\n"
             "                    [--label GLOB]",
    .about = "Draws paper-style figures with gnuplot: JCT CDF, finish-time fairness CDF,\n"
             "GPU utilization and queue length over time (one line per policy: its first\n"
             "run), metrics relative to a baseline policy (mean over seeds), and average\n"
             "JCT vs load with 95% confidence bands (runs labelled rate=R, as sweep does),\n"
             "and each user's share of the GPUs over time (the baseline's run).\n"
             "Each figure's data and gnuplot script are written beside it: edit the script\n"
             "and run `gnuplot NAME.gp` in DIR to restyle.",
    .opts = options,
};

static int exec_plot(int argc, char **argv)
{
    plot_opts_t o = {NULL, NULL, "png", "fifo", NULL};
    int prc = opt_parse_only(&command, &o, argc, argv);
    if (prc)
        return prc < 0 ? MLS_EXIT_OK : prc;
    if (!o.db || !o.out_dir ||
        (strcmp(o.format, "png") && strcmp(o.format, "svg") && strcmp(o.format, "pdf")))
        return cmd_usage_error("plot", "%s",
                               "--db and --out are required; --format png, svg or pdf");
    plot_ctx_t c = {0};
    const char *db = o.db;
    c.out_dir = o.out_dir;
    c.format = o.format;
    c.baseline = o.baseline;
    c.label_glob = o.label_glob;
    mls_err_t err = {{0}};
    int rc = 0;
    if (access(db, R_OK) != 0)
        rc = mls_fail(&err, "%s: cannot read: %s", db, strerror(errno));
    else if (sqlite3_open_v2(db, &c.db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        rc = mls_fail(&err, "%s: cannot open: %s", db, sqlite3_errmsg(c.db));
    else if (mkdir(c.out_dir, 0777) != 0 && errno != EEXIST)
        rc = mls_fail(&err, "%s: cannot create: %s", c.out_dir, strerror(errno));
    if (rc == 0)
        rc = load_runs(&c, &err);
    if (rc == 0) {
        make_titles(&c);
        if ((size_t)n_policies(&c) < c.n) /* a sweep or several seeds: say which run is drawn */
            printf("plot: the CDFs and the timeline show each policy's first run (lowest seed,"
                   " then run id; label '%s' for %s); --label GLOB picks the runs\n",
                   c.runs[0].label, c.runs[0].policy);
        rc = fig_cdfs(&c, &err);
    }
    if (rc == 0)
        rc = fig_bars(&c, &err);
    if (rc == 0)
        rc = fig_load(&c, &err);
    if (rc == 0)
        rc = fig_users(&c, &err);
    if (rc < 0)
        fprintf(stderr, "mlsched plot: %s\n", err.msg);
    sqlite3_close(c.db);
    free(c.runs);
    return rc == 0 ? MLS_EXIT_OK : MLS_EXIT_FAIL;
}

const cmd_entry_t cmd_plot_entry = {"plot", "draw paper-style figures from a results database",
                                    exec_plot};
