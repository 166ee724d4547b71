/* html.c: the self-contained HTML report (see html.h).
 *
 * Everything is written into one file: the style sheet and the table sorter
 * are inline, the figures are gnuplot's SVG pasted in (their element ids
 * prefixed per figure, so two figures' definitions never collide in one
 * document). Numbers keep their raw value in a data-v attribute, so a
 * column sorts by value while it reads "11.38 h (0.82x)". */
#include "cli/html.h"

#include "cli/plot.h"
#include "cli/plotstyle.h"
#include "config.h"
#include "sim/diagnose.h"
#include "sim/store.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static void esc(FILE *f, const char *s)
{
    for (; s && *s; s++)
        switch (*s) {
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '&':
            fputs("&amp;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*s, f);
        }
}

static const char *const style_sheet =
    "body{font-family:sans-serif;margin:2em auto;max-width:1400px;color:#222}"
    "h1{font-size:1.5em}h2{border-bottom:1px solid #ccc;margin-top:2em}"
    "table{border-collapse:collapse;font-size:.9em}"
    "th,td{padding:.25em .6em;border-bottom:1px solid #e4e4e4;text-align:right}"
    "th{background:#f3f3f3;position:sticky;top:0}"
    "table.sortable th{cursor:pointer}table.sortable th:after{content:' \\2195';color:#aaa}"
    "td.k,th.k{text-align:left;white-space:nowrap}span.rel{color:#666;font-size:.85em}"
    "span.sw{display:inline-block;width:1.6em;height:.35em;margin-right:.4em;"
    "vertical-align:middle}"
    "figure{margin:1.5em 0}figure svg{width:100%;height:auto;max-width:1400px}"
    "figcaption{color:#444;font-size:.9em}dl{display:grid;grid-template-columns:max-content auto;"
    "gap:.2em 1em}dt{font-weight:bold}dd{margin:0}li.warn{color:#a33}"
    "section.run{margin-bottom:1em}section.run h3{font-size:1em;margin-bottom:.2em}";

/* Click a header: sort its table's rows by that column (data-v numbers when
 * both cells have one, else text), again to reverse. The body's
 * data-sortable="ready" says the script ran (a test reads it). */
static const char *const sorter =
    "document.querySelectorAll('table.sortable th').forEach(function(th,i){"
    "th.addEventListener('click',function(){var b=th.closest('table').tBodies[0];"
    "var up=th.dataset.dir!=='up';th.dataset.dir=up?'up':'down';"
    "var key=function(c){var v=c.dataset.v;return v===undefined?null:(v===''?Infinity:+v);};"
    "Array.from(b.rows).sort(function(x,y){var p=key(x.cells[i]),q=key(y.cells[i]);"
    "var d=(p!==null&&q!==null)?(p<q?-1:p>q?1:0):x.cells[i].textContent.localeCompare("
    "y.cells[i].textContent);return up?d:-d;}).forEach(function(r){b.appendChild(r);});});});"
    "document.body.dataset.sortable='ready';";

/* ---- the comparison table ------------------------------------------------ */

static void fmt_metric(char *buf, size_t len, double v, result_kind_t kind)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else if (kind == RES_KIND_TIME)
        snprintf(buf, len, "%.2f h", v / 3600);
    else if (kind == RES_KIND_FRACTION)
        snprintf(buf, len, "%.1f%%", 100 * v);
    else if (kind == RES_KIND_MS)
        snprintf(buf, len, "%.2f ms", 1000 * v);
    else
        snprintf(buf, len, "%.3f", v);
}

/* Key columns shown: those whose value differs between groups. */
typedef struct keys {
    int params, trace, cluster, label;
} keys_t;

static keys_t shown(const result_group_t *g, size_t n)
{
    keys_t k = {0, 0, 0, 0};
    for (size_t i = 1; i < n; i++) {
        k.params |= strcmp(g[i].key->params, g[0].key->params) != 0;
        k.trace |= strcmp(g[i].key->trace, g[0].key->trace) != 0;
        k.cluster |= strcmp(g[i].key->cluster, g[0].key->cluster) != 0;
        k.label |= strcmp(g[i].key->label, g[0].key->label) != 0;
    }
    k.params |= n > 0 && g[0].key->params[0];
    return k;
}

static void key_cell(FILE *f, const char *s)
{
    fputs("<td class=\"k\">", f);
    esc(f, s);
    fputs("</td>", f);
}

