/* engine.c: the discrete-event simulation loop (see engine.h).
 *
 * State per job lives in sim_job_t; the active list holds the indices of
 * arrived, unfinished jobs in arrival order (that order is the view's order).
 * Arrivals are read from the trace one at a time (the trace is sorted), so the
 * heap only holds completions, round ticks and the next arrival.
 *
 * Rates that change with progress: under a perf backend with a goodput op
 * (pollux) a job's rate changes at every epoch boundary (its gradient noise
 * scale moves), and a job of mode accordion/gns changes its batch at some
 * epoch boundaries (adapt.h). Both are segments: a running job's rate is
 * constant up to seg_end (work units), and predict_completion() issues an
 * EV_SEGMENT event at the time it reaches seg_end when that comes before its
 * completion; there the job is re-rated (and its batch changed). So progress
 * stays exact between events. Table jobs that do not adapt have seg_end =
 * INFINITY and run exactly as before.
 *
 * Gavel's rounds (cfg->round_end = ENGINE_ROUND_END_STEPS, set by --like
 * gavel; scheduler.py simulate(), stanford-futuredata/gavel c4fa400): the
 * policy is called at a round's end, or at an arrival while no round is under
 * way. At each call every running job is given its steps for the round,
 * min(floor(rate x round_len), steps left), and stops progressing (holding its
 * GPUs) once it has run them (j->cap); the round ends when the last of them
 * has (at the latest of their step ends), not on a fixed grid. The two jobs
 * of a pair run their steps at their pair rates and end the round together,
 * at the later of their step ends (a job that finishes there finishes then,
 * as Gavel stamps both with the pair's finish time). When nothing
 * runs, the next call is the next arrival, or, once every job has arrived,
 * one more call at the same instant (Gavel then resets its allocation's clock)
 * and then calls every round_len. A job given fewer steps than its GPUs (its
 * steps split over the GPUs leave one with none) fails the round: it makes
 * no progress; after MAX_FAILS such rounds in a row (not as one of a pair) it
 * is dropped, unfinished: Gavel's failed jobs, left out of its average JCT.
 *
 * Progress is lazy (issue 16): a decision does not bring every running job
 * forward; a job's work, attained time and service are settled (advance())
 * only where its rate or state changes, and the view computes them at now
 * from the last settlement. Exact in real numbers; in floating point the
 * sums round differently from a sum at every decision, so times move in the
 * last digits. Built with -DMLS_EAGER_PROGRESS_CHECK the engine settles every
 * job at every decision again (the old sums): such a build gives results
 * byte-identical to the eager engine, which checks that nothing but the
 * summation changed (bench/same_results). A view slot whose job has not
 * changed since it was written (same job, same version) only gets its
 * progress rewritten.
 *
 * The failure watch. Under a failure rate (--failure-rate), a node fails
 * every 1/rate h on average, and a job loses all the work since its last save
 * (its start or, with --checkpoint-interval, its last checkpoint). A job that
 * needs T s uninterrupted to finish (or to reach its next checkpoint) on GPUs
 * spread over n nodes, each failing every M s on average, finishes a try with
 * chance exp(-T n / M), so it needs exp(T n / M) tries on average. A policy
 * that keeps such a job where T n / M is large (gavel-fifo keeps a job's GPU
 * type for life: a 730 h try on K80s against 50 h between failures needs
 * ~2e6 tries, 1e8 h of simulated time) makes a run that never ends. So, at a
 * failure that takes a job back to its last save, the try it ends is hopeless
 * when T n / M >= ln(1e4) (T: from the try's start, its overhead included, at
 * the rate it ran; n and M of its nodes then); a job's streak counts its
 * hopeless tries in a row with no work saved between them (a policy's
 * preemption, which keeps the work, or a checkpoint reset it, and so does a
 * try that was not hopeless). The run stops with an error naming the job,
 * its type, its need against M and the remedy when, at a failure, every job
 * of the trace has arrived and every active job has a streak of at least 10,
 * the running ones being on a hopeless try from now (T from now). Then no job
 * can finish but with a chance below 1e-4 per try, nothing can arrive, and
 * the policy has put each job back on hopeless GPUs 10 times in a row: the
 * run would need over 1e4 more tries (1e4 M of simulated time) of each job
 * unless the policy moves one elsewhere, which it has not done 10 times in
 * a row. A run that can finish is stopped only in that case: a policy that
 * would move a job after more than 10 hopeless tries while all the other
 * jobs are hopeless too. Cost: only at node failures, O(the failed node's
 * jobs' GPUs^2) and, when a streak reaches 10, one pass over the active jobs;
 * nothing per event. Failures from a schedule file alone are finite: no watch. */
#include "sim/engine.h"

#include "model/pollux_model.h"
#include "sim/adapt.h"
#include "sim/eventq.h"
#include "sim/mechanism.h"
#include "sim/view_perf.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { JOB_PENDING = 0, JOB_QUEUED, JOB_RUNNING, JOB_DONE };

typedef struct sim_job {
    const mls_job_t *spec;
    int pw; /* perf-model workload index */
    int state;
    int type, ngpus, nodes, batch;
    uint32_t version; /* bumped at every change of rate, allocation or state */
    int ad_on;        /* adaptation (mode accordion/gns with a known model) */
    /* what the view reads at every decision, together */
    double rate; /* work units/s while running */
    double work_done, last_update, overhead_end;
    double attained_time, attained_service;
    int accum;         /* accumulation steps; -1: the perf model splits `batch` */
    double work_total; /* work to do (rescaled when an adaptive job's batch changes) */
    double seg_end;    /* work at which its rate must be re-evaluated, INFINITY none */
    double gns;        /* gradient noise scale it last reported, NAN none */
    int batch_changes;
    /* adaptation, when ad_on */
    int ad_epochs, ad_init;
    double ad_dataset, ad_epoch0, ad_work0; /* epoch and work where the current batch began */
    double ad_next_work;                    /* work of the next batch change, INFINITY none */
    int ad_next_epoch;
    int explicit_batch; /* 1 once a plan gave its batch; else the perf model picks it */
    int *gpu_ids; /* capacity max_gpus */
    double stint_prod, ckpt_work; /* progress time this stint, work at the last checkpoint */
    double first_start, last_start, finish;
    double feedback_at; /* when it first reached cfg->feedback_work work units, NAN not yet */
    double isolated_time, contention_at_submit, contention;
    int preemptions, restarts;
    double ovh[OVH_KINDS]; /* its overheads, s */
    int change;            /* what its next start is: OVH_RESTART, _RESIZE, _MIGRATE */
    int left_gpus, left_type; /* GPUs it held when last stopped (for OVH_SUSPEND), 0 none */
    int gang_head, gang_next; /* the computations of its gang (trace column gang): first and
                                 next job index, -1 none */
    int partner; /* job sharing its GPUs (space sharing), -1 none */
    /* Gavel's rounds: work at which it stops this round (INFINITY: never),
     * when its round's steps end, failed rounds in a row, 1 when this round
     * is its last failure (it is dropped at step_end), 1 once dropped. */
    double cap, step_end;
    int fails, failing, failed;
    int productive;    /* 1: running past its (re)start overhead (engine_t.n_productive) */
    uint32_t stint_id; /* bumped at every (re)start */
    int joined;  /* 1: it joined the partner's GPUs (the partner owns them) */
    /* Failure watch (see the top): hopeless attempts in a row since its saved
     * work was last streak_work; the last such attempt's type, uninterrupted
     * need and its nodes' mean time between failures, s. */
    int streak, streak_type;
    double streak_work, streak_need, streak_mtbf;
} sim_job_t;

typedef struct engine {
    const engine_config_t *cfg;
    const mls_trace_t *trace;
    const mls_cluster_t *cluster;
    const mls_perf_t *perf;
    const policy_ops_t *policy;
    void *pstate;
    unsigned cadence;

    sim_job_t *jobs;
    size_t n_jobs, next_arrival, n_done;
    int *wmap;    /* trace workload -> perf workload */
    int *typemap; /* cluster type -> perf type, -1 when the model lacks it */
    int *type_node_gpus; /* most GPUs on one node of each type */

    int *active;
    size_t n_active, active_cap;
    mech_t mech; /* GPU occupancy and the plan's diff (sim/mechanism.h) */
    double *node_speed;
    gsl_rng *rng;

    eventq_t q;
    double now;
    int round_pending;
    double forced_at; /* Gavel's rounds: time of the last call forced while idle */
    double contention_integral, contention_t;
    long measured_left;

    /* Queued-only decisions (policy_ops_t.schedule_queued): offered when
     * queued_ok; qlist holds the active jobs that hold no GPUs, by job index
     * (the view's order), and a queued-only view is written from it into
     * qview, with qsnap its jobs (qlist changes while a plan is carried out).
     * vmap: the job of each index of the view the policy saw (active or qsnap).
     * When the policy asks for the full view (a busy cluster: starts would
     * preempt), the next attempts are skipped: after the n-th such answer in
     * a row, 2^n - 1 decisions (at most 63) go to the full view at once. */
    int queued_ok;
    int q_fails, q_skip;
    int *qlist, *qsnap;
    size_t n_qlist, qlist_cap, qsnap_cap;
    view_job_t *qview;
    size_t qview_cap;
    const int *vmap;

    int *vslot; /* per view slot: the job whose request it holds, -1 none */
    uint32_t *vver; /* per view slot: that job's version when last written */
    size_t vslot_cap, n_vslots; /* slots the last view wrote */
    view_perf_src_t vsrc; /* what view->perf answers from (sim/view_perf.h) */
    view_perf_t vperf;
    plan_t plan;

    sim_result_t *out;
    double next_sample, sample_step, last_progress_wall;
    unsigned long progress_mark; /* bumped whenever any job makes progress */
    size_t n_queued;             /* active jobs that hold no GPUs */
    /* Livelock watch without touching every job: running jobs still paying
     * their (re)start overhead wait in ovq (time = overhead end, version =
     * stint); once past it they count in n_productive until they stop. */
    eventq_t ovq;
    long n_productive;
    int stuck; /* a job the failure watch found cannot finish, -1 none */
} engine_t;

