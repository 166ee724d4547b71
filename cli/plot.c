/* plot.c: the figures of `mlsched plot` (see plot.h).
 *
 * The idea: C decides everything that depends on the data (which run stands
 * for a policy, the series' styles, which series coincide, the time window,
 * whether a bar chart needs a log axis, the canvas size that leaves room for
 * the key), writes it as plain gnuplot variables above a copy of the figure's
 * script, and the scripts in scripts/plots/ only draw. So a figure redrawn by
 * hand looks the same, and every figure of every experiment gives a policy
 * the same colour, dash and marker (plotstyle.h).
 *
 * One series per policy: its first run (lowest seed, then run id) in the
 * per-run figures (CDFs, timeline); the mean over its runs in the relative
 * bars. Each figure's title says which runs it shows. */
#include "cli/plot.h"

#include "cli/plotstyle.h"
#include "model/datadir.h"

#include <errno.h>
#include <fnmatch.h>
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

enum { N_BAR_METRICS = 4 };

typedef struct run_row {
    long id;
    char policy[64], label[128], trace[256], cluster[128];
    long seed;
    int oracle;
    double m[N_BAR_METRICS]; /* avg_jct, makespan, worst_ftf, unfair_fraction */
    plot_style_t style;
} run_row_t;

/* One drawn line: a policy's first run. */
typedef struct series {
    const run_row_t *run;
    char title[96];
    int same_as; /* index of an earlier series with identical data, -1 none */
    long rows;
} series_t;

typedef struct plot_ctx {
    const plot_req_t *req;
    sqlite3 *db;
    run_row_t *runs;
    size_t n, cap;
    series_t *ser;
    int ns;
    size_t maxlen;  /* longest series title */
    char what[512]; /* which runs the per-run figures show */
} plot_ctx_t;

static const char *const figure_names[PLOT_N_FIGURES] = {
    "jct_cdf", "ftf_cdf", "timeline", "relative_bars", "jct_vs_load", "user_share"};

const char *plot_figure_name(int i)
{
    return i >= 0 && i < PLOT_N_FIGURES ? figure_names[i] : NULL;
}


/* The terminal line for a canvas of w x h "pixels" (PNG pixels; SVG units;
 * PDF at 300 per inch, so 1000 is a 3.3 in paper column). */
static void terminal(char *buf, size_t len, const char *format, int w, int h)
{
    if (!strcmp(format, "pdf"))
        snprintf(buf, len, "pdfcairo size %.2fin,%.2fin font \\\",6\\\"", w / 300.0, h / 300.0);
    else if (!strcmp(format, "svg"))
        snprintf(buf, len, "svg size %d,%d dynamic font \\\"sans,14\\\"", w, h);
    else
        snprintf(buf, len, "pngcairo size %d,%d font \\\",14\\\"", w, h);
}

/* ---- runs ------------------------------------------------------------------ */

static int policy_selected(const plot_req_t *r, const char *policy)
{
    if (r->f.policy && fnmatch(r->f.policy, policy, 0) != 0)
        return 0;
    if (!r->policies)
        return 1;
    const char *p = r->policies;
    while (*p) {
        size_t len = strcspn(p, ",");
        char pat[128];
        snprintf(pat, sizeof pat, "%.*s", (int)(len < sizeof pat ? len : sizeof pat - 1), p);
        if (fnmatch(pat, policy, 0) == 0)
            return 1;
        p += len + (p[len] == ',');
    }
    return 0;
}

