/* cmd-regress.c: `mlsched regress` — gate policy changes on golden numbers.
 *
 * Each run of the database is keyed by what defines the experiment (trace file
 * name and checksum, policy, parameters, seed, cluster, round, overhead); each
 * of its summary metrics is compared with the golden file's value. A metric
 * that moved either way by more than the tolerance (relative) fails the gate:
 * regress is about change that would otherwise go unnoticed. Each move is
 * printed signed and named by the metric's direction (improved or regressed;
 * within the tolerance: moved), and a golden run missing from the database
 * is counted apart from a run the golden file does not have. Runs missing on
 * either side are reported too. --update rewrites the golden file (atomically)
 * from the database. Wall-clock figures (decision time) are never compared.
 *
 * Golden file: {"version": 1, "runs": {"KEY": {"avg_jct": 123.4, ...}, ...}} */
#include "cli/cmd.h"
#include "cli/opts.h"
#include "model/json_util.h"
#include "model/util.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const metrics[] = {"avg_jct",        "p50_jct",         "p99_jct",
                                      "makespan",       "avg_queue_delay", "utilization",
                                      "unfair_fraction", "worst_ftf",      "jain_index",
                                      "preemptions"};
#define N_METRICS (sizeof metrics / sizeof metrics[0])
/* +1: more is better, -1: less is better (each metric above, in order). */
static const int better[N_METRICS] = {-1, -1, -1, -1, -1, +1, -1, -1, +1, -1};

typedef struct run_vals {
    char key[1024];
    double v[N_METRICS];
} run_vals_t;

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static int load_db(const char *path, run_vals_t **out, size_t *n, mls_err_t *err)
{
    sqlite3 *db = NULL;
    if (access(path, R_OK) != 0 || sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL)) {
        sqlite3_close(db);
        return mls_fail(err, "%s: cannot open the results database", path);
    }
    const char *sql =
        "SELECT r.trace_path, r.trace_checksum, r.policy, r.params, r.seed, r.cluster,"
        " r.round_len, r.restart_overhead, coalesce(r.measure,''), s.avg_jct, s.p50_jct,"
        " s.p99_jct, s.makespan, s.avg_queue_delay, s.utilization, s.unfair_fraction,"
        " s.worst_ftf, s.jain_index, s.preemptions FROM runs r JOIN summary s"
        " ON s.run_id = r.run_id ORDER BY r.run_id";
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        int rc = mls_fail(err, "%s: not an mlsched results database: %s", path,
                          sqlite3_errmsg(db));
        sqlite3_close(db);
        return rc;
    }
    size_t cap = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        xgrow((void **)out, &cap, *n + 1, sizeof **out);
        run_vals_t *r = &(*out)[(*n)++];
        const char *tp = (const char *)sqlite3_column_text(st, 0);
        snprintf(r->key, sizeof r->key, "%s@%.8s|%s|%s|seed=%lld|%s|round=%g|overhead=%g|%s",
                 base_name(tp ? tp : "?"), (const char *)sqlite3_column_text(st, 1),
                 (const char *)sqlite3_column_text(st, 2),
                 (const char *)sqlite3_column_text(st, 3), sqlite3_column_int64(st, 4),
                 base_name((const char *)sqlite3_column_text(st, 5)),
                 sqlite3_column_double(st, 6), sqlite3_column_double(st, 7),
                 (const char *)sqlite3_column_text(st, 8));
        for (size_t m = 0; m < N_METRICS; m++)
            r->v[m] = sqlite3_column_type(st, 9 + (int)m) == SQLITE_NULL
                          ? NAN
                          : sqlite3_column_double(st, 9 + (int)m);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}

static int write_golden(const char *path, const run_vals_t *runs, size_t n, mls_err_t *err)
{
    cJSON *root = cJSON_CreateObject(), *rs;
    cJSON_AddNumberToObject(root, "version", 1);
    rs = cJSON_AddObjectToObject(root, "runs");
    for (size_t i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        for (size_t m = 0; m < N_METRICS; m++) {
            if (isfinite(runs[i].v[m]))
                cJSON_AddNumberToObject(o, metrics[m], runs[i].v[m]);
            else
                cJSON_AddNullToObject(o, metrics[m]);
        }
        cJSON_DeleteItemFromObjectCaseSensitive(rs, runs[i].key);
        cJSON_AddItemToObject(rs, runs[i].key, o);
    }
    int rc = mls_json_save(path, root, err);
    cJSON_Delete(root);
    return rc;
}

/* Signed relative change, 0 when both are missing, NAN when one is. */
static double rel_change(double old, double now)
{
    if (isnan(old) && isnan(now))
        return 0;
    if (isnan(old) || isnan(now))
        return NAN;
    double scale = fabs(old) > 1e-12 ? fabs(old) : 1;
    return (now - old) / scale;
}

typedef struct tally {
    int improved, regressed, gone, within, missing, not_golden;
} tally_t;

/* One metric's line: beyond the tolerance it improved or regressed (by the
 * metric's direction) or appeared/disappeared; within it, it moved. */
static void report_metric(size_t m, double old, double now, double tol, const char *key,
                          tally_t *t)
{
    double d = rel_change(old, now);
    if (!isnan(d) && fabs(d) <= 1e-12)
        return;
    const char *status;
    if (isnan(d)) {
        status = "changed";
        t->gone++;
    } else if (fabs(d) <= tol) {
        status = "moved";
        t->within++;
    } else if ((d > 0) == (better[m] > 0)) {
        status = "improved";
        t->improved++;
    } else {
        status = "regressed";
        t->regressed++;
    }
    char change[32];
    if (isnan(d))
        snprintf(change, sizeof change, "%s", isnan(old) ? "new" : "gone");
    else
        snprintf(change, sizeof change, "%+.2f%%", 100 * d);
    printf("%-10s %-16s %14.6g %14.6g %9s  %s\n", status, metrics[m], old, now, change, key);
}

