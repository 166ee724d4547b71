/* fakejob.c: the synthetic job (see fakejob.h).
 *
 * Progress is integrated in small steps of wall time; a signalfd carries
 * SIGTERM/SIGINT (checkpoint and stop) and SIGCONT (a step that spans a
 * suspension is not counted), so there is no signal handler and no global.
 *
 * Space sharing: at every step the job looks at its pack file
 * ($MLSCHED_PACK_FILE, live/pack.h; a stat, read again only when it has
 * changed). With a partner it runs at its pair rate (the perf model's pair
 * entry read owner first, sim/view_perf.h, as the simulator rates a pair),
 * alone at its solo rate. A change that took effect at wall time `since`,
 * before the job saw it, is applied from `since`: the progress made since
 * then (at most the progress time since the previous change) is redone at
 * the new rate, so the daemon's reaction time does not show in the job's
 * progress; a job that was stopped (SIGSTOP) counts only the progress it
 * made before the stop. A malformed pack file is reported once and the job
 * goes on at its current rate.
 *
 * Goodput models (the pollux catalog): the job runs at the model's goodput
 * for its GPUs, nodes, batch and accumulation steps ($MLSCHED_ACCUM_STEPS)
 * at its progress, as the simulator rates it, and, like the simulator,
 * re-rates itself exactly at each epoch boundary (the gradient noise scale
 * changes there), reporting the noise scale it trains at (`gns`), which the
 * daemon gives the policy. A batch change carried out in place (its batch
 * file, $MLSCHED_BATCH_FILE, live/batch.h) re-rates it from the decision's
 * wall time `since`, as a pack change does. */
#include "cli/fakejob.h"

#include "cli/cmd.h"
#include "cli/opts.h"
#include "live/batch.h"
#include "live/pack.h"
#include "live/report.h"
#include "model/perf.h"
#include "sim/view_perf.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct fake {
    const char *workload, *throughputs, *checkpoint, *gpu_type;
    double work, scale, overhead, interval, fixed_rate;
    int gpus, nodes, batch;
    int ignore_term; /* --ignore-term: SIGTERM does not stop it (SIGKILL does) */
    int accum;      /* accumulation steps, -1: the model splits the batch */
    double seg_end; /* work at which a goodput model's rate changes next */
    double done;
    double launch; /* MLSCHED_LAUNCH_TIME, NAN when not given */
    mls_perf_t *pm; /* the perf model (NULL with --rate) */
    int pw, pt;     /* its workload and GPU type in pm */
    double solo;    /* work units per daemon s alone */
    double rate;    /* ... now (the pair rate while it has a partner) */
    double active;  /* wall s of progress since the rate last changed */
    double ticked;  /* wall (realtime) time progress was last counted up to: a
                       stopped job's clock stops there */
    const char *pack_file;
    live_pack_t pack;         /* what the pack file said last */
    struct timespec pack_mtime; /* the pack file last read: mtime, inode, size */
    ino_t pack_ino;
    off_t pack_size;
    const char *batch_file;      /* in-place batch changes (live/batch.h) */
    struct timespec batch_mtime; /* the batch file last read: mtime, inode, size */
    ino_t batch_ino;
    off_t batch_size;
} fake_t;

static double realtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define POSITIVE(n_, a_, f_, h_)                                                                   \
    OPT_NUM(OPT_DOUBLE, n_, 0, a_, fake_t, f_, 0, 1e300, OPT_ABOVE_LO, NULL, h_)
static const opt_t options[] = {
    OPT_STRING("workload", 0, "W", fake_t, workload,
               "perf-model workload (default $MLSCHED_WORKLOAD)"),
    POSITIVE("work", "N", work, "work units in all (default $MLSCHED_TOTAL_WORK)"),
    OPT_SHARED_THROUGHPUTS(fake_t, throughputs, "perf model (default: the bundled catalog)"),
    POSITIVE("rate", "R", fixed_rate, "work units per second, instead of the perf model"),
    POSITIVE("time-scale", "X", scale,
             "daemon seconds per wall second (default\n"
             "$MLSCHED_TIME_SCALE, else 1)"),
    POSITIVE("report-interval", "S", interval,
             "wall seconds between progress reports (default 0.5)"),
    OPT_FLAG("ignore-term", 0, fake_t, ignore_term,
             "go on after SIGTERM (a job that does not checkpoint:\n"
             "only the daemon's SIGKILL after its grace period ends it)"),
    OPT_END_ROW};