static int by_style(const void *a, const void *b)
{
    const run_row_t *x = a, *y = b;
    if (x->style.order != y->style.order)
        return x->style.order < y->style.order ? -1 : 1;
    int c = strcmp(x->policy, y->policy);
    if (c)
        return c;
    if (x->seed != y->seed)
        return x->seed < y->seed ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static void bind_opt(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
}

static const char *text_col(sqlite3_stmt *st, int i)
{
    const char *s = (const char *)sqlite3_column_text(st, i);
    return s ? s : "";
}

static int load_runs(plot_ctx_t *c, mls_err_t *err)
{
    const char *sql = "SELECT r.run_id, r.policy, r.seed, r.oracle, coalesce(r.label, ''),"
                      " coalesce(r.trace_path, ''), coalesce(r.cluster, ''),"
                      " s.avg_jct, s.makespan, s.worst_ftf, s.unfair_fraction"
                      " FROM runs r JOIN summary s ON s.run_id = r.run_id"
                      " WHERE (?1 IS NULL OR coalesce(r.label, '') GLOB ?1) AND (?2 IS NULL OR"
                      " r.trace_path GLOB ?2) AND (?3 IS NULL OR r.cluster GLOB ?3) AND"
                      " r.run_id >= ?4 AND (?5 = 0 OR r.run_id <= ?5)";
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
        return mls_fail(err, "%s: cannot read runs: %s (is this an mlsched results database?)",
                        c->req->db, sqlite3_errmsg(c->db));
    const result_filter_t *f = &c->req->f;
    bind_opt(st, 1, f->label);
    bind_opt(st, 2, f->trace);
    bind_opt(st, 3, f->cluster);
    sqlite3_bind_int64(st, 4, f->run_lo);
    sqlite3_bind_int64(st, 5, f->run_hi);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *policy = text_col(st, 1);
        if (!policy_selected(c->req, policy))
            continue;
        xgrow((void **)&c->runs, &c->cap, c->n + 1, sizeof *c->runs);
        run_row_t *r = &c->runs[c->n++];
        memset(r, 0, sizeof *r);
        r->id = sqlite3_column_int64(st, 0);
        snprintf(r->policy, sizeof r->policy, "%s", policy);
        r->seed = sqlite3_column_int64(st, 2);
        r->oracle = sqlite3_column_int(st, 3);
        snprintf(r->label, sizeof r->label, "%s", text_col(st, 4));
        snprintf(r->trace, sizeof r->trace, "%s", text_col(st, 5));
        snprintf(r->cluster, sizeof r->cluster, "%s", text_col(st, 6));
        for (int m = 0; m < N_BAR_METRICS; m++)
            r->m[m] = sqlite3_column_type(st, 7 + m) == SQLITE_NULL
                          ? NAN
                          : sqlite3_column_double(st, 7 + m);
        r->style = plot_style(r->policy);
    }
    sqlite3_finalize(st);
    if (!c->n)
        return mls_fail(err, "%s: no runs to plot%s", c->req->db,
                        c->req->policies || f->label || f->policy ? " (none matches the selection)"
                                                                  : "");
    qsort(c->runs, c->n, sizeof *c->runs, by_style);
    return 0;
}

/* What the per-run figures show, for their titles: the trace and cluster
 * (when one), and the seed and label (when every series shares them). */
static void describe(plot_ctx_t *c)
{
    int one_trace = 1, one_seed = 1, one_label = 1, one_cluster = 1, several = 0;
    for (int i = 0; i < c->ns; i++) {
        const run_row_t *a = c->ser[i].run, *b = c->ser[0].run;
        one_trace &= !strcmp(a->trace, b->trace);
        one_cluster &= !strcmp(a->cluster, b->cluster);
        one_seed &= a->seed == b->seed;
        one_label &= !strcmp(a->label, b->label);
    }
    several = (size_t)c->ns < c->n;
    const run_row_t *r = c->ser[0].run;
    const char *base = strrchr(r->trace, '/');
    base = base ? base + 1 : r->trace;
    char seed[64] = "", label[160] = "";
    if (one_seed)
        snprintf(seed, sizeof seed, "seed %ld", r->seed);
    else
        snprintf(seed, sizeof seed, "each policy's lowest seed");
    if (one_label && r->label[0])
        snprintf(label, sizeof label, ", label %s", r->label);
    snprintf(c->what, sizeof c->what, "%s%s%s, %s%s%s", one_trace ? base : "several traces",
             one_cluster && r->cluster[0] ? " on " : "", one_cluster ? r->cluster : "", seed, label,
             several ? " (first run of each policy)" : "");
}

static void make_series(plot_ctx_t *c)
{
    c->ser = xmalloc(sizeof *c->ser * c->n);
    c->ns = 0;
    c->maxlen = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (i && !strcmp(c->runs[i].policy, c->runs[i - 1].policy))
            continue;
        series_t *s = &c->ser[c->ns++];
        s->run = &c->runs[i];
        s->same_as = -1;
        int says = strstr(s->run->policy, "oracle") != NULL;
        snprintf(s->title, sizeof s->title, "%s%s", s->run->policy,
                 s->run->oracle && !says ? " (oracle)" : "");
    }
    describe(c);
}

/* Series titles with "(= other)" where a series repeats an earlier one. */
static void series_title(const plot_ctx_t *c, int i, char *buf, size_t len)
{
    const series_t *s = &c->ser[i];
    if (s->same_as >= 0)
        snprintf(buf, len, "%s (= %s)", s->title, c->ser[s->same_as].run->policy);
    else
        snprintf(buf, len, "%s", s->title);
}

static size_t longest_title(const plot_ctx_t *c)
{
    size_t m = 0;
    for (int i = 0; i < c->ns; i++) {
        char t[256];
        series_title(c, i, t, sizeof t);
        if (strlen(t) > m)
            m = strlen(t);
    }
    return m;
}

/* ---- files and gnuplot ------------------------------------------------------ */

static FILE *open_out(const plot_ctx_t *c, const char *name, mls_err_t *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", c->req->out_dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        mls_fail(err, "%s: cannot write: %s", path, strerror(errno));
    return f;
}

/* Writes one block per series from a query on one run (?1); notes which
 * series repeat an earlier one's data exactly and how many rows each has.
 * With `steps` (data drawn as steps), a row whose values (all but the first
 * column) repeat the previous row's is left out. At most 8 columns. */
