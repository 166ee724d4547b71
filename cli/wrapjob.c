/* wrapjob.c: `mlsched live wrap` — a real training command as a live job.
 *
 * The daemon runs jobs that report their progress, checkpoint on SIGTERM and
 * exit 0 once their work is done (docs/live.md). A training command that only
 * prints progress lines (the protocol of profiler/README.md, as
 * `mlsched-gpu-bench WORKLOAD --progress B --iters -1` does) becomes such a job
 * under this wrapper. It runs the command (no shell; "{batch}" and "{gpus}" in
 * its arguments become $MLSCHED_BATCH_SIZE and the GPU count), reads its
 * stdout and stderr line by line, passes every line on to its own stdout (the
 * job's log), counts the work each progress line completes and reports the
 * total to the daemon:
 * - Work is counted in samples (the growth of `samples=`, else iterations x
 *   batch x GPUs), the curves backend's unit, or in iterations with
 *   `--unit iters` (the table backend's).
 * - Done: once the count reaches $MLSCHED_TOTAL_WORK, the command is stopped
 *   (SIGTERM, SIGKILL after --kill-after s), the count is saved to
 *   $MLSCHED_CHECKPOINT and the wrapper exits 0.
 * - Preempted (SIGTERM or SIGINT): the command is stopped the same way, the
 *   work of its completed iterations is saved, exit 143. The next run resumes
 *   the count from the checkpoint while the command starts afresh: it models
 *   a job whose checkpoint restores at the cost of the command's real
 *   start-up (process, CUDA context, set-up), which is printed on stderr as
 *   the time to the first progress line.
 * - The command ending before the work is done is a failure (exit 1, naming
 *   its exit status and the work done).
 * Signals arrive through a signalfd: no handler, no global. The command stays
 * in the wrapper's process group, so the daemon's SIGSTOP/SIGCONT (suspend
 * mode) reach it too. */
#include "cli/wrapjob.h"

#include "cli/cmd.h"
#include "cli/opts.h"
#include "live/report.h"
#include "profiler/progress.h"
#include "profiler/wrap.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

enum { LINE_MAX_BYTES = 65536 };

typedef struct wjob {
    const char *unit, *checkpoint;
    double work, interval, kill_after;
    int batch, gpus, iters_unit;
    double done;         /* work units done, the checkpoint's included */
    double last_iter;    /* the command's last iteration number (this run) */
    double last_samples; /* ... and its samples count, NAN before the first */
    double unit_time;    /* s per work unit at the last line, NAN before */
    double started, reported;
    int seen_progress;
    pid_t pid;
    int out; /* the command's stdout and stderr */
    char line[LINE_MAX_BYTES];
    size_t used;
} wjob_t;

static const opt_t options[] = {
    OPT_NUM(OPT_DOUBLE, "work", 'n', "N", wjob_t, work, 0, 1e300, OPT_ABOVE_LO, NULL,
            "work units in all (default $MLSCHED_TOTAL_WORK)"),
    OPT_STRING("unit", 'u', "UNIT", wjob_t, unit,
               "samples (default: the curves backend's unit) or\n"
               "iters (the table backend's)"),
    OPT_NUM(OPT_DOUBLE, "report-interval", 0, "S", wjob_t, interval, 0, 1e300, 0, NULL,
            "wall seconds between progress reports (default 0.5)"),
    OPT_NUM(OPT_DOUBLE, "kill-after", 0, "S", wjob_t, kill_after, 0, 1e300, 0, NULL,
            "wall seconds from SIGTERM to SIGKILL when the\n"
            "command is stopped (default 5)"),
    OPT_END_ROW};

static const opt_cmd_t command = {
    .who = "live wrap",
    .usage = "[--work N] [--unit samples|iters] -- PROG [ARG...]",
    .about = "Runs a training command that prints progress lines (profiler/README.md) as\n"
             "a live job: counts the work its lines complete, reports it to the daemon,\n"
             "stops the command once $MLSCHED_TOTAL_WORK is done (exit 0), and on SIGTERM\n"
             "saves the work done to $MLSCHED_CHECKPOINT (exit 143); the next run resumes\n"
             "the count. {batch} and {gpus} in the arguments become the job's per-GPU\n"
             "batch and GPU count. For example:\n"
             "  mlsched live submit --workload cudnn-resnet50-224-fp32 --gpus 1 --batch 64 \\\n"
             "      --work 64000 -- mlsched live wrap -- mlsched-gpu-bench resnet \\\n"
             "      --no-self-test --progress {batch} --iters -1",
    .opts = options,
    .footer = "Exit: 0 work done, 143 checkpointed on SIGTERM, 1 the command failed or\n"
              "ended early, 2 usage.",
    .flags = OPT_STOP_AT_ARG,
};

static double env_number(const char *k, double def)
{
    const char *v = getenv(k);
    double d;
    return v && mls_parse_double(v, &d) == 0 ? d : def;
}

static int gpu_count(void)
{
    const char *v = getenv("CUDA_VISIBLE_DEVICES");
    if (!v || !*v)
        return (int)env_number("MLSCHED_NUM_GPUS", 1);
    int n = 1;
    for (; *v; v++)
        n += *v == ',';
    return n;
}

