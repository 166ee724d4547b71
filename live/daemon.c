/* daemon.c: the live scheduler loop (see daemon.h).
 *
 * State: every job ever accepted, in one array in id order (none is removed;
 * terminal jobs just leave the view), mirrored row by row to the state db.
 * The GPUs a job holds are in the shared mechanism's occupancy
 * (sim/mechanism.h), which also diffs every plan against what runs and
 * orders the changes; this file is its live executor (stop = SIGTERM, start
 * = launch through local or Slurm). Space sharing as in the simulator:
 * the job of a pair placed first owns the GPUs, its partner joins them (both
 * rows name the GPUs and each other); when one ends the other owns them and
 * goes on alone, and is told so through its pack file (live/pack.h); on
 * Slurm the executor keeps the owner's Slurm job for the survivor. The
 * view is rebuilt from these at every decision, exactly as the engine builds
 * its own, and the plan goes through the same mech_apply().
 *
 * Stops are asynchronous, as the simulator's are instantaneous: a plan's
 * stop sends SIGTERM and gives the job's GPUs back in the books at once (the
 * job is queued in the next view, as in the simulator); a start on GPUs that
 * a stopping process still occupies, or of a job whose own previous process
 * has not exited, is counted from the decision but its process is launched
 * by the loop once those processes have gone (`waiting`, `relaunch` in
 * live/state.h). The grace period's SIGKILL is a deadline of the loop, and a
 * cancel is answered once the job has ended; meanwhile the loop keeps serving
 * clients and deciding, so a job that ignores SIGTERM delays only the jobs
 * that need its GPUs.
 *
 * Signals (SIGCHLD, SIGTERM, SIGINT, SIGHUP) are blocked and read from a
 * signalfd, so the loop is one poll() over the listening socket and that fd,
 * with no signal handler and no global state. An inotify watch on the run
 * folder wakes it too when a run's exit file appears: a job re-adopted after
 * a restart is not the daemon's child (no SIGCHLD), and a Slurm job's
 * wrapper writes that file, so their ends are seen at once rather than at
 * the next 0.2 s tick (20 daemon s at time scale 100, which the job that
 * waited for those GPUs would lose). The executor's own descriptors (the
 * pipes of the Slurm commands it runs beside the loop: its poll op) are in
 * that poll() too, so that no command's output waits for a tick. */
#define _GNU_SOURCE /* struct ucred, accept4 */
#include "live/daemon.h"

#include "live/batch.h"
#include "live/executor.h"
#include "live/pack.h"
#include "live/proto.h"
#include "live/report.h"
#include "live/state.h"
#include "model/cluster.h"
#include "model/perf.h"
#include "model/strtab.h"
#include "sim/mechanism.h"
#include "sim/view_perf.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

typedef struct daemon {
    const live_config_t *cfg;
    mls_cluster_t cluster;
    mls_perf_t *perf;
    const policy_ops_t *policy;
    void *pstate;
    unsigned cadence;
    live_db_t *db;
    live_exec_t exec;
    char run_dir[4096];
    char sock_path[4096];
    int listen_fd, sig_fd;
    int ino_fd; /* inotify on run_dir (exit files), -1 none */
    double epoch, scale; /* daemon time = (realtime - epoch) * scale */
    int stop, draining;
    int64_t next_id;
    double next_round; /* the pending round boundary; INFINITY when none is pending */
    double trigger;    /* daemon time of the latest event behind `why`; NAN none */
    double last_decision; /* daemon time of the last policy call */
    unsigned why; /* MLS_WHY_* collected since the last decision */

    live_job_t *jobs;
    size_t n_jobs, jobs_cap;
    int *typemap;        /* cluster type -> perf type */
    int *type_node_gpus; /* most GPUs on one node of each type */
    mech_t mech; /* GPU occupancy, the view, the plan's diff (sim/mechanism.h) */
    strtab_t users;
    int *vidx; /* view job -> jobs index */
    view_perf_src_t vsrc; /* what view->perf answers from (sim/view_perf.h) */
    view_perf_t vperf;
    plan_t plan;
    double apply_t; /* daemon time of the plan being carried out */
    char secret[33]; /* keys the runs' report tokens (meta report_secret) */
    int *plan_stopped; /* jobs indices the plan being applied stopped */
    size_t n_plan_stopped, plan_stopped_cap;

    int busy; /* applying a plan: only reports and status are served now */
    struct client {
        int fd;
        int state;  /* CL_READ, CL_HELD (until the plan is applied), CL_WORK (being
                       answered), CL_WRITE, CL_DRAIN */
        uid_t uid;
        char *buf;  /* the request read so far; the reply while writing */
        size_t len, off;
        double deadline; /* wall s (monotonic) */
        int64_t waits_for; /* CL_HELD: a cancelled job whose end it waits for, -1 none */
    } *clients;        /* connections, served concurrently (non-blocking) */
    size_t n_clients, clients_cap;
    int io_depth; /* serve_io() calls under way */
    int xfds[32]; /* the executor's descriptors the loop waits on too (its poll op) */
    int n_xfds;
} daemon_t;

static int serve_io(daemon_t *d, int ms, int sig);

void live_config_defaults(live_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->executor = "local";
    cfg->round_len = 360;
    cfg->time_scale = 1;
    cfg->restart_overhead = 20;
    cfg->grace = 10;
    cfg->max_failures = 3;
    cfg->placement = MECH_PLACE_AUTO;
}

/* ---- clock ------------------------------------------------------------ */

static double realtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double dnow(const daemon_t *d)
{
    return (realtime() - d->epoch) * d->scale;
}