static int write_blocks(plot_ctx_t *c, const char *file, const char *sql, int ncols, int steps,
                        mls_err_t *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
        return mls_fail(err, "query failed: %s", sqlite3_errmsg(c->db));
    char **text = xmalloc(sizeof *text * c->ns);
    for (int i = 0; i < c->ns; i++) {
        size_t len = 0;
        FILE *m = open_memstream(&text[i], &len);
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, c->ser[i].run->id);
        long rows = 0;
        double prev[8], x0 = NAN;
        int held = 0; /* a row not written yet: it repeated the one before */
        while (sqlite3_step(st) == SQLITE_ROW) {
            int same = steps && rows > 0;
            for (int k = 1; k < ncols; k++)
                same &= sqlite3_column_double(st, k) == prev[k];
            x0 = sqlite3_column_double(st, 0);
            held = same;
            if (same) /* a step plot draws the same without it */
                continue;
            for (int k = 0; k < ncols; k++) {
                prev[k] = sqlite3_column_double(st, k);
                fprintf(m, "%s%.6g", k ? " " : "", prev[k]);
            }
            fputc('\n', m);
            rows++;
        }
        if (held) { /* the last sample ends the last step */
            fprintf(m, "%.6g", x0);
            for (int k = 1; k < ncols; k++)
                fprintf(m, " %.6g", prev[k]);
            fputc('\n', m);
            rows++;
        }
        if (!rows) /* gnuplot needs a point per block */
            fprintf(m, "%s\n", ncols == 2 ? "NaN NaN" : "NaN NaN NaN");
        fclose(m);
        c->ser[i].rows = rows;
        c->ser[i].same_as = -1;
        for (int k = 0; k < i && rows; k++)
            if (c->ser[k].same_as < 0 && !strcmp(text[k], text[i])) {
                c->ser[i].same_as = k;
                break;
            }
    }
    sqlite3_finalize(st);
    FILE *f = open_out(c, file, err);
    for (int i = 0; i < c->ns; i++) {
        if (f)
            fprintf(f, "# %s run %ld\n%s\n\n", c->ser[i].run->policy, c->ser[i].run->id, text[i]);
        free(text[i]);
    }
    free(text);
    if (!f)
        return -1;
    return fclose(f) == 0 ? 0 : mls_fail(err, "%s/%s: write error", c->req->out_dir, file);
}

/* A gnuplot string literal (double quotes; backslash and quote escaped). */
static void gp_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* The series' names, styles and marker placement as gnuplot variables:
 * name[i], color[i], mstep[i]/moff[i] (markers on every mstep-th point from
 * moff, so series that coincide show their markers side by side) and line
 * style i. */
static void write_series_vars(FILE *f, const plot_ctx_t *c, int markers)
{
    fprintf(f, "n = %d\narray name[%d]\narray color[%d]\narray mstep[%d]\narray moff[%d]\n", c->ns,
            c->ns, c->ns, c->ns, c->ns);
    fprintf(f, "# one fixed style per policy (mlsched's table: family = hue, rank = dash and"
               " marker)\n");
    for (int i = 0; i < c->ns; i++) {
        const series_t *s = &c->ser[i];
        char t[256];
        series_title(c, i, t, sizeof t);
        fprintf(f, "name[%d] = ", i + 1);
        gp_str(f, t);
        long step = s->rows > markers ? s->rows / markers : 1;
        fprintf(f, "; color[%d] = \"%s\"; mstep[%d] = %ld; moff[%d] = %ld\n", i + 1,
                s->run->style.color, i + 1, step, i + 1, step * i / (c->ns > 0 ? c->ns : 1));
        fprintf(f, "set style line %d lc rgb \"%s\" dt %s pt %d ps %.1f lw 2.5  # %s, %s\n", i + 1,
                s->run->style.color, s->run->style.dash, s->run->style.point,
                strcmp(c->req->format, "svg") ? 1.3 : 0.8, s->run->policy, s->run->style.family);
    }
}

/* The last non-empty line of a file, trimmed, into buf ("no message"). */
static void last_line(const char *path, char *line, size_t len)
{
    char buf[512];
    FILE *f = fopen(path, "r");
    snprintf(line, len, "no message");
    while (f && fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\r\n")] = '\0';
        if (buf[strspn(buf, " \t^")])
            snprintf(line, len, "%s", buf + strspn(buf, " \t"));
    }
    if (f)
        fclose(f);
}

/* Starts DIR/FIGURE.gp: terminal, output, the figure's title; the caller
 * adds its variables, then finish_script() appends the drawing script. */
static FILE *begin_script(const plot_ctx_t *c, const char *figure, int w, int h, const char *title,
                          mls_err_t *err)
{
    char name[256], term[256];
    snprintf(name, sizeof name, "%s.gp", figure);
    FILE *f = open_out(c, name, err);
    if (!f)
        return NULL;
    terminal(term, sizeof term, c->req->format, w, h);
    fprintf(f,
            "# Written by mlsched plot; edit the style below and run: gnuplot %s.gp\n"
            "set encoding utf8\nterm = \"%s\"\nout = \"%s.%s\"\nfigtitle = ",
            figure, term, figure, c->req->format);
    gp_str(f, title);
    fputc('\n', f);
    return f;
}