const char *engine_round_end_name(int round_end)
{
    return round_end == ENGINE_ROUND_END_FIXED   ? "fixed"
           : round_end == ENGINE_ROUND_END_STEPS ? "steps"
                                                 : NULL;
}

int engine_round_end_parse(const char *name)
{
    for (int i = 0; engine_round_end_name(i); i++)
        if (!strcmp(name, engine_round_end_name(i)))
            return i;
    return -1;
}

void engine_config_defaults(engine_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->round_len = 360;
    cfg->restart_overhead = 20;
    cfg->feedback_work = 100;
    cfg->placement = MECH_PLACE_AUTO;
    cfg->seed = 1;
    cfg->measure_lo = 0;
    cfg->measure_hi = -1;
}

static int is_measured(const engine_config_t *cfg, int64_t id)
{
    return cfg->measure_lo >= cfg->measure_hi || (id >= cfg->measure_lo && id < cfg->measure_hi);
}

/* ---- rates ---------------------------------------------------------------- */

static double rate_on(const engine_t *e, int pw, int type, int gpus, int nodes, int batch)
{
    int pt = e->typemap[type];
    if (pt < 0 || pw < 0)
        return 0;
    double r = perf_throughput(e->perf, pw, pt, gpus, nodes, batch);
    return isfinite(r) && r > 0 ? r : 0;
}

/* Most GPUs on one node of each type (a fresh array). */
static int *node_gpus_of(const mls_cluster_t *c)
{
    int *per = xcalloc((size_t)(c->n_types ? c->n_types : 1), sizeof(int));
    for (int i = 0; i < c->n_nodes; i++)
        if (c->nodes[i].gpus > per[c->nodes[i].type])
            per[c->nodes[i].type] = c->nodes[i].gpus;
    return per;
}

/* Fewest nodes a job of `gpus` GPUs can span on `type` (node_gpus: node_gpus_of()). */
static int min_nodes(const int *node_gpus, int type, int gpus)
{
    int per = node_gpus[type];
    return per ? (gpus + per - 1) / per : 0;
}

/* Best exclusive rate of a job on its request over the cluster's types. */
static double best_rate(const mls_cluster_t *c, const mls_perf_t *perf, const int *typemap,
                        const int *node_gpus, int pw, int gpus, int batch)
{
    double best = 0;
    for (int t = 0; t < c->n_types; t++) {
        if (typemap[t] < 0 || c->types[t].total_gpus < gpus)
            continue;
        double r =
            perf_throughput(perf, pw, typemap[t], gpus, min_nodes(node_gpus, t, gpus), batch);
        if (isfinite(r) && r > best)
            best = r;
    }
    return best;
}

static int *map_types(const mls_cluster_t *c, const mls_perf_t *perf)
{
    int *m = xmalloc(sizeof(int) * (size_t)(c->n_types ? c->n_types : 1));
    for (int t = 0; t < c->n_types; t++)
        m[t] = perf_gpu_type_index(perf, c->types[t].name);
    return m;
}

int engine_check_trace(const mls_trace_t *trace, const mls_cluster_t *cluster,
                       const mls_perf_t *perf, mls_err_t *err)
{
    int *typemap = map_types(cluster, perf), *node_gpus = node_gpus_of(cluster);
    int any = 0, rc = 0;
    for (int t = 0; t < cluster->n_types; t++)
        any |= typemap[t] >= 0;
    if (!any)
        rc = mls_fail(err, "%s: none of the cluster's GPU types is in the perf model %s",
                      cluster->source ? cluster->source : "cluster", perf->source);
    int largest = 0;
    for (int t = 0; t < cluster->n_types; t++)
        if (cluster->types[t].total_gpus > largest)
            largest = cluster->types[t].total_gpus;
    int *wmap = xmalloc(sizeof(int) * (trace->workloads.n ? trace->workloads.n : 1));
    for (size_t w = 0; w < trace->workloads.n; w++)
        wmap[w] = perf_workload_index(perf, trace->workloads.names[w]);
    for (size_t i = 0; i < trace->n && rc == 0; i++) {
        const mls_job_t *j = &trace->jobs[i];
        int pw = wmap[j->workload];
        int bad = 0; /* which rule it breaks; its place in the trace is written only then */
        if (pw < 0)
            bad = 1;
        else if (j->min_gpus > largest)
            bad = 2;
        else if (j->mode != ADAPT_STATIC && perf->ops->goodput)
            bad = 3;
        else if (best_rate(cluster, perf, typemap, node_gpus, pw, j->gpus, j->batch_size) <= 0)
            bad = 4;
        if (!bad)
            continue;
        const char *wname = trace->workloads.names[j->workload];
        char tp[600]; /* "PATH:LINE: job ID" */
        trace_job_where(trace, i, tp, sizeof tp);
        if (bad == 1)
            rc = mls_fail(err, "%s: workload '%s': unknown to the perf model %s", tp, wname,
                          perf->source);
        else if (bad == 2)
            rc = mls_fail(err,
                          "%s: gpus: needs %d GPUs but the largest GPU type of the cluster has %d",
                          tp, j->min_gpus, largest);
        else if (bad == 3)
            rc = mls_fail(err,
                          "%s: mode: %s adaptation changes the batch of table workloads; the "
                          "%s perf model %s picks batches itself (use static)",
                          tp, j->mode == ADAPT_GNS ? "gns" : "accordion",
                          perf->ops->backend, perf->source);
        else
            rc = mls_fail(err,
                          "%s: workload '%s' on %d GPUs: the perf model gives it no "
                          "throughput on any GPU type of the cluster",
                          tp, wname, j->gpus);
    }
    free(wmap);
    free(typemap);
    free(node_gpus);
    return rc;
}

/* ---- job progress ------------------------------------------------------- *
 * Lazy: a running job's progress is settled (advance) only where its rate or
 * state changes, it stops or completes, and at the end; between two
 * settlements its work, attained time and service at time t are linear in t
 * (work_at and fill_view_now compute them for the view without storing). */

static void advance(engine_t *e, sim_job_t *j)
{
    double t = e->now;
    if (j->state != JOB_RUNNING || t <= j->last_update)
        return;
    double from = j->last_update > j->overhead_end ? j->last_update : j->overhead_end;
    if (t > from) {
        double c = e->cfg->faults ? e->cfg->faults->checkpoint_interval : 0;
        double p0 = j->stint_prod, p1 = p0 + (t - from);
        if (c > 0 && floor(p1 / c) > floor(p0 / c))
            j->ckpt_work = j->work_done + j->rate * (floor(p1 / c) * c - p0);
        j->stint_prod = p1;
        double w = e->cfg->feedback_work;
        if (isnan(j->feedback_at) && j->work_done < w && j->work_done + j->rate * (t - from) >= w)
            j->feedback_at = from + (w - j->work_done) / j->rate;
        j->work_done += j->rate * (t - from);
        if (j->work_done > j->cap - 1e-6) /* Gavel's rounds: its steps for the round */
            j->work_done = j->cap;
        e->progress_mark++;
    }
    if (j->work_done > j->work_total)
        j->work_done = j->work_total;
    double dt = t - j->last_update;
    j->attained_time += dt;
    j->attained_service += dt * j->ngpus;
    if (!j->joined)
        e->out->busy_gpu_seconds += dt * j->ngpus;
    j->last_update = t;
}

/* Work done by now, without settling (advance's sum, in one step). */
static double work_at(const engine_t *e, const sim_job_t *j)
{
    if (j->state != JOB_RUNNING)
        return j->work_done;
    double from = j->last_update > j->overhead_end ? j->last_update : j->overhead_end;
    double w = j->work_done;
    if (e->now > from) {
        w += j->rate * (e->now - from);
        if (w > j->cap - 1e-6) /* Gavel's rounds: it stops at its steps for the round */
            w = j->cap;
    }
    return w > j->work_total ? j->work_total : w;
}

static void predict_completion(engine_t *e, sim_job_t *j)
{
    j->version++;
    double start = e->now > j->overhead_end ? e->now : j->overhead_end;
    double left = j->work_total - j->work_done;
    double seg = j->seg_end - j->work_done;
    if (j->cap < j->work_total) { /* Gavel's rounds: it stops this round at cap */
        if (j->failing)
            eventq_push(&e->q, j->step_end, EV_COMPLETION, (int)(j - e->jobs), j->version);
        return;
    }
    if (seg < left && j->rate > 0) {
        double at = start + (seg > 0 ? seg / j->rate : 0);
        if (e->cfg->whole_epochs) /* on_segment() then sets the work to seg_end */
            at = nearbyint(at);
        eventq_push(&e->q, at, EV_SEGMENT, (int)(j - e->jobs), j->version);
        return;
    }
    double when = start + (left > 0 ? left / j->rate : 0);
    if (e->cfg->whole_epochs)
        when = nearbyint(when);
    if (isfinite(j->cap) && j->partner >= 0 && j->step_end > when)
        when = j->step_end; /* Gavel's rounds: a pair's jobs end with the pair's steps */
    eventq_push(&e->q, when, EV_COMPLETION, (int)(j - e->jobs), j->version);
}

static void contention_update(engine_t *e)
{
    e->contention_integral += (double)e->n_active * (e->now - e->contention_t);
    e->contention_t = e->now;
}

/* ---- the queued list (queued_ok) -------------------------------------------- */

/* Where job idx is, or would go, in a list sorted by job index. */
static size_t index_pos(const int *a, size_t n, int idx)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void qlist_add(engine_t *e, int idx)
{
    if (!e->queued_ok)
        return;
    xgrow((void **)&e->qlist, &e->qlist_cap, e->n_qlist + 1, sizeof *e->qlist);
    size_t k = index_pos(e->qlist, e->n_qlist, idx);
    memmove(e->qlist + k + 1, e->qlist + k, sizeof *e->qlist * (e->n_qlist - k));
    e->qlist[k] = idx;
    e->n_qlist++;
}