static void table_row(FILE *f, const result_group_t *g, const result_group_t *all, keys_t k)
{
    plot_style_t st = plot_style(g->key->policy);
    fprintf(f, "<tr><td class=\"k\"><span class=\"sw\" style=\"background:%s\"></span>", st.color);
    esc(f, g->key->policy);
    fputs("</td>", f);
    if (k.params)
        key_cell(f, g->key->params);
    if (k.trace)
        key_cell(f, g->key->trace);
    if (k.cluster)
        key_cell(f, g->key->cluster);
    if (k.label)
        key_cell(f, g->key->label);
    fprintf(f, "<td data-v=\"%zu\">%zu</td><td class=\"k\">%s</td>", g->n, g->n,
            g->oracle ? "yes" : "no");
    for (int m = 0; m < RES_N_METRICS; m++) {
        char v[64];
        fmt_metric(v, sizeof v, g->mean[m], results_metric(m)->kind);
        if (isnan(g->mean[m]))
            fprintf(f, "<td data-v=\"\">%s", v);
        else
            fprintf(f, "<td data-v=\"%.9g\">%s", g->mean[m], v);
        if (!isnan(g->ci95[m]) && g->n > 1) {
            char ci[64];
            fmt_metric(ci, sizeof ci, g->ci95[m], results_metric(m)->kind);
            fprintf(f, " <span class=\"rel\">&plusmn;%s</span>", ci);
        }
        const result_group_t *b = g->base >= 0 ? &all[g->base] : NULL;
        if (b && b->mean[m] > 0 && !isnan(g->mean[m]))
            fprintf(f, " <span class=\"rel\">(%.2fx)</span>", g->mean[m] / b->mean[m]);
        fputs("</td>", f);
    }
    fputs("</tr>\n", f);
}

static void write_table(FILE *f, const result_group_t *g, size_t n, const char *baseline)
{
    keys_t k = shown(g, n);
    fprintf(f,
            "<h2 id=\"table\">Comparison</h2>\n<p>One row per policy%s: the mean over its"
            " runs (&plusmn; the 95%% confidence half-width over seeds where there are"
            " several)",
            k.params || k.trace || k.cluster || k.label ? " and context" : "");
    if (baseline) {
        fputs(", each metric relative to ", f);
        esc(f, baseline);
        fputs(" on the same trace and cluster as (Nx)", f);
    }
    fputs(". Click a column to sort by it.</p>\n<table id=\"comparison\" class=\"sortable\">"
          "<thead><tr><th class=\"k\">policy</th>",
          f);
    const char *names[4] = {"params", "trace", "cluster", "label"};
    int on[4] = {k.params, k.trace, k.cluster, k.label};
    for (int i = 0; i < 4; i++)
        if (on[i])
            fprintf(f, "<th class=\"k\">%s</th>", names[i]);
    fputs("<th>runs</th><th class=\"k\">oracle</th>", f);
    for (int m = 0; m < RES_N_METRICS; m++) {
        fputs("<th>", f);
        esc(f, results_metric(m)->title);
        fputs("</th>", f);
    }
    fputs("</tr></thead>\n<tbody>\n", f);
    for (size_t i = 0; i < n; i++)
        table_row(f, &g[i], g, k);
    fputs("</tbody></table>\n", f);
}

/* ---- figures ------------------------------------------------------------------ */

static const char *caption(const char *fig)
{
    static const char *const caps[][2] = {
        {"jct_cdf", "Job completion time CDF: one line per policy (its first run)."},
        {"ftf_cdf", "Finish-time fairness CDF (&rho; = JCT / time at a 1/N share; &rho; &gt; 1"
                    " is worse than the isolated share)."},
        {"timeline", "GPU utilization and queue length over time, up to the 99th-percentile"
                     " finish of the measured jobs."},
        {"relative_bars", "Average JCT, makespan, worst &rho; and unfair fraction relative to"
                          " the baseline (mean over each policy's runs)."},
        {"jct_vs_load", "Average JCT against the arrival rate (runs labelled rate=R), 95%"
                        " confidence band over seeds."},
        {"user_share", "Each user's share of the GPUs over time in the baseline's run."},
    };
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++)
        if (!strcmp(caps[i][0], fig))
            return caps[i][1];
    return "";
}

/* Pastes the SVG from its <svg> on, each id and reference to one prefixed
 * with "f<k>_". */