static void load_checkpoint(wjob_t *w)
{
    FILE *fp = w->checkpoint ? fopen(w->checkpoint, "r") : NULL;
    if (!fp)
        return;
    double v;
    if (fscanf(fp, "%lf", &v) == 1 && v >= 0)
        w->done = v < w->work ? v : w->work;
    fclose(fp);
}

static int save_checkpoint(const wjob_t *w)
{
    if (!w->checkpoint)
        return 0;
    mls_atomic_file_t af;
    mls_err_t err;
    if (mls_atomic_open(&af, w->checkpoint, &err) < 0) {
        fprintf(stderr, "mlsched live wrap: %s\n", err.msg);
        return -1;
    }
    fprintf(af.fp, "%.17g\n", w->done);
    if (mls_atomic_commit(&af, &err) < 0) {
        fprintf(stderr, "mlsched live wrap: %s\n", err.msg);
        return -1;
    }
    return 0;
}

static void report(wjob_t *w)
{
    w->reported = mls_wall_seconds();
    if (!getenv("MLSCHED_SOCKET") || !getenv("MLSCHED_JOB_ID"))
        return;
    live_progress_t p = {-1, w->done, w->iters_unit ? NAN : w->done, w->unit_time, w->batch,
                         NAN, ""};
    live_report(NULL, &p, NULL); /* the daemon may be away: go on regardless */
}

/* The work one progress line completes; NAN when it says nothing new. */
static double line_work(wjob_t *w, const progress_line_t *pl)
{
    if (!pl->has[PG_ITER])
        return NAN;
    double iter = pl->value[PG_ITER], d_iter = iter - w->last_iter;
    if (!(d_iter > 0))
        return NAN; /* a repeated line (several ranks) or a restarted count */
    double units = d_iter;
    if (!w->iters_unit) {
        if (pl->has[PG_SAMPLES] && isfinite(w->last_samples))
            units = pl->value[PG_SAMPLES] - w->last_samples;
        else if (pl->has[PG_SAMPLES] && w->last_iter == 0)
            units = pl->value[PG_SAMPLES];
        else
            units = d_iter *
                    (pl->has[PG_BATCH] ? pl->value[PG_BATCH] : w->batch > 0 ? w->batch : 1) *
                    w->gpus;
    }
    w->last_iter = iter;
    if (pl->has[PG_SAMPLES])
        w->last_samples = pl->value[PG_SAMPLES];
    double t = progress_iter_time(pl);
    if (t > 0 && units > 0)
        w->unit_time = t / (units / d_iter);
    return units;
}

/* 1 when the work is done, -1 on a malformed progress line, else 0. */
static int on_line(wjob_t *w, const char *line)
{
    fputs(line, stdout);
    fputc('\n', stdout);
    progress_line_t pl;
    mls_err_t err;
    int k = progress_parse(line, &pl, &err);
    if (k < 0) {
        fprintf(stderr, "mlsched live wrap: %s\n", err.msg);
        return -1;
    }
    double units = k ? line_work(w, &pl) : NAN;
    if (!(units > 0))
        return 0;
    if (!w->seen_progress) {
        w->seen_progress = 1;
        fprintf(stderr, "mlsched live wrap: first progress %.3f s after the start\n",
                mls_wall_seconds() - w->started);
    }
    w->done += units;
    if (w->done >= w->work) {
        w->done = w->work;
        return 1;
    }
    if (mls_wall_seconds() - w->reported >= w->interval)
        report(w);
    return 0;
}

/* Reads what the command wrote: 1 work done, 0 more to come, -1 end of its
 * output, -2 malformed progress. */
static int pump(wjob_t *w)
{
    ssize_t n = read(w->out, w->line + w->used, sizeof w->line - 1 - w->used);
    if (n < 0)
        return errno == EINTR || errno == EAGAIN ? 0 : -1;
    if (n == 0) {
        if (w->used) { /* a last line without its newline */
            w->line[w->used] = 0;
            w->used = 0;
            int k = on_line(w, w->line);
            if (k)
                return k > 0 ? 1 : -2;
        }
        return -1;
    }
    w->used += (size_t)n;
    size_t start = 0;
    for (size_t i = 0; i < w->used; i++) {
        if (w->line[i] != '\n')
            continue;
        w->line[i] = 0;
        int k = on_line(w, w->line + start);
        start = i + 1;
        if (k)
            return k > 0 ? 1 : -2;
    }
    memmove(w->line, w->line + start, w->used - start);
    w->used -= start;
    if (w->used == sizeof w->line - 1) { /* an over-long line: passed on in pieces */
        w->line[w->used] = 0;
        fputs(w->line, stdout);
        w->used = 0;
    }
    return 0;
}