static void qlist_remove(engine_t *e, int idx)
{
    if (!e->queued_ok)
        return;
    size_t k = index_pos(e->qlist, e->n_qlist, idx);
    if (k == e->n_qlist || e->qlist[k] != idx)
        return;
    memmove(e->qlist + k, e->qlist + k + 1, sizeof *e->qlist * (e->n_qlist - k - 1));
    e->n_qlist--;
}

/* ---- GPUs ------------------------------------------------------------------ */

static void hold_gpus(engine_t *e, sim_job_t *j, const int *ids, int n)
{
    memcpy(j->gpu_ids, ids, sizeof(int) * (size_t)n);
    mech_gpus_take(&e->mech, (int)(j - e->jobs), ids, n);
    j->ngpus = n;
}

static void predict_completion(engine_t *e, sim_job_t *j);

/* The slowest node a job has a GPU on sets its pace (stragglers). */
static double job_speed(const engine_t *e, const sim_job_t *j)
{
    double s = 1;
    for (int i = 0; i < j->ngpus; i++) {
        double f = e->node_speed[e->cluster->gpu_node[j->gpu_ids[i]]];
        if (f < s)
            s = f;
    }
    return s;
}

/* ---- segments: progress-dependent rates and batch adaptation ---------------- */

static const char *wname(const engine_t *e, const sim_job_t *j)
{
    return e->trace->workloads.names[j->spec->workload];
}

/* The batch an adaptive job runs epoch ep at; the current one when the perf
 * table has no entry for the scheduled batch (it cannot be rated). */
static int ad_batch(const engine_t *e, const sim_job_t *j, int ep)
{
    int b = adapt_batch_at(j->spec->mode, wname(e, j), j->ad_init, j->spec->gpus, ep);
    if (b == j->batch || b == j->ad_init)
        return b;
    const char *w = wname(e, j), *cut = strstr(w, " (batch size ");
    char name[300];
    snprintf(name, sizeof name, "%.*s (batch size %d)", cut ? (int)(cut - w) : (int)strlen(w), w,
             b);
    return perf_workload_index(e->perf, name) >= 0 ? b : j->batch;
}

/* Iterations of one epoch at batch b: a last partial batch is an iteration
 * (Shockwave's simulator counts ceil(dataset / b)). */
static double ad_epoch_iters(const sim_job_t *j, int b)
{
    return ceil(j->ad_dataset / b - 1e-9);
}

static double ad_epoch_at(const sim_job_t *j, double work)
{
    return j->ad_epoch0 + (work - j->ad_work0) / ad_epoch_iters(j, j->batch);
}

/* Where an adaptive job next changes its batch (work and epoch). */
static void ad_plan_next(const engine_t *e, sim_job_t *j)
{
    j->ad_next_work = INFINITY;
    if (!j->ad_on)
        return;
    int cur = (int)floor(ad_epoch_at(j, j->work_done) + 1e-9);
    for (int ep = cur + 1; ep < j->ad_epochs; ep++)
        if (ad_batch(e, j, ep) != j->batch) {
            j->ad_next_epoch = ep;
            j->ad_next_work = j->ad_work0 + (ep - j->ad_epoch0) * ad_epoch_iters(j, j->batch);
            return;
        }
}

/* A job's batch changes (its own adaptation when self, or a plan's). An
 * adaptive job's remaining iterations scale by old / new batch, so that its
 * epoch count stays. */
static void change_batch(const engine_t *e, sim_job_t *j, int batch, int accum, int self)
{
    if (j->ad_on && batch > 0 && batch != j->batch) {
        double epoch = self ? j->ad_next_epoch : ad_epoch_at(j, j->work_done);
        j->work_total = j->work_done + (j->work_total - j->work_done) *
                                           ad_epoch_iters(j, batch) / ad_epoch_iters(j, j->batch);
        j->ad_epoch0 = epoch;
        j->ad_work0 = j->work_done;
    }
    j->batch = batch;
    j->accum = accum;
    j->batch_changes += self;
    ad_plan_next(e, j);
}

/* Under a backend with batch limits (pollux), a job the plan gave no batch
 * runs at the per-GPU batch its trace asks (0: Pollux's default, total
 * max(M0, min_local x GPUs)), split into micro-batches that fit the GPU. */
static void resolve_batch(const engine_t *e, sim_job_t *j)
{
    const perf_ops_t *ops = e->perf->ops;
    perf_batch_limits_t l;
    int pt = e->typemap[j->type];
    if (j->explicit_batch || !ops->batch_limits || pt < 0 ||
        ops->batch_limits(e->perf, j->pw, pt, &l) < 0)
        return;
    double local = j->spec->batch_size;
    if (local <= 0) {
        double total = l.init_batch > l.min_local_batch * j->ngpus
                           ? l.init_batch
                           : (double)l.min_local_batch * j->ngpus;
        local = ceil(total / j->ngpus - 1e-8);
    }
    pollux_split_batch(local, j->ngpus, l.init_batch, l.max_batch, l.max_local_batch, &j->batch,
                       &j->accum);
}

/* Where the job's current rate ends, and the noise scale it reports. */
static void set_segment(const engine_t *e, sim_job_t *j)
{
    const perf_ops_t *ops = e->perf->ops;
    j->seg_end = j->ad_next_work;
    if (ops->next_change) {
        double n = ops->next_change(e->perf, j->pw, j->work_done);
        if (n < j->seg_end)
            j->seg_end = n;
    }
    if (ops->noise_scale && j->batch > 0 && j->ngpus > 0)
        j->gns = ops->noise_scale(e->perf, j->pw,
                                  (double)j->ngpus * j->batch * (j->accum > 0 ? j->accum + 1 : 1),
                                  j->work_done);
}

/* The job's GPUs per node, nodes in the order its GPU list first names them,
 * into cnt (node: scratch; both with room for j->ngpus); returns the nodes:
 * the placement the measured-rates mode looks up, as Pollux's simulator
 * builds it from an allocation list. */
static int per_node(const engine_t *e, const sim_job_t *j, int *node, int *cnt)
{
    int n = 0;
    for (int i = 0; i < j->ngpus; i++) {
        int nd = e->cluster->gpu_node[j->gpu_ids[i]], k = 0;
        while (k < n && node[k] != nd)
            k++;
        if (k == n) {
            node[n++] = nd;
            cnt[k] = 0;
        }
        cnt[k]++;
    }
    return n;
}

/* The measured-rates goodput of a job on its allocation: its GPUs per node
 * counted on the stack (a job above PER_NODE_STACK GPUs: on the heap). */
enum { PER_NODE_STACK = 128 };
static double actual_rate(const engine_t *e, const sim_job_t *j, int pt)
{
    int buf[2 * PER_NODE_STACK], *heap = NULL, *per = NULL, n = 0;
    if (j->nodes > 1 && j->gpu_ids && j->ngpus > 0) { /* GPUs per node, in id order */
        int *node = buf, *cnt = buf + PER_NODE_STACK;
        if (j->ngpus > PER_NODE_STACK) {
            heap = xmalloc(2 * sizeof *heap * (size_t)j->ngpus);
            node = heap;
            cnt = heap + j->ngpus;
        }
        n = per_node(e, j, node, cnt);
        per = n == j->nodes ? cnt : NULL; /* else --spread-rate consolidated: one node */
        n = per ? n : 0;
    }
    double r = e->perf->ops->actual_goodput(e->perf, j->pw, pt, j->ngpus, j->nodes, per, n,
                                            j->batch, j->accum, j->work_done);
    free(heap);
    return r;
}

/* The isolated rate of a job on its allocation, at its progress. */
static double solo_rate(const engine_t *e, const sim_job_t *j)
{
    const perf_ops_t *ops = e->perf->ops;
    int pt = e->typemap[j->type];
    if (!ops->goodput)
        return rate_on(e, j->pw, j->type, j->ngpus, j->nodes, j->batch);
    if (pt < 0 || j->pw < 0)
        return 0;
    double r = ops->actual_goodput ? actual_rate(e, j, pt)
                                   : ops->goodput(e->perf, j->pw, pt, j->ngpus, j->nodes,
                                                  j->batch, j->accum, j->work_done);
    return isfinite(r) && r > 0 ? r : 0;
}

static void couple_gang(engine_t *e, const sim_job_t *j);

/* Sets the rate of a running job (and of its partner, when it shares). */
static void rerate_one(engine_t *e, sim_job_t *j)
{
    double speed = job_speed(e, j);
    if (j->partner < 0) {
        j->rate = speed * solo_rate(e, j);
        set_segment(e, j);
        return;
    }
    sim_job_t *own = j->joined ? &e->jobs[j->partner] : j;
    sim_job_t *jn = j->joined ? j : &e->jobs[j->partner];
    double r[2] = {0, 0};
    view_perf_pair(e->perf, own->pw, jn->pw, e->typemap[own->type], own->ngpus, r);
    own->rate = speed * r[0];
    jn->rate = speed * r[1];
    set_segment(e, own);
    set_segment(e, jn);
}

/* The computations of a gang progress in lockstep (Pathways: they exchange
 * data every step): each at the pace of the slowest running one, pace
 * measured as the fraction of its own work done per second, and none before
 * every one has paid its start (and dispatch) overhead. */
static void couple_gang(engine_t *e, const sim_job_t *j)
{
    double pace = INFINITY, ready = -INFINITY;
    for (int i = j->gang_head; i >= 0; i = e->jobs[i].gang_next) {
        sim_job_t *m = &e->jobs[i];
        if (m->state != JOB_RUNNING || m->joined)
            continue;
        advance(e, m);
        double own = m->partner < 0 ? job_speed(e, m) * solo_rate(e, m) : m->rate;
        if (own / m->work_total < pace)
            pace = own / m->work_total;
        if (m->overhead_end > ready)
            ready = m->overhead_end;
    }
    for (int i = j->gang_head; i >= 0 && isfinite(pace); i = e->jobs[i].gang_next) {
        sim_job_t *m = &e->jobs[i];
        if (m->state != JOB_RUNNING || m->joined || m->partner >= 0)
            continue;
        m->rate = pace * m->work_total;
        m->overhead_end = ready; /* a step needs every computation: none moves before all can */
        if (m->productive && ready >= e->now) { /* waits again: watched again */
            m->productive = 0;
            e->n_productive--;
            eventq_push(&e->ovq, ready, EV_SEGMENT, i, m->stint_id);
        }
        predict_completion(e, m);
    }
}

