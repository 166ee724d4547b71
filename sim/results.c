/* results.c: run summaries from a results database, grouped and printed
 * (see results.h). Rows come from one SELECT on the run_summary view with the
 * filters bound as GLOB parameters; groups are found by a linear scan (a
 * comparison has tens of groups, not millions); the table is built as a grid
 * of strings first so that every format shares the same cells. */
#include "sim/results.h"

#include "sim/store.h"

#include <cjson/cJSON.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const result_metric_info_t metrics[RES_N_METRICS] = {
    [RES_AVG_JCT] = {"avg_jct", "avg JCT", RES_KIND_TIME},
    [RES_P50_JCT] = {"p50_jct", "p50 JCT", RES_KIND_TIME},
    [RES_P95_JCT] = {"p95_jct", "p95 JCT", RES_KIND_TIME},
    [RES_P99_JCT] = {"p99_jct", "p99 JCT", RES_KIND_TIME},
    [RES_MAKESPAN] = {"makespan", "makespan", RES_KIND_TIME},
    [RES_AVG_QUEUE] = {"avg_queue_delay", "avg queue", RES_KIND_TIME},
    [RES_UNFAIR] = {"unfair_fraction", "unfair", RES_KIND_FRACTION},
    [RES_WORST_FTF] = {"worst_ftf", "worst rho", RES_KIND_NUMBER},
    [RES_JAIN] = {"jain_index", "Jain", RES_KIND_NUMBER},
    [RES_UTIL] = {"utilization", "util", RES_KIND_FRACTION},
    [RES_DECISION] = {"decision_time_mean", "decision", RES_KIND_MS},
};

/* The comparison set: the columns of the Gavel/Shockwave tables. */
static const int default_metrics[] = {RES_AVG_JCT,   RES_P50_JCT, RES_P99_JCT,   RES_MAKESPAN,
                                      RES_AVG_QUEUE, RES_UNFAIR,  RES_WORST_FTF, RES_UTIL};

const result_metric_info_t *results_metric(int m)
{
    return m >= 0 && m < RES_N_METRICS ? &metrics[m] : NULL;
}

int results_metric_find(const char *key)
{
    for (int m = 0; m < RES_N_METRICS; m++)
        if (!strcmp(metrics[m].key, key))
            return m;
    return -1;
}

/* ---- loading ------------------------------------------------------------ */

static char *col_text(sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);
    return xstrdup(s ? (const char *)s : "");
}