#undef POSITIVE

static const opt_cmd_t command = {
    .who = "live fake-job",
    .usage = "[--workload W] [--work N] [options]",
    .about = "A synthetic training job for the live runner: consumes N work units at the\n"
             "rate the perf model gives for its allocation, reports progress, obeys\n"
             "SIGTERM (checkpoint to $MLSCHED_CHECKPOINT, exit 143) and SIGSTOP/SIGCONT.",
    .opts = options,
    .footer = "GPUs: count of $CUDA_VISIBLE_DEVICES (else, or over several nodes,\n"
              "$MLSCHED_NUM_GPUS), type\n"
              "$MLSCHED_GPU_TYPE, nodes $MLSCHED_NUM_NODES, per-GPU batch\n"
              "$MLSCHED_BATCH_SIZE. Space sharing: $MLSCHED_PACK_FILE names the pack\n"
              "file the daemon keeps (see docs/live.md); with a partner the job runs at\n"
              "the perf model's pair rate, alone at its solo rate. Exit: 0 work done,\n"
              "143 checkpointed on SIGTERM, 1 failure, 2 usage.",
};

static double env_double(const char *k, double def)
{
    const char *v = getenv(k);
    double d;
    return v && mls_parse_double(v, &d) == 0 ? d : def;
}

/* Its GPUs: those CUDA_VISIBLE_DEVICES names, except over several nodes,
 * where that names only this node's (a Slurm job's batch step runs on the
 * first of its nodes) and $MLSCHED_NUM_GPUS counts them all. */
static int count_devices(int nodes)
{
    const char *v = getenv("CUDA_VISIBLE_DEVICES");
    if (!v || !*v || (nodes > 1 && getenv("MLSCHED_NUM_GPUS")))
        return (int)env_double("MLSCHED_NUM_GPUS", 1);
    int n = 1;
    for (; *v; v++)
        n += *v == ',';
    return n;
}