static void rerate(engine_t *e, sim_job_t *j)
{
    rerate_one(e, j);
    if (j->gang_head >= 0)
        couple_gang(e, j);
}

/* A job leaves a shared allocation: its partner keeps the GPUs and goes on
 * alone at its isolated rate. */
static void leave_pair(engine_t *e, sim_job_t *j)
{
    sim_job_t *q = &e->jobs[j->partner];
    advance(e, q);
    mech_gpus_pass(&e->mech, (int)(q - e->jobs), q->gpu_ids, q->ngpus);
    q->partner = j->partner = -1;
    q->joined = j->joined = 0;
    rerate(e, q);
    predict_completion(e, q);
}

static void release_gpus(engine_t *e, sim_job_t *j)
{
    e->n_productive -= j->productive;
    j->productive = 0;
    if (j->partner >= 0) {
        leave_pair(e, j);
        j->ngpus = 0;
        j->nodes = 0;
        j->type = -1;
        j->rate = 0;
        j->version++;
        return;
    }
    mech_gpus_give(&e->mech, (int)(j - e->jobs), j->gpu_ids, j->ngpus);
    j->ngpus = 0;
    j->nodes = 0;
    j->type = -1;
    j->rate = 0;
    j->version++; /* drops its pending completion */
}

/* ---- arrivals and completions ------------------------------------------------ */

static void push_next_arrival(engine_t *e)
{
    if (e->next_arrival < e->n_jobs)
        eventq_push(&e->q, e->jobs[e->next_arrival].spec->submit, EV_ARRIVAL,
                    (int)e->next_arrival, 0);
}

static void on_arrival(engine_t *e, int idx)
{
    sim_job_t *j = &e->jobs[idx];
    contention_update(e);
    j->state = JOB_QUEUED;
    e->n_queued++;
    qlist_add(e, idx);
    j->last_update = e->now;
    j->contention_at_submit = e->contention_integral;
    xgrow((void **)&e->active, &e->active_cap, e->n_active + 1, sizeof *e->active);
    e->active[e->n_active++] = idx;
    e->next_arrival++;
    push_next_arrival(e);
}

static void on_completion(engine_t *e, int idx)
{
    sim_job_t *j = &e->jobs[idx];
    advance(e, j);
    contention_update(e);
    j->failed = j->failing;
    if (!j->failed)
        j->work_done = j->work_total;
    j->finish = e->now;
    if (isnan(j->feedback_at)) /* all its work was less than the feedback mark */
        j->feedback_at = j->finish;
    double life = j->finish - j->spec->submit;
    j->contention = life > 0 ? (e->contention_integral - j->contention_at_submit) / life : 1;
    mech_finished_add(&e->mech, &(view_finished_t){j->spec->user, j->spec->workload,
                                                   j->spec->gpus, j->spec->submit,
                                                   j->first_start, j->finish, j->attained_time,
                                                   j->attained_service});
    release_gpus(e, j);
    j->state = JOB_DONE;
    if (j->gang_head >= 0)
        couple_gang(e, j);
    e->n_done++;
    if (is_measured(e->cfg, j->spec->id))
        e->measured_left--;
    size_t k = index_pos(e->active, e->n_active, idx); /* active is in job order */
    if (k == e->n_active || e->active[k] != idx)
        return;
    size_t tail = e->n_active - k - 1;
    memmove(e->active + k, e->active + k + 1, sizeof *e->active * tail);
    e->n_active--;
    if (e->queued_ok && !e->q_fails && k < e->n_vslots) {
        /* full views are rare here: the slots from k on are rewritten when
         * one is built (vslot no longer matches), not moved at every completion */
        e->n_vslots = k;
    } else if (k < e->n_vslots) { /* the view's slots move with it: their jobs stay described */
        size_t vt = e->n_vslots - k - 1;
        memmove(e->mech.vjobs + k, e->mech.vjobs + k + 1, sizeof *e->mech.vjobs * vt);
        memmove(e->vslot + k, e->vslot + k + 1, sizeof *e->vslot * vt);
        memmove(e->vver + k, e->vver + k + 1, sizeof *e->vver * vt);
        e->vslot[--e->n_vslots] = -1;
    }
}

/* A running job reaches the end of its segment: an epoch boundary where its
 * rate changes, or where it changes its batch. Returns MLS_WHY_BATCH_CHANGE
 * when it did. */
static unsigned on_segment(engine_t *e, int idx)
{
    sim_job_t *j = &e->jobs[idx];
    advance(e, j);
    if (j->partner >= 0)
        advance(e, &e->jobs[j->partner]);
    j->work_done = j->seg_end; /* exact by construction; drops rounding */
    unsigned why = 0;
    if (j->ad_on && j->work_done >= j->ad_next_work) {
        change_batch(e, j, ad_batch(e, j, j->ad_next_epoch), j->accum, 1);
        why = MLS_WHY_BATCH_CHANGE;
    }
    rerate(e, j);
    predict_completion(e, j);
    if (j->partner >= 0)
        predict_completion(e, &e->jobs[j->partner]);
    return why;
}

/* ---- the view ------------------------------------------------------------ */

static int view_schedule(void *ctx, const view_job_t *vj, view_batch_step_t *out, int max)
{
    const engine_t *e = ctx;
    const sim_job_t *j = NULL;
    for (size_t k = 0; k < e->n_active && !j; k++) /* by id: vj may be a policy's copy */
        if (e->jobs[e->active[k]].spec->id == vj->id)
            j = &e->jobs[e->active[k]];
    if (!e->policy->oracle || !j)
        return -1;
    int cur = j->ad_on ? (int)floor(ad_epoch_at(j, work_at(e, j)) + 1e-9) : 0, n = 0, b = j->batch;
    if (n < max)
        out[n] = (view_batch_step_t){cur, b};
    n++;
    for (int ep = cur + 1; j->ad_on && ep < j->ad_epochs; ep++) {
        int nb = ad_batch(e, j, ep);
        if (nb == b)
            continue;
        if (n < max)
            out[n] = (view_batch_step_t){ep, nb};
        n++;
        b = nb;
    }
    return n;
}

/* What a job's view entry says that never changes while it is active: its
 * request, from the trace. */
static void fill_view_static(const engine_t *e, const sim_job_t *j, view_job_t *v)
{
    const mls_job_t *s = j->spec;
    *v = (view_job_t){0};
    v->id = s->id;
    v->user = s->user;
    v->workload = s->workload;
    v->workload_name = e->trace->workloads.names[s->workload];
    v->submit = s->submit;
    v->priority = s->priority;
    v->deadline = s->deadline;
    v->duration_estimate = s->duration;
    v->gpus_requested = s->gpus;
    v->min_gpus = s->min_gpus;
    v->max_gpus = s->max_gpus;
    v->adapt_mode = (int)s->mode;
    v->cpus = s->cpus > 0 ? s->cpus : e->mech.cpus_per_gpu * s->gpus;
    v->mem_gb = s->mem_gb > 0 ? s->mem_gb : e->mech.mem_gb_per_gpu * s->gpus;
    v->gang = s->gang;
    v->total_batch = s->total_batch;
}

/* Epochs done at `work`: NAN when the workload has no epoch size. */
static double view_epoch(const engine_t *e, const sim_job_t *j, double work)
{
    perf_batch_limits_t l;
    if (j->ad_on)
        return ad_epoch_at(j, work);
    if (e->perf->ops->batch_limits && e->perf->ops->batch_limits(e->perf, j->pw, -1, &l) == 0 &&
        l.epoch_work > 0)
        return work / l.epoch_work;
    return NAN;
}

/* What moves with time alone while a job runs: progress (at now, lazily). */
static void fill_view_progress(const engine_t *e, const sim_job_t *j, view_job_t *v)
{
    double dt = e->now > j->last_update ? e->now - j->last_update : 0;
    double work = work_at(e, j);
    v->state = j->overhead_end > e->now ? VIEW_RESTARTING : VIEW_RUNNING;
    v->attained_time = j->attained_time + dt;
    v->attained_service = j->attained_service + dt * j->ngpus;
    v->work_done = work;
    if (e->policy->oracle)
        v->remaining_work = j->work_total - work;
    v->epoch = view_epoch(e, j, work);
}

/* What changes: state, allocation, progress (at now, lazily), counters. */
static void fill_view_now(const engine_t *e, const sim_job_t *j, view_job_t *v)
{
    int oracle = e->policy->oracle, running = j->state == JOB_RUNNING;
    double dt = running && e->now > j->last_update ? e->now - j->last_update : 0;
    double work = work_at(e, j);
    v->batch_size = j->batch;
    v->state = !running ? VIEW_QUEUED : j->overhead_end > e->now ? VIEW_RESTARTING : VIEW_RUNNING;
    v->cur_type = running ? j->type : -1;
    v->cur_gpus = running ? j->ngpus : 0;
    v->cur_nodes = running ? j->nodes : 0;
    v->cur_gpu_ids = running ? j->gpu_ids : NULL;
    v->first_start = j->first_start;
    v->last_start = j->last_start;
    v->attained_time = j->attained_time + dt;
    v->attained_service = j->attained_service + dt * j->ngpus;
    v->work_done = work;
    v->throughput = running ? j->rate : NAN;
    v->preemptions = j->preemptions;
    v->restarts = j->restarts;
    v->total_work = oracle ? j->work_total : NAN;
    v->remaining_work = oracle ? j->work_total - work : NAN;
    v->accum_steps = j->accum;
    v->grad_noise_scale = j->gns;
    v->epoch = view_epoch(e, j, work);
    v->batch_changes = j->batch_changes;
}