static int inline_svg(FILE *f, const char *path, int k, mls_err_t *err)
{
    char *svg = mls_read_file(path, err);
    if (!svg)
        return -1;
    const char *p = strstr(svg, "<svg");
    p = p ? p : svg;
    static const char *const refs[] = {"id='", "id=\"", "href='#", "href=\"#", "url(#"};
    while (*p) {
        size_t r = 0, nr = sizeof refs / sizeof refs[0];
        while (r < nr && strncmp(p, refs[r], strlen(refs[r])))
            r++;
        if (r < nr) {
            fprintf(f, "%sf%d_", refs[r], k);
            p += strlen(refs[r]);
        } else
            fputc(*p++, f);
    }
    free(svg);
    return 0;
}

static int write_figures(FILE *f, const html_req_t *r, mls_err_t *err)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/figures", r->dir);
    plot_req_t pr;
    memset(&pr, 0, sizeof pr);
    pr.db = r->db;
    pr.out_dir = dir;
    pr.format = "svg";
    pr.baseline = r->baseline;
    pr.f = r->f;
    if (plot_draw(&pr, err) < 0)
        return -1;
    fputs("<h2 id=\"figures\">Figures</h2>\n<p>Each policy has the same colour, dash and marker"
          " in every figure (families share a hue). The data and gnuplot script of each figure"
          " are in <code>figures/</code> beside this page.</p>\n",
          f);
    int drawn = 0;
    for (int i = 0; i < PLOT_N_FIGURES; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s.svg", dir, plot_figure_name(i));
        struct stat sb;
        if (stat(path, &sb) != 0 || sb.st_size == 0)
            continue;
        fprintf(f, "<figure id=\"fig-%s\">", plot_figure_name(i));
        if (inline_svg(f, path, i, err) < 0)
            return -1;
        fprintf(f, "\n<figcaption>%s</figcaption></figure>\n", caption(plot_figure_name(i)));
        drawn++;
    }
    if (!drawn)
        fputs("<p>No figure could be drawn (is gnuplot installed?).</p>\n", f);
    return 0;
}

/* ---- run parameters ------------------------------------------------------------ */

enum { N_PARAM_COLS = 19 };
static const char *const param_cols[N_PARAM_COLS] = {
    "run_id",         "policy",       "params",           "seed",        "trace_path",
    "trace_checksum", "n_trace_jobs", "cluster",          "n_gpus",      "perf_model",
    "round_len",      "cadence",      "restart_overhead", "measure",     "label",
    "faults",         "overheads",    "version",          "wall_seconds"};

/* The runs' parameter values as text, rows x N_PARAM_COLS. */
static int load_params(const char *db_path, const result_set_t *rs, char ***cells, mls_err_t *err)
{
    sqlite3 *db = store_open_ro(db_path, err);
    if (!db)
        return -1;
    char sql[1024] = "SELECT ";
    for (int c = 0; c < N_PARAM_COLS; c++)
        snprintf(sql + strlen(sql), sizeof sql - strlen(sql), "%scoalesce(%s, '')", c ? ", " : "",
                 param_cols[c]);
    snprintf(sql + strlen(sql), sizeof sql - strlen(sql), " FROM runs WHERE run_id = ?1");
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        mls_fail(err, "%s: cannot read runs: %s", db_path, sqlite3_errmsg(db));
        sqlite3_close(db);
        return -1;
    }
    *cells = xmalloc(sizeof(char *) * rs->n * N_PARAM_COLS);
    for (size_t i = 0; i < rs->n; i++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, rs->rows[i].run_id);
        int row = sqlite3_step(st) == SQLITE_ROW;
        for (int c = 0; c < N_PARAM_COLS; c++) {
            char num[64];
            const char *v = row ? (const char *)sqlite3_column_text(st, c) : NULL;
            if (row && sqlite3_column_type(st, c) == SQLITE_FLOAT) /* 0.0571827219999932 */
                snprintf(num, sizeof num, "%.4g", sqlite3_column_double(st, c));
            (*cells)[i * N_PARAM_COLS + c] =
                xstrdup(row && sqlite3_column_type(st, c) == SQLITE_FLOAT ? num
                        : v                                               ? v
                                                                          : "");
        }
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}