static void logf_(const daemon_t *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(const daemon_t *d, const char *fmt, ...)
{
    if (d->cfg->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "live: t=%.1f ", dnow(d));
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ---- jobs ------------------------------------------------------------- */

static live_job_t *find_job(daemon_t *d, int64_t id)
{
    for (size_t i = 0; i < d->n_jobs; i++)
        if (d->jobs[i].id == id)
            return &d->jobs[i];
    return NULL;
}

/* The job's row. A job whose process has not started yet is stored queued
 * (a daemon killed meanwhile plans it again), a stopping one with the GPUs
 * its process occupies (a restarted daemon waits for them). */
static void save(daemon_t *d, const live_job_t *j)
{
    mls_err_t err;
    live_job_t row = *j;
    if (j->state == LJ_RUNNING && j->waiting) {
        row.state = LJ_QUEUED;
        if (!j->suspended) {
            row.ngpus = row.nodes = 0;
            row.type = -1;
        }
        row.partner = -1;
        row.joined = 0;
    } else if (j->state == LJ_STOPPING && j->relaunch) {
        row.gpu_ids = j->drain_ids;
        row.ngpus = j->n_drain;
        row.partner = -1;
        row.joined = 0;
    }
    if (live_db_put_job(d->db, &row, &err) < 0)
        fprintf(stderr, "live: %s\n", err.msg);
}

/* In the books the job runs (it holds GPUs in the view and in the
 * mechanism's occupancy): RUNNING (its process may still wait to start), or
 * STOPPING with a new allocation taken up once its old process has exited. */
static int holds_gpus(const live_job_t *j)
{
    return j->state == LJ_RUNNING || (j->state == LJ_STOPPING && j->relaunch);
}

/* A process of the job may be alive: the loop checks whether it has ended. */
static int has_process(const live_job_t *j)
{
    return (j->state == LJ_RUNNING && !j->waiting) || j->state == LJ_STOPPING || j->suspended;
}

/* In the view: queued, running, or stopping to be queued (as the simulator
 * queues a preempted job at once). */
static int in_view(const live_job_t *j)
{
    return j->state == LJ_QUEUED || j->state == LJ_RUNNING ||
           (j->state == LJ_STOPPING && j->stop_kind == 0);
}

/* The GPUs j's stopping process occupies until it exits. */
static void set_drain(live_job_t *j, const int *ids, int n)
{
    if (!j->drain_ids)
        j->drain_ids = xcalloc((size_t)j->spec.max_gpus, sizeof(int));
    memcpy(j->drain_ids, ids, sizeof(int) * (size_t)n);
    j->n_drain = n;
}

/* Attained time and service run from a (re)start to the decision that stops
 * the job: the GPUs are the next job's from that decision on (whose start is
 * counted from it), as in the simulator, where a preemption takes no time;
 * the seconds a stopping job takes to checkpoint and exit are not its
 * service. (Counting them made a preempted job lose the exact ties of
 * attained service that the simulator breaks by arrival.) */
static void advance(daemon_t *d, live_job_t *j, double t)
{
    (void)d;
    if (!holds_gpus(j) || !(t > j->last_update))
        return;
    double dt = t - j->last_update;
    j->attained_time += dt;
    j->attained_service += dt * j->ngpus;
    j->last_update = t;
}

/* A job that joined its partner's GPUs does not own them. */
static void hold(daemon_t *d, live_job_t *j)
{
    if (!j->joined)
        mech_gpus_take(&d->mech, (int)(j - d->jobs), j->gpu_ids, j->ngpus);
}

/* The report token of job j's current run: FNV-1a 64 of the daemon's
 * secret, the job id and the attempt, in hex. A report must carry its run's
 * token (MLSCHED_TOKEN in the run's environment), so a stray `live report`
 * from a shell, or a late one from a job's previous run, is refused. It
 * guards against mistakes, not against the daemon's own user, who can read
 * the state database. */
static void run_token(const daemon_t *d, const live_job_t *j, char *out, size_t len)
{
    char text[128];
    int n = snprintf(text, sizeof text, "%s:%lld:%d", d->secret, (long long)j->id, j->attempt);
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < n; i++)
        h = (h ^ (unsigned char)text[i]) * 1099511628211ULL;
    snprintf(out, len, "%016llx", (unsigned long long)h);
}

static double to_wall(const daemon_t *d, double t)
{
    return d->epoch + t / d->scale;
}

/* Tells the job who shares its GPUs now (live/pack.h), from wall time since. */
static void write_pack(daemon_t *d, const live_job_t *j, double since)
{
    char path[4096];
    mls_err_t err;
    const live_job_t *q = j->partner >= 0 ? find_job(d, j->partner) : NULL;
    live_pack_t pk = {.partner = q ? q->id : -1, .owner = !j->joined, .since = since};
    if (q)
        snprintf(pk.workload, sizeof pk.workload, "%s", q->spec.workload);
    live_job_path(path, sizeof path, d->run_dir, j, "pack");
    if (live_pack_write(path, &pk, &err) < 0)
        fprintf(stderr, "live: %s\n", err.msg);
}

/* Tells the job the batch it runs at now (live/batch.h), from wall time since. */
static void write_batch(daemon_t *d, const live_job_t *j, double since)
{
    char path[4096];
    mls_err_t err;
    live_batch_t b = {j->batch, j->accum, since};
    live_job_path(path, sizeof path, d->run_dir, j, "batch");
    if (live_batch_write(path, &b, &err) < 0)
        fprintf(stderr, "live: %s\n", err.msg);
}

/* The batch a plan gives a job, as the simulator takes it (sim/engine.c):
 * accumulation steps only under a perf model that has them (goodput). */
static void take_batch(const daemon_t *d, live_job_t *j, const plan_alloc_t *a)
{
    if (!a->batch_size)
        return;
    j->batch = a->batch_size;
    if (d->perf->ops->goodput)
        j->accum = a->accum_steps;
}

/* j leaves its pair at daemon time t: the partner owns the GPUs now and, when
 * it runs, goes on alone at its solo rate from t (as in the simulator). */
static void leave_pair(daemon_t *d, live_job_t *j, double t)
{
    live_job_t *q = j->partner >= 0 ? find_job(d, j->partner) : NULL;
    j->partner = -1;
    j->joined = 0;
    if (!q || q->partner != j->id)
        return;
    q->partner = -1;
    q->joined = 0;
    if (holds_gpus(q))
        hold(d, q);
    if (q->state == LJ_RUNNING) {
        char detail[96];
        snprintf(detail, sizeof detail, "job %lld left: alone on its GPUs", (long long)j->id);
        live_db_event(d->db, t, q->id, "unpack", detail);
        write_pack(d, q, to_wall(d, t));
    }
    save(d, q);
}

static void release(daemon_t *d, live_job_t *j, double t)
{
    mech_gpus_give(&d->mech, (int)(j - d->jobs), j->gpu_ids, j->ngpus);
    leave_pair(d, j, t);
    if (!j->suspended) {
        j->ngpus = 0;
        j->nodes = 0;
        j->type = -1;
    }
    j->pid = j->suspended ? j->pid : 0;
    j->throughput = NAN;
}

static void add_finished(daemon_t *d, const live_job_t *j)
{
    mech_finished_add(&d->mech,
                      &(view_finished_t){strtab_intern(&d->users, j->spec.user ? j->spec.user : "default"),
                          perf_workload_index(d->perf, j->spec.workload),
                          j->spec.gpus,
                          j->submit,
                          j->first_start,
                          j->finish,
                          j->attained_time,
                          j->attained_service});
}

/* An event of kind `why` (MLS_WHY_*) at daemon time t calls for a decision. */
static void happened(daemon_t *d, unsigned why, double t)
{
    d->why |= why;
    if (!(d->trigger >= t)) /* NAN too */
        d->trigger = t;
}

/* The job's process has ended with `status` at daemon time t. */
static void on_exit_(daemon_t *d, live_job_t *j, int status, double t)
{
    char detail[128];
    advance(d, j, t);
    int was_stopping = j->state == LJ_STOPPING;
    int relaunch = was_stopping && j->relaunch && status != 0;
    j->suspended = 0;
    j->n_drain = 0; /* its GPUs are clear */
    j->relaunch = 0;
    j->exit_code = status;
    snprintf(detail, sizeof detail, "exit %d attempt %d", status, j->attempt);
    if (relaunch) { /* stopped for a restart the plan already counted: launched by the loop */
        j->state = LJ_RUNNING;
        j->waiting = 1;
        j->pid = 0;
        live_db_event(d->db, t, j->id, "stop", detail);
        save(d, j);
        return;
    }
    release(d, j, t); /* a stopping job gave its GPUs back when it was asked to stop */
    if (status == 0) {
        j->state = LJ_DONE;
        j->finish = t;
        j->work_done = j->spec.work;
        j->completions++;
        add_finished(d, j);
        live_db_event(d->db, t, j->id, "finish", detail);
        logf_(d, "job %lld finished (JCT %.1f s)", (long long)j->id, j->finish - j->submit);
        happened(d, MLS_WHY_COMPLETION, t);
    } else if (was_stopping && j->stop_kind == 1) {
        j->state = LJ_CANCELLED;
        j->finish = t;
        live_db_event(d->db, t, j->id, "cancel", detail);
        happened(d, MLS_WHY_COMPLETION, t);
    } else if (was_stopping) {
        j->state = LJ_QUEUED;
        live_db_event(d->db, t, j->id, "stop", detail);
    } else {
        j->failures++;
        j->state = j->failures > d->cfg->max_failures ? LJ_FAILED : LJ_QUEUED;
        if (j->state == LJ_FAILED)
            j->finish = t;
        live_db_event(d->db, t, j->id, "fail", detail);
        logf_(d, "job %lld failed (%s)%s", (long long)j->id, detail,
              j->state == LJ_FAILED ? ", given up" : ", queued again");
        happened(d, MLS_WHY_COMPLETION, t);
    }
    save(d, j);
}

static double wall_to_daemon(const daemon_t *d, double when)
{
    return isfinite(when) ? (when - d->epoch) * d->scale : dnow(d);
}

/* Checks every job that holds a process; returns how many ended. */
static int reap(daemon_t *d)
{
    int n = 0;
    for (size_t i = 0; i < d->n_jobs; i++) {
        live_job_t *j = &d->jobs[i];
        if (!has_process(j))
            continue;
        int status;
        double when;
        char note[256] = "";
        if (d->exec.ops->news && d->exec.ops->news(&d->exec, j, note, sizeof note)) {
            if (note[0]) { /* how its start went, known now */
                live_db_event(d->db, dnow(d), j->id, "exec", note);
                logf_(d, "job %lld: %s", (long long)j->id, note);
            }
            save(d, j);
        }
        if (!d->exec.ops->ended(&d->exec, j, d->run_dir, &status, &when))
            continue;
        double t = wall_to_daemon(d, when);
        if (j->suspended && (!holds_gpus(j) || j->waiting)) { /* a suspended process ended */
            j->suspended = 0;
            j->launch_resume = 0; /* a resume waiting for its GPUs starts afresh */
            j->pid = 0;
            if (!holds_gpus(j)) {
                j->ngpus = 0;
                j->type = -1;
            }
            if (status == 0) {
                j->state = LJ_RUNNING; /* it finished its work: count it done */
                j->waiting = 0;
                on_exit_(d, j, 0, t);
            } else
                save(d, j);
            continue;
        }
        on_exit_(d, j, status, t);
        n++;
    }
    return n;
}

/* SIGKILL for stopping jobs past their grace period. */
static void enforce_grace(daemon_t *d)
{
    double w = mls_wall_seconds();
    for (size_t i = 0; i < d->n_jobs; i++) {
        live_job_t *j = &d->jobs[i];
        if (j->state == LJ_STOPPING && w > j->stop_deadline) {
            d->exec.ops->signal(&d->exec, j, SIGKILL);
            j->stop_deadline = w + 1e9;
            logf_(d, "job %lld ignored SIGTERM for %.0f s: SIGKILL", (long long)j->id,
                  d->cfg->grace);
        }
    }
}

/* SIGTERM: the job checkpoints and exits; its process occupies its GPUs
 * until then (SIGKILL after the grace period: enforce_grace). Returns at
 * once. */
static void ask_stop(daemon_t *d, live_job_t *j, int kind)
{
    j->state = LJ_STOPPING;
    j->stop_kind = kind;
    j->relaunch = 0;
    j->stop_deadline = mls_wall_seconds() + d->cfg->grace;
    set_drain(j, j->gpu_ids, j->ngpus);
    d->exec.ops->signal(&d->exec, j, SIGTERM);
    save(d, j);
}

/* The books of a job asked to stop: its GPUs are free for the next plan's
 * starts (which wait for its process), its partner goes on alone. */
static void give_books(daemon_t *d, live_job_t *j, double t)
{
    mech_gpus_give(&d->mech, (int)(j - d->jobs), j->gpu_ids, j->ngpus);
    leave_pair(d, j, t);
    save(d, j);
}

static int any_stopping(const daemon_t *d)
{
    for (size_t i = 0; i < d->n_jobs; i++)
        if (d->jobs[i].state == LJ_STOPPING)
            return 1;
    return 0;
}

/* The earliest SIGKILL deadline (wall s, monotonic); INFINITY none. */
static double next_kill(const daemon_t *d)
{
    double w = INFINITY;
    for (size_t i = 0; i < d->n_jobs; i++)
        if (d->jobs[i].state == LJ_STOPPING && d->jobs[i].stop_deadline < w)
            w = d->jobs[i].stop_deadline;
    return w;
}

/* The earliest start_after of a waiting job (CLOCK_REALTIME s); INFINITY none. */
static double next_start(const daemon_t *d)
{
    double w = INFINITY;
    for (size_t i = 0; i < d->n_jobs; i++)
        if (d->jobs[i].state == LJ_RUNNING && d->jobs[i].waiting &&
            d->jobs[i].start_after > 0 && d->jobs[i].start_after < w)
            w = d->jobs[i].start_after;
    return w;
}

/* 1 when a process that is stopping still occupies one of j's GPUs. */
static int gpus_draining(const daemon_t *d, const live_job_t *j)
{
    for (size_t i = 0; i < d->n_jobs; i++) {
        const live_job_t *q = &d->jobs[i];
        if (q == j || q->state != LJ_STOPPING)
            continue;
        for (int a = 0; a < q->n_drain; a++)
            for (int b = 0; b < j->ngpus; b++)
                if (q->drain_ids[a] == j->gpu_ids[b])
                    return 1;
    }
    return 0;
}

/* ---- the view ---------------------------------------------------------- */

/* The work a running job has done by t: its last report, plus its reported
 * rate since (jobs report every so often; the simulator's view is exact, and
 * at a large time scale half a wall second between reports is 50 daemon s).
 * A job that has not reported since its (re)start has no rate: no guess. */
static double work_at(const live_job_t *j, double t)
{
    if (!holds_gpus(j) || !isfinite(j->throughput) || !isfinite(j->reported_at) ||
        !(t > j->reported_at))
        return j->work_done;
    double w = j->work_done + j->throughput * (t - j->reported_at);
    return w < j->spec.work ? w : j->spec.work;
}

static void fill_view_job(daemon_t *d, const live_job_t *j, view_job_t *v, double t)
{
    int oracle = d->policy->oracle;
    int held = holds_gpus(j);
    *v = (view_job_t){0};
    v->id = j->id;
    v->user = strtab_intern(&d->users, j->spec.user ? j->spec.user : "default");
    v->workload = perf_workload_index(d->perf, j->spec.workload);
    v->workload_name = j->spec.workload;
    v->submit = j->submit;
    v->priority = j->spec.priority;
    v->deadline = INFINITY;
    v->duration_estimate = NAN;
    v->gpus_requested = j->spec.gpus;
    v->min_gpus = j->spec.min_gpus;
    v->max_gpus = j->spec.max_gpus;
    v->batch_size = j->batch;
    v->state = !held                                            ? VIEW_QUEUED
               : t < j->last_start + d->cfg->restart_overhead ? VIEW_RESTARTING
                                                              : VIEW_RUNNING;
    v->cur_type = held ? j->type : -1;
    v->cur_gpus = held ? j->ngpus : 0;
    v->cur_nodes = held ? j->nodes : 0;
    v->cur_gpu_ids = held ? j->gpu_ids : NULL;
    v->first_start = j->first_start;
    v->last_start = j->last_start;
    v->attained_time = j->attained_time;
    v->attained_service = j->attained_service;
    v->work_done = work_at(j, t);
    v->throughput = held ? j->throughput : NAN;
    v->preemptions = j->preemptions;
    v->restarts = j->restarts;
    v->total_work = oracle ? j->spec.work : NAN;
    v->remaining_work = oracle ? j->spec.work - v->work_done : NAN;
    v->accum_steps = j->accum;
    v->grad_noise_scale = j->gns;
    v->epoch = NAN;
    view_batch_limits_t l;
    if (d->vperf.batch_limits(&d->vsrc, v, -1, &l) == 0 && l.epoch_work > 0)
        v->epoch = v->work_done / l.epoch_work;
    v->adapt_mode = 0; /* a live job adapts its batch itself, if at all */
    v->gang = j->spec.gang;
    v->cpus = d->mech.cpus_per_gpu * j->spec.gpus;
    v->mem_gb = d->mech.mem_gb_per_gpu * j->spec.gpus;
}

static int by_submit(const live_job_t *a, const live_job_t *b)
{
    if (a->submit != b->submit)
        return a->submit < b->submit ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* The view: each active job as the daemon knows it, in (submit, id) order;
 * the mechanism adds the rest (sim/mechanism.h). */
static void build_view(daemon_t *d, double t, unsigned reasons)
{
    int n = 0;
    d->vidx = xrealloc(d->vidx, sizeof(int) * (d->n_jobs + 1));
    for (size_t i = 0; i < d->n_jobs; i++) {
        const live_job_t *j = &d->jobs[i];
        if (!in_view(j))
            continue;
        int k = n++; /* insertion sort by (submit, id): the view's order */
        while (k > 0 && by_submit(&d->jobs[d->vidx[k - 1]], j) > 0) {
            d->vidx[k] = d->vidx[k - 1];
            k--;
        }
        d->vidx[k] = (int)i;
    }
    view_job_t *vj = mech_view_begin(&d->mech, n);
    for (int k = 0; k < n; k++) {
        live_job_t *j = &d->jobs[d->vidx[k]];
        advance(d, j, t);
        fill_view_job(d, j, &vj[k], t);
    }
    d->mech.view.n_users = (int)d->users.n;
    d->mech.view.users = (const char *const *)d->users.names;
    mech_view_end(&d->mech, n, t, reasons);
}

/* ---- plans --------------------------------------------------------------- */

static void plan_text(const daemon_t *d, const plan_t *p, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->n && k + 64 < len; i++) {
        const plan_alloc_t *a = &p->allocs[i];
        k += (size_t)snprintf(buf + k, len - k, "%s%lld:%s:%d", i ? " " : "",
                              (long long)d->mech.vjobs[a->job].id, d->cluster.types[a->type].name,
                              a->gpus);
    }
}

/* The process of a job the books run since daemon time j->launch_t:
 * resumed (SIGCONT), or a new attempt started through the executor. */
static void start_process(daemon_t *d, live_job_t *j)
{
    mls_err_t err;
    const mls_cluster_t *c = &d->cluster;
    double t = j->launch_t;
    j->waiting = 0;
    if (j->launch_resume && j->suspended) {
        j->suspended = 0;
        write_pack(d, j, to_wall(d, t));
        d->exec.ops->signal(&d->exec, j, SIGCONT);
        live_db_event(d->db, t, j->id, "resume", NULL);
        save(d, j);
        return;
    }
    j->suspended = 0;
    if (d->exec.ops->start_after) { /* a wait the executor would sleep through */
        live_launch_t at = {.run_dir = d->run_dir,
                            .node_name = c->nodes[c->gpu_node[j->gpu_ids[0]]].name,
                            .node = c->gpu_node[j->gpu_ids[0]]};
        j->start_after = d->exec.ops->start_after(&d->exec, j, &at);
        if (j->start_after > realtime()) {
            j->waiting = 1;
            save(d, j);
            return;
        }
    }
    j->start_after = 0;
    j->attempt++;
    j->pid = 0;
    write_pack(d, j, to_wall(d, t));
    write_batch(d, j, to_wall(d, t));
    save(d, j); /* committed before the process exists: never started twice */
    char note[256] = "";
    live_launch_t l = {c->types[j->type].name,
                       c->nodes[c->gpu_node[j->gpu_ids[0]]].name,
                       c->gpu_node[j->gpu_ids[0]],
                       d->sock_path,
                       d->run_dir,
                       d->scale,
                       d->cfg->restart_overhead,
                       d->epoch + t / d->scale,
                       note,
                       sizeof note,
                       -1,
                       NULL,
                       c->gpu_node};
    const live_job_t *owner = j->joined ? find_job(d, j->partner) : NULL;
    if (owner)
        l.partner_attempt = owner->attempt;
    char token[LIVE_TOKEN_MAX + 1];
    run_token(d, j, token, sizeof token);
    l.token = token;
    int rc = d->exec.ops->start(&d->exec, j, &l, &err);
    if (note[0])
        live_db_event(d->db, t, j->id, "exec", note);
    if (rc < 0) {
        fprintf(stderr, "live: %s\n", err.msg);
        on_exit_(d, j, 127, t);
        return;
    }
    char detail[160];
    snprintf(detail, sizeof detail, "%s x%d attempt %d pid %d", c->types[j->type].name,
             j->ngpus, j->attempt, (int)j->pid);
    /* the start event and the pid in one commit: a row without its pid has no
     * start event (recover() records it from the pid file) */
    live_db_begin(d->db);
    live_db_event(d->db, t, j->id, "start", detail);
    if (j->joined) {
        char with[160];
        size_t k = (size_t)snprintf(with, sizeof with, "with job %lld on %s GPUs",
                                    (long long)j->partner, c->types[j->type].name);
        for (int i = 0; i < j->ngpus && k + 12 < sizeof with; i++)
            k += (size_t)snprintf(with + k, sizeof with - k, "%s%d", i ? "," : " ",
                                  j->gpu_ids[i]);
        live_db_event(d->db, t, j->id, "pack", with);
    }
    save(d, j);
    live_db_commit(d->db);
    logf_(d, "job %lld started on %s", (long long)j->id, detail);
}

/* Whether waiting job j may start its process: its GPUs are clear, the
 * executor's wait (start_after) has passed, and a joiner's owner has started
 * (its run's files tell the joiner the GPUs). */
static int may_start(const daemon_t *d, const live_job_t *j)
{
    if (gpus_draining(d, j) || j->start_after > realtime())
        return 0;
    for (size_t i = 0; j->joined && i < d->n_jobs; i++)
        if (d->jobs[i].id == j->partner)
            return d->jobs[i].state == LJ_RUNNING && !d->jobs[i].waiting;
    return 1;
}

/* The processes of waiting jobs whose GPUs have cleared, owners first. */
static void start_waiting(daemon_t *d)
{
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < d->n_jobs; i++) {
            live_job_t *j = &d->jobs[i];
            if (j->state == LJ_RUNNING && j->waiting && j->joined == pass && may_start(d, j))
                start_process(d, j);
        }
}