static int run_gnuplot(const plot_ctx_t *c, const char *figure, FILE *f, mls_err_t *err)
{
    char src[4096], log[4200];
    char name[64];
    snprintf(name, sizeof name, "%s.gp", figure);
    mls_data_find(MLS_DATA_PLOTS, name, src, sizeof src);
    char *body = mls_read_file(src, err);
    if (!body) {
        fclose(f);
        return -1;
    }
    fprintf(f, "\n%s", body);
    free(body);
    if (fclose(f) != 0)
        return mls_fail(err, "%s/%s.gp: write error", c->req->out_dir, figure);
    snprintf(log, sizeof log, "%s/%s.log", c->req->out_dir, figure);
    pid_t pid = fork();
    if (pid == 0) {
        if (chdir(c->req->out_dir) != 0)
            _exit(126);
        char gp[300], lg[300];
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
        /* one figure gnuplot cannot draw is skipped with its reason; the
         * others and the exit status are about the runs */
        char why[512];
        last_line(log, why, sizeof why);
        printf("plot: %s skipped: gnuplot could not draw it: %s (script %s/%s.gp)\n", figure, why,
               c->req->out_dir, figure);
        return 0;
    }
    unlink(log);
    printf("plot: %s/%s.%s\n", c->req->out_dir, figure, c->req->format);
    return 0;
}

/* Canvas for a line figure with its key in a column right of the plot:
 * wide enough for the longest name, tall enough for every entry. */
static void keyed_canvas(const plot_ctx_t *c, int *w, int *h, double *key_x)
{
    int keyw = 130 + 10 * (int)longest_title(c);
    *w = 900 + keyw;
    *h = 600;
    if (100 + 24 * c->ns > *h)
        *h = 100 + 24 * c->ns;
    *key_x = 1.0 - (double)keyw / *w;
}

/* ---- the figures -------------------------------------------------------- */

static int fig_cdf(plot_ctx_t *c, const char *figure, const char *sql, mls_err_t *err)
{
    char dat[64];
    snprintf(dat, sizeof dat, "%s.dat", figure);
    if (write_blocks(c, dat, sql, 2, 0, err) < 0)
        return -1;
    int w, h;
    double kx;
    keyed_canvas(c, &w, &h, &kx);
    FILE *f = begin_script(c, figure, w, h, c->what, err);
    if (!f)
        return -1;
    fprintf(f, "datafile = \"%s\"\nkey_x = %.4f\n", dat, kx);
    write_series_vars(f, c, c->ns > 12 ? 4 : 6);
    return run_gnuplot(c, figure, f, err);
}

static int fig_cdfs(plot_ctx_t *c, mls_err_t *err)
{
    const char *jct = "SELECT jct / 3600.0, (row_number() OVER (ORDER BY jct)) * 1.0 /"
                      " count(*) OVER () FROM jobs WHERE run_id = ?1 AND measured = 1 AND"
                      " jct IS NOT NULL ORDER BY jct";
    const char *ftf = "SELECT ftf_rho, (row_number() OVER (ORDER BY ftf_rho)) * 1.0 /"
                      " count(*) OVER () FROM jobs WHERE run_id = ?1 AND measured = 1 AND"
                      " ftf_rho IS NOT NULL ORDER BY ftf_rho";
    if (fig_cdf(c, "jct_cdf", jct, err) < 0 || fig_cdf(c, "ftf_cdf", ftf, err) < 0)
        return -1;
    return 0;
}

/* One value of a query on run ?1 (NAN when NULL or no row). */
static double run_value(const plot_ctx_t *c, const char *sql, long run)
{
    sqlite3_stmt *st;
    double v = NAN;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
        return NAN;
    sqlite3_bind_int64(st, 1, run);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
        v = sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    return v;
}

typedef struct window {
    double lo, hi, end; /* hours: the drawn window, and the runs' last sample */
    double first;       /* hours: the earliest sample after 0 (a log axis starts there) */
    int cut;            /* hi < end */
} window_t;

/* The time window of the timeline: from the first measured submit (0 when
 * every job is measured) to the latest 99th-percentile finish of the
 * measured jobs over the series (or to the end with --full-time). */