/* The view: each active job as the simulator knows it; the mechanism adds
 * the rest (sim/mechanism.h). The view's array lives on between decisions:
 * a slot that shows the same job as last time keeps its request (vslot;
 * mech_view_begin() keeps the array's contents when it grows). */
static void build_view(engine_t *e, unsigned reasons)
{
    view_job_t *vj = mech_view_begin(&e->mech, (int)e->n_active);
    int progress = !e->policy->progress_unread || e->policy->oracle || e->perf->ops->goodput;
    if (e->n_active > e->vslot_cap) {
        size_t old = e->vslot_cap;
        xgrow((void **)&e->vslot, &e->vslot_cap, e->n_active, sizeof *e->vslot);
        e->vver = xrealloc(e->vver, sizeof *e->vver * e->vslot_cap);
        for (size_t k = old; k < e->vslot_cap; k++)
            e->vslot[k] = -1;
    }
    for (size_t k = 0; k < e->n_active; k++) {
        sim_job_t *j = &e->jobs[e->active[k]];
#ifdef MLS_EAGER_PROGRESS_CHECK
        advance(e, j);
#endif
        if (e->vslot[k] == e->active[k] && e->vver[k] == j->version) {
            /* unchanged since its slot was written: only progress moves,
             * and only a reader of progress needs it */
            if (j->state == JOB_RUNNING && progress)
                fill_view_progress(e, j, &vj[k]);
            continue;
        }
        if (e->vslot[k] != e->active[k]) {
            fill_view_static(e, j, &vj[k]);
            e->vslot[k] = e->active[k];
        }
        fill_view_now(e, j, &vj[k]);
        e->vver[k] = j->version;
    }
    e->n_vslots = e->n_active;
    e->vmap = e->active;
    mech_view_end(&e->mech, (int)e->n_active, e->now, reasons);
}

/* The queued-only view (policy_ops_t.schedule_queued): the jobs of qlist,
 * written afresh (there are few of them), and what the mechanism adds. */
static void build_queued_view(engine_t *e, unsigned reasons)
{
    xgrow((void **)&e->qview, &e->qview_cap, e->n_qlist + 1, sizeof *e->qview);
    xgrow((void **)&e->qsnap, &e->qsnap_cap, e->n_qlist + 1, sizeof *e->qsnap);
    for (size_t k = 0; k < e->n_qlist; k++) {
        const sim_job_t *j = &e->jobs[e->qlist[k]];
        fill_view_static(e, j, &e->qview[k]);
        fill_view_now(e, j, &e->qview[k]);
        e->qsnap[k] = e->qlist[k];
    }
#ifdef MLS_EAGER_PROGRESS_CHECK
    for (size_t k = 0; k < e->n_active; k++)
        advance(e, &e->jobs[e->active[k]]);
#endif
    e->vmap = e->qsnap;
    mech_view_end_queued(&e->mech, e->qview, (int)e->n_qlist, e->now, reasons);
}

/* ---- the simulator's executor: each change of a plan at once ------------------
 * (sim/mechanism.c decides what changes and in which order) */

static int plan_error(const engine_t *e, const view_job_t *vj, mls_err_t *err, const char *rule,
                      const char *detail)
{
    return mls_fail(err, "policy '%s' planned job %lld: %s: %s", e->policy->name,
                    (long long)vj->id, rule, detail);
}

static sim_job_t *view_job(engine_t *e, int k)
{
    return &e->jobs[e->vmap[k]];
}

/* The cost of the start under way; call after first_start is set. */
static double start_overhead(sim_job_t *j)
{
    int kind = j->restarts == 0 ? OVH_START : j->change;
    j->change = OVH_RESTART;
    return j->ovh[kind];
}

/* The batch a (re)started job runs at: the plan's, or its own. */
static void take_batch(engine_t *e, sim_job_t *j, const plan_alloc_t *a)
{
    if (a->batch_size) {
        j->explicit_batch = 1;
        change_batch(e, j, a->batch_size, e->perf->ops->goodput ? a->accum_steps : j->accum, 0);
    }
    resolve_batch(e, j);
}

/* Pathways' dispatch: a computation of a gang starts after one dispatch
 * latency (parallel), or after as many as computations of its gang started
 * before it at this instant plus one (sequential). */
static double dispatch_delay(const engine_t *e, const sim_job_t *j)
{
    if (j->gang_head < 0 || !(e->cfg->dispatch_latency > 0))
        return 0;
    int rank = 0;
    for (int i = j->gang_head; i >= 0 && e->cfg->dispatch_sequential; i = e->jobs[i].gang_next)
        rank += &e->jobs[i] != j && e->jobs[i].state == JOB_RUNNING &&
                e->jobs[i].last_start == e->now;
    return e->cfg->dispatch_latency * (rank + 1);
}

/* The job is running from now: counters, overhead, its completion. */
static void begin_stint(engine_t *e, sim_job_t *j)
{
    if (isnan(j->first_start))
        j->first_start = e->now;
    else
        j->restarts++;
    j->state = JOB_RUNNING;
    j->last_start = j->last_update = e->now;
    j->overhead_end = e->now + start_overhead(j) + dispatch_delay(e, j);
    j->stint_prod = 0;
    j->ckpt_work = j->work_done;
    e->n_queued--;
    qlist_remove(e, (int)(j - e->jobs));
    j->stint_id++;
    eventq_push(&e->ovq, j->overhead_end, EV_SEGMENT, (int)(j - e->jobs), j->stint_id);
}

static void exec_rebatch(void *ctx, int k, int batch, int accum)
{
    engine_t *e = ctx;
    sim_job_t *j = view_job(e, k);
    advance(e, j);
    if (j->partner >= 0)
        advance(e, &e->jobs[j->partner]);
    j->explicit_batch = 1;
    change_batch(e, j, batch, accum, 0);
    rerate(e, j);
    predict_completion(e, j);
    if (j->partner >= 0)
        predict_completion(e, &e->jobs[j->partner]);
}

static void stop_job(engine_t *e, sim_job_t *j)
{
    advance(e, j);
    j->left_gpus = j->ngpus; /* gpu_ids keeps the ids (a joiner's: its partner's) */
    j->left_type = j->type;
    release_gpus(e, j);
    j->state = JOB_QUEUED;
    e->n_queued++;
    qlist_add(e, (int)(j - e->jobs));
    if (j->gang_head >= 0)
        couple_gang(e, j); /* the others go on at their own pace */
}

static void exec_stop(void *ctx, int k, mech_stop_t why)
{
    engine_t *e = ctx;
    sim_job_t *j = view_job(e, k);
    j->change = why == MECH_PREEMPT ? OVH_RESTART : why == MECH_RESIZE ? OVH_RESIZE : OVH_MIGRATE;
    stop_job(e, j);
    j->preemptions += why == MECH_PREEMPT;
}

static int exec_start(void *ctx, int k, const plan_alloc_t *a, const int *ids, int nodes,
                      int resumed, mls_err_t *err)
{
    engine_t *e = ctx;
    sim_job_t *j = view_job(e, k);
    (void)resumed;
    if (j->change == OVH_RESTART && j->left_gpus == a->gpus && j->left_type == a->type &&
        mech_same_gpus(j->gpu_ids, ids, a->gpus))
        j->change = OVH_SUSPEND;
    j->left_gpus = 0;
    j->type = a->type;
    j->nodes = e->cfg->consolidated_rates ? 1 : nodes; /* --spread-rate consolidated */
    hold_gpus(e, j, ids, a->gpus);
    take_batch(e, j, a);
    rerate(e, j);
    if (j->rate <= 0) {
        char d[200];
        snprintf(d, sizeof d, "no throughput for %d %s GPUs over %d nodes", j->ngpus,
                 e->cluster->types[j->type].name, nodes);
        return plan_error(e, &e->mech.view.jobs[k], err, "GPU type", d);
    }
    begin_stint(e, j);
    predict_completion(e, j);
    if (j->gang_head >= 0)
        couple_gang(e, j);
    return 0;
}

/* The second job of a pair joins the GPUs its partner was just given (or
 * keeps); both then run at their pair rates. */
static int exec_join(void *ctx, int k, const plan_alloc_t *a, mls_err_t *err)
{
    engine_t *e = ctx;
    sim_job_t *j = view_job(e, k), *q = view_job(e, a->pack_with);
    if (q->state != JOB_RUNNING || q->partner >= 0)
        return plan_error(e, &e->mech.view.jobs[k], err, "space sharing",
                          "its partner holds no GPUs to share");
    advance(e, q);
    double r[2];
    int pt = e->typemap[q->type];
    if (view_perf_pair(e->perf, q->pw, j->pw, pt, q->ngpus, r) < 0)
        return plan_error(e, &e->mech.view.jobs[k], err, "space sharing", "the pair cannot share");
    memcpy(j->gpu_ids, q->gpu_ids, sizeof(int) * (size_t)q->ngpus);
    j->ngpus = q->ngpus;
    j->type = q->type;
    j->nodes = q->nodes;
    take_batch(e, j, a);
    j->partner = (int)(q - e->jobs);
    q->partner = (int)(j - e->jobs);
    j->joined = 1;
    rerate(e, j);
    begin_stint(e, j);
    predict_completion(e, q);
    predict_completion(e, j);
    return 0;
}

static const mech_exec_ops_t sim_exec = {
    .rebatch = exec_rebatch,
    .stop = exec_stop,
    .start = exec_start,
    .join = exec_join,
};

/* ---- faults ---------------------------------------------------------------- */

static int touches_node(const engine_t *e, const sim_job_t *j, int node)
{
    for (int i = 0; i < j->ngpus; i++)
        if (e->cluster->gpu_node[j->gpu_ids[i]] == node)
            return 1;
    return 0;
}

/* ---- the failure watch (see the top) ---- */

#define HOPELESS_LOG 9.2103403719761836 /* ln(1e4): a try finishes with chance < 1e-4 */
#define HOPELESS_TRIES 10               /* such tries in a row, for every active job */

/* Mean s between failures of the nodes under the running job: the seeded
 * rate's, once per node it spans (INFINITY without a rate). */