static int compare(const cJSON *golden_runs, const run_vals_t *runs, size_t n, double tol,
                   int allow_new)
{
    tally_t t = {0};
    printf("%-10s %-16s %14s %14s %9s  %s\n", "status", "metric", "golden", "now", "change",
           "run");
    for (size_t i = 0; i < n; i++) {
        const cJSON *g = cJSON_GetObjectItemCaseSensitive(golden_runs, runs[i].key);
        if (!g) {
            printf("%-10s %-16s %14s %14s %9s  %s\n", allow_new ? "new run" : "NOT-GOLDEN", "-",
                   "-", "-", "-", runs[i].key);
            t.not_golden += !allow_new;
            continue;
        }
        for (size_t m = 0; m < N_METRICS; m++) {
            const cJSON *gv = cJSON_GetObjectItemCaseSensitive(g, metrics[m]);
            report_metric(m, cJSON_IsNumber(gv) ? gv->valuedouble : NAN, runs[i].v[m], tol,
                          runs[i].key, &t);
        }
    }
    const cJSON *g;
    cJSON_ArrayForEach(g, golden_runs)
    {
        int found = 0;
        for (size_t i = 0; i < n && !found; i++)
            found = !strcmp(runs[i].key, g->string);
        if (!found) {
            printf("%-10s %-16s %14s %14s %9s  %s\n", "MISSING", "-", "-", "-", "-", g->string);
            t.missing++;
        }
    }
    int beyond = t.improved + t.regressed + t.gone;
    printf("regress: %zu runs; %d metrics beyond %.3g%% (%d regressed, %d improved, %d new or "
           "gone), %d moved within it; %d golden runs missing, %d runs not in the golden file\n",
           n, beyond, 100 * tol, t.regressed, t.improved, t.gone, t.within, t.missing,
           t.not_golden);
    return beyond + t.missing + t.not_golden;
}

static int parse_tolerance(void *base, size_t off, const char *s, const char *who)
{
    double *out = (double *)((char *)base + off);
    char buf[64];
    (void)who;
    snprintf(buf, sizeof buf, "%s", s);
    size_t l = strlen(buf);
    double scale = 1;
    if (l && buf[l - 1] == '%') {
        buf[l - 1] = '\0';
        scale = 0.01;
    }
    if (mls_parse_double(buf, out) < 0 || *out < 0)
        return -1;
    *out *= scale;
    return 0;
}

typedef struct regress_opts {
    const char *db, *golden;
    double tol;
    int update, allow_new;
} regress_opts_t;

static const opt_t options[] = {
    OPT_SHARED_DB(regress_opts_t, db, "results database"),
    OPT_STRING("golden", 'g', "G.json", regress_opts_t, golden, "golden metrics file"),
    OPT_CALL("tolerance", 't', "T", regress_opts_t, tol, parse_tolerance,
             "--tolerance wants e.g. 2%% or 0.02, got '%s'",
             "how far a metric may move, relative (default 2%)"),
    OPT_FLAG("update", 'u', regress_opts_t, update, "rewrite the golden file from the database"),
    OPT_FLAG("allow-new", 'a', regress_opts_t, allow_new,
             "runs the golden file lacks are not an error"),
    OPT_END_ROW};

static const opt_cmd_t command = {
    .who = "regress",
    .usage = "--db FILE --golden G.json [--tolerance 2%] [--update] [--allow-new]",
    .about = "Compares every summary metric of every run in the database with the\n"
             "golden file; prints each change signed, as improved or regressed by the\n"
             "metric's direction (moved: within the tolerance); exits 1 when a metric\n"
             "moved beyond the tolerance (either way) or a run is missing on either\n"
             "side, 0 otherwise. --update rewrites the golden file from the database.",
    .opts = options,
};

static int exec_regress(int argc, char **argv)
{
    regress_opts_t o = {NULL, NULL, 0.02, 0, 0};
    int prc = opt_parse_only(&command, &o, argc, argv);
    if (prc)
        return prc < 0 ? MLS_EXIT_OK : prc;
    if (!o.db || !o.golden)
        return cmd_usage_error("regress", "%s", "--db and --golden are required");
    const char *db = o.db, *golden = o.golden;
    double tol = o.tol;
    int update = o.update, allow_new = o.allow_new;
    mls_err_t err = {{0}};
    run_vals_t *runs = NULL;
    size_t n = 0;
    int rc = load_db(db, &runs, &n, &err);
    if (rc == 0 && update) {
        rc = write_golden(golden, runs, n, &err);
        if (rc == 0)
            printf("regress: wrote %zu runs to %s\n", n, golden);
    } else if (rc == 0) {
        char *text = mls_read_file(golden, &err);
        cJSON *root = text ? cJSON_Parse(text) : NULL;
        const cJSON *rs = root ? cJSON_GetObjectItemCaseSensitive(root, "runs") : NULL;
        if (!text)
            rc = -1;
        else if (!cJSON_IsObject(rs))
            rc = mls_fail(&err, "%s: not a golden file (expected {\"version\": 1, \"runs\": {...}})",
                          golden);
        else if (compare(rs, runs, n, tol, allow_new) > 0)
            rc = 1;
        cJSON_Delete(root);
        free(text);
    }
    if (rc < 0)
        fprintf(stderr, "mlsched regress: %s\n", err.msg);
    free(runs);
    return rc == 0 ? MLS_EXIT_OK : MLS_EXIT_FAIL;
}

const cmd_entry_t cmd_regress_entry = {"regress", "compare runs with golden metrics (CI gate)",
                                       exec_regress};