static window_t time_window(const plot_ctx_t *c)
{
    const char *p99 = "SELECT finish / 3600.0 FROM jobs WHERE run_id = ?1 AND measured = 1"
                      " AND finish IS NOT NULL ORDER BY finish LIMIT 1 OFFSET"
                      " (SELECT max(0, (99 * count(*) + 99) / 100 - 1) FROM jobs"
                      " WHERE run_id = ?1 AND measured = 1 AND finish IS NOT NULL)";
    const char *lo = "SELECT CASE WHEN min(measured) = 1 THEN 0 ELSE"
                     " min(CASE WHEN measured = 1 THEN submit END) / 3600.0 END"
                     " FROM jobs WHERE run_id = ?1";
    const char *end = "SELECT max(t) / 3600.0 FROM timeline WHERE run_id = ?1";
    const char *first = "SELECT min(t) / 3600.0 FROM timeline WHERE run_id = ?1 AND t > 0";
    window_t w = {INFINITY, 0, 0, INFINITY, 0};
    for (int i = 0; i < c->ns; i++) {
        long id = c->ser[i].run->id;
        double a = run_value(c, lo, id), b = run_value(c, p99, id), e = run_value(c, end, id);
        if (isfinite(a) && a < w.lo)
            w.lo = a;
        if (isfinite(b) && b > w.hi)
            w.hi = b;
        if (isfinite(e) && e > w.end)
            w.end = e;
        double f = run_value(c, first, id);
        if (isfinite(f) && f < w.first)
            w.first = f;
    }
    if (!isfinite(w.lo))
        w.lo = 0;
    if (c->req->full_time || w.hi <= w.lo || w.hi > w.end)
        w.hi = w.end;
    w.hi *= c->req->full_time ? 1 : 1.03; /* the last finish not on the frame */
    w.cut = w.hi < w.end * 0.999;
    if (w.hi <= w.lo)
        w.hi = w.lo + 1;
    return w;
}

static void write_window(FILE *f, const plot_ctx_t *c, const window_t *w)
{
    double lo = w->lo;
    if (c->req->log_time && lo < w->first)
        lo = isfinite(w->first) ? w->first : 0.01;
    fprintf(f, "xlo = %.6g\nxhi = %.6g\nlogtime = %d\n", lo, w->hi, c->req->log_time);
    if (w->cut)
        fprintf(f,
                "xnote = \"Time (hours; to the 99th-percentile finish, %.0f h; the runs last"
                " to %.0f h: --full-time)\"\n",
                w->hi / 1.03, w->end);
    else
        fprintf(f, "xnote = \"Time (hours)\"\n");
}

static double max_queue(const plot_ctx_t *c, const window_t *w)
{
    double q = 1;
    for (int i = 0; i < c->ns; i++) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(c->db,
                               "SELECT max(queued_jobs) FROM timeline WHERE run_id = ?1 AND"
                               " t <= ?2",
                               -1, &st, NULL) != SQLITE_OK)
            continue;
        sqlite3_bind_int64(st, 1, c->ser[i].run->id);
        sqlite3_bind_double(st, 2, w->hi * 3600);
        if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_double(st, 0) > q)
            q = sqlite3_column_double(st, 0);
        sqlite3_finalize(st);
    }
    return q;
}

/* Markers of the timeline at evenly spaced times, each series shifted by
 * its share of the spacing (so series that coincide show every marker):
 * the step function's value at those times, one block per series. */
static int write_time_marks(plot_ctx_t *c, const window_t *w, mls_err_t *err)
{
    enum { MARKS = 6 };
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db,
                           "SELECT 100.0 * utilization, queued_jobs FROM timeline WHERE"
                           " run_id = ?1 AND t <= ?2 ORDER BY t DESC LIMIT 1",
                           -1, &st, NULL) != SQLITE_OK)
        return mls_fail(err, "query failed: %s", sqlite3_errmsg(c->db));
    FILE *f = open_out(c, "timeline_marks.dat", err);
    if (!f) {
        sqlite3_finalize(st);
        return -1;
    }
    double lo = c->req->log_time ? log(w->lo < w->first && isfinite(w->first) ? w->first
                                       : w->lo > 0                            ? w->lo
                                                                              : 0.01)
                                 : w->lo;
    double hi = c->req->log_time ? log(w->hi) : w->hi;
    for (int i = 0; i < c->ns; i++) {
        fprintf(f, "# %s: hours util%% queued\n", c->ser[i].run->policy);
        for (int k = 0; k < MARKS; k++) {
            double x = lo + (hi - lo) * (k + (i + 0.5) / c->ns) / MARKS;
            double t = c->req->log_time ? exp(x) : x;
            sqlite3_reset(st);
            sqlite3_bind_int64(st, 1, c->ser[i].run->id);
            sqlite3_bind_double(st, 2, t * 3600);
            if (sqlite3_step(st) == SQLITE_ROW)
                fprintf(f, "%.6g %.6g %.6g\n", t, sqlite3_column_double(st, 0),
                        sqlite3_column_double(st, 1));
        }
        fprintf(f, "NaN NaN NaN\n\n\n");
    }
    sqlite3_finalize(st);
    return fclose(f) == 0 ? 0
                          : mls_fail(err, "%s/timeline_marks.dat: write error", c->req->out_dir);
}