static double col_real(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static void read_row(sqlite3_stmt *st, result_row_t *r)
{
    int i = 0;
    r->run_id = sqlite3_column_int64(st, i++);
    r->policy = col_text(st, i++);
    r->params = col_text(st, i++);
    r->oracle = sqlite3_column_int(st, i++);
    r->seed = sqlite3_column_int64(st, i++);
    r->trace = col_text(st, i++);
    r->cluster = col_text(st, i++);
    r->label = col_text(st, i++);
    r->jobs = sqlite3_column_int(st, i++);
    for (int m = 0; m < RES_N_METRICS; m++)
        r->m[m] = col_real(st, i++);
}

static char *select_sql(void)
{
    size_t n = 4096;
    char *sql = xmalloc(n);
    size_t len = (size_t)snprintf(sql, n,
                                  "SELECT run_id, policy, params, oracle, seed, trace,"
                                  " cluster, label, jobs");
    for (int m = 0; m < RES_N_METRICS; m++)
        len += (size_t)snprintf(sql + len, n - len, ", %s", metrics[m].key);
    snprintf(sql + len, n - len,
             " FROM run_summary WHERE (?1 IS NULL OR policy GLOB ?1)"
             " AND (?2 IS NULL OR trace GLOB ?2) AND (?3 IS NULL OR cluster GLOB ?3)"
             " AND (?4 IS NULL OR coalesce(label, '') GLOB ?4)"
             " AND run_id >= ?5 AND (?6 = 0 OR run_id <= ?6) ORDER BY run_id");
    return sql;
}

static void bind_filter(sqlite3_stmt *st, const result_filter_t *f)
{
    const char *pat[4] = {f->policy, f->trace, f->cluster, f->label};
    for (int i = 0; i < 4; i++)
        if (pat[i])
            sqlite3_bind_text(st, i + 1, pat[i], -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 5, f->run_lo);
    sqlite3_bind_int64(st, 6, f->run_hi);
}

static int query_rows(sqlite3 *db, const char *path, const result_filter_t *f, result_set_t *out,
                      mls_err_t *err)
{
    char *sql = select_sql();
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    free(sql);
    if (rc != SQLITE_OK)
        return mls_fail(err, "%s: not an mlsched results database (%s)", path, sqlite3_errmsg(db));
    bind_filter(st, f);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        xgrow((void **)&out->rows, &out->cap, out->n + 1, sizeof *out->rows);
        read_row(st, &out->rows[out->n++]);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return mls_fail(err, "%s: cannot read run_summary: %s", path, sqlite3_errmsg(db));
    return 0;
}

int results_load(const char *db_path, const result_filter_t *f, result_set_t *out, mls_err_t *err)
{
    static const result_filter_t none = {0};
    memset(out, 0, sizeof *out);
    struct stat sb;
    if (stat(db_path, &sb) < 0)
        return mls_fail(err, "%s: no such results database", db_path);
    sqlite3 *db = store_open_ro(db_path, err);
    if (!db)
        return -1;
    int rc = query_rows(db, db_path, f ? f : &none, out, err);
    sqlite3_close(db);
    if (rc < 0)
        results_free(out);
    return rc;
}

void results_free(result_set_t *rs)
{
    for (size_t i = 0; i < rs->n; i++) {
        result_row_t *r = &rs->rows[i];
        free(r->policy);
        free(r->params);
        free(r->trace);
        free(r->cluster);
        free(r->label);
    }
    free(rs->rows);
    memset(rs, 0, sizeof *rs);
}

/* ---- grouping and statistics -------------------------------------------- */

double results_ci95(double sd, size_t n)
{
    if (n < 2 || !isfinite(sd))
        return NAN;
    return gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * sd / sqrt((double)n);
}

/* Same context: equal on every field in `by` except params. */
static int same_context(const result_row_t *a, const result_row_t *b, unsigned by)
{
    return (!(by & RES_BY_TRACE) || !strcmp(a->trace, b->trace)) &&
           (!(by & RES_BY_CLUSTER) || !strcmp(a->cluster, b->cluster)) &&
           (!(by & RES_BY_LABEL) || !strcmp(a->label, b->label));
}

static int same_group(const result_row_t *a, const result_row_t *b, unsigned by)
{
    return !strcmp(a->policy, b->policy) && same_context(a, b, by) &&
           (!(by & RES_BY_PARAMS) || !strcmp(a->params, b->params));
}

static void group_stats(const result_set_t *rs, unsigned by, result_group_t *g)
{
    for (int m = 0; m < RES_N_METRICS; m++) {
        double sum = 0, sq = 0;
        size_t k = 0;
        for (size_t i = 0; i < rs->n; i++) {
            const result_row_t *r = &rs->rows[i];
            if (same_group(r, g->key, by) && isfinite(r->m[m])) {
                sum += r->m[m];
                k++;
            }
        }
        g->mean[m] = k ? sum / (double)k : NAN;
        for (size_t i = 0; i < rs->n; i++) {
            const result_row_t *r = &rs->rows[i];
            if (same_group(r, g->key, by) && isfinite(r->m[m]))
                sq += (r->m[m] - g->mean[m]) * (r->m[m] - g->mean[m]);
        }
        g->ci95[m] = k > 1 ? results_ci95(sqrt(sq / (double)(k - 1)), k) : NAN;
    }
}

static void find_baselines(result_group_t *g, size_t n, unsigned by, const char *baseline)
{
    for (size_t i = 0; i < n; i++) {
        g[i].base = -1;
        for (size_t j = 0; baseline && j < n && g[i].base < 0; j++)
            if (!strcmp(g[j].key->policy, baseline) && same_context(g[i].key, g[j].key, by))
                g[i].base = (long)j;
    }
}

void results_group(const result_set_t *rs, unsigned by, const char *baseline, result_group_t **out,
                   size_t *n)
{
    result_group_t *g = NULL;
    size_t ng = 0, cap = 0;
    for (size_t i = 0; i < rs->n; i++) {
        const result_row_t *r = &rs->rows[i];
        size_t k = 0;
        while (k < ng && !same_group(r, g[k].key, by))
            k++;
        if (k == ng) {
            xgrow((void **)&g, &cap, ng + 1, sizeof *g);
            memset(&g[ng], 0, sizeof *g);
            g[ng++].key = r;
        }
        g[k].n++;
        g[k].oracle |= r->oracle;
    }
    for (size_t k = 0; k < ng; k++)
        group_stats(rs, by, &g[k]);
    find_baselines(g, ng, by, baseline);
    *out = g;
    *n = ng;
}

/* ---- printing ----------------------------------------------------------- */

int results_format_parse(const char *s)
{
    static const char *const names[] = {"table", "markdown", "csv", "json"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, names[i]))
            return i;
    return -1;
}