static void write_params(FILE *f, const result_set_t *rs, char **cells)
{
    int same[N_PARAM_COLS];
    for (int c = 0; c < N_PARAM_COLS; c++) {
        same[c] = c > 1; /* run id and policy always per run */
        for (size_t i = 1; i < rs->n && same[c]; i++)
            same[c] = !strcmp(cells[i * N_PARAM_COLS + c], cells[c]);
    }
    fputs("<h2 id=\"params\">Run parameters</h2>\n<p>Shared by every run:</p>\n<dl>", f);
    for (int c = 0; c < N_PARAM_COLS; c++)
        if (same[c] && cells[c][0]) {
            fprintf(f, "<dt>%s</dt><dd>", param_cols[c]);
            esc(f, cells[c]);
            fputs("</dd>", f);
        }
    fputs("</dl>\n<p>Per run:</p>\n<table id=\"runs\" class=\"sortable\"><thead><tr>", f);
    for (int c = 0; c < N_PARAM_COLS; c++)
        if (!same[c])
            fprintf(f, "<th class=\"k\">%s</th>", param_cols[c]);
    fputs("</tr></thead>\n<tbody>\n", f);
    for (size_t i = 0; i < rs->n; i++) {
        fputs("<tr>", f);
        for (int c = 0; c < N_PARAM_COLS; c++)
            if (!same[c])
                key_cell(f, cells[i * N_PARAM_COLS + c]);
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

/* ---- diagnostics --------------------------------------------------------------- */

static void job_text(FILE *f, const diag_job_t *j)
{
    fprintf(f, "job %lld (%d GPU%s, submitted at %.1f h) held GPUs for %.1f h", (long long)j->id,
            j->gpus, j->gpus == 1 ? "" : "s", j->submit / 3600, j->run_time / 3600);
    if (j->isolated > 0)
        fprintf(f, " against %.1f h alone on its fastest type (%.1fx)", j->isolated / 3600,
                j->run_time / j->isolated);
    else
        fputs(" (its time alone is not known)", f);
    fprintf(f, ", waited %.1f h, %d preemption%s", j->queue_delay / 3600, j->preemptions,
            j->preemptions == 1 ? "" : "s");
}

static void write_diag(FILE *f, const result_row_t *row, const run_diag_t *d)
{
    fprintf(f, "<section class=\"run\" id=\"run-%lld\"><h3>", (long long)row->run_id);
    esc(f, row->policy);
    fprintf(f, ", run %lld (seed %lld%s", (long long)row->run_id, (long long)row->seed,
            row->label[0] ? ", label " : "");
    esc(f, row->label);
    fputs(")</h3><ul>\n", f);
    fprintf(f,
            "<li>utilization %.1f%%; GPUs at least a quarter idle while jobs waited for"
            " %.1f%% of the run%s</li>\n",
            100 * d->utilization, 100 * d->idle_waiting,
            d->idle_waiting > 0.1 ? " (placement constraints or fragmentation keep jobs out)" : "");
    if (d->unfinished)
        fprintf(f, "<li class=\"warn\">%d measured job%s never finished</li>\n", d->unfinished,
                d->unfinished == 1 ? "" : "s");
    if (d->saturated)
        fprintf(f,
                "<li class=\"warn\">saturated: the queue grew from %.0f to %.0f jobs over the"
                " second half of the arrivals (to %.1f h); the cluster does not keep up with"
                " this load</li>\n",
                d->q_half < 0 ? 0 : d->q_half, d->q_end, d->last_submit / 3600);
    else if (d->burst)
        fprintf(f,
                "<li>arrivals end at %.1f h, %.0f%% into the run: a batch of work that"
                " drains rather than a steady load (queue peak %.0f jobs%s%.1f h)</li>\n",
                d->last_submit / 3600, 100 * d->last_submit / d->makespan, d->q_peak,
                isnan(d->drained) ? "; still jobs queued at " : ", empty from ",
                (isnan(d->drained) ? d->makespan : d->drained) / 3600);
    else if (!isnan(d->q_end))
        fprintf(f,
                "<li>not saturated: queue %.0f jobs at mid-arrivals, %.0f at the last arrival"
                " (least-squares trend)</li>\n",
                d->q_half < 0 ? 0 : d->q_half, d->q_end < 0 ? 0 : d->q_end);
    if (d->last.id >= 0) {
        int tail = d->p99_finish > 0 && d->makespan > 1.5 * d->p99_finish;
        fprintf(f,
                "<li%s>makespan %.1f h%s; the last job to finish: ", tail ? " class=\"warn\"" : "",
                d->makespan / 3600, tail ? ", set by a tail" : "");
        job_text(f, &d->last);
        fprintf(f, "; finished at %.1f h, the 99th percentile at %.1f h</li>\n",
                d->last.finish / 3600, d->p99_finish / 3600);
    }
    if (d->n_slow) {
        fprintf(f,
                "<li class=\"warn\">%d job%s held GPUs for over %.0fx their time alone (slow"
                " GPU type, packing, preemptions or a spread placement):<ul>",
                d->n_slow, d->n_slow == 1 ? "" : "s", DIAG_SLOW_RATIO);
        for (int i = 0; i < d->n_slow && i < DIAG_TOP; i++) {
            fputs("<li>", f);
            job_text(f, &d->slow[i]);
            fputs("</li>", f);
        }
        fputs("</ul></li>\n", f);
    } else
        fprintf(f, "<li>no job held GPUs for over %.0fx its time alone</li>\n", DIAG_SLOW_RATIO);
    fputs("</ul></section>\n", f);
}

static int write_diagnostics(FILE *f, const html_req_t *r, const result_set_t *rs, mls_err_t *err)
{
    fputs("<h2 id=\"diagnostics\">Diagnostics</h2>\n<p>Per run, what explains its numbers:"
          " utilization and idle GPUs while jobs wait, saturation (the queue still growing when"
          " the arrivals end), the job that sets the makespan, and jobs that held GPUs far longer"
          " than they would alone. The time a job spent spread over nodes is not recorded in"
          " the results database.</p>\n",
          f);
    for (size_t i = 0; i < rs->n; i++) {
        run_diag_t d;
        if (run_diagnose(r->db, rs->rows[i].run_id, &d, err) < 0)
            return -1;
        write_diag(f, &rs->rows[i], &d);
    }
    return 0;
}

/* ---- the page ------------------------------------------------------------------ */

static int write_page(FILE *f, const html_req_t *r, const result_set_t *rs, const result_group_t *g,
                      size_t ng, mls_err_t *err)
{
    time_t now = time(NULL);
    char when[64];
    strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    const char *title = r->title ? r->title : r->db;
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>mlsched"
          " report: ",
          f);
    esc(f, title);
    fprintf(f, "</title>\n<style>%s</style></head>\n<body>\n<h1>mlsched report: ", style_sheet);
    esc(f, title);
    fprintf(f,
            "</h1>\n<p>%zu run%s, written %s by mlsched %s. <a href=\"#table\">Comparison</a>"
            " &middot; <a href=\"#figures\">Figures</a> &middot; <a href=\"#params\">Run"
            " parameters</a> &middot; <a href=\"#diagnostics\">Diagnostics</a></p>\n",
            rs->n, rs->n == 1 ? "" : "s", when, PACKAGE_VERSION);
    write_table(f, g, ng, r->baseline);
    char **cells = NULL;
    int rc = write_figures(f, r, err);
    if (rc == 0)
        rc = load_params(r->db, rs, &cells, err);
    if (rc == 0) {
        write_params(f, rs, cells);
        for (size_t i = 0; i < rs->n * N_PARAM_COLS; i++)
            free(cells[i]);
        free(cells);
        rc = write_diagnostics(f, r, rs, err);
    }
    fprintf(f, "<script>%s</script>\n</body></html>\n", sorter);
    return rc;
}

int html_report(const html_req_t *r, mls_err_t *err)
{
    result_set_t rs;
    if (results_load(r->db, &r->f, &rs, err) < 0)
        return -1;
    if (!rs.n) {
        results_free(&rs);
        return mls_fail(err, "%s: no runs match", r->db);
    }
    if (mkdir(r->dir, 0777) != 0 && errno != EEXIST) {
        results_free(&rs);
        return mls_fail(err, "%s: cannot create: %s", r->dir, strerror(errno));
    }
    result_group_t *g;
    size_t ng;
    results_group(&rs, r->by, r->baseline, &g, &ng);
    char path[4096];
    snprintf(path, sizeof path, "%s/index.html", r->dir);
    FILE *f = fopen(path, "w");
    int rc = f ? write_page(f, r, &rs, g, ng, err)
               : mls_fail(err, "%s: cannot write: %s", path, strerror(errno));
    if (f && fclose(f) != 0 && rc == 0)
        rc = mls_fail(err, "%s: write error", path);
    if (rc == 0)
        printf("report: %s\n", path);
    free(g);
    results_free(&rs);
    return rc;
}