/* j runs in the books from daemon time t (its start counted from the
 * decision, as in the simulator); its process starts as soon as its GPUs
 * are clear, here or later from the loop (start_waiting). A job whose own
 * previous process is still stopping takes up the allocation once it has
 * exited. resume: it goes on with its suspended process. */
static void launch(daemon_t *d, live_job_t *j, double t, int resume)
{
    if (isnan(j->first_start))
        j->first_start = t;
    else
        j->restarts++;
    j->last_start = j->last_update = t;
    if (resume)
        j->last_start = t - d->cfg->restart_overhead; /* no restore to pay */
    j->throughput = NAN;
    j->launch_t = t;
    j->launch_resume = resume;
    j->start_after = 0;
    hold(d, j);
    if (j->state == LJ_STOPPING) {
        j->relaunch = 1;
        save(d, j);
        return;
    }
    j->state = LJ_RUNNING;
    j->waiting = 1;
    if (may_start(d, j))
        start_process(d, j);
    else
        save(d, j);
}

/* A suspended job that is not resumed in place: its old process is ended
 * first (it occupies no GPUs in the books while it winds down); the new
 * allocation is taken up once it has exited. */
static void drop_suspended(daemon_t *d, live_job_t *j)
{
    if (!j->suspended)
        return;
    j->state = LJ_STOPPING;
    j->stop_kind = 0;
    j->relaunch = 0;
    j->n_drain = 0;
    j->stop_deadline = mls_wall_seconds() + d->cfg->grace;
    j->suspended = 0;
    d->exec.ops->signal(&d->exec, j, SIGTERM);
}

