/* diagnose.c: a run's surprising numbers traced to their cause (see
 * diagnose.h). Plain queries on one run's jobs and timeline rows; the queue
 * trend is a least-squares line over the second half of the arrivals, so
 * one burst does not read as saturation. */
#include "sim/diagnose.h"

#include "sim/store.h"

#include <math.h>
#include <sqlite3.h>
#include <string.h>

static void read_job(sqlite3_stmt *st, diag_job_t *j)
{
    j->id = sqlite3_column_int64(st, 0);
    j->gpus = sqlite3_column_int(st, 1);
    j->preemptions = sqlite3_column_int(st, 2);
    j->submit = sqlite3_column_double(st, 3);
    j->queue_delay = sqlite3_column_double(st, 4);
    j->run_time = sqlite3_column_double(st, 5);
    j->isolated = sqlite3_column_double(st, 6);
    j->finish = sqlite3_column_double(st, 7);
}

#define JOB_COLS                                                                                   \
    "SELECT job_id, gpus, coalesce(preemptions, 0), submit, coalesce(queue_delay, 0),"             \
    " coalesce(run_time, 0), coalesce(isolated_time, 0), coalesce(finish, 0) FROM jobs"

/* Runs sql (bound to the run id as ?1, and ?2 = x when x is finite) and
 * calls back for each row. Returns the rows seen or -1. */
static int query(sqlite3 *db, const char *sql, int64_t run, double x,
                 void (*row)(sqlite3_stmt *, void *), void *arg)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, run);
    if (isfinite(x))
        sqlite3_bind_double(st, 2, x);
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        row(st, arg);
        n++;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? n : -1;
}

static void row_summary(sqlite3_stmt *st, void *arg)
{
    run_diag_t *d = arg;
    d->jobs = sqlite3_column_int(st, 0);
    d->unfinished = sqlite3_column_int(st, 1);
    d->utilization = sqlite3_column_double(st, 2);
    d->makespan = sqlite3_column_double(st, 3);
}

static void row_value(sqlite3_stmt *st, void *arg)
{
    *(double *)arg = sqlite3_column_type(st, 0) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 0);
}

static void row_last(sqlite3_stmt *st, void *arg)
{
    read_job(st, &((run_diag_t *)arg)->last);
}

static void row_slow(sqlite3_stmt *st, void *arg)
{
    run_diag_t *d = arg;
    if (d->n_slow < DIAG_TOP)
        read_job(st, &d->slow[d->n_slow]);
    d->n_slow++;
}

/* Least-squares fit of the queue over [from, to]: sums for the slope. */
typedef struct fit {
    double n, sx, sy, sxx, sxy;
    double prev_t, prev_idle, idle_time; /* time with jobs waiting and >= 1/4 GPUs idle */
    double from, to;
    double peak, drained;
} fit_t;

static void row_timeline(sqlite3_stmt *st, void *arg)
{
    fit_t *f = arg;
    double t = sqlite3_column_double(st, 0), q = sqlite3_column_double(st, 1);
    double util = sqlite3_column_double(st, 2);
    if (isfinite(f->prev_t))
        f->idle_time += f->prev_idle * (t - f->prev_t);
    f->prev_t = t;
    f->prev_idle = q > 0 && util <= 0.75;
    f->peak = q > f->peak ? q : f->peak;
    if (t >= f->to && q == 0 && isnan(f->drained))
        f->drained = t; /* empty from here, unless it fills again */
    if (q > 0)
        f->drained = NAN;
    if (t < f->from || t > f->to)
        return;
    f->n++;
    f->sx += t;
    f->sy += q;
    f->sxx += t * t;
    f->sxy += t * q;
}

static void queue_trend(sqlite3 *db, run_diag_t *d)
{
    fit_t f = {0};
    f.prev_t = f.drained = NAN;
    f.from = d->last_submit / 2;
    f.to = d->last_submit;
    query(db, "SELECT t, queued_jobs, utilization FROM timeline WHERE run_id = ?1 ORDER BY t",
          d->run_id, NAN, row_timeline, &f);
    d->idle_waiting = d->makespan > 0 ? f.idle_time / d->makespan : 0;
    d->q_peak = f.peak;
    d->drained = f.drained;
    d->burst = d->last_submit < 0.25 * d->makespan;
    double den = f.n * f.sxx - f.sx * f.sx;
    if (f.n < 3 || den <= 0) {
        d->q_half = d->q_end = NAN;
        return;
    }
    double slope = (f.n * f.sxy - f.sx * f.sy) / den, icpt = (f.sy - slope * f.sx) / f.n;
    d->q_half = icpt + slope * f.from;
    d->q_end = icpt + slope * f.to;
    /* grew by at least 5 jobs and by half of where it stood */
    d->saturated =
        !d->burst && d->q_end - d->q_half >= 5 && d->q_end >= 1.5 * (d->q_half > 1 ? d->q_half : 1);
}

int run_diagnose(const char *db_path, int64_t run_id, run_diag_t *d, mls_err_t *err)
{
    memset(d, 0, sizeof *d);
    d->run_id = run_id;
    d->last.id = -1;
    d->p99_finish = d->last_submit = NAN;
    sqlite3 *db = store_open_ro(db_path, err);
    if (!db)
        return -1;
    int rc = query(db,
                   "SELECT jobs, unfinished, utilization, makespan FROM summary"
                   " WHERE run_id = ?1",
                   run_id, NAN, row_summary, d);
    if (rc == 1)
        rc = query(db,
                   "SELECT finish FROM jobs WHERE run_id = ?1 AND measured = 1 AND finish"
                   " IS NOT NULL ORDER BY finish LIMIT 1 OFFSET (SELECT max(0, (99 * count(*)"
                   " + 99) / 100 - 1) FROM jobs WHERE run_id = ?1 AND measured"
                   " = 1 AND finish IS NOT NULL)",
                   run_id, NAN, row_value, &d->p99_finish);
    if (rc >= 0)
        rc = query(db, "SELECT max(submit) FROM jobs WHERE run_id = ?1 AND measured = 1", run_id,
                   NAN, row_value, &d->last_submit);
    if (rc >= 0)
        rc = query(db,
                   JOB_COLS " WHERE run_id = ?1 AND measured = 1 AND finish IS NOT NULL"
                            " ORDER BY finish DESC LIMIT 1",
                   run_id, NAN, row_last, d);
    if (rc >= 0)
        rc = query(db,
                   JOB_COLS " WHERE run_id = ?1 AND measured = 1 AND isolated_time > 0 AND"
                            " run_time > ?2 * isolated_time AND run_time > 600"
                            " ORDER BY run_time / isolated_time DESC",
                   run_id, DIAG_SLOW_RATIO, row_slow, d);
    if (rc >= 0 && isfinite(d->last_submit))
        queue_trend(db, d);
    if (rc < 0)
        mls_fail(err, "%s: run %lld: cannot diagnose: %s", db_path, (long long)run_id,
                 sqlite3_errmsg(db));
    sqlite3_close(db);
    return rc < 0 ? -1 : 0;
}
