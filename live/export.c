/* export.c: a live state database as one run of a results database (see
 * export.h). The jobs are read with plain read-only queries (not
 * live_db_open, which would create tables in any file it is given), turned
 * into the simulator's per-job results, summarised by the same code
 * (metrics_summarize) and written by the same store (store_write_run), so a
 * live run's numbers mean what a simulated run's do. */
#include "live/export.h"

#include "live/state.h"

#include "model/trace.h"
#include "sim/metrics.h"
#include "sim/store.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

static sqlite3 *open_ro(const char *path)
{
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_busy_timeout(db, 10000);
    return db;
}

int live_is_state_db(const char *path)
{
    sqlite3 *db = open_ro(path);
    sqlite3_stmt *st = NULL;
    int yes = db && sqlite3_prepare_v2(db, "SELECT spec, attained_service FROM jobs LIMIT 0", -1,
                                       &st, NULL) == SQLITE_OK;
    sqlite3_finalize(st);
    sqlite3_close(db);
    return yes;
}


static double col(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

/* The submitting user from the job's spec JSON ("user" when absent). */
static int spec_user(mls_trace_t *t, const char *spec)
{
    cJSON *o = spec ? cJSON_Parse(spec) : NULL;
    const cJSON *u = cJSON_GetObjectItemCaseSensitive(o, "user");
    int k =
        strtab_intern(&t->users, cJSON_IsString(u) && u->valuestring[0] ? u->valuestring : "user");
    cJSON_Delete(o);
    return k;
}

static void read_jobs(sqlite3_stmt *st, mls_trace_t *t, sim_result_t *r)
{
    size_t cap = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        mls_job_t job;
        memset(&job, 0, sizeof job);
        job.id = sqlite3_column_int64(st, 0);
        job.user = spec_user(t, (const char *)sqlite3_column_text(st, 1));
        const char *w = (const char *)sqlite3_column_text(st, 2);
        job.workload = strtab_intern(&t->workloads, w && w[0] ? w : "?");
        job.gpus = sqlite3_column_int(st, 3);
        job.work = col(st, 4);
        job.submit = col(st, 6);
        job.duration = NAN;
        job.deadline = INFINITY;
        trace_add(t, &job);
        xgrow((void **)&r->jobs, &cap, r->n_jobs + 1, sizeof *r->jobs);
        job_result_t *j = &r->jobs[r->n_jobs++];
        memset(j, 0, sizeof *j);
        j->id = job.id;
        j->user = job.user;
        j->workload = job.workload;
        j->gpus = job.gpus;
        j->work = job.work;
        j->submit = job.submit;
        j->first_start = col(st, 7);
        j->finished = !strcmp((const char *)sqlite3_column_text(st, 5), "done");
        j->finish = j->finished ? col(st, 8) : NAN;
        j->run_time = col(st, 9);
        j->gpu_seconds = col(st, 10);
        j->preemptions = sqlite3_column_int(st, 11);
        j->restarts = sqlite3_column_int(st, 12);
        j->isolated_time = j->contention = j->rho = j->feedback = NAN;
        j->deadline = INFINITY;
        j->measured = 1;
        if (isfinite(j->gpu_seconds))
            r->busy_gpu_seconds += j->gpu_seconds;
    }
}

/* +1/-1 steps of the queued and running counts and the busy GPUs. */
typedef struct step {
    double t;
    int queued, running, gpus;
} step_t;

static int by_time(const void *a, const void *b)
{
    double x = ((const step_t *)a)->t, y = ((const step_t *)b)->t;
    return x < y ? -1 : x > y;
}

static void add_step(step_t *s, size_t *n, double t, int q, int run, int g)
{
    if (isfinite(t))
        s[(*n)++] = (step_t){t, q, run, g};
}

static void build_timeline(sim_result_t *r)
{
    step_t *s = xmalloc(sizeof *s * (3 * r->n_jobs + 1));
    size_t n = 0;
    for (size_t i = 0; i < r->n_jobs; i++) {
        const job_result_t *j = &r->jobs[i];
        add_step(s, &n, j->submit, 1, 0, 0);
        if (isfinite(j->first_start)) {
            add_step(s, &n, j->first_start, -1, 1, j->gpus);
            add_step(s, &n, j->finish, 0, -1, -j->gpus);
        }
    }
    qsort(s, n, sizeof *s, by_time);
    int q = 0, run = 0, g = 0;
    for (size_t k = 0; k < n; k++) {
        q += s[k].queued;
        run += s[k].running;
        g += s[k].gpus;
        if (k + 1 < n && s[k + 1].t == s[k].t)
            continue; /* one sample per instant */
        xgrow((void **)&r->timeline, &r->timeline_cap, r->n_timeline + 1, sizeof *r->timeline);
        r->timeline[r->n_timeline++] = (timeline_sample_t){s[k].t, g, run, q};
    }
    free(s);
}

/* Daemon time starts when the daemon does, before the first submission:
 * times from the first arrival, as a simulated run of the same trace counts
 * them (its makespan from its first job's submit_time, 0 in most traces). */
static void shift_to_first_arrival(mls_trace_t *t, sim_result_t *r)
{
    double t0 = INFINITY;
    for (size_t i = 0; i < r->n_jobs; i++)
        if (r->jobs[i].submit < t0)
            t0 = r->jobs[i].submit;
    if (!isfinite(t0))
        return;
    for (size_t i = 0; i < r->n_jobs; i++) {
        r->jobs[i].submit -= t0;
        r->jobs[i].first_start -= t0;
        r->jobs[i].finish -= t0;
        t->jobs[i].submit -= t0;
    }
}

int live_export(const char *state_path, const char *results_path, int64_t *run_id, mls_err_t *err)
{
    if (!live_is_state_db(state_path))
        return mls_fail(err, "%s: not a live state database", state_path);
    sqlite3 *db = open_ro(state_path);
    sqlite3_stmt *st;
    if (!db || sqlite3_prepare_v2(db,
                                  "SELECT id, spec, workload, gpus, work, coalesce(state, ''),"
                                  " submit, first_start, finish, attained_time, attained_service,"
                                  " coalesce(preemptions, 0), coalesce(restarts, 0) FROM jobs"
                                  " ORDER BY id",
                                  -1, &st, NULL) != SQLITE_OK) {
        mls_fail(err, "%s: cannot read its jobs: %s", state_path,
                 db ? sqlite3_errmsg(db) : "cannot open");
        sqlite3_close(db);
        return -1;
    }
    mls_trace_t t;
    trace_init(&t);
    sim_result_t r;
    memset(&r, 0, sizeof r);
    read_jobs(st, &t, &r);
    sqlite3_finalize(st);
    char *policy = live_meta_read(db, "policy"), *cluster = live_meta_read(db, "cluster"),
         *gpus = live_meta_read(db, "n_gpus");
    sqlite3_close(db);
    r.n_gpus = gpus ? atoi(gpus) : 0;
    shift_to_first_arrival(&t, &r);
    build_timeline(&r);
    metrics_summarize(&r);
    run_info_t in;
    memset(&in, 0, sizeof in);
    in.policy = policy ? policy : "live";
    in.params = "";
    in.trace_path = state_path;
    in.trace_checksum = "";
    in.cluster_source = cluster ? cluster : "";
    in.n_gpus = r.n_gpus;
    in.cadence = "live";
    in.measure = "all";
    in.label = "live";
    int rc = store_write_run(results_path, &in, &t, &r, run_id, err);
    free(policy);
    free(cluster);
    free(gpus);
    sim_result_free(&r);
    trace_free(&t);
    return rc;
}