static double job_mtbf(const engine_t *e, const sim_job_t *j)
{
    const fault_plan_t *f = e->cfg->faults;
    const int *gn = e->cluster->gpu_node;
    int n = 0;
    for (int i = 0; i < j->ngpus; i++) {
        int seen = 0;
        for (int k = 0; k < i && !seen; k++)
            seen = gn[j->gpu_ids[k]] == gn[j->gpu_ids[i]];
        n += !seen;
    }
    return f && f->rate_per_hour > 0 && n > 0 ? 3600 / (f->rate_per_hour * n) : INFINITY;
}

/* Uninterrupted s the running job needs from time t, with work w done and
 * prod s of progress in its stint, to finish or reach its next checkpoint
 * (0 when it has no rate: nothing to tell). */
static double need_from(const engine_t *e, const sim_job_t *j, double t, double w, double prod)
{
    if (!(j->rate > 0))
        return 0;
    double c = e->cfg->faults->checkpoint_interval, run = (j->work_total - w) / j->rate;
    if (c > 0 && c - fmod(prod, c) < run)
        run = c - fmod(prod, c);
    return (j->overhead_end > t ? j->overhead_end - t : 0) + run;
}

/* A failure is about to take job j's work back to its last save: counts the
 * try that ends when it was hopeless. Returns the streak. */
static int watch_try(sim_job_t *j, double need, double mtbf)
{
    if (j->ckpt_work > j->streak_work) /* work saved since its last failure */
        j->streak = 0;
    j->streak_work = j->ckpt_work;
    if (!(need / mtbf >= HOPELESS_LOG))
        return j->streak = 0;
    j->streak_type = j->type;
    j->streak_need = need;
    j->streak_mtbf = mtbf;
    return ++j->streak;
}

/* Sets e->stuck when the run cannot finish: every job has arrived, every
 * active one has had HOPELESS_TRIES hopeless tries in a row, and those that
 * run are on a hopeless try from now. */
static void watch_run(engine_t *e)
{
    if (e->next_arrival < e->n_jobs || !e->n_active)
        return;
    for (size_t k = 0; k < e->n_active; k++) {
        const sim_job_t *j = &e->jobs[e->active[k]];
        if (j->streak < HOPELESS_TRIES)
            return;
        if (j->state != JOB_RUNNING)
            continue;
        double from = j->last_update > j->overhead_end ? j->last_update : j->overhead_end;
        double prod = j->stint_prod + (e->now > from ? e->now - from : 0);
        if (!(need_from(e, j, e->now, work_at(e, j), prod) / job_mtbf(e, j) >= HOPELESS_LOG))
            return;
    }
    e->stuck = e->active[0];
}

static int stuck_error(const engine_t *e, mls_err_t *err)
{
    const sim_job_t *j = &e->jobs[e->stuck];
    const fault_plan_t *f = e->cfg->faults;
    double ckpt = floor(j->streak_mtbf / 10 / 60) * 60;
    return mls_fail(
        err,
        "job %lld cannot finish between node failures (t=%.0f h): under policy '%s' it "
        "restarted %d times in a row from its last saved work on %s GPUs, where it needs "
        "%.0f h uninterrupted (isolated run time %.0f h on the fastest type), while its "
        "nodes fail every %.0f h on average (--failure-rate %g/h): a try finishes with chance "
        "e^-%.1f, and none of the %zu jobs left can finish; save progress with "
        "--checkpoint-interval (e.g. %.0f s) or lower --failure-rate",
        (long long)j->spec->id, e->now / 3600, e->policy->name, j->streak,
        e->cluster->types[j->streak_type].name, j->streak_need / 3600, j->isolated_time / 3600,
        j->streak_mtbf / 3600, f->rate_per_hour, j->streak_need / j->streak_mtbf, e->n_active,
        ckpt > 60 ? ckpt : 60);
}

/* A node fails: its jobs lose the work since their last checkpoint and wait;
 * its GPUs leave the usable capacity until it recovers. */
static void node_fail(engine_t *e, int node)
{
    if (!e->mech.node_up[node])
        return;
    int watch = 0;
    for (size_t k = 0; k < e->n_active; k++) {
        sim_job_t *j = &e->jobs[e->active[k]];
        if (j->state != JOB_RUNNING || !touches_node(e, j, node))
            continue;
        advance(e, j);
        double need = need_from(e, j, j->last_start, j->ckpt_work, 0);
        watch |= watch_try(j, need, job_mtbf(e, j)) >= HOPELESS_TRIES;
        j->work_done = j->ckpt_work;
        j->change = OVH_RESTART;
        stop_job(e, j);
        j->left_gpus = 0; /* its memory is gone: no resume */
        j->preemptions++;
    }
    mech_node_set_up(&e->mech, node, 0);
    if (watch)
        watch_run(e);
}

static void node_recover(engine_t *e, int node)
{
    mech_node_set_up(&e->mech, node, 1);
}

/* A straggler: every running job with a GPU on the node goes at its pace. */
static void node_slow(engine_t *e, int node, double speed)
{
    e->node_speed[node] = speed;
    for (size_t k = 0; k < e->n_active; k++) {
        sim_job_t *j = &e->jobs[e->active[k]];
        if (j->state != JOB_RUNNING || !touches_node(e, j, node) || j->joined)
            continue;
        advance(e, j);
        if (j->partner >= 0)
            advance(e, &e->jobs[j->partner]);
        rerate(e, j);
        predict_completion(e, j);
        if (j->partner >= 0)
            predict_completion(e, &e->jobs[j->partner]);
    }
}

static void on_fault(engine_t *e, const event_t *ev)
{
    const fault_plan_t *f = e->cfg->faults;
    double mean_up = f && f->rate_per_hour > 0 ? 3600 / f->rate_per_hour : 0;
    if (ev->kind == EV_NODE_FAIL) {
        node_fail(e, ev->job);
        eventq_push(&e->q, e->now + gsl_ran_exponential(e->rng, f->mttr), EV_NODE_RECOVER,
                    ev->job, 0);
        return;
    }
    if (ev->kind == EV_NODE_RECOVER) {
        node_recover(e, ev->job);
        eventq_push(&e->q, e->now + gsl_ran_exponential(e->rng, mean_up), EV_NODE_FAIL,
                    ev->job, 0);
        return;
    }
    const fault_event_t *fe = &f->events[ev->job];
    if (fe->kind == FAULT_FAIL)
        node_fail(e, fe->node);
    else if (fe->kind == FAULT_RECOVER)
        node_recover(e, fe->node);
    else
        node_slow(e, fe->node, fe->kind == FAULT_SLOW ? fe->factor : 1.0);
}

static void setup_faults(engine_t *e)
{
    const mls_cluster_t *c = e->cluster;
    const fault_plan_t *f = e->cfg->faults;
    e->node_speed = xmalloc(sizeof(double) * (size_t)c->n_nodes);
    for (int i = 0; i < c->n_nodes; i++)
        e->node_speed[i] = 1;
    e->rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(e->rng, (unsigned long)e->cfg->seed);
    if (!f)
        return;
    for (size_t i = 0; i < f->n; i++)
        eventq_push(&e->q, f->events[i].time, EV_FAULT, (int)i, 0);
    for (int i = 0; f->rate_per_hour > 0 && i < c->n_nodes; i++)
        eventq_push(&e->q, gsl_ran_exponential(e->rng, 3600 / f->rate_per_hour), EV_NODE_FAIL,
                    i, 0);
}

/* ---- the loop -------------------------------------------------------------- */

static void sample_timeline(engine_t *e, int force)
{
    if (e->cfg->no_timeline || (!force && e->now < e->next_sample))
        return;
    sim_result_t *r = e->out;
    int running = (int)(e->n_active - e->n_queued), busy = 0;
    for (int t = 0; t < e->cluster->n_types; t++)
        busy += e->cluster->types[t].total_gpus - e->mech.type_free[t];
    xgrow((void **)&r->timeline, &r->timeline_cap, r->n_timeline + 1, sizeof *r->timeline);
    r->timeline[r->n_timeline++] =
        (timeline_sample_t){e->now, busy, running, (int)e->n_active - running};
    e->next_sample = e->now + e->sample_step;
}

static int decide(engine_t *e, unsigned reasons, mls_err_t *err)
{
    double dt;
    if ((e->cadence & MLS_CADENCE_WHEN_QUEUED) && !(reasons & MLS_WHY_FAULT) &&
        e->n_queued == 0) { /* the policy would keep everything as it runs */
#ifdef MLS_EAGER_PROGRESS_CHECK
        for (size_t k = 0; k < e->n_active; k++)
            advance(e, &e->jobs[e->active[k]]);
#endif
        sample_timeline(e, 0);
        return 0;
    }
    int rc = MLS_DECIDE_FULL;
    dt = 0;
    if (e->queued_ok && e->q_skip > 0) {
        e->q_skip--;
    } else if (e->queued_ok) { /* from the queued jobs, unless the policy asks for all */
        build_queued_view(e, reasons);
        rc = mech_decide(&e->mech, e->policy, e->pstate, &e->plan, &sim_exec, e, &dt, err);
        e->q_fails = rc == MLS_DECIDE_FULL ? e->q_fails + 1 : 0;
        e->q_skip = e->q_fails ? (1 << (e->q_fails < 6 ? e->q_fails : 6)) - 1 : 0;
    }
    if (rc == MLS_DECIDE_FULL) {
        double dq = dt;
        build_view(e, reasons);
        rc = mech_decide(&e->mech, e->policy, e->pstate, &e->plan, &sim_exec, e, &dt, err);
        dt += dq;
    }
    run_summary_t *s = &e->out->summary;
    s->decisions++;
    s->decision_time_total += dt;
    if (dt > s->decision_time_max)
        s->decision_time_max = dt;
    if (rc < 0)
        return -1;
    sample_timeline(e, 0);
    return 0;
}