typedef struct grid {
    char **cell; /* rows x cols, row 0 = header */
    size_t rows, cols;
} grid_t;

static void grid_set(grid_t *t, size_t r, size_t c, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void grid_set(grid_t *t, size_t r, size_t c, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    free(t->cell[r * t->cols + c]);
    t->cell[r * t->cols + c] = xstrdup(buf);
}

static const char *grid_get(const grid_t *t, size_t r, size_t c)
{
    const char *s = t->cell[r * t->cols + c];
    return s ? s : "";
}

static void grid_free(grid_t *t)
{
    for (size_t i = 0; i < t->rows * t->cols; i++)
        free(t->cell[i]);
    free(t->cell);
}

/* Which key columns vary (worth showing). */
typedef struct shown {
    int label, trace, cluster, runs;
} shown_t;

static shown_t shown_keys(const result_group_t *g, size_t n, unsigned by)
{
    by = by ? by : RES_BY_ALL;
    shown_t s = {0, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        s.label |= g[i].key->label[0] != '\0';
        s.trace |= (by & RES_BY_TRACE) && strcmp(g[i].key->trace, g[0].key->trace) != 0;
        s.cluster |= (by & RES_BY_CLUSTER) && strcmp(g[i].key->cluster, g[0].key->cluster);
        s.runs |= g[i].n > 1;
    }
    return s;
}

/* Time unit of a column: hours, minutes or seconds, from its largest value. */
static double time_scale(const result_group_t *g, size_t n, int m, const char **unit)
{
    double mx = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(g[i].mean[m]) && g[i].mean[m] > mx)
            mx = g[i].mean[m];
    *unit = mx >= 3600 ? "h" : mx >= 60 ? "min" : "s";
    return mx >= 3600 ? 3600 : mx >= 60 ? 60 : 1;
}

static void fmt_value(char *buf, size_t len, double v, result_kind_t kind, double scale)
{
    if (!isfinite(v))
        snprintf(buf, len, "-");
    else if (kind == RES_KIND_TIME)
        snprintf(buf, len, "%.2f", v / scale);
    else if (kind == RES_KIND_FRACTION)
        snprintf(buf, len, "%.1f%%", 100 * v);
    else if (kind == RES_KIND_MS)
        snprintf(buf, len, "%.3f", 1e3 * v);
    else
        snprintf(buf, len, "%.3f", v);
}

static void metric_cell(grid_t *t, size_t r, size_t c, const result_group_t *g,
                        const result_group_t *all, int m, double scale,
                        const result_print_opts_t *o)
{
    char v[64], ci[64] = "", rel[64] = "";
    result_kind_t kind = metrics[m].kind;
    fmt_value(v, sizeof v, g->mean[m], kind, scale);
    if (o->show_ci && isfinite(g->ci95[m])) {
        char h[48];
        fmt_value(h, sizeof h, g->ci95[m], kind, scale);
        snprintf(ci, sizeof ci, " ± %s", h);
    }
    if (o->show_rel && g->base >= 0) {
        double b = all[g->base].mean[m];
        if (isfinite(b) && b != 0 && isfinite(g->mean[m]))
            snprintf(rel, sizeof rel, " (%.2fx)", g->mean[m] / b);
        else
            snprintf(rel, sizeof rel, " (-)");
    }
    grid_set(t, r, c, "%s%s%s", v, ci, rel);
}

