/* store.c: writes runs into the SQLite results database (see store.h).
 * Prepared statements, one transaction per run; the per-job tables (jobs,
 * early_feedback, timeline) are written many rows per statement execution
 * (insert_batched), which halves the cost of a 100,000-job run's write
 * without changing a byte of what is stored. The schema is created with
 * IF NOT EXISTS so many runs (and many processes, one after another) append to
 * one file. A busy timeout lets parallel writers wait their turn. */
#include "sim/store.h"

#include "config.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

static const char *const schema_sql =
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);"
    "INSERT OR IGNORE INTO meta VALUES('schema_version','1');"
    "CREATE TABLE IF NOT EXISTS runs("
    " run_id INTEGER PRIMARY KEY, created TEXT, version TEXT, policy TEXT, params TEXT,"
    " oracle INTEGER, trace_path TEXT, trace_checksum TEXT, n_trace_jobs INTEGER,"
    " cluster TEXT, cluster_json TEXT, n_gpus INTEGER, perf_model TEXT, seed INTEGER,"
    " round_len REAL, cadence TEXT, restart_overhead REAL, measure TEXT, label TEXT,"
    " faults TEXT, overheads TEXT,"
    " wall_seconds REAL, events INTEGER, decisions INTEGER);"
    "CREATE TABLE IF NOT EXISTS jobs("
    " run_id INTEGER, job_id INTEGER, user TEXT, workload TEXT, gpus INTEGER, work REAL,"
    " submit REAL, first_start REAL, finish REAL, jct REAL, queue_delay REAL,"
    " run_time REAL, gpu_seconds REAL, preemptions INTEGER, restarts INTEGER,"
    " isolated_time REAL, contention REAL, ftf_rho REAL, deadline REAL,"
    " deadline_met INTEGER, measured INTEGER, PRIMARY KEY(run_id, job_id));"
    "CREATE TABLE IF NOT EXISTS timeline("
    " run_id INTEGER, t REAL, busy_gpus INTEGER, running_jobs INTEGER, queued_jobs INTEGER,"
    " utilization REAL);"
    "CREATE INDEX IF NOT EXISTS timeline_run ON timeline(run_id, t);"
    "CREATE TABLE IF NOT EXISTS summary("
    " run_id INTEGER PRIMARY KEY, jobs INTEGER, unfinished INTEGER, avg_jct REAL,"
    " p50_jct REAL, p95_jct REAL, p99_jct REAL, makespan REAL, avg_queue_delay REAL,"
    " utilization REAL, unfair_fraction REAL, worst_ftf REAL, jain_index REAL,"
    " deadline_jobs INTEGER, deadlines_met INTEGER, preemptions INTEGER, restarts INTEGER,"
    " decision_time_total REAL, decision_time_mean REAL, decision_time_max REAL);"
    "CREATE VIEW IF NOT EXISTS run_summary AS SELECT r.run_id AS run_id, r.policy AS policy,"
    " r.params AS params, r.oracle AS oracle, r.seed AS seed, r.trace_path AS trace,"
    " r.cluster AS cluster, r.label AS label, s.jobs AS jobs, s.avg_jct AS avg_jct,"
    " s.p50_jct AS p50_jct, s.p95_jct AS p95_jct, s.p99_jct AS p99_jct,"
    " s.makespan AS makespan, s.avg_queue_delay AS avg_queue_delay,"
    " s.utilization AS utilization, s.unfair_fraction AS unfair_fraction,"
    " s.worst_ftf AS worst_ftf, s.jain_index AS jain_index,"
    " s.decision_time_mean AS decision_time_mean"
    " FROM runs r JOIN summary s ON s.run_id = r.run_id;"
    "CREATE TABLE IF NOT EXISTS extrapolation("
    " run_id INTEGER PRIMARY KEY, jobs INTEGER, gpu_seconds REAL, gpu_seconds_share REAL);"
    "CREATE TABLE IF NOT EXISTS extrapolated_jobs("
    " run_id INTEGER, job_id INTEGER, measured_gpus INTEGER, PRIMARY KEY(run_id, job_id));"
    "CREATE TABLE IF NOT EXISTS early_feedback("
    " run_id INTEGER, job_id INTEGER, work REAL, seconds REAL, PRIMARY KEY(run_id, job_id));"
    "CREATE TABLE IF NOT EXISTS run_settings("
    " run_id INTEGER, key TEXT, value TEXT, PRIMARY KEY(run_id, key));";

static int db_fail(sqlite3 *db, const char *path, const char *what, mls_err_t *err)
{
    return mls_fail(err, "%s: %s: %s", path, what, db ? sqlite3_errmsg(db) : "cannot open");
}

