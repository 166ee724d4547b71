/* qssf.c: Helios's Quasi-Shortest-Service-First (non-preemptive, non-oracle).
 *
 * Hu et al., "Characterization and Prediction of Deep Learning Workloads in
 * Large-Scale GPU Datacenters", SC 2021 (Helios), §6 (the QSSF service), as
 * its artifact (HeliosArtifact, framework/QSSF Service) runs it. A waiting
 * job's priority is its predicted GPU service, gpus_requested x predicted
 * duration; the queue is served smallest first and stops at the first job
 * that does not fit (no backfilling); running jobs are never preempted.
 *
 * The predictor (the artifact's history estimator). From the finished jobs
 * (view->finished, run_time = seconds the job held GPUs), the mean run time at
 * the most specific level that has any:
 *   1. the same user asking for the same number of GPUs,
 *   2. the same user,
 *   3. every user.
 * The history grows as jobs finish (the rolling update); window=N averages
 * only the last N at each level instead of all (the artifact's commented-out
 * variant uses 3). With no history at all every job gets prior_s (default
 * 3600 s), so the queue is ordered by GPU count, ties FIFO. A job's priority
 * is predicted once, the first time it is seen waiting, and kept (as the
 * artifact does).
 *
 * predictions=FILE: each job's predicted duration read from a file instead
 * (the artifact's Philly run: its PhillyEstimator reads a priority per
 * jobname from estimators/Philly_lgb.csv and multiplies it by the job's
 * GPUs). The file is that layout, a CSV with the columns jobname (the job's
 * id in the trace) and priority (the predicted duration in s, an integer,
 * negative where the predictor's error made it so: such a job is served
 * first, as there); scripts/helios-predictions.py writes one as the
 * artifact's generator does, seeded. The simulator reads it (model/samples.h)
 * and hands the numbers over; a waiting job without a row is an error.
 *
 * order=helios: the queue's order exactly as the artifact's qssf.py sorts it
 * (default order=service: predicted service, ties first come first served).
 * Its loop sorts the pending list by GPUs and then, stably, by priority,
 * so equal priorities go by fewer GPUs, then arrival; and it assigns
 * priorities only while some job that arrived before this second is still
 * waiting (`len(que_list) > new_job_num`): when every waiting job arrived
 * this second they are served by GPUs alone (fewest first, then arrival).
 * --like helios sets it.
 *
 * Simplifications and why:
 * - No job names: Helios first matches the job's name against past names
 *   (difflib, cutoff 0.6) and averages the user's jobs of that name; the view
 *   has no names, so the levels start at (user, GPUs).
 * - No learned model: Helios also blends in a LightGBM prediction trained
 *   offline on earlier months of its trace; the view offers no training set.
 * - The user's own duration_estimate is not used, as in Helios.
 * - Heterogeneous clusters: a job goes on the fastest type with room.
 * - predictions=FILE: its estimator takes the first row of a repeated
 *   jobname; a repeated job id here is an error (model/samples.h). */
#include "policies/idmap.h"
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Run times at one level: all of them (window 0) or the last `window`. */
typedef struct qs_roll {
    int n, head; /* samples held, next slot */
    double sum;
} qs_roll_t;

typedef struct qs_state {
    int window; /* 0 = all history */
    double prior_s;
    idmap_t keys;    /* packed (level, user, gpus) -> roll index */
    qs_roll_t *roll; /* per key */
    double *vals;    /* per key: window slots (window > 0) */
    size_t cap;
    int n_seen;      /* finished jobs folded in */
    idmap_t jobs;    /* job id -> index into service */
    double *service; /* predicted GPU-seconds, fixed when first seen */
    size_t service_cap;
    int helios_order;      /* order=helios */
    char *pred_file;       /* predictions=FILE (a copy), or NULL */
    idmap_t pred_ids;      /* its job ids -> index into pred */
    double *pred;          /* predicted duration, s */
} qs_state_t;

/* predictions=FILE, as read by the simulator: job id -> predicted duration.
 * Returns 0 (none given, or read into s), or -1 with err. */