/* The second job of a pair joins the GPUs its partner was just given; both
 * then run at their pair rates (each told so by its pack file). */
static void join(daemon_t *d, live_job_t *j, const plan_alloc_t *a, double t)
{
    live_job_t *q = &d->jobs[d->vidx[a->pack_with]];
    drop_suspended(d, j);
    if (!holds_gpus(q) || q->partner != j->id || q->joined || live_state_terminal(j->state)) {
        logf_(d, "job %lld cannot join job %lld: %s", (long long)j->id, (long long)q->id,
              live_state_terminal(j->state) ? "it has ended" : "its partner did not start");
        if (q->partner == j->id && holds_gpus(q)) {
            q->partner = -1; /* it runs alone from its start */
            write_pack(d, q, to_wall(d, q->last_start));
            save(d, q);
        }
        return;
    }
    memcpy(j->gpu_ids, q->gpu_ids, sizeof(int) * (size_t)q->ngpus);
    j->ngpus = q->ngpus;
    j->type = q->type;
    j->nodes = q->nodes;
    take_batch(d, j, a);
    j->partner = q->id;
    j->joined = 1;
    launch(d, j, t, 0);
}

/* ---- the live executor: each change of a plan, on processes ------------------
 * (sim/mechanism.c decides what changes and in which order) */

static live_job_t *view_job(daemon_t *d, int k)
{
    return &d->jobs[d->vidx[k]];
}

/* A kept job changes only its batch: in place, at no cost, as in the
 * simulator; its batch file tells it (live/batch.h). */
static void exec_rebatch(void *ctx, int k, int batch, int accum)
{
    daemon_t *d = ctx;
    live_job_t *j = view_job(d, k);
    double t = d->apply_t;
    int was_batch = j->batch, was_accum = j->accum;
    j->batch = batch;
    j->accum = accum;
    advance(d, j, t);
    write_batch(d, j, to_wall(d, t));
    char detail[64];
    snprintf(detail, sizeof detail, "batch %d accum %d (was %d, %d)", j->batch, j->accum,
             was_batch, was_accum);
    live_db_event(d->db, t, j->id, "batch", detail);
    save(d, j);
}

/* Preempted with --preempt-suspend: SIGSTOP, the process kept; otherwise
 * SIGTERM (checkpoint and exit), not waited for: its GPUs go back in the
 * books in exec_stopped(), the starts on them wait for the process. A job
 * whose process had not started yet just leaves the books. */
static void exec_stop(void *ctx, int k, mech_stop_t why)
{
    daemon_t *d = ctx;
    live_job_t *j = view_job(d, k);
    double t = d->apply_t;
    j->preemptions += why == MECH_PREEMPT;
    advance(d, j, t);
    if (j->state == LJ_STOPPING) /* its restart is undone: it waits for its process */
        j->relaunch = 0;
    else if (j->waiting) { /* its process never started (a suspended one stays so) */
        j->waiting = 0;
        j->state = LJ_QUEUED;
    } else if (d->cfg->preempt_suspend && why == MECH_PREEMPT) {
        d->exec.ops->signal(&d->exec, j, SIGSTOP);
        j->suspended = 1;
        release(d, j, t);
        j->state = LJ_QUEUED;
        live_db_event(d->db, t, j->id, "suspend", NULL);
        save(d, j);
        return;
    } else {
        j->work_done = work_at(j, t); /* queued in the next view: its progress as now known */
        ask_stop(d, j, 0);
    }
    xgrow((void **)&d->plan_stopped, &d->plan_stopped_cap, d->n_plan_stopped + 1,
          sizeof *d->plan_stopped);
    d->plan_stopped[d->n_plan_stopped++] = (int)(j - d->jobs);
}

/* After all of the plan's stops (so that a pair stopped whole tells neither
 * member it runs alone): their GPUs are free in the books. */
static void exec_stopped(void *ctx)
{
    daemon_t *d = ctx;
    for (size_t i = 0; i < d->n_plan_stopped; i++) {
        live_job_t *j = &d->jobs[d->plan_stopped[i]];
        if (j->state == LJ_QUEUED) { /* its process had not started */
            release(d, j, d->apply_t);
            save(d, j);
        } else
            give_books(d, j, d->apply_t);
    }
    d->n_plan_stopped = 0;
}

/* A suspended job resumes in place when the plan gives it the same type,
 * count and batch and its GPUs are free (a pair's joiner restarts: it joins
 * through exec_join). */
static int exec_resume_on(void *ctx, int k, const plan_alloc_t *a, int *ids)
{
    daemon_t *d = ctx;
    const live_job_t *j = view_job(d, k);
    if (!j->suspended || j->type != a->type || j->ngpus != a->gpus ||
        (a->batch_size && a->batch_size != j->batch))
        return 0; /* a pair's owner resumes too: its pack file names the partner */
    memcpy(ids, j->gpu_ids, sizeof(int) * (size_t)a->gpus);
    return 1;
}

static int exec_start(void *ctx, int k, const plan_alloc_t *a, const int *ids, int nodes,
                      int resumed, mls_err_t *err)
{
    daemon_t *d = ctx;
    live_job_t *j = view_job(d, k);
    (void)err;
    if (j->state != LJ_QUEUED && !(j->state == LJ_STOPPING && !j->relaunch))
        return 1; /* it ended meanwhile */
    int *want = xmalloc(sizeof(int) * (size_t)a->gpus);
    memcpy(want, ids, sizeof(int) * (size_t)a->gpus);
    if (!resumed)
        drop_suspended(d, j); /* winding the old process down */
    int gone = live_state_terminal(j->state);
    if (!gone) {
        memcpy(j->gpu_ids, want, sizeof(int) * (size_t)a->gpus);
        j->nodes = nodes;
        j->type = a->type;
        j->ngpus = a->gpus;
        take_batch(d, j, a);
        j->partner = a->pack_with >= 0 ? d->mech.vjobs[a->pack_with].id : -1;
        j->joined = 0;
        launch(d, j, d->apply_t, resumed);
    }
    free(want);
    return gone;
}

static int exec_join(void *ctx, int k, const plan_alloc_t *a, mls_err_t *err)
{
    daemon_t *d = ctx;
    (void)err;
    join(d, view_job(d, k), a, d->apply_t);
    return 0;
}

/* On Slurm a joiner is a GPU-less Slurm job sent to its owner's node: the
 * node must be known before the owner runs (exec_slurm.c). */
static int exec_can_do(void *ctx, const view_t *v, const plan_t *p, mls_err_t *err)
{
    daemon_t *d = ctx;
    for (int i = 0; i < p->n && strcmp(d->exec.ops->name, "local") && !d->cfg->slurm_nodes; i++)
        if (p->allocs[i].pack_with >= 0)
            return mls_fail(err,
                            "policy '%s' planned job %lld to share GPUs with job %lld (space "
                            "sharing): on the %s executor the joiner must go to its partner's "
                            "node: give --slurm-nodes (the Slurm name of each cluster node)",
                            d->policy->name, (long long)v->jobs[p->allocs[i].job].id,
                            (long long)v->jobs[p->allocs[i].pack_with].id, d->exec.ops->name);
    return 0;
}

static const mech_exec_ops_t live_exec_ops = {
    .can_do = exec_can_do,
    .rebatch = exec_rebatch,
    .stop = exec_stop,
    .stopped = exec_stopped,
    .resume_on = exec_resume_on,
    .start = exec_start,
    .join = exec_join,
};

static void decide(daemon_t *d, double t, unsigned reasons)
{
    mls_err_t err = {""};
    char text[8192];
    double secs;
    build_view(d, t, reasons);
    d->apply_t = t;
    d->n_plan_stopped = 0;
    int rc = mech_decide(&d->mech, d->policy, d->pstate, &d->plan, &live_exec_ops, d, &secs, &err);
    plan_text(d, &d->plan, text, sizeof text);
    live_db_decision(d->db, t, reasons, d->mech.view.n_jobs, text, secs * 1e3,
                     rc < 0 ? err.msg : NULL);
    d->last_decision = t;
    if (rc < 0)
        fprintf(stderr, "live: t=%.1f plan not carried out: %s\n", t, err.msg);
}