static void schedule_round(engine_t *e)
{
    double len = e->cfg->round_len;
    if (len <= 0 || !(e->cadence & MLS_CADENCE_ROUNDS) || e->round_pending)
        return;
    eventq_push(&e->q, (floor(e->now / len) + 1) * len, EV_ROUND, -1, 0);
    e->round_pending = 1;
}

/* ---- Gavel's rounds (see the top) ---------------------------------------------- */

#define MAX_FAILS 5 /* Gavel's MAX_FAILED_ATTEMPTS */

static int steps_rounds(const engine_t *e)
{
    return e->cfg->round_end == ENGINE_ROUND_END_STEPS && e->cfg->round_len > 0;
}

/* A running job's steps for the round that starts now: cap and step_end;
 * returns 1 when they are fewer than its GPUs (the round fails). Its
 * progress is settled first: the new cap counts from its work at now, and
 * its last round's cap must end that round's work (lazy progress would
 * otherwise count from its last settlement, and a job that keeps its GPUs
 * round after round would get the same cap forever and never finish). */
static int round_steps(engine_t *e, sim_job_t *j)
{
    advance(e, j);
    double start = e->now > j->overhead_end ? e->now : j->overhead_end;
    double left = j->work_total - j->work_done;
    double q = j->rate > 0 ? floor(j->rate * e->cfg->round_len) : 0;
    if (q > left)
        q = left;
    j->step_end = start + (j->rate > 0 ? q / j->rate : 0);
    j->cap = q < left ? j->work_done + q : j->work_total;
    return q < (j->ngpus > 1 ? j->ngpus : 1);
}

/* A round starts: each running job's steps, failures, the round's end.
 * What changes here (progress settled, the round's steps, fails, the
 * completion's new version) is nothing a view shows beyond progress: a
 * single job's view slot that held its job's version still describes it
 * (build_view then writes its progress alone). */
static void start_steps_round(engine_t *e)
{
    double end = -INFINITY;
    for (size_t k = 0; k < e->n_active; k++) {
        sim_job_t *j = &e->jobs[e->active[k]];
        if (j->state != JOB_RUNNING || (j->partner >= 0 && j->joined))
            continue; /* a pair is handled at its owner */
        sim_job_t *p = j->partner >= 0 ? &e->jobs[j->partner] : NULL;
        int clean = !p && k < e->n_vslots && e->vslot[k] == e->active[k] &&
                    e->vver[k] == j->version;
        int fail = round_steps(e, j);
        if (p)
            fail |= round_steps(e, p);
        if (p) /* Gavel's pair ends its round with the later of its jobs' steps */
            j->step_end = p->step_end = j->step_end > p->step_end ? j->step_end : p->step_end;
        for (sim_job_t *m = j; m; m = m == j ? p : NULL) {
            if (fail)
                m->cap = m->work_done; /* no step counts */
            if (!p) { /* Gavel counts failures of single jobs only */
                m->fails = fail ? m->fails + 1 : 0;
                m->failing = m->fails >= MAX_FAILS;
            }
            if (m->step_end > end)
                end = m->step_end;
            predict_completion(e, m);
        }
        if (clean)
            e->vver[k] = j->version;
    }
    if (end > -INFINITY) {
        eventq_push(&e->q, end, EV_ROUND, -1, 0);
        e->round_pending = 1;
    } else if (e->n_active && e->next_arrival >= e->n_jobs) {
        /* idle with every job arrived: once at once, then every round */
        eventq_push(&e->q, e->forced_at == e->now ? e->now + e->cfg->round_len : e->now,
                    EV_ROUND, -1, 0);
        e->forced_at = e->now;
        e->round_pending = 1;
    }
}

static void report_progress(engine_t *e, int last)
{
    if (!e->cfg->progress) /* before the clock: asked at every event */
        return;
    double w = mls_wall_seconds();
    if (!last && w - e->last_progress_wall < 1.0)
        return;
    e->last_progress_wall = w;
    fprintf(stderr, "simulate: t=%.1f h, %zu/%zu jobs done, %zu active\n", e->now / 3600,
            e->n_done, e->n_jobs, e->n_active);
}

static int finished_all(const engine_t *e)
{
    if (e->cfg->measure_lo < e->cfg->measure_hi)
        return e->measured_left <= 0;
    return e->n_done == e->n_jobs;
}

static int any_running(const engine_t *e)
{
    return e->n_active > e->n_queued;
}

/* Running jobs whose overhead ended before now count as making progress;
 * bumps progress_mark when any does. */
static void watch_progress(engine_t *e)
{
    const event_t *p;
    event_t ev;
    while ((p = eventq_peek(&e->ovq)) && p->time < e->now && eventq_pop(&e->ovq, &ev) == 0) {
        sim_job_t *j = &e->jobs[ev.job];
        if (j->state != JOB_RUNNING || j->stint_id != ev.version || j->productive)
            continue;
        if (j->overhead_end >= e->now) { /* a gang moved its overhead end */
            eventq_push(&e->ovq, j->overhead_end, EV_SEGMENT, ev.job, ev.version);
            continue;
        }
        j->productive = 1;
        e->n_productive++;
    }
    if (e->n_productive > 0)
        e->progress_mark++;
}

static int run_loop(engine_t *e, mls_err_t *err)
{
    event_t ev;
    long idle_rounds = 0, stuck_calls = 0;
    unsigned long last_mark = 0;
    push_next_arrival(e);
    while (!finished_all(e)) {
        if (eventq_pop(&e->q, &ev) < 0) {
            if (e->n_active == 0)
                break;
            return mls_fail(err,
                            "policy '%s' left %zu jobs waiting (first: job %lld) with nothing "
                            "running and no event to come: the run cannot finish",
                            e->policy->name, e->n_active,
                            (long long)e->jobs[e->active[0]].spec->id);
        }
        e->now = ev.time;
        watch_progress(e);
        unsigned why = 0;
        for (;;) {
            e->out->summary.events++;
            if (ev.kind == EV_ARRIVAL) {
                on_arrival(e, ev.job);
                why |= MLS_WHY_ARRIVAL;
            } else if (ev.kind == EV_COMPLETION) {
                if (ev.version == e->jobs[ev.job].version &&
                    e->jobs[ev.job].state == JOB_RUNNING) {
                    on_completion(e, ev.job);
                    why |= MLS_WHY_COMPLETION;
                }
            } else if (ev.kind == EV_SEGMENT) {
                if (ev.version == e->jobs[ev.job].version &&
                    e->jobs[ev.job].state == JOB_RUNNING)
                    why |= on_segment(e, ev.job);
            } else if (ev.kind == EV_ROUND) {
                e->round_pending = 0;
                why |= MLS_WHY_ROUND;
            } else if (ev.kind == EV_FAULT || ev.kind == EV_NODE_FAIL ||
                       ev.kind == EV_NODE_RECOVER) {
                on_fault(e, &ev);
                if (e->stuck >= 0)
                    return stuck_error(e, err);
                why |= MLS_WHY_FAULT;
            }
            const event_t *nx = eventq_peek(&e->q);
            if (!nx || nx->time != e->now || eventq_pop(&e->q, &ev) < 0)
                break;
        }
        int call = ((why & (MLS_WHY_ARRIVAL | MLS_WHY_COMPLETION | MLS_WHY_BATCH_CHANGE)) &&
                    (e->cadence & MLS_CADENCE_EVENTS)) ||
                   (why & (MLS_WHY_ROUND | MLS_WHY_FAULT));
        if (steps_rounds(e)) /* Gavel's: at a round's end, or an arrival while idle */
            call = (why & (MLS_WHY_ROUND | MLS_WHY_FAULT)) ||
                   ((why & MLS_WHY_ARRIVAL) && !e->round_pending);
        if (call && e->n_active && decide(e, why, err) < 0)
            return -1;
        if (steps_rounds(e)) {
            if (call)
                start_steps_round(e);
        } else if (e->n_active) {
            schedule_round(e);
        }
        idle_rounds = (why & MLS_WHY_ROUND) && !any_running(e) && e->n_active
                          ? idle_rounds + 1
                          : 0;
        stuck_calls = e->progress_mark != last_mark || !e->n_active ? 0 : stuck_calls + 1;
        last_mark = e->progress_mark;
        if (stuck_calls > 100000 && !any_running(e)) /* not a livelock: nothing placed */
            return mls_fail(err,
                            "policy '%s' ran nothing over 100000 events while %zu jobs waited "
                            "(first: job %lld, %d GPUs) at t=%.0f s: it never places them",
                            e->policy->name, e->n_active, (long long)e->jobs[e->active[0]].spec->id,
                            e->jobs[e->active[0]].spec->gpus, e->now);
        if (stuck_calls > 100000)
            return mls_fail(err,
                            "policy '%s' made no job progress over 100000 events at t=%.0f s: "
                            "it preempts jobs before their (re)start overhead ends (a livelock); "
                            "lengthen --round or lower --restart-overhead",
                            e->policy->name, e->now);
        if (idle_rounds > 100000)
            return mls_fail(err,
                            "policy '%s' ran nothing for 100000 rounds while %zu jobs waited",
                            e->policy->name, e->n_active);
        report_progress(e, 0);
    }
    report_progress(e, 1);
    return 0;
}

/* ---- setup and results -------------------------------------------------------- */

static void setup_view(engine_t *e)
{
    const mls_cluster_t *c = e->cluster;
    e->vsrc = (view_perf_src_t){.perf = e->perf,
                                .n_types = c->n_types,
                                .typemap = e->typemap,
                                .type_node_gpus = e->type_node_gpus,
                                .one_node = e->cfg->consolidated_rates,
                                .wmap = e->wmap,
                                .owner = e,
                                .schedule = view_schedule};
    view_perf_bind(&e->vperf, &e->vsrc);
    view_t *v = &e->mech.view;
    v->round_len = e->cfg->round_len;
    v->seed = e->cfg->seed;
    v->n_users = (int)e->trace->users.n;
    v->users = (const char *const *)e->trace->users.names;
    v->perf = &e->vperf;
}

/* An accordion/gns job of a model with adaptation data starts at its batch
 * (the trace's, or the one its workload names) over work / (dataset / batch)
 * epochs. */