/* Binds a double, NULL for NaN/inf so SQL aggregates skip them. */
static void bind_real(sqlite3_stmt *st, int i, double v)
{
    if (isfinite(v))
        sqlite3_bind_double(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

static int insert_run(sqlite3 *db, const run_info_t *in, const mls_trace_t *trace,
                      const sim_result_t *res, int64_t *run_id)
{
    sqlite3_stmt *st;
    const char *sql = "INSERT INTO runs(created, version, policy, params, oracle, trace_path,"
                      " trace_checksum, n_trace_jobs, cluster, cluster_json, n_gpus, perf_model,"
                      " seed, round_len, cadence, restart_overhead, measure, label, faults,"
                      " overheads, wall_seconds, events, decisions)"
                      " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    char created[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm);
    int i = 1;
    bind_text(st, i++, created);
    bind_text(st, i++, PACKAGE_VERSION);
    bind_text(st, i++, in->policy);
    bind_text(st, i++, in->params);
    sqlite3_bind_int(st, i++, in->oracle);
    bind_text(st, i++, in->trace_path);
    bind_text(st, i++, in->trace_checksum);
    sqlite3_bind_int64(st, i++, (sqlite3_int64)trace->n);
    bind_text(st, i++, in->cluster_source);
    bind_text(st, i++, in->cluster_json);
    sqlite3_bind_int(st, i++, in->n_gpus);
    bind_text(st, i++, in->perf_source);
    sqlite3_bind_int64(st, i++, (sqlite3_int64)in->seed);
    sqlite3_bind_double(st, i++, in->round_len);
    bind_text(st, i++, in->cadence);
    sqlite3_bind_double(st, i++, in->restart_overhead);
    bind_text(st, i++, in->measure);
    bind_text(st, i++, in->label);
    bind_text(st, i++, in->faults);
    bind_text(st, i++, in->overheads);
    sqlite3_bind_double(st, i++, res->summary.wall_seconds);
    sqlite3_bind_int64(st, i++, res->summary.events);
    sqlite3_bind_int64(st, i++, res->summary.decisions);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    *run_id = sqlite3_last_insert_rowid(db);
    return rc;
}

/* Binds row k of a batched table at parameters base + 1 .. base + ncol. */
typedef void (*bind_row_fn)(sqlite3_stmt *st, int base, size_t k, const void *ctx);

/* "INSERT INTO table VALUES(?,...),(?,...)...": rows rows of ncol columns. */
static char *values_sql(const char *table, int ncol, int rows)
{
    size_t cap = strlen(table) + 32 + (size_t)rows * (2 * (size_t)ncol + 3);
    char *sql = xmalloc(cap);
    char *p = sql + snprintf(sql, cap, "INSERT INTO %s VALUES", table);
    for (int r = 0; r < rows; r++) {
        *p++ = r ? ',' : ' ';
        *p++ = '(';
        for (int c = 0; c < ncol; c++) {
            if (c)
                *p++ = ',';
            *p++ = '?';
        }
        *p++ = ')';
    }
    *p = '\0';
    return sql;
}

/* Steps one prepared statement of rows rows, rows first .. first + rows - 1. */
static int insert_rows(sqlite3 *db, const char *table, int ncol, size_t first, size_t rows,
                       size_t batch, bind_row_fn bind, const void *ctx)
{
    char *sql = values_sql(table, ncol, (int)batch);
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK ? 0 : -1;
    free(sql);
    for (size_t k = first; rc == 0 && k < first + rows; k += batch) {
        for (size_t r = 0; r < batch; r++)
            bind(st, (int)r * ncol, k + r, ctx);
        rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    return rc;
}

/* Inserts n rows, in order, a batch of rows per statement execution: the
 * per-execution work (opening the table's and index's cursors, the
 * transaction check, halting) is paid once a batch instead of once a row. The
 * rows and their rowids are those one INSERT per row would give. At most 999
 * parameters a statement (SQLite's limit before 3.32). */
static int insert_batched(sqlite3 *db, const char *table, int ncol, size_t n, bind_row_fn bind,
                          const void *ctx)
{
    size_t batch = (size_t)(999 / ncol);
    size_t full = n / batch * batch;
    if (full && insert_rows(db, table, ncol, 0, full, batch, bind, ctx) < 0)
        return -1;
    if (full < n && insert_rows(db, table, ncol, full, n - full, n - full, bind, ctx) < 0)
        return -1;
    return 0;
}

typedef struct {
    int64_t run_id;
    const mls_trace_t *trace;
    const sim_result_t *res;
    const size_t *pick; /* early_feedback: the jobs with a time */
    double work;
} rows_ctx_t;

/* Names live in the trace until the statement is done: no copy. */
static void bind_static(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

static void bind_job(sqlite3_stmt *st, int base, size_t k, const void *ctx)
{
    const rows_ctx_t *c = ctx;
    const job_result_t *j = &c->res->jobs[k];
    int i = base + 1;
    sqlite3_bind_int64(st, i++, c->run_id);
    sqlite3_bind_int64(st, i++, j->id);
    bind_static(st, i++, c->trace->users.names[j->user]);
    bind_static(st, i++, c->trace->workloads.names[j->workload]);
    sqlite3_bind_int(st, i++, j->gpus);
    bind_real(st, i++, j->work);
    bind_real(st, i++, j->submit);
    bind_real(st, i++, j->first_start);
    bind_real(st, i++, j->finish);
    bind_real(st, i++, j->finished ? j->finish - j->submit : NAN);
    bind_real(st, i++, j->first_start - j->submit);
    bind_real(st, i++, j->run_time);
    bind_real(st, i++, j->gpu_seconds);
    sqlite3_bind_int(st, i++, j->preemptions);
    sqlite3_bind_int(st, i++, j->restarts);
    bind_real(st, i++, j->isolated_time);
    bind_real(st, i++, j->contention);
    bind_real(st, i++, j->rho);
    bind_real(st, i++, j->deadline);
    if (isfinite(j->deadline) && j->finished)
        sqlite3_bind_int(st, i++, j->finish <= j->deadline);
    else
        sqlite3_bind_null(st, i++);
    sqlite3_bind_int(st, i++, j->measured);
}

static int insert_jobs(sqlite3 *db, int64_t run_id, const mls_trace_t *trace,
                       const sim_result_t *res)
{
    rows_ctx_t c = {.run_id = run_id, .trace = trace, .res = res};
    return insert_batched(db, "jobs", 21, res->n_jobs, bind_job, &c);
}

static void bind_sample(sqlite3_stmt *st, int base, size_t k, const void *ctx)
{
    const rows_ctx_t *c = ctx;
    const timeline_sample_t *s = &c->res->timeline[k];
    sqlite3_bind_int64(st, base + 1, c->run_id);
    sqlite3_bind_double(st, base + 2, s->t);
    sqlite3_bind_int(st, base + 3, s->busy_gpus);
    sqlite3_bind_int(st, base + 4, s->running_jobs);
    sqlite3_bind_int(st, base + 5, s->queued_jobs);
    bind_real(st, base + 6, c->res->n_gpus ? (double)s->busy_gpus / c->res->n_gpus : NAN);
}

static int insert_timeline(sqlite3 *db, int64_t run_id, const sim_result_t *res)
{
    rows_ctx_t c = {.run_id = run_id, .res = res};
    return insert_batched(db, "timeline", 6, res->n_timeline, bind_sample, &c);
}

static int insert_summary(sqlite3 *db, int64_t run_id, const run_summary_t *s)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db,
                           "INSERT INTO summary VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    int i = 1;
    sqlite3_bind_int64(st, i++, run_id);
    sqlite3_bind_int(st, i++, s->jobs);
    sqlite3_bind_int(st, i++, s->unfinished);
    bind_real(st, i++, s->avg_jct);
    bind_real(st, i++, s->p50_jct);
    bind_real(st, i++, s->p95_jct);
    bind_real(st, i++, s->p99_jct);
    bind_real(st, i++, s->makespan);
    bind_real(st, i++, s->avg_queue_delay);
    bind_real(st, i++, s->utilization);
    bind_real(st, i++, s->unfair_fraction);
    bind_real(st, i++, s->worst_ftf);
    bind_real(st, i++, s->jain_index);
    sqlite3_bind_int(st, i++, s->deadline_jobs);
    sqlite3_bind_int(st, i++, s->deadlines_met);
    sqlite3_bind_int64(st, i++, s->preemptions);
    sqlite3_bind_int64(st, i++, s->restarts);
    bind_real(st, i++, s->decision_time_total);
    bind_real(st, i++, s->decision_time_mean);
    bind_real(st, i++, s->decision_time_max);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return rc;
}

/* The extrapolation row of the run and one extrapolated_jobs row per job. */
static int insert_extrapolation(sqlite3 *db, int64_t run_id, const sim_result_t *res,
                                const int *measured)
{
    if (!measured)
        return 0;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "INSERT INTO extrapolated_jobs VALUES(?,?,?)", -1, &st, NULL) !=
        SQLITE_OK)
        return -1;
    long n = 0;
    double gs = 0, all = 0;
    int rc = 0;
    for (size_t k = 0; k < res->n_jobs && rc == 0; k++) {
        const job_result_t *j = &res->jobs[k];
        all += isfinite(j->gpu_seconds) ? j->gpu_seconds : 0;
        if (!measured[k])
            continue;
        n++;
        gs += isfinite(j->gpu_seconds) ? j->gpu_seconds : 0;
        sqlite3_bind_int64(st, 1, run_id);
        sqlite3_bind_int64(st, 2, j->id);
        sqlite3_bind_int(st, 3, measured[k]);
        rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    if (rc < 0 ||
        sqlite3_prepare_v2(db, "INSERT INTO extrapolation VALUES(?,?,?,?)", -1, &st, NULL) !=
            SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_int64(st, 2, n);
    sqlite3_bind_double(st, 3, gs);
    bind_real(st, 4, all > 0 ? gs / all : NAN);
    rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return rc;
}

static void bind_feedback(sqlite3_stmt *st, int base, size_t k, const void *ctx)
{
    const rows_ctx_t *c = ctx;
    const job_result_t *j = &c->res->jobs[c->pick[k]];
    sqlite3_bind_int64(st, base + 1, c->run_id);
    sqlite3_bind_int64(st, base + 2, j->id);
    sqlite3_bind_double(st, base + 3, c->work);
    sqlite3_bind_double(st, base + 4, j->feedback);
}

/* Each job's time from submission to its first `work` work units (Gandiva's
 * early feedback; jobs that never got there have no row). */
static int insert_feedback(sqlite3 *db, int64_t run_id, const sim_result_t *res, double work)
{
    size_t *pick = xmalloc((res->n_jobs ? res->n_jobs : 1) * sizeof *pick);
    size_t n = 0;
    for (size_t k = 0; k < res->n_jobs; k++)
        if (isfinite(res->jobs[k].feedback))
            pick[n++] = k;
    rows_ctx_t c = {.run_id = run_id, .res = res, .pick = pick, .work = work};
    int rc = insert_batched(db, "early_feedback", 4, n, bind_feedback, &c);
    free(pick);
    return rc;
}

/* The run's engine settings that have no runs column: one row per key given. */
static int insert_settings(sqlite3 *db, int64_t run_id, const char *const *settings)
{
    sqlite3_stmt *st;
    if (!settings || !settings[0])
        return 0;
    if (sqlite3_prepare_v2(db, "INSERT INTO run_settings VALUES(?,?,?)", -1, &st, NULL) !=
        SQLITE_OK)
        return -1;
    int rc = 0;
    for (size_t k = 0; settings[k] && rc == 0; k += 2) {
        sqlite3_bind_int64(st, 1, run_id);
        bind_text(st, 2, settings[k]);
        bind_text(st, 3, settings[k + 1]);
        rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    return rc;
}

int store_write_run(const char *db_path, const run_info_t *info, const mls_trace_t *trace,
                    const sim_result_t *res, int64_t *run_id, mls_err_t *err)
{
    sqlite3 *db = NULL;
    /* NOMUTEX: the connection is this call's alone, so SQLite need not lock
     * it around every bind and step. */
    if (sqlite3_open_v2(db_path, &db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        NULL) != SQLITE_OK) {
        int rc = db_fail(db, db_path, "cannot open the results database", err);
        sqlite3_close(db);
        return rc;
    }
    sqlite3_busy_timeout(db, 60000);
    int rc = 0;
    if (sqlite3_exec(db, schema_sql, NULL, NULL, NULL) != SQLITE_OK)
        rc = db_fail(db, db_path, "cannot create the schema", err);
    else if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        rc = db_fail(db, db_path, "cannot begin a transaction", err);
    else if (insert_run(db, info, trace, res, run_id) < 0 ||
             insert_jobs(db, *run_id, trace, res) < 0 ||
             insert_timeline(db, *run_id, res) < 0 ||
             insert_summary(db, *run_id, &res->summary) < 0 ||
             insert_extrapolation(db, *run_id, res, info->extrapolated) < 0 ||
             insert_settings(db, *run_id, info->settings) < 0 ||
             (info->feedback_work > 0 &&
              insert_feedback(db, *run_id, res, info->feedback_work) < 0)) {
        rc = db_fail(db, db_path, "cannot write the run", err);
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    } else if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        rc = db_fail(db, db_path, "cannot commit the run", err);
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    }
    sqlite3_close(db);
    return rc;
}

sqlite3 *store_open_ro(const char *db_path, mls_err_t *err)
{
    sqlite3 *db = NULL;
    /* NOMUTEX: a connection is used by the one caller that opened it. */
    if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) !=
        SQLITE_OK) {
        mls_fail(err, "%s: cannot open: %s", db_path, db ? sqlite3_errmsg(db) : "no memory");
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_busy_timeout(db, 60000);
    return db;
}