static void header_cell(grid_t *t, size_t c, const result_group_t *g, size_t n, int m)
{
    const char *unit = "";
    if (metrics[m].kind == RES_KIND_TIME)
        time_scale(g, n, m, &unit);
    else if (metrics[m].kind == RES_KIND_MS)
        unit = "ms";
    if (unit[0])
        grid_set(t, 0, c, "%s (%s)", metrics[m].title, unit);
    else
        grid_set(t, 0, c, "%s", metrics[m].title);
}

static void build_grid(grid_t *t, const result_group_t *g, size_t n, const int *ms, size_t nm,
                       const result_print_opts_t *o)
{
    shown_t s = shown_keys(g, n, o->by);
    t->rows = n + 1;
    t->cols = (size_t)(s.label + s.trace + s.cluster + 2 + s.runs) + nm;
    t->cell = xcalloc(t->rows * t->cols, sizeof *t->cell);
    size_t c = 0;
    const char *heads[] = {"label", "trace", "cluster"};
    int on[] = {s.label, s.trace, s.cluster};
    for (int k = 0; k < 3; k++)
        if (on[k])
            grid_set(t, 0, c++, "%s", heads[k]);
    grid_set(t, 0, c++, "policy");
    grid_set(t, 0, c++, "oracle");
    if (s.runs)
        grid_set(t, 0, c++, "runs");
    for (size_t k = 0; k < nm; k++)
        header_cell(t, c + k, g, n, ms[k]);
    for (size_t i = 0; i < n; i++) {
        const result_row_t *key = g[i].key;
        const char *val[] = {key->label, key->trace, key->cluster};
        c = 0;
        for (int k = 0; k < 3; k++)
            if (on[k])
                grid_set(t, i + 1, c++, "%s", val[k]);
        if (key->params[0])
            grid_set(t, i + 1, c++, "%s[%s]", key->policy, key->params);
        else
            grid_set(t, i + 1, c++, "%s", key->policy);
        grid_set(t, i + 1, c++, "%s", g[i].oracle ? "yes" : "no");
        if (s.runs)
            grid_set(t, i + 1, c++, "%zu", g[i].n);
        for (size_t k = 0; k < nm; k++) {
            const char *unit;
            double scale =
                metrics[ms[k]].kind == RES_KIND_TIME ? time_scale(g, n, ms[k], &unit) : 1;
            metric_cell(t, i + 1, c + k, &g[i], g, ms[k], scale, o);
        }
    }
}

/* Display width: counts UTF-8 code points, not bytes (for "±"). */
static size_t width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void print_aligned(FILE *out, const grid_t *t, int markdown)
{
    size_t *w = xcalloc(t->cols, sizeof *w);
    for (size_t r = 0; r < t->rows; r++)
        for (size_t c = 0; c < t->cols; c++)
            if (width(grid_get(t, r, c)) > w[c])
                w[c] = width(grid_get(t, r, c));
    for (size_t r = 0; r < t->rows; r++) {
        for (size_t c = 0; c < t->cols; c++) {
            const char *s = grid_get(t, r, c);
            int pad = (int)(w[c] - width(s));
            int right = c > 0 && r > 0 && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9'));
            fprintf(out, "%s%*s%s%*s", markdown ? "| " : (c ? "  " : ""), right ? pad : 0, "", s,
                    right ? 0 : pad, "");
            if (markdown)
                fputc(' ', out);
        }
        fputs(markdown ? "|\n" : "\n", out);
        if (r == 0) {
            for (size_t c = 0; c < t->cols; c++) {
                fputs(markdown ? "|-" : (c ? "  " : ""), out);
                for (size_t k = 0; k < w[c]; k++)
                    fputc('-', out);
                if (markdown)
                    fputc('-', out);
            }
            fputs(markdown ? "|\n" : "\n", out);
        }
    }
    free(w);
}