static int spawn(wjob_t *w, char **argv, const sigset_t *blocked)
{
    int fd[2];
    if (pipe(fd) < 0) {
        perror("mlsched live wrap: pipe");
        return -1;
    }
    fflush(stdout);
    w->started = mls_wall_seconds();
    w->pid = fork();
    if (w->pid < 0) {
        perror("mlsched live wrap: fork");
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (w->pid == 0) {
        sigprocmask(SIG_UNBLOCK, blocked, NULL);
        dup2(fd[1], STDOUT_FILENO);
        dup2(fd[1], STDERR_FILENO);
        close(fd[0]);
        close(fd[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "mlsched live wrap: %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    w->out = fd[0];
    return 0;
}

/* Stops the command (SIGTERM, then SIGKILL after kill_after s) and reaps it. */
static void stop_command(const wjob_t *w)
{
    int st = 0;
    kill(w->pid, SIGTERM);
    double until = mls_wall_seconds() + w->kill_after;
    while (waitpid(w->pid, &st, WNOHANG) == 0) {
        if (mls_wall_seconds() >= until) {
            kill(w->pid, SIGKILL);
            waitpid(w->pid, &st, 0);
            break;
        }
        usleep(10000);
    }
}

static void describe(int st, char *buf, size_t n)
{
    if (WIFEXITED(st))
        snprintf(buf, n, "exited with status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        snprintf(buf, n, "was killed by signal %d", WTERMSIG(st));
    else
        snprintf(buf, n, "ended");
}

/* After the command's output ended: the exit code. A SIGTERM that reached the
 * whole process group may be read here after the command already died of it. */
static int after_output(wjob_t *w, int sfd)
{
    int st;
    while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (w->done >= w->work) {
        save_checkpoint(w);
        report(w);
        return MLS_EXIT_OK;
    }
    struct pollfd p = {sfd, POLLIN, 0};
    struct signalfd_siginfo si;
    while (poll(&p, 1, WIFSIGNALED(st) ? 500 : 0) > 0 && read(sfd, &si, sizeof si) == sizeof si)
        if (si.ssi_signo == SIGTERM || si.ssi_signo == SIGINT) {
            save_checkpoint(w);
            report(w);
            return 143;
        }
    char how[64];
    describe(st, how, sizeof how);
    fprintf(stderr, "mlsched live wrap: the command %s after %.17g of %.17g work units\n", how,
            w->done, w->work);
    save_checkpoint(w);
    report(w);
    return MLS_EXIT_FAIL;
}

static int run(wjob_t *w, char **argv)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigprocmask(SIG_BLOCK, &set, NULL);
    int sfd = signalfd(-1, &set, SFD_CLOEXEC);
    if (sfd < 0) {
        perror("mlsched live wrap: signalfd");
        return MLS_EXIT_FAIL;
    }
    if (spawn(w, argv, &set) < 0) {
        close(sfd);
        return MLS_EXIT_FAIL;
    }
    int rc = -1;
    while (rc < 0) {
        struct pollfd p[2] = {{w->out, POLLIN, 0}, {sfd, POLLIN, 0}};
        if (poll(p, 2, -1) < 0 && errno != EINTR)
            break;
        if (p[1].revents & POLLIN) {
            struct signalfd_siginfo si;
            if (read(sfd, &si, sizeof si) == sizeof si) {
                stop_command(w);
                save_checkpoint(w);
                report(w);
                rc = 143;
                break;
            }
        }
        if (!(p[0].revents & (POLLIN | POLLHUP)))
            continue;
        int k = pump(w);
        if (k == 1 || k == -2) {
            stop_command(w);
            save_checkpoint(w);
            report(w);
            rc = k == 1 ? MLS_EXIT_OK : MLS_EXIT_FAIL;
        } else if (k == -1)
            rc = after_output(w, sfd);
    }
    if (rc < 0)
        rc = MLS_EXIT_FAIL;
    close(w->out);
    close(sfd);
    fflush(stdout);
    return rc;
}

int live_wrap_main(int argc, char **argv)
{
    wjob_t w = {0};
    w.work = env_number("MLSCHED_TOTAL_WORK", NAN);
    w.checkpoint = getenv("MLSCHED_CHECKPOINT");
    w.batch = (int)env_number("MLSCHED_BATCH_SIZE", 0);
    w.gpus = gpu_count();
    w.interval = 0.5;
    w.kill_after = 5;
    w.last_samples = NAN;
    w.unit_time = NAN;
    int first, rc = opt_parse(&command, &w, argc, argv, &first);
    if (rc)
        return rc < 0 ? MLS_EXIT_OK : rc;
    if (w.unit && strcmp(w.unit, "samples") && strcmp(w.unit, "iters"))
        return cmd_usage_error("live wrap", "--unit wants samples or iters, got '%s'", w.unit);
    w.iters_unit = w.unit && !strcmp(w.unit, "iters");
    if (!(w.work > 0) || first >= argc || w.gpus < 1)
        return cmd_usage_error("live wrap", "%s",
                               "needs --work > 0 (or $MLSCHED_TOTAL_WORK) and -- PROG [ARG...]");
    load_checkpoint(&w);
    if (w.done >= w.work) {
        report(&w);
        return MLS_EXIT_OK;
    }
    char **args = wrap_expand_argv(argv + first, w.batch, w.gpus, 0);
    rc = run(&w, args);
    wrap_free_argv(args);
    return rc;
}