/* ---- requests ------------------------------------------------------------ */

static cJSON *job_json(const daemon_t *d, const live_job_t *j)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "id", (double)j->id);
    cJSON_AddStringToObject(o, "state", live_state_name(j->state));
    cJSON_AddStringToObject(o, "workload", j->spec.workload);
    cJSON_AddStringToObject(o, "user", j->spec.user ? j->spec.user : "default");
    cJSON_AddNumberToObject(o, "gpus", j->spec.gpus);
    if ((holds_gpus(j) || j->state == LJ_STOPPING) && j->type >= 0) {
        cJSON_AddStringToObject(o, "type", d->cluster.types[j->type].name);
        cJSON *ids = cJSON_AddArrayToObject(o, "gpu_ids");
        for (int i = 0; i < j->ngpus; i++)
            cJSON_AddItemToArray(ids, cJSON_CreateNumber(j->gpu_ids[i]));
        cJSON_AddNumberToObject(o, "pid", j->pid);
        if (j->partner >= 0)
            cJSON_AddNumberToObject(o, "pack_with", (double)j->partner);
    }
    cJSON_AddNumberToObject(o, "work", j->spec.work);
    cJSON_AddNumberToObject(o, "work_done", j->work_done);
    if (isfinite(j->throughput))
        cJSON_AddNumberToObject(o, "throughput", j->throughput);
    cJSON_AddNumberToObject(o, "submit", j->submit);
    if (isfinite(j->first_start))
        cJSON_AddNumberToObject(o, "first_start", j->first_start);
    if (isfinite(j->finish))
        cJSON_AddNumberToObject(o, "finish", j->finish);
    if (j->state == LJ_DONE)
        cJSON_AddNumberToObject(o, "jct", j->finish - j->submit);
    cJSON_AddNumberToObject(o, "attempts", j->attempt);
    cJSON_AddNumberToObject(o, "preemptions", j->preemptions);
    cJSON_AddNumberToObject(o, "failures", j->failures);
    cJSON_AddNumberToObject(o, "exit_code", j->exit_code);
    return o;
}

static char *reply_json(cJSON *o)
{
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    size_t n = strlen(text);
    char *line = xmalloc(n + 2);
    memcpy(line, text, n);
    memcpy(line + n, "\n", 2);
    cJSON_free(text);
    return line;
}

static char *do_status(daemon_t *d)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "ok", 1);
    cJSON_AddNumberToObject(o, "now", dnow(d));
    cJSON_AddStringToObject(o, "policy", d->policy->name);
    cJSON_AddBoolToObject(o, "draining", d->draining);
    cJSON_AddNumberToObject(o, "time_scale", d->scale);
    cJSON_AddNumberToObject(o, "round", d->cfg->round_len);
    cJSON *a = cJSON_AddArrayToObject(o, "jobs");
    for (size_t i = 0; i < d->n_jobs; i++)
        cJSON_AddItemToArray(a, job_json(d, &d->jobs[i]));
    return reply_json(o);
}

static char *do_submit(daemon_t *d, live_submit_t *s, uid_t uid)
{
    mls_err_t err;
    char msg[1100];
    if (d->draining)
        return live_reply_error("submit: the daemon is draining: it takes no new jobs");
    if (live_check_submit(s, &d->cluster, d->perf, &err) < 0)
        return live_reply_error(err.msg);
    if (s->id >= 0 && find_job(d, s->id)) {
        snprintf(msg, sizeof msg, "submit: id %lld: a job with this id exists", (long long)s->id);
        return live_reply_error(msg);
    }
    if (!s->user) {
        struct passwd *pw = getpwuid(uid);
        char b[32];
        snprintf(b, sizeof b, "uid%u", (unsigned)uid);
        s->user = xstrdup(pw ? pw->pw_name : b);
    }
    double t = dnow(d);
    xgrow((void **)&d->jobs, &d->jobs_cap, d->n_jobs + 1, sizeof *d->jobs);
    live_job_t *j = &d->jobs[d->n_jobs++];
    memset(j, 0, sizeof *j);
    j->spec = *s;
    memset(s, 0, sizeof *s); /* the job owns it now */
    if (j->spec.id < 0)
        j->spec.id = d->next_id;
    j->id = j->spec.id;
    if (j->id >= d->next_id)
        d->next_id = j->id + 1;
    j->gpu_ids = xcalloc((size_t)j->spec.max_gpus, sizeof(int));
    j->type = -1;
    j->batch = j->spec.batch;
    j->accum = -1;
    j->first_start = j->last_start = j->finish = j->last_update = NAN;
    j->throughput = j->gns = j->reported_at = NAN;
    j->partner = -1;
    j->submit = isnan(j->spec.submit_at) ? t : j->spec.submit_at;
    j->state = j->submit <= t ? LJ_QUEUED : LJ_PENDING;
    live_db_begin(d->db);
    save(d, j);
    live_db_event(d->db, t, j->id, "submit", j->spec.workload);
    snprintf(msg, sizeof msg, "%lld", (long long)d->next_id);
    live_db_meta_set(d->db, "next_id", msg, &err);
    live_db_commit(d->db);
    if (j->state == LJ_QUEUED)
        happened(d, MLS_WHY_ARRIVAL, t);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "ok", 1);
    cJSON_AddNumberToObject(o, "id", (double)j->id);
    return reply_json(o);
}

/* Cancels job id. A job with a process is asked to stop (its GPUs go back
 * in the books at once) and NULL is returned: the reply waits, without
 * holding up the loop, until the process has ended (serve_deferred). */
static char *do_cancel(daemon_t *d, int64_t id)
{
    char msg[256];
    live_job_t *j = find_job(d, id);
    if (!j || live_state_terminal(j->state)) {
        snprintf(msg, sizeof msg, "cancel: job %lld: %s", (long long)id,
                 j ? "has already ended" : "no such job");
        return live_reply_error(msg);
    }
    double t = dnow(d);
    int wait = 1;
    advance(d, j, t);
    if (j->state == LJ_RUNNING && !j->waiting) {
        ask_stop(d, j, 1);
        give_books(d, j, t);
    } else if (j->state == LJ_STOPPING) {
        if (j->relaunch)
            give_books(d, j, t);
        j->relaunch = 0;
        j->stop_kind = 1;
        save(d, j);
    } else {
        if (j->waiting) { /* its process never started */
            j->waiting = 0;
            release(d, j, t);
            j->state = LJ_QUEUED;
        }
        if (j->suspended) {
            j->suspended = 0;
            j->state = LJ_STOPPING;
            j->stop_kind = 1;
            j->relaunch = 0;
            j->n_drain = 0;
            j->stop_deadline = mls_wall_seconds() + d->cfg->grace;
            d->exec.ops->signal(&d->exec, j, SIGTERM);
            save(d, j);
        } else {
            /* what the executor may keep of its last run (a held Slurm job) */
            d->exec.ops->signal(&d->exec, j, SIGKILL);
            j->state = LJ_CANCELLED;
            j->finish = t;
            live_db_event(d->db, t, j->id, "cancel", NULL);
            save(d, j);
            wait = 0;
        }
    }
    happened(d, MLS_WHY_COMPLETION, t);
    return wait ? NULL : live_reply_ok();
}

static char *do_report(daemon_t *d, const live_progress_t *p)
{
    char msg[160];
    live_job_t *j = find_job(d, p->id);
    if (!j || !((j->state == LJ_RUNNING && !j->waiting) || j->state == LJ_STOPPING)) {
        snprintf(msg, sizeof msg, "report: job %lld: %s", (long long)p->id,
                 j ? "is not running" : "no such job");
        return live_reply_error(msg);
    }
    char token[LIVE_TOKEN_MAX + 1];
    run_token(d, j, token, sizeof token);
    if (strcmp(p->token, token)) {
        snprintf(msg, sizeof msg,
                 "report: job %lld: %s token: only its current run (MLSCHED_TOKEN in its "
                 "environment) reports",
                 (long long)p->id, p->token[0] ? "wrong" : "no");
        return live_reply_error(msg);
    }
    j->work_done = p->iter < j->spec.work ? p->iter : j->spec.work;
    if (j->state == LJ_STOPPING) { /* its checkpoint: the rate is not its next run's */
        save(d, j);
        return live_reply_ok();
    }
    if (isfinite(p->iter_time))
        j->throughput = 1.0 / p->iter_time;
    j->reported_at = dnow(d);
    if (isfinite(p->gns))
        j->gns = p->gns;
    save(d, j);
    return live_reply_ok();
}

/* The reply to one request; NULL with *waits_for the job id when a cancel's
 * reply waits for the job's process to end. */
static char *handle(daemon_t *d, const char *text, size_t len, uid_t uid, int64_t *waits_for)
{
    live_request_t r;
    mls_err_t err;
    *waits_for = -1;
    if (live_parse_request(text, len, &r, &err) < 0)
        return live_reply_error(err.msg);
    char *out = NULL;
    switch (r.op) {
    case LIVE_OP_SUBMIT: out = do_submit(d, &r.sub, uid); break;
    case LIVE_OP_STATUS: out = do_status(d); break;
    case LIVE_OP_CANCEL:
        out = do_cancel(d, r.id);
        if (!out) {
            *waits_for = r.id;
            live_request_free(&r);
            return NULL;
        }
        break;
    case LIVE_OP_REPORT: out = do_report(d, &r.prog); break;
    case LIVE_OP_DRAIN:
        d->draining = 1;
        live_db_meta_set(d->db, "draining", "1", &err);
        out = live_reply_ok();
        break;
    }
    live_request_free(&r);
    return out ? out : live_reply_error("internal: no reply");
}