static void csv_field(FILE *out, const char *s, int first)
{
    if (!first)
        fputc(',', out);
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void csv_num(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, ",%.10g", v);
    else
        fputc(',', out);
}

static double rel_of(const result_group_t *g, const result_group_t *all, int m)
{
    if (g->base < 0)
        return NAN;
    double b = all[g->base].mean[m];
    return b != 0 ? g->mean[m] / b : NAN;
}

static void print_csv(FILE *out, const result_group_t *g, size_t n, const int *ms, size_t nm)
{
    fputs("label,trace,cluster,policy,params,oracle,runs", out);
    for (size_t k = 0; k < nm; k++)
        fprintf(out, ",%s,%s_ci95,%s_rel", metrics[ms[k]].key, metrics[ms[k]].key,
                metrics[ms[k]].key);
    fputc('\n', out);
    for (size_t i = 0; i < n; i++) {
        const result_row_t *key = g[i].key;
        csv_field(out, key->label, 1);
        csv_field(out, key->trace, 0);
        csv_field(out, key->cluster, 0);
        csv_field(out, key->policy, 0);
        csv_field(out, key->params, 0);
        fprintf(out, ",%d,%zu", g[i].oracle, g[i].n);
        for (size_t k = 0; k < nm; k++) {
            csv_num(out, g[i].mean[ms[k]]);
            csv_num(out, g[i].ci95[ms[k]]);
            csv_num(out, rel_of(&g[i], g, ms[k]));
        }
        fputc('\n', out);
    }
}

static void json_num(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

static void print_json(FILE *out, const result_group_t *g, size_t n, const int *ms, size_t nm,
                       const char *baseline)
{
    cJSON *root = cJSON_CreateObject();
    if (baseline)
        cJSON_AddStringToObject(root, "baseline", baseline);
    else
        cJSON_AddNullToObject(root, "baseline");
    cJSON *arr = cJSON_AddArrayToObject(root, "groups");
    for (size_t i = 0; i < n; i++) {
        const result_row_t *key = g[i].key;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "policy", key->policy);
        cJSON_AddStringToObject(o, "params", key->params);
        cJSON_AddBoolToObject(o, "oracle", g[i].oracle);
        cJSON_AddStringToObject(o, "label", key->label);
        cJSON_AddStringToObject(o, "trace", key->trace);
        cJSON_AddStringToObject(o, "cluster", key->cluster);
        cJSON_AddNumberToObject(o, "runs", (double)g[i].n);
        for (size_t k = 0; k < nm; k++) {
            char name[64];
            json_num(o, metrics[ms[k]].key, g[i].mean[ms[k]]);
            snprintf(name, sizeof name, "%s_ci95", metrics[ms[k]].key);
            json_num(o, name, g[i].ci95[ms[k]]);
            snprintf(name, sizeof name, "%s_rel", metrics[ms[k]].key);
            json_num(o, name, rel_of(&g[i], g, ms[k]));
        }
        cJSON_AddItemToArray(arr, o);
    }
    char *s = cJSON_Print(root);
    fprintf(out, "%s\n", s);
    cJSON_free(s);
    cJSON_Delete(root);
}

void results_print(FILE *out, const result_group_t *g, size_t n, const result_print_opts_t *o)
{
    const int *ms = o->metrics ? o->metrics : default_metrics;
    size_t nm = o->metrics ? o->n_metrics : sizeof default_metrics / sizeof default_metrics[0];
    if (o->format == RES_FMT_CSV) {
        print_csv(out, g, n, ms, nm);
        return;
    }
    if (o->format == RES_FMT_JSON) {
        print_json(out, g, n, ms, nm, o->baseline);
        return;
    }
    grid_t t;
    build_grid(&t, g, n, ms, nm, o);
    print_aligned(out, &t, o->format == RES_FMT_MARKDOWN);
    grid_free(&t);
    if (o->show_rel && o->baseline)
        fprintf(out, "%s(Nx) = value / the value of %s on the same trace and cluster\n",
                o->format == RES_FMT_MARKDOWN ? "\n" : "", o->baseline);
}
