/* diagnose.c: a run's surprising numbers traced to their cause (see
 * diagnose.h). One computation, fed from either source: the run's measured
 * jobs one at a time (diag_add_job), then its timeline in time order
 * (diag_add_sample). run_diagnose() feeds it the rows of a results database,
 * run_diagnose_result() the engine's result arrays as store.c writes them
 * (a value the database would hold as NULL is NAN here, -0.0 reads back as
 * 0), so both give the same diagnosis to the last bit without a second copy
 * of the logic. The 99th-percentile finish is a selection, not a sort; a tie
 * (same finish, same slowdown) goes to the lower job id, as the database's
 * scan in job-id order gave it. The queue trend is a least-squares line over
 * the second half of the arrivals, so one burst does not read as saturation. */
#include "sim/diagnose.h"

#include "sim/store.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

/* Least-squares fit of the queue over [from, to]: sums for the slope. */
typedef struct fit {
    double n, sx, sy, sxx, sxy;
    double prev_t, prev_idle, idle_time; /* time with jobs waiting and >= 1/4 GPUs idle */
    double from, to;
    double peak, drained;
} fit_t;

/* The computation's state between rows. */
typedef struct diag_acc {
    run_diag_t *d;
    double *finish; /* measured jobs' finishes, for the 99th percentile */
    size_t n_finish, cap;
    double slow_ratio[DIAG_TOP];
    double last_finish;
    fit_t fit;
} diag_acc_t;

static void acc_init(diag_acc_t *a, run_diag_t *d, int64_t run_id)
{
    memset(d, 0, sizeof *d);
    memset(a, 0, sizeof *a);
    a->d = d;
    d->run_id = run_id;
    d->last.id = -1;
    d->p99_finish = d->last_submit = NAN;
    a->last_finish = NAN;
}

/* A job as reported: what the database's coalesce(x, 0) gave. */
static diag_job_t reported(const diag_job_t *j)
{
    diag_job_t r = *j;
    r.submit = isnan(r.submit) ? 0 : r.submit;
    r.queue_delay = isnan(r.queue_delay) ? 0 : r.queue_delay;
    r.run_time = isnan(r.run_time) ? 0 : r.run_time;
    r.isolated = isnan(r.isolated) ? 0 : r.isolated;
    r.finish = isnan(r.finish) ? 0 : r.finish;
    return r;
}

/* Keeps the DIAG_TOP slowest by run time over time alone (ties: lower id). */
static void add_slow(diag_acc_t *a, const diag_job_t *j)
{
    run_diag_t *d = a->d;
    double r = j->run_time / j->isolated;
    int kept = d->n_slow < DIAG_TOP ? d->n_slow : DIAG_TOP;
    int at = kept;
    while (at > 0 && (r > a->slow_ratio[at - 1] ||
                      (r == a->slow_ratio[at - 1] && j->id < d->slow[at - 1].id)))
        at--;
    d->n_slow++;
    if (at >= DIAG_TOP)
        return;
    int last = kept < DIAG_TOP ? kept : DIAG_TOP - 1;
    for (int i = last; i > at; i--) {
        d->slow[i] = d->slow[i - 1];
        a->slow_ratio[i] = a->slow_ratio[i - 1];
    }
    d->slow[at] = reported(j);
    a->slow_ratio[at] = r;
}

/* One measured job; NAN stands for a value not known (NULL). */
static void diag_add_job(diag_acc_t *a, const diag_job_t *j)
{
    run_diag_t *d = a->d;
    if (!isnan(j->submit) && (isnan(d->last_submit) || j->submit > d->last_submit))
        d->last_submit = j->submit;
    if (!isnan(j->finish)) {
        xgrow((void **)&a->finish, &a->cap, a->n_finish + 1, sizeof *a->finish);
        a->finish[a->n_finish++] = j->finish;
        if (isnan(a->last_finish) || j->finish > a->last_finish ||
            (j->finish == a->last_finish && j->id < d->last.id)) {
            a->last_finish = j->finish;
            d->last = reported(j);
        }
    }
    if (j->isolated > 0 && j->run_time > DIAG_SLOW_RATIO * j->isolated && j->run_time > 600)
        add_slow(a, j);
}