/* ---- clients -------------------------------------------------------------
 * Every connection is non-blocking and has its own buffers and deadline, so
 * that an idle or slow client delays no other and no decision: a client
 * sends one request line (at most LIVE_MAX_REQUEST bytes) within 2 s, gets
 * one reply, and the connection is shut down for writing and drained until
 * the peer closes (so the reply is not lost to a reset). A request may wait
 * for stopping jobs (cancel), which serves the others meanwhile: clients
 * are addressed by index (the table may grow), and the table is compacted
 * only by the outermost serve_io(). */

enum { CL_READ = 0, CL_HELD, CL_WORK, CL_WRITE, CL_DRAIN };
#define CLIENT_READ_S 2.0
#define CLIENT_WRITE_S 5.0

/* While a plan is being applied only requests that change no job list are
 * answered at once (reports, status, and errors); the rest wait. */
static int answerable_while_busy(const char *text, size_t len)
{
    live_request_t r;
    if (live_parse_request(text, len, &r, NULL) < 0)
        return 1; /* the error reply needs nothing */
    int ok = r.op == LIVE_OP_REPORT || r.op == LIVE_OP_STATUS;
    live_request_free(&r);
    return ok;
}

static void client_close(struct client *c)
{
    close(c->fd);
    free(c->buf);
    c->fd = -1;
    c->buf = NULL;
}

static void client_flush(struct client *c)
{
    while (c->off < c->len) {
        ssize_t w = send(c->fd, c->buf + c->off, c->len - c->off, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (w <= 0) {
            client_close(c);
            return;
        }
        c->off += (size_t)w;
    }
    shutdown(c->fd, SHUT_WR);
    free(c->buf);
    c->buf = NULL;
    c->state = CL_DRAIN;
    c->deadline = mls_wall_seconds() + CLIENT_READ_S;
}

/* The client gets `reply` (taken), written as the socket takes it. */
static void client_reply(struct client *c, char *reply)
{
    free(c->buf);
    c->buf = reply;
    c->len = strlen(reply);
    c->off = 0;
    c->state = CL_WRITE;
    c->deadline = mls_wall_seconds() + CLIENT_WRITE_S;
    client_flush(c);
}

static void client_error(struct client *c, const char *msg)
{
    client_reply(c, live_reply_error(msg));
}

/* Answers client i's request (the table may grow meanwhile); a cancel's
 * client is held until the job has ended (at most grace + 10 s). */
static void client_answer(daemon_t *d, size_t i)
{
    struct client *c = &d->clients[i];
    c->state = CL_WORK;
    int64_t waits_for;
    char *reply = handle(d, c->buf, c->len, c->uid, &waits_for);
    c = &d->clients[i];
    if (!reply) {
        c->state = CL_HELD;
        c->waits_for = waits_for;
        c->deadline = mls_wall_seconds() + d->cfg->grace + 10;
        return;
    }
    client_reply(c, reply);
}

/* A complete request line (or what came before the peer closed). */
static void client_request(daemon_t *d, size_t i)
{
    struct client *c = &d->clients[i];
    char *nl = memchr(c->buf, '\n', c->len);
    c->len = nl ? (size_t)(nl - c->buf) : c->len;
    if (d->busy && !answerable_while_busy(c->buf, c->len))
        c->state = CL_HELD; /* answered once the plan is applied */
    else
        client_answer(d, i);
}

static void client_read(daemon_t *d, size_t i)
{
    struct client *c = &d->clients[i];
    char sink[4096];
    for (;;) {
        char *to = c->state == CL_READ ? c->buf + c->len : sink;
        size_t room = c->state == CL_READ ? LIVE_MAX_REQUEST + 2 - c->len : sizeof sink;
        ssize_t r = recv(c->fd, to, room, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (c->state != CL_READ) { /* draining (or a held client that sends more) */
            if (r <= 0 && c->state == CL_DRAIN)
                client_close(c);
            if (r <= 0)
                return;
            continue;
        }
        if (r <= 0) {
            client_request(d, i);
            return;
        }
        c->len += (size_t)r;
        if (memchr(to, '\n', (size_t)r)) {
            client_request(d, i);
            return;
        }
        if (c->len > LIVE_MAX_REQUEST) {
            char msg[96];
            snprintf(msg, sizeof msg, "request: more than the limit of %d bytes",
                     LIVE_MAX_REQUEST);
            client_error(c, msg);
            return;
        }
    }
}

static void accept_clients(daemon_t *d)
{
    for (;;) {
        int fd = accept4(d->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0)
            return;
        xgrow((void **)&d->clients, &d->clients_cap, d->n_clients + 1, sizeof *d->clients);
        struct client *c = &d->clients[d->n_clients++];
        *c = (struct client){fd, CL_READ, 0, xmalloc(LIVE_MAX_REQUEST + 2), 0, 0,
                             mls_wall_seconds() + CLIENT_READ_S, -1};
        struct ucred cred;
        socklen_t cl = sizeof cred;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) < 0 || cred.uid != geteuid()) {
            char msg[256];
            snprintf(msg, sizeof msg, "permission denied: uid %u is not the daemon's uid %u",
                     (unsigned)cred.uid, (unsigned)geteuid());
            client_error(c, msg);
            continue;
        }
        c->uid = cred.uid;
        client_read(d, d->n_clients - 1);
    }
}

/* Deadlines, and the closed connections out of the table. */
static void clients_sweep(daemon_t *d)
{
    double now = mls_wall_seconds();
    size_t k = 0;
    for (size_t i = 0; i < d->n_clients; i++) {
        struct client *c = &d->clients[i];
        if (c->fd >= 0 && c->state != CL_HELD && now > c->deadline) {
            if (c->state == CL_READ)
                client_error(c, "request: incomplete (no newline within 2 s)");
            else
                client_close(c); /* a peer that reads nothing, or never closes */
        }
        if (c->fd >= 0)
            d->clients[k++] = *c;
    }
    d->n_clients = k;
}

/* The requests held while a plan was applied, in arrival order, and the
 * cancels whose jobs have ended. */
static void serve_deferred(daemon_t *d)
{
    double now = mls_wall_seconds();
    for (size_t i = 0; i < d->n_clients; i++) {
        struct client *c = &d->clients[i];
        if (c->fd < 0 || c->state != CL_HELD)
            continue;
        if (c->waits_for < 0) {
            client_answer(d, i);
            continue;
        }
        const live_job_t *j = find_job(d, c->waits_for);
        if (!j || j->state != LJ_STOPPING || now > c->deadline)
            client_reply(c, live_reply_ok());
    }
}

/* Waits up to ms for the listening socket, the clients and (sig) the
 * signalfd, and serves what is ready. Returns 1 when a signal is pending. */
static int serve_io(daemon_t *d, int ms, int sig)
{
    if (d->io_depth == 0)
        clients_sweep(d);
    d->io_depth++;
    double now = mls_wall_seconds();
    size_t n_x = sig ? (size_t)d->n_xfds : 0;
    struct pollfd *p = xmalloc(sizeof *p * (d->n_clients + 3 + n_x));
    size_t n = 0;
    p[n++] = (struct pollfd){d->listen_fd, POLLIN, 0};
    p[n++] = (struct pollfd){sig ? d->sig_fd : -1, POLLIN, 0};
    p[n++] = (struct pollfd){sig ? d->ino_fd : -1, POLLIN, 0};
    for (size_t i = 0; i < d->n_clients; i++) {
        const struct client *c = &d->clients[i];
        int waits = c->state == CL_HELD || c->state == CL_WORK;
        short ev = c->state == CL_WRITE ? POLLOUT : waits ? 0 : POLLIN;
        p[n++] = (struct pollfd){waits ? -1 : c->fd, ev, 0};
        int left = (int)((c->deadline - now) * 1000) + 1;
        if (!waits && c->fd >= 0 && left < ms)
            ms = left < 0 ? 0 : left;
    }
    size_t n_cl = n; /* the executor's pipes after the clients: the caller's loop reads them */
    for (size_t i = 0; i < n_x; i++)
        p[n++] = (struct pollfd){d->xfds[i], POLLIN, 0};
    int got = poll(p, n, ms), pending = 0;
    if (got > 0) {
        pending = sig && p[1].revents;
        if (sig && p[2].revents) { /* a file appeared in run_dir: the caller reaps */
            char ev[4096];
            while (read(d->ino_fd, ev, sizeof ev) > 0)
                ;
        }
        for (size_t i = 3; i < n_cl; i++) { /* the table may grow below: index, not pointer */
            struct client *c = &d->clients[i - 3];
            if (!p[i].revents || c->fd < 0 || c->state == CL_HELD || c->state == CL_WORK)
                continue;
            if (c->state == CL_WRITE)
                client_flush(c);
            else
                client_read(d, i - 3);
        }
        if (p[0].revents)
            accept_clients(d);
    }
    free(p);
    d->io_depth--;
    return pending;
}

/* ---- setup ------------------------------------------------------------ */

/* A 0700 directory we own (created when absent). */
static int private_dir(const char *dir, mls_err_t *err)
{
    struct stat st;
    if (mkdir(dir, 0700) < 0 && errno != EEXIST)
        return mls_fail(err, "%s: cannot create: %s", dir, strerror(errno));
    if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
        return mls_fail(err, "%s: not a directory", dir);
    if (st.st_uid != geteuid())
        return mls_fail(err, "%s: owned by uid %u, not by us (uid %u)", dir, (unsigned)st.st_uid,
                        (unsigned)geteuid());
    if ((st.st_mode & 0777) != 0700 && chmod(dir, 0700) < 0)
        return mls_fail(err, "%s: cannot make it mode 0700: %s", dir, strerror(errno));
    return 0;
}