static int save_checkpoint(const fake_t *f)
{
    if (!f->checkpoint)
        return 0;
    mls_atomic_file_t af;
    mls_err_t err;
    if (mls_atomic_open(&af, f->checkpoint, &err) < 0) {
        fprintf(stderr, "fake-job: %s\n", err.msg);
        return -1;
    }
    fprintf(af.fp, "%.17g\n", f->done);
    if (mls_atomic_commit(&af, &err) < 0) {
        fprintf(stderr, "fake-job: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* Its rate under pack state pk: the pair rate with a partner (the solo rate
 * when the perf model has none, with a message), else the solo rate. */
static double pack_rate(const fake_t *f, const live_pack_t *pk)
{
    if (pk->partner < 0)
        return f->solo;
    int q = f->pm ? perf_workload_index(f->pm, pk->workload) : -1;
    double r[2];
    if (q >= 0 && view_perf_pair(f->pm, pk->owner ? f->pw : q, pk->owner ? q : f->pw, f->pt,
                                 f->gpus, r) == 0 &&
        r[pk->owner ? 0 : 1] > 0)
        return r[pk->owner ? 0 : 1];
    fprintf(stderr,
            "fake-job: %s: partner %lld (%s): %s; running at the solo rate\n", f->pack_file,
            (long long)pk->partner, pk->workload,
            !f->pm  ? "no perf model (--rate)"
            : q < 0 ? "a workload unknown to the perf model"
                    : "the perf model has no pair rate for it on these GPUs");
    return f->solo;
}

static void report(const fake_t *f, double rate)
{
    live_progress_t p = {-1, f->done, NAN, rate > 0 ? 1.0 / rate : NAN, f->batch, NAN, ""};
    if (f->pm && f->pm->ops->noise_scale && f->batch > 0) { /* as the simulator's job does */
        double total = (double)f->gpus * f->batch * (f->accum > 0 ? f->accum + 1 : 1);
        p.gns = f->pm->ops->noise_scale(f->pm, f->pw, total, f->done);
    }
    if (f->batch > 0)
        p.samples = f->done * f->batch * f->gpus;
    printf("mlsched-progress iter=%.0f samples=%.0f iter_time=%.6g batch=%d\n", f->done,
           isfinite(p.samples) ? p.samples : f->done, p.iter_time, f->batch);
    fflush(stdout);
    if (getenv("MLSCHED_SOCKET") && getenv("MLSCHED_JOB_ID"))
        live_report(NULL, &p, NULL); /* the daemon may be away: go on regardless */
}

/* The solo rate; keeps the perf model in f->pm for pair rates. */
static double rate_of(fake_t *f, mls_err_t *err)
{
    if (f->fixed_rate > 0)
        return f->fixed_rate;
    mls_perf_t *pm;
    char catalog[4096];
    const char *tp = f->throughputs ? f->throughputs : perf_default_catalog(catalog, sizeof catalog);
    if (perf_load(&pm, tp, err) < 0)
        return -1;
    int w = perf_workload_index(pm, f->workload);
    int t = perf_gpu_type_index(pm, f->gpu_type ? f->gpu_type : "v100");
    double r = w < 0 || t < 0          ? 0
               : pm->ops->goodput ? pm->ops->goodput(pm, w, t, f->gpus, f->nodes, f->batch,
                                                     f->accum, f->done)
                                  : perf_throughput(pm, w, t, f->gpus, f->nodes, f->batch);
    if (r > 0) {
        f->pm = pm;
        f->pw = w;
        f->pt = t;
        return r;
    }
    if (w < 0)
        mls_fail(err, "workload '%s': unknown to the perf model %s", f->workload, tp);
    else if (t < 0)
        mls_fail(err, "GPU type '%s': unknown to the perf model %s", f->gpu_type, tp);
    else if (!(r > 0))
        mls_fail(err, "workload '%s' has no throughput on %d %s GPUs", f->workload, f->gpus,
                 f->gpu_type);
    perf_free(pm);
    return r > 0 ? r : -1;
}

/* Waits up to `s` wall seconds for a signal; returns it, or 0. */
/* 1 when a SIGCONT waits to be read: the job was stopped (SIGSTOP) and has
 * just been woken. */
static int cont_pending(void)
{
    sigset_t pend;
    return sigpending(&pend) == 0 && sigismember(&pend, SIGCONT);
}

static int wait_signal(int sfd, double s)
{
    struct pollfd p = {sfd, POLLIN, 0};
    int ms = s > 0 ? (int)ceil(s * 1000) : 0;
    if (poll(&p, 1, ms) <= 0)
        return 0;
    struct signalfd_siginfo si;
    if (read(sfd, &si, sizeof si) != (ssize_t)sizeof si)
        return 0;
    return (int)si.ssi_signo;
}

/* Looks at the pack file; returns 1 when the rate changed (from pk.since). */
static int check_pack(fake_t *f)
{
    struct stat st;
    if (!f->pack_file || stat(f->pack_file, &st) < 0)
        return 0; /* none: it runs as it was started */
    if (st.st_ino == f->pack_ino && st.st_size == f->pack_size &&
        st.st_mtim.tv_sec == f->pack_mtime.tv_sec && st.st_mtim.tv_nsec == f->pack_mtime.tv_nsec)
        return 0;
    f->pack_ino = st.st_ino;
    f->pack_size = st.st_size;
    f->pack_mtime = st.st_mtim;
    live_pack_t pk;
    mls_err_t err;
    if (live_pack_read(f->pack_file, &pk, &err) < 0) {
        fprintf(stderr, "fake-job: %s; going on at the current rate\n", err.msg);
        return 0;
    }
    if (pk.partner == f->pack.partner && pk.owner == f->pack.owner &&
        !strcmp(pk.workload, f->pack.workload))
        return 0;
    double old = f->rate, back = f->ticked - pk.since;
    f->pack = pk;
    f->rate = pack_rate(f, &pk);
    if (!(back > 0))
        back = 0;
    if (back > f->active)
        back = f->active;
    f->done += (f->rate - old) * f->scale * back;
    if (f->done < 0)
        f->done = 0;
    f->active = back;
    return f->rate != old;
}

/* A goodput model's solo rate at the job's progress, and where it changes
 * next; the current rate follows unless a partner sets it. */
static void regoodput(fake_t *f)
{
    const perf_ops_t *ops = f->pm ? f->pm->ops : NULL;
    if (!ops || !ops->goodput) {
        f->seg_end = INFINITY;
        return;
    }
    double r = ops->goodput(f->pm, f->pw, f->pt, f->gpus, f->nodes, f->batch, f->accum, f->done);
    f->seg_end = ops->next_change ? ops->next_change(f->pm, f->pw, f->done) : INFINITY;
    if (!(r > 0))
        return; /* cannot run so: keep the last rate (reported by the daemon's view) */
    if (f->rate == f->solo)
        f->rate = r;
    f->solo = r;
}

/* dt wall seconds of progress, re-rated exactly at epoch boundaries; returns
 * 1 when it crossed one: its rate or the noise scale it reports changed
 * there (a batch at the workload's M0 trains at full efficiency whatever the
 * noise scale), and the simulator's view has the new one from the boundary,
 * so it is reported at once, not at the next report interval (0.5 wall s,
 * 50 daemon s at time scale 100, during which the daemon's view gave the
 * policy the previous epoch's noise scale). */
static int progress(fake_t *f, double dt)
{
    int changed = 0;
    while (dt > 0 && f->rate > 0) {
        double to_end = (f->seg_end - f->done) / (f->rate * f->scale);
        if (!(dt >= to_end) || f->seg_end >= f->work) {
            f->done += f->rate * f->scale * dt;
            break;
        }
        f->done = f->seg_end;
        dt -= to_end;
        regoodput(f);
        changed = 1;
        f->active = 0;
    }
    f->active += dt;
    return changed;
}

/* Looks at the batch file; returns 1 when the rate changed (from since). */
static int check_batch(fake_t *f)
{
    struct stat st;
    if (!f->batch_file || stat(f->batch_file, &st) < 0)
        return 0;
    if (st.st_ino == f->batch_ino && st.st_size == f->batch_size &&
        st.st_mtim.tv_sec == f->batch_mtime.tv_sec && st.st_mtim.tv_nsec == f->batch_mtime.tv_nsec)
        return 0;
    f->batch_ino = st.st_ino;
    f->batch_size = st.st_size;
    f->batch_mtime = st.st_mtim;
    live_batch_t b;
    mls_err_t err;
    if (live_batch_read(f->batch_file, &b, &err) < 0) {
        fprintf(stderr, "fake-job: %s; going on at the current batch\n", err.msg);
        return 0;
    }
    if (b.batch == f->batch && b.accum == f->accum)
        return 0;
    double old = f->rate, back = f->ticked - b.since;
    f->batch = b.batch;
    f->accum = b.accum;
    if (!(back > 0))
        back = 0;
    if (back > f->active)
        back = f->active;
    f->done -= old * f->scale * back; /* redone at the new rate from `since` */
    if (f->done < 0)
        f->done = 0;
    regoodput(f);
    f->active = 0;
    progress(f, back);
    return f->rate != old;
}

static int run(fake_t *f, int sfd)
{
    double overhead_left = f->overhead / f->scale;
    if (isfinite(f->launch)) /* the restore began when the daemon decided */
        overhead_left -= realtime() - f->launch;
    if (overhead_left < 0)
        overhead_left = 0;
    double last = mls_wall_seconds(), last_report = 0;
    f->ticked = realtime();
    for (;;) {
        double left_work = f->work - f->done;
        double step = overhead_left > 0 ? overhead_left : left_work / (f->rate * f->scale);
        if (step > 0.05)
            step = 0.05;
        int sig = wait_signal(sfd, step);
        if ((sig == SIGTERM || sig == SIGINT) && f->ignore_term)
            sig = 0;
        double now = mls_wall_seconds(), dt = now - last;
        last = now;
        if (sig == SIGCONT || ((sig == SIGTERM || sig == SIGINT) && dt > step + 0.1 &&
                               cont_pending()))
            dt = 0; /* it was stopped: that time does not count. A SIGTERM to a
                       stopped job is read before the SIGCONT that wakes it; the
                       local executor sends SIGCONT after every SIGTERM, so a
                       job that was not stopped (no gap in its steps) counts
                       its last step */
        else
            f->ticked = realtime();
        if (overhead_left > 0) {
            overhead_left -= dt;
            dt = overhead_left < 0 ? -overhead_left : 0;
        }
        int changed = progress(f, dt);
        changed |= check_batch(f);
        changed |= check_pack(f);
        if (f->done >= f->work - 1e-9 * f->work) {
            f->done = f->work;
            report(f, f->rate);
            if (f->checkpoint)
                unlink(f->checkpoint);
            return 0;
        }
        if (sig == SIGTERM || sig == SIGINT) {
            if (save_checkpoint(f) < 0)
                return MLS_EXIT_FAIL;
            report(f, f->rate);
            return 143;
        }
        if ((changed || now - last_report >= f->interval) && overhead_left <= 0) {
            report(f, f->rate);
            last_report = now;
        }
    }
}

static void load_checkpoint(fake_t *f)
{
    FILE *fp = f->checkpoint ? fopen(f->checkpoint, "r") : NULL;
    if (!fp)
        return;
    double v;
    if (fscanf(fp, "%lf", &v) == 1 && v >= 0 && v <= f->work)
        f->done = v;
    fclose(fp);
}

int live_fake_job_main(int argc, char **argv)
{
    fake_t f = {0};
    f.workload = getenv("MLSCHED_WORKLOAD");
    f.work = env_double("MLSCHED_TOTAL_WORK", NAN);
    f.scale = env_double("MLSCHED_TIME_SCALE", 1);
    f.overhead = env_double("MLSCHED_START_OVERHEAD", 0);
    f.launch = env_double("MLSCHED_LAUNCH_TIME", NAN);
    f.interval = 0.5;
    f.checkpoint = getenv("MLSCHED_CHECKPOINT");
    f.gpu_type = getenv("MLSCHED_GPU_TYPE");
    f.nodes = (int)env_double("MLSCHED_NUM_NODES", 1);
    f.batch = (int)env_double("MLSCHED_BATCH_SIZE", 0);
    f.accum = (int)env_double("MLSCHED_ACCUM_STEPS", -1);
    f.batch_file = getenv("MLSCHED_BATCH_FILE");
    f.seg_end = INFINITY;
    f.gpus = count_devices(f.nodes);
    f.pack_file = getenv("MLSCHED_PACK_FILE");
    f.pack = (live_pack_t){.partner = -1, .since = NAN};
    int rc = opt_parse_only(&command, &f, argc, argv);
    if (rc)
        return rc < 0 ? MLS_EXIT_OK : rc;
    if ((!f.workload && !(f.fixed_rate > 0)) || !(f.work > 0) || !(f.scale > 0) || f.gpus < 1 ||
        f.nodes < 1)
        return cmd_usage_error("live fake-job", "%s",
                               "needs --workload (or --rate), --work > 0, and at least one GPU");
    mls_err_t err;
    load_checkpoint(&f);
    f.solo = f.rate = rate_of(&f, &err);
    if (f.rate <= 0) {
        fprintf(stderr, "fake-job: %s\n", err.msg);
        return MLS_EXIT_FAIL;
    }
    regoodput(&f);
    check_batch(&f); /* as it starts: no progress yet to redo */
    check_pack(&f); /* the partner it starts with: no progress yet to redo */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGCONT);
    sigprocmask(SIG_BLOCK, &set, NULL);
    int sfd = signalfd(-1, &set, SFD_CLOEXEC);
    if (sfd < 0) {
        fprintf(stderr, "fake-job: signalfd: %s\n", strerror(errno));
        if (f.pm)
            perf_free(f.pm);
        return MLS_EXIT_FAIL;
    }
    rc = run(&f, sfd);
    close(sfd);
    if (f.pm)
        perf_free(f.pm);
    return rc;
}