/* The k-th smallest of a[0..n) (0-based), reordering a (Hoare's selection). */
static double kth_smallest(double *a, long n, long k)
{
    long lo = 0, hi = n - 1;
    while (lo < hi) {
        double x = a[k];
        long i = lo, j = hi;
        do {
            while (a[i] < x)
                i++;
            while (x < a[j])
                j--;
            if (i <= j) {
                double t = a[i];
                a[i++] = a[j];
                a[j--] = t;
            }
        } while (i <= j);
        if (j < k)
            lo = i;
        if (k < i)
            hi = j;
    }
    return a[k];
}

/* After the last job: the 99th-percentile finish (the finish at rank
 * ceil(0.99 n), as (99n + 99) / 100 in integers), when the run has a summary,
 * and the window the queue is fitted over. */
static void diag_jobs_done(diag_acc_t *a, int have_summary)
{
    run_diag_t *d = a->d;
    long n = (long)a->n_finish, k = (99 * n + 99) / 100 - 1;
    if (have_summary && n > 0)
        d->p99_finish = kth_smallest(a->finish, n, k < 0 ? 0 : k);
    free(a->finish);
    a->finish = NULL;
    a->fit.prev_t = a->fit.drained = NAN;
    a->fit.from = d->last_submit / 2;
    a->fit.to = d->last_submit;
}

/* One timeline sample, in time order: t (s), jobs queued, busy GPU share. */
static void diag_add_sample(diag_acc_t *a, double t, double q, double util)
{
    fit_t *f = &a->fit;
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

/* After the last sample: the queue's trend and idle time. */
static void diag_samples_done(diag_acc_t *a)
{
    run_diag_t *d = a->d;
    const fit_t *f = &a->fit;
    d->idle_waiting = d->makespan > 0 ? f->idle_time / d->makespan : 0;
    d->q_peak = f->peak;
    d->drained = f->drained;
    d->burst = d->last_submit < 0.25 * d->makespan;
    double den = f->n * f->sxx - f->sx * f->sx;
    if (f->n < 3 || den <= 0) {
        d->q_half = d->q_end = NAN;
        return;
    }
    double slope = (f->n * f->sxy - f->sx * f->sy) / den, icpt = (f->sy - slope * f->sx) / f->n;
    d->q_half = icpt + slope * f->from;
    d->q_end = icpt + slope * f->to;
    /* grew by at least 5 jobs and by half of where it stood */
    d->saturated =
        !d->burst && d->q_end - d->q_half >= 5 && d->q_end >= 1.5 * (d->q_half > 1 ? d->q_half : 1);
}

/* ---- from a results database ----------------------------------------------------- */

/* Runs sql (bound to the run id as ?1) and calls back for each row.
 * Returns the rows seen or -1. */
static int query(sqlite3 *db, const char *sql, int64_t run, void (*row)(sqlite3_stmt *, void *),
                 void *arg)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, run);
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
    run_diag_t *d = ((diag_acc_t *)arg)->d;
    d->jobs = sqlite3_column_int(st, 0);
    d->unfinished = sqlite3_column_int(st, 1);
    d->utilization = sqlite3_column_double(st, 2);
    d->makespan = sqlite3_column_double(st, 3);
}