static int open_socket(daemon_t *d, mls_err_t *err)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", d->sock_path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        if (private_dir(dir, err) < 0)
            return -1;
    }
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    if (strlen(d->sock_path) >= sizeof a.sun_path)
        return mls_fail(err, "%s: socket path too long (%zu bytes max)", d->sock_path,
                        sizeof a.sun_path - 1);
    memcpy(a.sun_path, d->sock_path, strlen(d->sock_path) + 1);
    /* A live daemon still answering on it: refuse to steal its socket. */
    char *probe = live_request(d->sock_path, "{\"op\":\"status\"}", 1.0, NULL);
    if (probe) {
        free(probe);
        return mls_fail(err, "%s: another live daemon is serving on this socket", d->sock_path);
    }
    unlink(d->sock_path);
    d->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    mode_t old = umask(0177);
    int rc = bind(d->listen_fd, (struct sockaddr *)&a, sizeof a);
    umask(old);
    if (rc < 0 || chmod(d->sock_path, 0600) < 0 || listen(d->listen_fd, 64) < 0)
        return mls_fail(err, "%s: cannot listen: %s", d->sock_path, strerror(errno));
    return 0;
}

static int open_signals(daemon_t *d, mls_err_t *err)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    sigprocmask(SIG_BLOCK, &set, NULL);
    d->sig_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    return d->sig_fd < 0 ? mls_fail(err, "signalfd: %s", strerror(errno)) : 0;
}

static int load_meta(daemon_t *d, mls_err_t *err)
{
    char *epoch = live_db_meta_get(d->db, "epoch");
    char *scale = live_db_meta_get(d->db, "time_scale");
    char *drain = live_db_meta_get(d->db, "draining");
    char *next = live_db_meta_get(d->db, "next_id");
    char *secret = live_db_meta_get(d->db, "report_secret");
    int rc = 0;
    if (secret && strlen(secret) < sizeof d->secret)
        snprintf(d->secret, sizeof d->secret, "%s", secret);
    else { /* a new state: 128 random bits */
        unsigned char r[16] = {0};
        FILE *f = fopen("/dev/urandom", "rb");
        if (!f || fread(r, 1, sizeof r, f) != sizeof r)
            rc = mls_fail(err, "/dev/urandom: cannot read the report secret");
        if (f)
            fclose(f);
        for (int i = 0; i < 16; i++)
            snprintf(d->secret + 2 * i, 3, "%02x", r[i]);
        if (rc == 0)
            rc = live_db_meta_set(d->db, "report_secret", d->secret, err);
    }
    free(secret);
    d->scale = d->cfg->time_scale;
    if (epoch && scale) {
        double s;
        if (mls_parse_double(epoch, &d->epoch) < 0 || mls_parse_double(scale, &s) < 0)
            rc = mls_fail(err, "%s: meta: epoch/time_scale do not parse", d->cfg->db_path);
        else if (fabs(s - d->scale) > 1e-12 * s)
            rc = mls_fail(err,
                          "%s: this state was kept at --time-scale %g; restart with the same "
                          "scale",
                          d->cfg->db_path, s);
    } else {
        char b[64];
        d->epoch = realtime();
        snprintf(b, sizeof b, "%.6f", d->epoch);
        live_db_meta_set(d->db, "epoch", b, err);
        snprintf(b, sizeof b, "%.17g", d->scale);
        live_db_meta_set(d->db, "time_scale", b, err);
    }
    long v;
    d->draining = drain && !strcmp(drain, "1");
    d->next_id = next && mls_parse_long(next, &v) == 0 ? v : 0;
    free(epoch);
    free(scale);
    free(drain);
    free(next);
    /* what ran, for `mlsched report --db STATE` (live/export.h) */
    char g[32];
    snprintf(g, sizeof g, "%d", d->cluster.n_gpus);
    if (rc == 0 &&
        (live_db_meta_set(d->db, "policy", d->cfg->policy, err) < 0 ||
         live_db_meta_set(d->db, "cluster", d->cfg->cluster, err) < 0 ||
         live_db_meta_set(d->db, "n_gpus", g, err) < 0 ||
         live_db_meta_set(d->db, "placement", mech_placement_name(d->cfg->placement), err) < 0))
        rc = -1;
    return rc;
}

/* After a restart: a pair whose members do not both hold the GPUs and name
 * each other (the daemon died between starting the first and the second, or
 * a state row is damaged) is no pair; a member still running goes on alone
 * and, as it never had a partner, from its start. */
static void settle_pairs(daemon_t *d)
{
    for (size_t i = 0; i < d->n_jobs; i++) {
        live_job_t *j = &d->jobs[i];
        if (j->partner < 0)
            continue;
        live_job_t *q = find_job(d, j->partner);
        if (q && q != j && q->partner == j->id && holds_gpus(j) && holds_gpus(q) &&
            q->joined != j->joined)
            continue;
        logf_(d, "job %lld: no partner to share its GPUs with: it runs alone", (long long)j->id);
        j->partner = -1;
        j->joined = 0;
        if (holds_gpus(j)) {
            hold(d, j);
            write_pack(d, j, to_wall(d, j->last_start));
        }
        save(d, j);
    }
}

/* The jobs of the previous daemon: re-adopt the live ones, settle the rest. */
static int recover(daemon_t *d, mls_err_t *err)
{
    if (live_db_load_jobs(d->db, &d->jobs, &d->n_jobs, err) < 0)
        return -1;
    d->jobs_cap = d->n_jobs;
    double t = dnow(d);
    for (size_t i = 0; i < d->n_jobs; i++) {
        live_job_t *j = &d->jobs[i];
        if (j->id >= d->next_id)
            d->next_id = j->id + 1;
        if (j->state == LJ_DONE)
            add_finished(d, j);
        if (!has_process(j))
            continue;
        if (j->pid == 0 && !j->ext_id[0]) { /* killed between the start's commit and its pid's */
            char path[4096];
            live_job_path(path, sizeof path, d->run_dir, j, "pid");
            FILE *f = fopen(path, "r");
            int pid = 0;
            if (f && fscanf(f, "%d %llu", &pid, &j->pid_start) == 2)
                j->pid = pid;
            if (f)
                fclose(f);
            if (j->pid > 0) { /* it did start: its start event was never committed */
                char detail[160];
                snprintf(detail, sizeof detail, "%s x%d attempt %d pid %d (from its pid file)",
                         j->type >= 0 && j->type < d->cluster.n_types
                             ? d->cluster.types[j->type].name : "?",
                         j->ngpus, j->attempt, (int)j->pid);
                live_db_event(d->db, j->last_start, j->id, "start", detail);
            }
        }
        if (holds_gpus(j))
            hold(d, j); /* a stopping job's GPUs are free in the books, not yet clear */
        int status;
        double when;
        if (!d->exec.ops->ended(&d->exec, j, d->run_dir, &status, &when)) {
            live_db_event(d->db, t, j->id, "adopt", NULL);
            logf_(d, "job %lld re-adopted (pid %d%s%s)", (long long)j->id, (int)j->pid,
                  j->ext_id[0] ? ", Slurm job " : "", j->ext_id);
            if (j->state == LJ_STOPPING)
                ask_stop(d, j, j->stop_kind);
            continue;
        }
        if (status < 0)
            live_db_event(d->db, t, j->id, "lost", "no process and no exit record");
        if (status < 0 && j->state == LJ_RUNNING) {
            /* Never started, or gone without a trace: run it again from its
             * checkpoint; not counted as a failure of the job. */
            advance(d, j, t);
            j->suspended = 0;
            release(d, j, t);
            j->state = LJ_QUEUED;
            save(d, j);
            continue;
        }
        if (j->suspended && !holds_gpus(j)) {
            j->suspended = 0;
            j->pid = 0;
            j->ngpus = 0;
            j->type = -1;
            if (status == 0) {
                j->state = LJ_RUNNING;
                on_exit_(d, j, 0, wall_to_daemon(d, when));
            } else
                save(d, j);
            continue;
        }
        on_exit_(d, j, status, wall_to_daemon(d, when));
    }
    settle_pairs(d);
    happened(d, MLS_WHY_ARRIVAL, t);
    return 0;
}