/* A round tic step near x: 1, 2 or 5 times a power of ten. */
static double nice_step(double x)
{
    if (!(x > 0))
        return 1;
    double p = pow(10, floor(log10(x))), f = x / p;
    double s = (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
    return s < 1 ? 1 : s;
}

/* Utilisation and queue over time: two panels with every policy for up to
 * six policies, else one small panel per policy. */
static int fig_timeline(plot_ctx_t *c, mls_err_t *err)
{
    const char *tl = "SELECT t / 3600.0, 100.0 * utilization, queued_jobs FROM timeline"
                     " WHERE run_id = ?1 ORDER BY t";
    if (write_blocks(c, "timeline.dat", tl, 3, 1, err) < 0)
        return -1;
    window_t win = time_window(c);
    double qmax = max_queue(c, &win);
    if (write_time_marks(c, &win, err) < 0)
        return -1;
    int panels = c->ns > 6, w, h, cols = 1, rows = 1;
    double kx = 1;
    if (panels) {
        cols = c->ns <= 9 ? 3 : c->ns <= 16 ? 4 : c->ns <= 25 ? 5 : 6;
        rows = (c->ns + cols - 1) / cols;
        w = 330 * cols;
        h = 150 + 250 * rows;
    } else {
        keyed_canvas(c, &w, &h, &kx);
        h = h < 760 ? 760 : h;
    }
    FILE *f = begin_script(c, "timeline", w, h, c->what, err);
    if (!f)
        return -1;
    fprintf(f,
            "datafile = \"timeline.dat\"\nmarks = \"timeline_marks.dat\"\nkey_x = %.4f\npanels = "
            "%d\ncols = %d\nrows = %d\n"
            "qmax = %.6g\nqstep = %.6g\n",
            kx, panels, cols, rows, qmax * 1.05, nice_step(qmax / 3));
    write_window(f, c, &win);
    write_series_vars(f, c, 6);
    return run_gnuplot(c, "timeline", f, err);
}

/* Mean of a metric over a policy's runs (NaN values left out). */
static double policy_mean(const plot_ctx_t *c, const char *policy, int metric)
{
    double sum = 0;
    int n = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(c->runs[i].policy, policy) && !isnan(c->runs[i].m[metric])) {
            sum += c->runs[i].m[metric];
            n++;
        }
    return n ? sum / n : NAN;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Per metric: relative to the baseline when its value is > 0, else absolute;
 * a log axis when one bar dominates (the largest above 8x the median). */
typedef struct bar_panel {
    int relative, logx;
    double lo, hi;
    char title[128];
} bar_panel_t;

static void bar_panel(const plot_ctx_t *c, int m, double base, const double *v, bar_panel_t *p)
{
    static const char *const names[N_BAR_METRICS] = {"avg JCT", "makespan", "worst FTF ρ",
                                                     "unfair fraction"};
    p->relative = base > 0 && isfinite(base);
    double *pos = xmalloc(sizeof(double) * (c->ns + 1));
    int np = 0;
    double max = 0;
    for (int i = 0; i < c->ns; i++)
        if (v[i] > 0 && isfinite(v[i])) {
            pos[np++] = v[i];
            max = v[i] > max ? v[i] : max;
        }
    qsort(pos, np, sizeof *pos, cmp_double);
    double median = np ? pos[np / 2] : 0;
    p->logx = np >= 3 && max > 8 * median;
    p->lo = p->logx ? (p->relative && pos[0] >= 1 ? 0.5 : pos[0] / 5) : 0;
    if (p->logx && p->relative && p->lo > 1)
        p->lo = 0.5;
    p->hi = p->logx ? max * 6 : (max > 0 ? max * 1.3 : 1);
    if (p->relative && !p->logx && p->hi < 1.3)
        p->hi = 1.3;
    free(pos);
    if (p->relative)
        snprintf(p->title, sizeof p->title, "%s%s", names[m], p->logx ? " (log)" : "");
    else
        snprintf(p->title, sizeof p->title, "%s, absolute%s (%s's is 0)", names[m],
                 p->logx ? ", log" : "", c->req->baseline);
}

/* Horizontal bars, one panel per metric, one bar per policy in its colour,
 * its value written at its end; the baseline's 1 marked. */
static int fig_bars(plot_ctx_t *c, mls_err_t *err)
{
    const char *base = c->req->baseline;
    if (!base || isnan(policy_mean(c, base, 0))) {
        printf("plot: relative_bars skipped: baseline policy '%s' has no run\n",
               base ? base : "(none)");
        return 0;
    }
    double *v = xmalloc(sizeof(double) * N_BAR_METRICS * c->ns);
    bar_panel_t p[N_BAR_METRICS];
    for (int m = 0; m < N_BAR_METRICS; m++) {
        double b = policy_mean(c, base, m);
        for (int i = 0; i < c->ns; i++) {
            double x = policy_mean(c, c->ser[i].run->policy, m);
            v[m * c->ns + i] = b > 0 && isfinite(b) ? x / b : x;
        }
        bar_panel(c, m, b, v + m * c->ns, &p[m]);
    }
    FILE *d = open_out(c, "relative_bars.dat", err);
    if (!d) {
        free(v);
        return -1;
    }
    fprintf(d,
            "# y policy color avg_jct makespan worst_rho unfair_fraction (relative to %s"
            " where its value is > 0, else absolute)\n",
            base);
    int runs_per = 0;
    for (int i = 0; i < c->ns; i++) {
        int same = -1, nr = 0;
        for (size_t k = 0; k < c->n; k++)
            nr += !strcmp(c->runs[k].policy, c->ser[i].run->policy);
        runs_per = nr > runs_per ? nr : runs_per;
        for (int k = 0; k < i && same < 0; k++) {
            int eq = 1;
            for (int m = 0; m < N_BAR_METRICS; m++)
                eq &= v[m * c->ns + i] == v[m * c->ns + k];
            same = eq ? k : -1;
        }
        c->ser[i].same_as = same; /* for the names' margin */
        fprintf(d, "%d \"%s%s%s%s\" %ld", i + 1, c->ser[i].title, same >= 0 ? " (= " : "",
                same >= 0 ? c->ser[same].run->policy : "", same >= 0 ? ")" : "",
                strtol(c->ser[i].run->style.color + 1, NULL, 16));
        for (int m = 0; m < N_BAR_METRICS; m++)
            fprintf(d, " %.6g", v[m * c->ns + i]);
        fputc('\n', d);
    }
    fclose(d);
    free(v);
    int w = 1500, h = 150 + 28 * c->ns < 420 ? 420 : 150 + 28 * c->ns;
    char title[600];
    snprintf(title, sizeof title, "relative to %s (= 1, dashed); %s", base,
             runs_per > 1 ? "mean over each policy's runs (seeds, labels)" : "one run per policy");
    FILE *f = begin_script(c, "relative_bars", w, h, title, err);
    if (!f)
        return -1;
    fprintf(f, "datafile = \"relative_bars.dat\"\nbaseline = ");
    gp_str(f, base);
    fprintf(f,
            "\nn = %d\nleft = %.4f\nbottom = %.4f\ntop = %.4f\narray mtitle[4]\narray "
            "mlog[4]\narray mrel[4]\n"
            "array xlo[4]\narray xhi[4]\n",
            c->ns, (40.0 + 11.0 * (double)longest_title(c)) / w, 45.0 / h, 1 - 95.0 / h);
    for (int m = 0; m < N_BAR_METRICS; m++) {
        fprintf(f, "mtitle[%d] = ", m + 1);
        gp_str(f, p[m].title);
        fprintf(f, "; mlog[%d] = %d; mrel[%d] = %d; xlo[%d] = %.6g; xhi[%d] = %.6g\n", m + 1,
                p[m].logx, m + 1, p[m].relative, m + 1, p[m].lo, m + 1, p[m].hi);
    }
    return run_gnuplot(c, "relative_bars", f, err);
}

static double label_rate(const char *label)
{
    const char *p = strstr(label, "rate=");
    return p ? atof(p + 5) : NAN;
}

/* The distinct rates of a policy's runs, ascending, into rates[]. */
static size_t policy_rates(const plot_ctx_t *c, const char *pol, double *rates)
{
    size_t nr = 0;
    for (size_t k = 0; k < c->n; k++) {
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
    return nr;
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
    FILE *d = open_out(c, "jct_vs_load.dat", err);
    if (!d)
        return -1;
    double *vals = xmalloc(sizeof(double) * c->n), *rates = xmalloc(sizeof(double) * c->n);
    for (int i = 0; i < c->ns; i++) {
        const char *pol = c->ser[i].run->policy;
        fprintf(d, "# %s: rate mean_jct_h ci_lo ci_hi\n", pol);
        size_t nr = policy_rates(c, pol, rates);
        c->ser[i].rows = (long)nr;
        c->ser[i].same_as = -1;
        for (size_t q = 0; q < nr; q++) {
            size_t n = 0;
            for (size_t k = 0; k < c->n; k++)
                if (!strcmp(c->runs[k].policy, pol) && label_rate(c->runs[k].label) == rates[q])
                    vals[n++] = c->runs[k].m[0] / 3600;
            double mean = gsl_stats_mean(vals, 1, n);
            double half = n > 1 ? gsl_cdf_tdist_Pinv(0.975, (double)n - 1) *
                                      gsl_stats_sd(vals, 1, n) / sqrt((double)n)
                                : 0;
            fprintf(d, "%g %.6g %.6g %.6g\n", rates[q], mean, mean - half, mean + half);
        }
        if (!nr)
            fprintf(d, "NaN NaN NaN NaN\n");
        fprintf(d, "\n\n");
    }
    free(vals);
    free(rates);
    fclose(d);
    int w, h;
    double kx;
    keyed_canvas(c, &w, &h, &kx);
    FILE *f = begin_script(c, "jct_vs_load", w, h,
                           "mean over seeds at each rate, 95% confidence band", err);
    if (!f)
        return -1;
    fprintf(f, "datafile = \"jct_vs_load.dat\"\nkey_x = %.4f\n", kx);
    write_series_vars(f, c, 1000);
    return run_gnuplot(c, "jct_vs_load", f, err);
}

/* GPUs held per user over time for one run (the baseline's, else the first):
 * jobs count from their first start to their finish (time lost to
 * preemption inside that span is not subtracted: an approximation). */
static int fig_users(plot_ctx_t *c, mls_err_t *err)
{
    const run_row_t *run = c->ser[0].run;
    for (int i = 0; i < c->ns; i++)
        if (c->req->baseline && !strcmp(c->ser[i].run->policy, c->req->baseline))
            run = c->ser[i].run;
    /* every user at every sample of the run, 0 when it holds nothing, so a
     * series does not stop (or bridge a gap) where the user's jobs do */
    const char *sql = "SELECT u.user, tl.t / 3600.0, 100.0 * coalesce(sum(j.gpus), 0) / r.n_gpus"
                      " FROM timeline tl JOIN runs r ON r.run_id = tl.run_id"
                      " CROSS JOIN (SELECT DISTINCT user FROM jobs WHERE run_id = ?1) u"
                      " LEFT JOIN jobs j ON j.run_id = tl.run_id AND j.user = u.user"
                      " AND j.first_start <= tl.t AND (j.finish IS NULL OR j.finish > tl.t)"
                      " WHERE tl.run_id = ?1 GROUP BY u.user, tl.t ORDER BY u.user, tl.t";
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
        return mls_fail(err, "query failed: %s", sqlite3_errmsg(c->db));
    sqlite3_bind_int64(st, 1, run->id);
    FILE *d = open_out(c, "user_share.dat", err);
    if (!d) {
        sqlite3_finalize(st);
        return -1;
    }
    char users[4096] = "", last[256] = "";
    int n = 0;
    size_t maxlen = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *u = text_col(st, 0);
        if (strcmp(u, last)) {
            if (n)
                fprintf(d, "\n\n");
            fprintf(d, "# user %s\n", u);
            snprintf(last, sizeof last, "%s", u);
            size_t l = strlen(users);
            snprintf(users + l, sizeof users - l, "%s%s", l ? " " : "", u);
            maxlen = strlen(u) > maxlen ? strlen(u) : maxlen;
            n++;
        }
        fprintf(d, "%.6g %.6g\n", sqlite3_column_double(st, 1), sqlite3_column_double(st, 2));
    }
    sqlite3_finalize(st);
    fclose(d);
    if (!n || n > 30) {
        printf("plot: user_share skipped: %d users\n", n);
        return 0;
    }
    /* one run: its own window */
    plot_ctx_t one = *c;
    series_t s = {run, "", -1, 0};
    one.ser = &s;
    one.ns = 1;
    window_t win = time_window(&one);
    int keyw = 130 + 10 * (int)maxlen, w = 900 + keyw, h = 100 + 24 * n > 600 ? 100 + 24 * n : 600;
    char title[300];
    snprintf(title, sizeof title, "%s, run %ld (seed %ld)", run->policy, run->id, run->seed);
    FILE *f = begin_script(c, "user_share", w, h, title, err);
    if (!f)
        return -1;
    fprintf(f, "datafile = \"user_share.dat\"\nusers = \"%s\"\nnusers = %d\nkey_x = %.4f\n", users,
            n, 1.0 - (double)keyw / w);
    write_window(f, &one, &win);
    return run_gnuplot(c, "user_share", f, err);
}

int plot_draw(const plot_req_t *r, mls_err_t *err)
{
    plot_ctx_t c = {0};
    c.req = r;
    int rc = 0;
    if (access(r->db, R_OK) != 0)
        rc = mls_fail(err, "%s: cannot read: %s", r->db, strerror(errno));
    else if (sqlite3_open_v2(r->db, &c.db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        rc = mls_fail(err, "%s: cannot open: %s", r->db, sqlite3_errmsg(c.db));
    else if (mkdir(r->out_dir, 0777) != 0 && errno != EEXIST)
        rc = mls_fail(err, "%s: cannot create: %s", r->out_dir, strerror(errno));
    if (rc == 0)
        rc = load_runs(&c, err);
    if (rc == 0) {
        make_series(&c);
        if ((size_t)c.ns < c.n) /* a sweep or several seeds: say which run is drawn */
            printf("plot: the CDFs and the timeline show each policy's first run (lowest seed,"
                   " then run id; label '%s' for %s); --label GLOB picks the runs\n",
                   c.ser[0].run->label, c.ser[0].run->policy);
        rc = fig_cdfs(&c, err);
    }
    if (rc == 0)
        rc = fig_timeline(&c, err);
    if (rc == 0)
        rc = fig_bars(&c, err);
    if (rc == 0)
        rc = fig_load(&c, err);
    if (rc == 0)
        rc = fig_users(&c, err);
    sqlite3_close(c.db);
    free(c.runs);
    free(c.ser);
    return rc;
}