static int take_predictions(qs_state_t *s, const policy_args_t *args, char *err, size_t errlen)
{
    const char *path = policy_arg_str(args, "predictions", NULL);
    if (!path)
        return 0;
    s->pred_file = pu_alloc(strlen(path) + 1, 1);
    memcpy(s->pred_file, path, strlen(path) + 1);
    const int64_t *ids;
    long n;
    const long *v = policy_arg_keyed(args, "predictions", &ids, &n);
    if (!v) {
        snprintf(err, errlen,
                 "qssf: predictions=%s: the file was not read (a policy is given its "
                 "predictions by policy_resolve)",
                 s->pred_file);
        return -1;
    }
    s->pred = pu_alloc((size_t)n, sizeof *s->pred);
    for (long i = 0; i < n; i++)
        s->pred[idmap_put(&s->pred_ids, ids[i])] = (double)v[i];
    return 0;
}

int qssf_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    static const char *const known[] = {"window", "prior_s", "predictions", "order", NULL};
    long window;
    double prior;
    *state = NULL;
    if (policy_args_check(args, known, "qssf", err, errlen) ||
        policy_arg_long(args, "window", 0, &window, err, errlen) ||
        policy_arg_double(args, "prior_s", 3600, &prior, err, errlen))
        return -1;
    const char *order = policy_arg_str(args, "order", "service");
    if (strcmp(order, "service") && strcmp(order, "helios")) {
        snprintf(err, errlen, "qssf: order=%s: want service or helios", order);
        return -1;
    }
    if (window < 0 || window > 100000) {
        snprintf(err, errlen, "qssf: window=%ld: want 0 (all) or 1..100000 finished jobs", window);
        return -1;
    }
    if (!(prior > 0) || !isfinite(prior)) {
        snprintf(err, errlen, "qssf: prior_s=%g: want a duration > 0 s", prior);
        return -1;
    }
    qs_state_t *s = pu_alloc(1, sizeof *s);
    s->window = (int)window;
    s->prior_s = prior;
    s->helios_order = !strcmp(order, "helios");
    idmap_init(&s->keys);
    idmap_init(&s->jobs);
    idmap_init(&s->pred_ids);
    if (take_predictions(s, args, err, errlen) < 0) {
        qssf_destroy(s);
        return -1;
    }
    *state = s;
    return 0;
}

void qssf_destroy(void *state)
{
    qs_state_t *s = state;
    if (!s)
        return;
    idmap_free(&s->keys);
    idmap_free(&s->jobs);
    idmap_free(&s->pred_ids);
    free(s->pred);
    free(s->pred_file);
    free(s->roll);
    free(s->vals);
    free(s->service);
    free(s);
}

enum { QS_USER_GPUS = 1, QS_USER = 2, QS_ALL = 3 };

static int64_t pack_key(int level, int user, int gpus)
{
    return ((int64_t)level << 56) | ((int64_t)(uint32_t)user << 24) | (int64_t)(gpus & 0xFFFFFF);
}

static void add_sample(qs_state_t *s, int64_t key, double run_time)
{
    int k = idmap_put(&s->keys, key);
    size_t slots = s->window > 0 ? (size_t)s->window : 0;
    if ((size_t)k >= s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        qs_roll_t *roll = pu_alloc(cap, sizeof *roll);
        double *vals = pu_alloc(cap * slots, sizeof *vals);
        if (s->roll) {
            memcpy(roll, s->roll, s->cap * sizeof *roll);
            if (slots)
                memcpy(vals, s->vals, s->cap * slots * sizeof *vals);
        }
        free(s->roll);
        free(s->vals);
        s->roll = roll;
        s->vals = vals;
        s->cap = cap;
    }
    qs_roll_t *r = &s->roll[k];
    if (!slots) { /* all history */
        r->n++;
        r->sum += run_time;
        return;
    }
    double *slot = &s->vals[(size_t)k * slots + (size_t)r->head];
    if (r->n == s->window)
        r->sum -= *slot;
    else
        r->n++;
    *slot = run_time;
    r->sum += run_time;
    r->head = (r->head + 1) % s->window;
}

/* Folds finished jobs not seen yet into the rolling windows. */
static void learn(qs_state_t *s, const view_t *v)
{
    for (; s->n_seen < v->n_finished; s->n_seen++) {
        const view_finished_t *f = &v->finished[s->n_seen];
        add_sample(s, pack_key(QS_USER_GPUS, f->user, f->gpus_requested), f->run_time);
        add_sample(s, pack_key(QS_USER, f->user, 0), f->run_time);
        add_sample(s, pack_key(QS_ALL, 0, 0), f->run_time);
    }
}

static double rolling_mean(const qs_state_t *s, int64_t key)
{
    int k = idmap_get(&s->keys, key);
    return k >= 0 && s->roll[k].n ? s->roll[k].sum / s->roll[k].n : NAN;
}