static int setup(daemon_t *d, mls_err_t *err)
{
    const live_config_t *cfg = d->cfg;
    d->listen_fd = d->sig_fd = d->ino_fd = -1;
    d->policy = cfg->ops ? cfg->ops : policy_find(cfg->policy); /* exec:PATH: resolved by the caller */
    if (!d->policy)
        return mls_fail(err, "unknown policy '%s' (see mlsched policies)", cfg->policy);
    char perr[512] = "";
    if (d->policy->create && d->policy->create(&d->pstate, &cfg->args, perr, sizeof perr) < 0)
        return mls_fail(err, "policy '%s': %s", d->policy->name, perr);
    d->cadence = cfg->cadence ? cfg->cadence : d->policy->cadence;
    if (cfg->round_len <= 0)
        d->cadence |= MLS_CADENCE_EVENTS;
    if (cluster_load(&d->cluster, cfg->cluster, err) < 0)
        return -1;
    if (perf_load_or_default(&d->perf, cfg->throughputs, err) < 0)
        return -1;
    const mls_cluster_t *c = &d->cluster;
    d->typemap = xmalloc(sizeof(int) * (size_t)c->n_types);
    d->type_node_gpus = xcalloc((size_t)c->n_types, sizeof(int));
    for (int t = 0; t < c->n_types; t++)
        d->typemap[t] = perf_gpu_type_index(d->perf, c->types[t].name);
    for (int i = 0; i < c->n_nodes; i++)
        if (c->nodes[i].gpus > d->type_node_gpus[c->nodes[i].type])
            d->type_node_gpus[c->nodes[i].type] = c->nodes[i].gpus;
    mech_init(&d->mech, c, d->perf->ops->goodput != NULL);
    d->mech.placement = cfg->placement;
    /* Pairs from the perf model (sim/view_perf.c); no batch schedule (a live
     * job's future batch sizes are its own business). */
    d->vsrc = (view_perf_src_t){.perf = d->perf,
                                .n_types = c->n_types,
                                .typemap = d->typemap,
                                .type_node_gpus = d->type_node_gpus};
    view_perf_bind(&d->vperf, &d->vsrc);
    view_t *v = &d->mech.view;
    v->round_len = cfg->round_len;
    v->seed = 1;
    v->perf = &d->vperf;
    plan_init(&d->plan);
    strtab_init(&d->users);

    snprintf(d->run_dir, sizeof d->run_dir, "%s.d", cfg->db_path);
    if (private_dir(d->run_dir, err) < 0)
        return -1;
    /* exit files are renamed into place (exec_local.c, the Slurm wrapper);
     * without inotify the loop sees them at its next tick */
    d->ino_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (d->ino_fd >= 0 && inotify_add_watch(d->ino_fd, d->run_dir, IN_MOVED_TO) < 0) {
        close(d->ino_fd);
        d->ino_fd = -1;
    }
    if (cfg->socket)
        snprintf(d->sock_path, sizeof d->sock_path, "%s", cfg->socket);
    else
        live_default_socket(d->sock_path, sizeof d->sock_path);
    if (!strcmp(cfg->executor, "local")) {
        if (live_exec_local(&d->exec, err) < 0)
            return -1;
    } else if (!strcmp(cfg->executor, "slurm")) {
        if (cfg->preempt_suspend)
            return mls_fail(err, "--preempt suspend: Slurm keeps a suspended job's GPUs, so "
                                 "suspension cannot hand them on; use checkpoint");
        if (live_exec_slurm(&d->exec, cfg->partition, cfg->slurm_nodes, err) < 0)
            return -1;
    } else
        return mls_fail(err, "--executor: '%s' is not local or slurm", cfg->executor);
    if (live_db_open(&d->db, cfg->db_path, err) < 0 || load_meta(d, err) < 0)
        return -1;
    if (open_signals(d, err) < 0 || open_socket(d, err) < 0)
        return -1;
    if (recover(d, err) < 0)
        return -1;
    d->next_round = INFINITY; /* the loop sets it once a job is active */
    d->trigger = d->last_decision = NAN;
    return 0;
}

static void teardown(daemon_t *d)
{
    if (d->listen_fd >= 0) {
        close(d->listen_fd);
        unlink(d->sock_path);
    }
    if (d->sig_fd >= 0)
        close(d->sig_fd);
    if (d->ino_fd >= 0)
        close(d->ino_fd);
    for (size_t i = 0; i < d->n_jobs; i++)
        live_job_free(&d->jobs[i]);
    free(d->jobs);
    if (d->exec.ops)
        d->exec.ops->destroy(&d->exec);
    live_db_close(d->db);
    if (d->policy && d->policy->destroy)
        d->policy->destroy(d->pstate);
    if (d->perf)
        perf_free(d->perf);
    cluster_free(&d->cluster);
    free(d->typemap);
    free(d->type_node_gpus);
    mech_free(&d->mech);
    free(d->vidx);
    free(d->plan_stopped);
    for (size_t i = 0; i < d->n_clients; i++)
        if (d->clients[i].fd >= 0)
            client_close(&d->clients[i]);
    free(d->clients);
    plan_free(&d->plan);
    strtab_free(&d->users);
}

/* ---- the loop ----------------------------------------------------------- */

static int n_active(const daemon_t *d)
{
    int n = 0;
    for (size_t i = 0; i < d->n_jobs; i++)
        n += in_view(&d->jobs[i]);
    return n;
}

static int all_ended(const daemon_t *d)
{
    for (size_t i = 0; i < d->n_jobs; i++)
        if (!live_state_terminal(d->jobs[i].state))
            return 0;
    return 1;
}

/* Pending jobs whose submit_at has come; returns the earliest still to come. */
static double arrivals(daemon_t *d, double t)
{
    double next = INFINITY;
    for (size_t i = 0; i < d->n_jobs; i++) {
        live_job_t *j = &d->jobs[i];
        if (j->state != LJ_PENDING)
            continue;
        if (j->submit <= t) {
            j->state = LJ_QUEUED;
            live_db_event(d->db, t, j->id, "arrive", NULL);
            save(d, j);
            happened(d, MLS_WHY_ARRIVAL, j->submit);
        } else if (j->submit < next)
            next = j->submit;
    }
    return next;
}

static void drain_signals(daemon_t *d)
{
    struct signalfd_siginfo si;
    while (read(d->sig_fd, &si, sizeof si) == (ssize_t)sizeof si)
        if (si.ssi_signo != SIGCHLD)
            d->stop = 1;
}

/* The next round boundary, as the simulator keeps it (sim/engine.c): the
 * round clock ticks on the grid of multiples of the round length, but only
 * while some job has arrived and not ended; a job that arrives at an idle
 * cluster waits for the next boundary after its arrival (under a rounds-only
 * cadence), even when it arrived exactly on one. */
static void schedule_round(daemon_t *d, double t)
{
    double len = d->cfg->round_len;
    if (len > 0 && !isfinite(d->next_round) && n_active(d))
        d->next_round = (floor(t / len) + 1) * len;
}

/* The daemon time a decision is made at: the time of the event that called
 * for it (the round boundary, the arrival, the exit the job's watcher
 * recorded), as the simulator decides at the event's time, rather than the
 * moment the loop got to it, some ms of wall time later, which at a large
 * time scale is tenths of daemon seconds. Starts and stops are counted from
 * that time, and the policy is told it as `now`: round-based policies
 * measure the time each job received from the times of their calls (Gavel's
 * round mechanism) and recompute their allocation once an interval has
 * passed, and LAS compares attained service, so that jitter would break the
 * simulator's exact ties differently and skip recomputes due on a boundary.
 * An event more than LIVE_MAX_LAG wall seconds old, or one from before the
 * previous decision, is not reached back to: the decision is made now. */
#define LIVE_MAX_LAG 0.5
static double decision_time(const daemon_t *d, double trigger)
{
    double t = dnow(d);
    if (!(trigger <= t) || t - trigger > LIVE_MAX_LAG * d->scale || trigger < d->last_decision)
        return t;
    return trigger;
}

static void loop(daemon_t *d)
{
    while (!d->stop) {
        double t = dnow(d);
        double next_arrival = arrivals(d, t);
        reap(d);
        enforce_grace(d);
        start_waiting(d);
        if (t >= d->next_round) {
            happened(d, MLS_WHY_ROUND, d->next_round);
            d->next_round = INFINITY;
        }
        unsigned why = d->why;
        double trig = d->trigger;
        int call = ((why & (MLS_WHY_ARRIVAL | MLS_WHY_COMPLETION)) &&
                    (d->cadence & MLS_CADENCE_EVENTS)) ||
                   ((why & MLS_WHY_ROUND) && (d->cadence & MLS_CADENCE_ROUNDS));
        d->why = 0;
        d->trigger = NAN;
        if (call && n_active(d)) { /* stopping jobs are in the view, queued */
            d->busy = 1;
            decide(d, decision_time(d, trig), why);
            d->busy = 0;
        }
        schedule_round(d, t);
        serve_deferred(d);
        if (d->draining && all_ended(d))
            break;
        double until = d->next_round < next_arrival ? d->next_round : next_arrival;
        double wait_s = (until - dnow(d)) / d->scale;
        int ms = wait_s > 0.2 ? 200 : wait_s > 0 ? (int)(wait_s * 1000) + 1 : 0;
        double soon = next_start(d); /* a waiting start due, without a wake-up */
        if (soon < INFINITY) {
            double start_ms = (soon - realtime()) * 1000 + 1;
            ms = start_ms < ms ? (start_ms > 0 ? (int)start_ms : 0) : ms;
        }
        if (any_stopping(d)) { /* a Slurm run's end is seen by polling; SIGKILL on time */
            double kill_ms = (next_kill(d) - mls_wall_seconds()) * 1000 + 1;
            ms = ms > 5 ? 5 : ms;
            ms = kill_ms < ms ? (kill_ms > 0 ? (int)kill_ms : 0) : ms;
        }
        if (d->why)
            ms = 0;
        d->n_xfds = d->exec.ops->poll ? d->exec.ops->poll(&d->exec, d->xfds,
                                                          (int)(sizeof d->xfds / sizeof *d->xfds))
                                      : 0;
        if (serve_io(d, ms, 1))
            drain_signals(d);
    }
}

int live_serve(const live_config_t *cfg, mls_err_t *err)
{
    daemon_t d = {0};
    d.cfg = cfg;
    int rc = setup(&d, err);
    if (rc == 0) {
        logf_(&d, "serving %s on %s (policy %s, executor %s, time scale %g)",
              d.cluster.source, d.sock_path, d.policy->name, d.exec.ops->name, d.scale);
        loop(&d);
        logf_(&d, "%s", d.stop ? "stopped by signal; running jobs are left to the next daemon"
                              : "drained: every job has ended");
    }
    teardown(&d);
    return rc;
}