static void setup_adapt(engine_t *e, sim_job_t *j)
{
    double dataset;
    int cap;
    j->ad_next_work = INFINITY;
    if (j->spec->mode == ADAPT_STATIC || e->perf->ops->goodput ||
        adapt_model_info(wname(e, j), &dataset, &cap) < 0)
        return;
    int b = j->batch > 0 ? j->batch : adapt_named_batch(wname(e, j));
    if (b <= 0)
        return;
    j->ad_on = 1;
    j->ad_init = j->batch = b;
    j->ad_dataset = dataset;
    double epochs = j->spec->work / ad_epoch_iters(j, b);
    j->ad_epochs = epochs < 1 ? 1 : (int)ceil(epochs - 1e-9);
    ad_plan_next(e, j);
}

/* The run time of a job alone on its requested GPU count on the type where it
 * starts fastest, walking its segments (for finish-time fairness). */
static double solo_time(engine_t *e, const sim_job_t *j)
{
    const mls_cluster_t *c = e->cluster;
    int best = -1, g = j->spec->gpus;
    double best_r = 0;
    for (int t = 0; t < c->n_types; t++) {
        if (e->typemap[t] < 0 || c->types[t].total_gpus < g)
            continue;
        sim_job_t s = *j;
        s.gpu_ids = NULL; /* not placed: no GPUs per node */
        s.type = t;
        s.ngpus = g;
        s.nodes = min_nodes(e->type_node_gpus, t, g);
        resolve_batch(e, &s);
        double r = solo_rate(e, &s);
        if (r > best_r) {
            best_r = r;
            best = t;
        }
    }
    if (best < 0)
        return INFINITY;
    sim_job_t s = *j;
    s.gpu_ids = NULL;
    s.type = best;
    s.ngpus = g;
    s.nodes = min_nodes(e->type_node_gpus, best, g);
    resolve_batch(e, &s);
    double time = 0;
    for (long steps = 0; steps < 10000000; steps++) {
        double r = solo_rate(e, &s);
        set_segment(e, &s);
        if (!(r > 0))
            return INFINITY;
        double to = s.seg_end < s.work_total ? s.seg_end : s.work_total;
        time += (to - s.work_done) / r;
        s.work_done = to;
        if (to >= s.work_total)
            break;
        if (s.ad_on && s.work_done >= s.ad_next_work)
            change_batch(e, &s, ad_batch(e, &s, s.ad_next_epoch), s.accum, 1);
    }
    return time;
}

typedef struct gang_row {
    int64_t gang;
    int idx;
} gang_row_t;

static int cmp_gang_row(const void *a, const void *b)
{
    const gang_row_t *x = a, *y = b;
    if (x->gang != y->gang)
        return (x->gang > y->gang) - (x->gang < y->gang);
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Links the computations of each gang (trace column gang), in trace order. */
static void link_gangs(engine_t *e)
{
    size_t n = 0;
    for (size_t i = 0; i < e->n_jobs; i++)
        n += e->jobs[i].spec->gang > 0;
    if (!n)
        return;
    gang_row_t *r = xmalloc(sizeof *r * n);
    n = 0;
    for (size_t i = 0; i < e->n_jobs; i++)
        if (e->jobs[i].spec->gang > 0)
            r[n++] = (gang_row_t){e->jobs[i].spec->gang, (int)i};
    qsort(r, n, sizeof *r, cmp_gang_row);
    for (size_t i = 0; i < n; i++) {
        sim_job_t *j = &e->jobs[r[i].idx];
        int first = i == 0 || r[i - 1].gang != r[i].gang;
        j->gang_head = first ? r[i].idx : e->jobs[r[i - 1].idx].gang_head;
        if (!first)
            e->jobs[r[i - 1].idx].gang_next = r[i].idx;
    }
    free(r);
}

static void setup(engine_t *e)
{
    const mls_cluster_t *c = e->cluster;
    const mls_trace_t *tr = e->trace;
    e->typemap = map_types(c, e->perf);
    e->type_node_gpus = node_gpus_of(c);
    e->wmap = xmalloc(sizeof(int) * (tr->workloads.n ? tr->workloads.n : 1));
    for (size_t w = 0; w < tr->workloads.n; w++)
        e->wmap[w] = perf_workload_index(e->perf, tr->workloads.names[w]);
    e->n_jobs = tr->n;
    e->jobs = xcalloc(tr->n ? tr->n : 1, sizeof *e->jobs);
    for (size_t i = 0; i < tr->n; i++) {
        sim_job_t *j = &e->jobs[i];
        j->spec = &tr->jobs[i];
        j->pw = e->wmap[j->spec->workload];
        j->type = -1;
        j->partner = -1;
        j->gang_head = j->gang_next = -1;
        j->change = OVH_RESTART;
        for (int k = 0; k < OVH_KINDS; k++)
            j->ovh[k] =
                e->cfg->overheads
                    ? overheads_get_job(e->cfg->overheads, tr->workloads.names[j->spec->workload],
                                        j->spec->gpus, (ovh_kind_t)k)
                    : e->cfg->restart_overhead;
        j->batch = j->spec->batch_size;
        j->accum = -1;
        j->work_total = j->spec->work;
        j->seg_end = INFINITY;
        j->cap = INFINITY;
        j->gns = NAN;
        setup_adapt(e, j);
        j->gpu_ids = xmalloc(sizeof(int) * (size_t)j->spec->max_gpus);
        j->first_start = j->last_start = j->finish = j->feedback_at = NAN;
        if (j->ad_on || e->perf->ops->goodput)
            j->isolated_time = j->ovh[OVH_START] + solo_time(e, j);
        else
            j->isolated_time = j->ovh[OVH_START] +
                               j->spec->work / best_rate(c, e->perf, e->typemap,
                                                         e->type_node_gpus, j->pw, j->spec->gpus,
                                                         j->batch);
        e->measured_left += is_measured(e->cfg, j->spec->id);
    }
    e->stuck = -1;
    mech_init(&e->mech, c, e->perf->ops->goodput != NULL);
    e->mech.placement = e->cfg->placement;
    eventq_init(&e->q);
    eventq_init(&e->ovq);
    plan_init(&e->plan);
    setup_faults(e);
    setup_view(e);
    link_gangs(e);
    int gangs = 0;
    for (size_t i = 0; i < e->n_jobs && !gangs; i++)
        gangs = e->jobs[i].gang_head >= 0;
    e->queued_ok = e->policy->schedule_queued && !gangs && !steps_rounds(e);
    e->sample_step = e->cfg->timeline_step > 0   ? e->cfg->timeline_step
                     : e->cfg->round_len > 0 ? e->cfg->round_len
                                             : 60;
}

static void teardown(engine_t *e)
{
    for (size_t i = 0; i < e->n_jobs; i++)
        free(e->jobs[i].gpu_ids);
    free(e->jobs);
    free(e->wmap);
    free(e->typemap);
    free(e->type_node_gpus);
    free(e->active);
    free(e->vslot);
    free(e->vver);
    free(e->qlist);
    free(e->qsnap);
    free(e->qview);
    mech_free(&e->mech);
    free(e->node_speed);
    gsl_rng_free(e->rng);
    eventq_free(&e->q);
    eventq_free(&e->ovq);
    plan_free(&e->plan);
}

static void collect(engine_t *e, sim_result_t *out)
{
    out->n_jobs = e->n_jobs;
    out->jobs = xcalloc(e->n_jobs ? e->n_jobs : 1, sizeof *out->jobs);
    for (size_t i = 0; i < e->n_jobs; i++) {
        sim_job_t *j = &e->jobs[i];
        advance(e, j);
        const mls_job_t *s = j->spec;
        job_result_t *r = &out->jobs[i];
        int done = j->state == JOB_DONE && !j->failed;
        double fair_share = e->cluster->n_gpus / (j->contention > 1 ? j->contention : 1);
        double slow = s->gpus > fair_share ? s->gpus / fair_share : 1;
        *r = (job_result_t){s->id,
                            s->user,
                            s->workload,
                            s->gpus,
                            s->work,
                            s->submit,
                            j->first_start,
                            done ? j->finish : NAN,
                            j->attained_time,
                            j->attained_service,
                            j->isolated_time,
                            done ? j->contention : NAN,
                            done ? (j->finish - s->submit) / (j->isolated_time * slow) : NAN,
                            s->deadline,
                            j->preemptions,
                            j->restarts,
                            is_measured(e->cfg, s->id),
                            done,
                            isfinite(j->feedback_at) ? j->feedback_at - s->submit : NAN};
    }
    out->n_gpus = e->cluster->n_gpus;
    out->summary.makespan = e->now;
    sample_timeline(e, 1);
}

int engine_run(const mls_trace_t *trace, const mls_cluster_t *cluster, const mls_perf_t *perf,
               const policy_ops_t *policy, const policy_args_t *args,
               const engine_config_t *cfg, sim_result_t *out, mls_err_t *err)
{
    memset(out, 0, sizeof *out);
    if (engine_check_trace(trace, cluster, perf, err) < 0)
        return -1;
    engine_t e = {0};
    e.cfg = cfg;
    e.trace = trace;
    e.cluster = cluster;
    e.perf = perf;
    e.policy = policy;
    e.out = out;
    e.cadence = cfg->cadence ? cfg->cadence : policy->cadence;
    e.forced_at = NAN;
    if (cfg->round_len <= 0)
        e.cadence |= MLS_CADENCE_EVENTS;
    char perr[512] = "";
    if (policy->create && policy->create(&e.pstate, args, perr, sizeof perr) < 0)
        return mls_fail(err, "policy '%s': %s", policy->name, perr);
    double t0 = mls_wall_seconds();
    setup(&e);
    int rc = run_loop(&e, err);
    if (rc == 0)
        collect(&e, out);
    out->summary.wall_seconds = mls_wall_seconds() - t0;
    teardown(&e);
    if (policy->destroy)
        policy->destroy(e.pstate);
    if (rc == 0)
        metrics_summarize(out);
    else
        sim_result_free(out);
    return rc;
}