/* Predicted duration in s (see the top of the file). */
static double predict(const qs_state_t *s, const view_job_t *jb)
{
    double d = rolling_mean(s, pack_key(QS_USER_GPUS, jb->user, jb->gpus_requested));
    if (isnan(d))
        d = rolling_mean(s, pack_key(QS_USER, jb->user, 0));
    if (isnan(d))
        d = rolling_mean(s, pack_key(QS_ALL, 0, 0));
    return isnan(d) ? s->prior_s : d;
}

/* The job's predicted service, predicted the first time it is asked for
 * (from predictions=FILE: NAN when the file has no row for it). */
static double service_of(qs_state_t *s, const view_job_t *jb)
{
    if (s->pred_file) {
        int k = idmap_get(&s->pred_ids, jb->id);
        return k < 0 ? NAN : jb->gpus_requested * s->pred[k];
    }
    int before = s->jobs.n, k = idmap_put(&s->jobs, jb->id);
    if ((size_t)k >= s->service_cap) {
        size_t cap = s->service_cap ? 2 * s->service_cap : 64;
        double *service = pu_alloc(cap, sizeof *service);
        if (s->service)
            memcpy(service, s->service, s->service_cap * sizeof *service);
        free(s->service);
        s->service = service;
        s->service_cap = cap;
    }
    if (k >= before)
        s->service[k] = jb->gpus_requested * predict(s, jb);
    return s->service[k];
}

/* Queue order: order=service by (service, submit, id); order=helios by
 * (service, GPUs, submit, id), or (GPUs, submit, id) when every waiting job
 * arrived now (see the top of the file). */
typedef struct qs_item {
    double service;
    int gpus;
    const view_job_t *job;
    int idx;
} qs_item_t;

static int item_cmp(const void *pa, const void *pb)
{
    const qs_item_t *a = pa, *b = pb;
    if (a->service != b->service)
        return a->service < b->service ? -1 : 1;
    if (a->gpus != b->gpus)
        return a->gpus < b->gpus ? -1 : 1;
    if (a->job->submit != b->job->submit)
        return a->job->submit < b->job->submit ? -1 : 1;
    return a->job->id < b->job->id ? -1 : a->job->id > b->job->id;
}

static void helios_sort(const view_t *v, const double *service, int *order, int n)
{
    int all_new = 1;
    for (int i = 0; i < n; i++)
        all_new &= v->jobs[order[i]].submit == v->now;
    qs_item_t *it = pu_alloc((size_t)n, sizeof *it);
    for (int i = 0; i < n; i++) {
        const view_job_t *jb = &v->jobs[order[i]];
        it[i] = (qs_item_t){all_new ? 0 : service[order[i]], jb->gpus_requested, jb, order[i]};
    }
    qsort(it, (size_t)n, sizeof *it, item_cmp);
    for (int i = 0; i < n; i++)
        order[i] = it[i].idx;
    free(it);
}

int qssf_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    qs_state_t *s = state;
    if (v->n_finished < s->n_seen) { /* a different history: start again */
        idmap_free(&s->keys);
        free(s->roll);
        free(s->vals);
        s->roll = NULL;
        s->vals = NULL;
        s->cap = 0;
        s->n_seen = 0;
    }
    if (!s->pred_file)
        learn(s, v);
    pu_room_t r;
    pu_room_init(&r, v);
    double *service = pu_alloc((size_t)v->n_jobs, sizeof *service);
    int *order = pu_alloc((size_t)v->n_jobs, sizeof *order);
    int n = 0, rc = 0;
    for (int j = 0; j < v->n_jobs && rc == 0; j++) {
        const view_job_t *jb = &v->jobs[j];
        if (pu_holds(jb)) {
            pu_keep(v, &r, plan, j);
            continue;
        }
        if (!pu_ever_fits(v, j))
            continue; /* never runs here: it must not block the queue */
        service[j] = service_of(s, jb);
        if (isnan(service[j])) {
            snprintf(err, errlen, "qssf: predictions=%s has no row for job %lld", s->pred_file,
                     (long long)jb->id);
            rc = -1;
        }
        order[n++] = j;
    }
    if (s->helios_order)
        helios_sort(v, service, order, n);
    else
        pu_sort(v, service, order, n);
    for (int i = 0; i < n && rc == 0; i++)
        if (!pu_start(v, &r, plan, order[i]))
            break; /* the head does not fit: the queue waits */
    free(order);
    free(service);
    pu_room_free(&r);
    return rc;
}