static double column_real(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static void row_job(sqlite3_stmt *st, void *arg)
{
    diag_job_t j = {sqlite3_column_int64(st, 0), sqlite3_column_int(st, 1),
                    sqlite3_column_int(st, 2),   column_real(st, 3),
                    column_real(st, 4),          column_real(st, 5),
                    column_real(st, 6),          column_real(st, 7)};
    diag_add_job(arg, &j);
}

static void row_sample(sqlite3_stmt *st, void *arg)
{
    diag_add_sample(arg, sqlite3_column_double(st, 0), sqlite3_column_double(st, 1),
                    sqlite3_column_double(st, 2));
}

int run_diagnose(const char *db_path, int64_t run_id, run_diag_t *d, mls_err_t *err)
{
    diag_acc_t a;
    acc_init(&a, d, run_id);
    sqlite3 *db = store_open_ro(db_path, err);
    if (!db)
        return -1;
    int have_summary = query(db,
                             "SELECT jobs, unfinished, utilization, makespan FROM summary"
                             " WHERE run_id = ?1",
                             run_id, row_summary, &a);
    int rc = have_summary;
    if (rc >= 0)
        rc = query(db,
                   "SELECT job_id, gpus, coalesce(preemptions, 0), submit, queue_delay, run_time,"
                   " isolated_time, finish FROM jobs WHERE run_id = ?1 AND measured = 1",
                   run_id, row_job, &a);
    diag_jobs_done(&a, have_summary == 1);
    if (rc >= 0 && isfinite(d->last_submit)) {
        rc = query(db,
                   "SELECT t, queued_jobs, utilization FROM timeline WHERE run_id = ?1 ORDER BY t",
                   run_id, row_sample, &a);
        diag_samples_done(&a);
    }
    if (rc < 0)
        mls_fail(err, "%s: run %lld: cannot diagnose: %s", db_path, (long long)run_id,
                 sqlite3_errmsg(db));
    sqlite3_close(db);
    return rc < 0 ? -1 : 0;
}

/* ---- from the engine's results ----------------------------------------------------- */

/* v as the database gives it back: NULL (NAN) when not finite, 0 for -0. */
static double stored(double v)
{
    return isfinite(v) ? v + 0.0 : NAN;
}

typedef struct keyed {
    double t;
    size_t i;
} keyed_t;

static int by_time(const void *x, const void *y)
{
    const keyed_t *a = x, *b = y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* The timeline in the database's order (by time, ties in sample order):
 * NULL when the samples already are, as the engine writes them. */
static size_t *timeline_order(const sim_result_t *res)
{
    size_t n = res->n_timeline, k = 1;
    while (k < n && res->timeline[k - 1].t <= res->timeline[k].t)
        k++;
    if (k >= n)
        return NULL;
    keyed_t *key = xmalloc(n * sizeof *key);
    for (size_t i = 0; i < n; i++)
        key[i] = (keyed_t){res->timeline[i].t, i};
    qsort(key, n, sizeof *key, by_time);
    size_t *order = xmalloc(n * sizeof *order);
    for (size_t i = 0; i < n; i++)
        order[i] = key[i].i;
    free(key);
    return order;
}

void run_diagnose_result(const sim_result_t *res, int64_t run_id, run_diag_t *d)
{
    diag_acc_t a;
    acc_init(&a, d, run_id);
    const run_summary_t *s = &res->summary;
    d->jobs = s->jobs;
    d->unfinished = s->unfinished;
    d->utilization = isfinite(s->utilization) ? s->utilization + 0.0 : 0;
    d->makespan = isfinite(s->makespan) ? s->makespan + 0.0 : 0;
    for (size_t k = 0; k < res->n_jobs; k++) {
        const job_result_t *r = &res->jobs[k];
        if (r->measured != 1)
            continue;
        diag_job_t j = {r->id,
                        r->gpus,
                        r->preemptions,
                        stored(r->submit),
                        stored(r->first_start - r->submit),
                        stored(r->run_time),
                        stored(r->isolated_time),
                        stored(r->finish)};
        diag_add_job(&a, &j);
    }
    diag_jobs_done(&a, 1);
    if (!isfinite(d->last_submit))
        return;
    size_t *order = timeline_order(res);
    for (size_t i = 0; i < res->n_timeline; i++) {
        const timeline_sample_t *t = &res->timeline[order ? order[i] : i];
        double util = res->n_gpus ? stored((double)t->busy_gpus / res->n_gpus) : NAN;
        diag_add_sample(&a, t->t + 0.0, t->queued_jobs, isnan(util) ? 0 : util);
    }
    free(order);
    diag_samples_done(&a);
}
