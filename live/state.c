/* state.c: the live daemon's durable state in SQLite (see state.h).
 *
 * WAL journal with synchronous=FULL: a committed row survives a SIGKILL of
 * the daemon (and a power cut). One row per job holds everything the daemon
 * needs to resume it; the spec is kept as the submission's JSON so that the
 * request parser also validates what comes back from disk. */
#include "live/state.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct live_db {
    sqlite3 *db;
    char *path;
};

static const char *const schema_sql =
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);"
    "CREATE TABLE IF NOT EXISTS jobs("
    " id INTEGER PRIMARY KEY, spec TEXT NOT NULL, workload TEXT, gpus INTEGER, work REAL,"
    " state TEXT, stop_kind INTEGER, suspended INTEGER, type INTEGER, ngpus INTEGER,"
    " nodes INTEGER, batch INTEGER, gpu_ids TEXT, attempt INTEGER, pid INTEGER,"
    " pid_start INTEGER, ext_id TEXT, submit REAL, first_start REAL, last_start REAL,"
    " finish REAL, jct REAL, last_update REAL, attained_time REAL, attained_service REAL,"
    " work_done REAL, throughput REAL, preemptions INTEGER, restarts INTEGER,"
    " failures INTEGER, completions INTEGER, exit_code INTEGER, partner INTEGER,"
    " joined INTEGER);"
    "CREATE TABLE IF NOT EXISTS events(seq INTEGER PRIMARY KEY, t REAL, id INTEGER,"
    " event TEXT, detail TEXT);"
    "CREATE TABLE IF NOT EXISTS decisions(seq INTEGER PRIMARY KEY, t REAL, reasons INTEGER,"
    " jobs INTEGER, plan TEXT, decide_ms REAL, error TEXT);";

static const char *const state_names[] = {"pending", "queued", "running", "stopping",
                                          "done",    "failed", "cancelled"};

const char *live_state_name(live_job_state_t s)
{
    return s >= 0 && s <= LJ_CANCELLED ? state_names[s] : "?";
}

static int state_from_name(const char *s)
{
    for (int i = 0; i <= LJ_CANCELLED; i++)
        if (s && !strcmp(s, state_names[i]))
            return i;
    return -1;
}

int live_state_terminal(live_job_state_t s)
{
    return s == LJ_DONE || s == LJ_FAILED || s == LJ_CANCELLED;
}

void live_job_free(live_job_t *j)
{
    live_submit_free(&j->spec);
    free(j->gpu_ids);
    free(j->drain_ids);
    j->gpu_ids = j->drain_ids = NULL;
}

static int db_fail(live_db_t *d, const char *what, mls_err_t *err)
{
    return mls_fail(err, "%s: %s: %s", d->path, what, sqlite3_errmsg(d->db));
}

int live_db_open(live_db_t **out, const char *path, mls_err_t *err)
{
    live_db_t *d = xcalloc(1, sizeof *d);
    d->path = xstrdup(path);
    *out = NULL;
    if (sqlite3_open(path, &d->db) != SQLITE_OK) {
        mls_fail(err, "%s: cannot open the state database: %s", path,
                 d->db ? sqlite3_errmsg(d->db) : "out of memory");
        live_db_close(d);
        return -1;
    }
    sqlite3_busy_timeout(d->db, 5000);
    char *msg = NULL;
    if (sqlite3_exec(d->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", NULL, NULL,
                     &msg) != SQLITE_OK ||
        sqlite3_exec(d->db, schema_sql, NULL, NULL, &msg) != SQLITE_OK) {
        mls_fail(err, "%s: not a usable state database: %s", path, msg ? msg : "?");
        sqlite3_free(msg);
        live_db_close(d);
        return -1;
    }
    /* a database of a daemon before space sharing: the pair columns (an
     * error here only says that they exist) */
    sqlite3_exec(d->db, "ALTER TABLE jobs ADD COLUMN partner INTEGER", NULL, NULL, NULL);
    sqlite3_exec(d->db, "ALTER TABLE jobs ADD COLUMN joined INTEGER", NULL, NULL, NULL);
    *out = d;
    return 0;
}

void live_db_close(live_db_t *d)
{
    if (!d)
        return;
    sqlite3_close(d->db);
    free(d->path);
    free(d);
}

int live_db_begin(live_db_t *d)
{
    return sqlite3_exec(d->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

int live_db_commit(live_db_t *d)
{
    return sqlite3_exec(d->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

char *live_db_meta_get(live_db_t *d, const char *key)
{
    return live_meta_read(d->db, key);
}

char *live_meta_read(struct sqlite3 *db, const char *key)
{
    sqlite3_stmt *st;
    char *v = NULL;
    if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key=?", -1, &st, NULL) != SQLITE_OK)
        return NULL;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        v = xstrdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return v;
}

int live_db_meta_set(live_db_t *d, const char *key, const char *value, mls_err_t *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(d->db, "INSERT OR REPLACE INTO meta VALUES(?,?)", -1, &st, NULL) !=
        SQLITE_OK)
        return db_fail(d, "meta", err);
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return rc < 0 ? db_fail(d, "meta", err) : 0;
}

static void bind_real(sqlite3_stmt *st, int i, double v)
{
    if (isfinite(v))
        sqlite3_bind_double(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

static double col_real(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

/* "0,1,5" */
static void ids_text(const live_job_t *j, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < j->ngpus && k + 12 < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%d", i ? "," : "", j->gpu_ids[i]);
}

int live_db_put_job(live_db_t *d, const live_job_t *j, mls_err_t *err)
{
    const char *sql =
        "INSERT OR REPLACE INTO jobs(id, spec, workload, gpus, work, state, stop_kind,"
        " suspended, type, ngpus, nodes, batch, gpu_ids, attempt, pid, pid_start, ext_id,"
        " submit, first_start, last_start, finish, jct, last_update, attained_time,"
        " attained_service, work_done, throughput, preemptions, restarts, failures,"
        " completions, exit_code, partner, joined) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
        "?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail(d, "jobs", err);
    char *spec = live_submit_to_json(&j->spec);
    char ids[4096];
    ids_text(j, ids, sizeof ids);
    int i = 1;
    sqlite3_bind_int64(st, i++, j->id);
    sqlite3_bind_text(st, i++, spec, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, i++, j->spec.workload, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, i++, j->spec.gpus);
    bind_real(st, i++, j->spec.work);
    sqlite3_bind_text(st, i++, live_state_name(j->state), -1, SQLITE_STATIC);
    sqlite3_bind_int(st, i++, j->stop_kind);
    sqlite3_bind_int(st, i++, j->suspended);
    sqlite3_bind_int(st, i++, j->type);
    sqlite3_bind_int(st, i++, j->ngpus);
    sqlite3_bind_int(st, i++, j->nodes);
    sqlite3_bind_int(st, i++, j->batch);
    sqlite3_bind_text(st, i++, ids, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, i++, j->attempt);
    sqlite3_bind_int64(st, i++, j->pid);
    sqlite3_bind_int64(st, i++, (sqlite3_int64)j->pid_start);
    sqlite3_bind_text(st, i++, j->ext_id, -1, SQLITE_TRANSIENT);
    bind_real(st, i++, j->submit);
    bind_real(st, i++, j->first_start);
    bind_real(st, i++, j->last_start);
    bind_real(st, i++, j->finish);
    bind_real(st, i++, j->state == LJ_DONE ? j->finish - j->submit : NAN);
    bind_real(st, i++, j->last_update);
    bind_real(st, i++, j->attained_time);
    bind_real(st, i++, j->attained_service);
    bind_real(st, i++, j->work_done);
    bind_real(st, i++, j->throughput);
    sqlite3_bind_int(st, i++, j->preemptions);
    sqlite3_bind_int(st, i++, j->restarts);
    sqlite3_bind_int(st, i++, j->failures);
    sqlite3_bind_int(st, i++, j->completions);
    sqlite3_bind_int(st, i++, j->exit_code);
    sqlite3_bind_int64(st, i++, j->partner);
    sqlite3_bind_int(st, i++, j->joined);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    free(spec);
    return rc < 0 ? db_fail(d, "jobs", err) : 0;
}

static int parse_ids(const char *s, live_job_t *j)
{
    int n = 0;
    while (s && *s && n < j->spec.max_gpus) {
        char *end;
        long g = strtol(s, &end, 10);
        if (end == s || g < 0)
            return -1;
        j->gpu_ids[n++] = (int)g;
        s = *end == ',' ? end + 1 : end;
    }
    return n == j->ngpus ? 0 : -1;
}

static int load_row(live_db_t *d, sqlite3_stmt *st, live_job_t *j, mls_err_t *err)
{
    memset(j, 0, sizeof *j);
    j->id = sqlite3_column_int64(st, 0);
    if (live_submit_from_json((const char *)sqlite3_column_text(st, 1), &j->spec, err) < 0)
        return mls_fail(err, "%s: job %lld: spec: %s", d->path, (long long)j->id, err->msg);
    j->state = state_from_name((const char *)sqlite3_column_text(st, 2));
    if (j->state < 0)
        return mls_fail(err, "%s: job %lld: state: unknown", d->path, (long long)j->id);
    int i = 3;
    j->stop_kind = sqlite3_column_int(st, i++);
    j->suspended = sqlite3_column_int(st, i++);
    j->type = sqlite3_column_int(st, i++);
    j->ngpus = sqlite3_column_int(st, i++);
    j->nodes = sqlite3_column_int(st, i++);
    j->batch = sqlite3_column_int(st, i++);
    j->gpu_ids = xcalloc((size_t)j->spec.max_gpus, sizeof(int));
    if (j->ngpus < 0 || j->ngpus > j->spec.max_gpus ||
        parse_ids((const char *)sqlite3_column_text(st, i++), j) < 0)
        return mls_fail(err, "%s: job %lld: gpu_ids: do not match ngpus %d", d->path,
                        (long long)j->id, j->ngpus);
    j->attempt = sqlite3_column_int(st, i++);
    j->pid = (pid_t)sqlite3_column_int64(st, i++);
    j->pid_start = (unsigned long long)sqlite3_column_int64(st, i++);
    const unsigned char *ext = sqlite3_column_text(st, i++);
    snprintf(j->ext_id, sizeof j->ext_id, "%s", ext ? (const char *)ext : "");
    j->submit = col_real(st, i++);
    j->first_start = col_real(st, i++);
    j->last_start = col_real(st, i++);
    j->finish = col_real(st, i++);
    j->last_update = col_real(st, i++);
    j->attained_time = col_real(st, i++);
    j->attained_service = col_real(st, i++);
    j->work_done = col_real(st, i++);
    j->throughput = col_real(st, i++);
    j->gns = NAN;
    j->accum = -1;
    j->reported_at = NAN;
    j->preemptions = sqlite3_column_int(st, i++);
    j->restarts = sqlite3_column_int(st, i++);
    j->failures = sqlite3_column_int(st, i++);
    j->completions = sqlite3_column_int(st, i++);
    j->exit_code = sqlite3_column_int(st, i++);
    j->partner = sqlite3_column_type(st, i) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, i);
    j->joined = j->partner >= 0 && sqlite3_column_int(st, i + 1);
    return 0;
}

int live_db_load_jobs(live_db_t *d, live_job_t **jobs, size_t *n, mls_err_t *err)
{
    const char *sql =
        "SELECT id, spec, state, stop_kind, suspended, type, ngpus, nodes, batch, gpu_ids,"
        " attempt, pid, pid_start, ext_id, submit, first_start, last_start, finish,"
        " last_update, attained_time, attained_service, work_done, throughput, preemptions,"
        " restarts, failures, completions, exit_code, partner, joined FROM jobs ORDER BY id";
    sqlite3_stmt *st;
    *jobs = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail(d, "jobs", err);
    size_t cap = 0;
    int rc = 0, step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        xgrow((void **)jobs, &cap, *n + 1, sizeof **jobs);
        if (load_row(d, st, &(*jobs)[*n], err) < 0) {
            live_job_free(&(*jobs)[*n]);
            rc = -1;
            break;
        }
        (*n)++;
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = db_fail(d, "jobs", err);
    sqlite3_finalize(st);
    return rc;
}

int live_db_event(live_db_t *d, double t, int64_t id, const char *event, const char *detail)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(d->db, "INSERT INTO events(t, id, event, detail) VALUES(?,?,?,?)",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    bind_real(st, 1, t);
    sqlite3_bind_int64(st, 2, id);
    sqlite3_bind_text(st, 3, event, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, detail ? detail : "", -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return rc;
}

int live_db_decision(live_db_t *d, double t, unsigned reasons, int n_jobs, const char *plan,
                     double decide_ms, const char *error)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(d->db,
                           "INSERT INTO decisions(t, reasons, jobs, plan, decide_ms, error)"
                           " VALUES(?,?,?,?,?,?)",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    bind_real(st, 1, t);
    sqlite3_bind_int(st, 2, (int)reasons);
    sqlite3_bind_int(st, 3, n_jobs);
    sqlite3_bind_text(st, 4, plan, -1, SQLITE_TRANSIENT);
    bind_real(st, 5, decide_ms);
    if (error)
        sqlite3_bind_text(st, 6, error, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, 6);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return rc;
}
