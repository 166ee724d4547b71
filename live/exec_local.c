/* exec_local.c: the local executor — jobs are processes on this machine.
 *
 * No shell: the job's argv is exec'd as given (execvp looks the program up in
 * PATH), so no argument is ever interpreted. Between the daemon and the job
 * sits a small watcher process (fork, setsid, fork again): it makes the job's
 * session and process group, waits for the job and writes the job's exit status and time
 * to run_dir/job-ID-ATTEMPT.exit before it exits. The watcher outlives the
 * daemon, so a daemon killed by SIGKILL finds on restart either the watcher
 * still alive (the job is re-adopted: /proc/PID/stat start time matches) or
 * the exit file saying how the job ended. Signals go to the whole group; the
 * watcher ignores SIGTERM/SIGINT/SIGHUP so only the job acts on them. The
 * watcher's session and group are its own setsid()'s, never a setpgid() by
 * the daemon: a group the daemon made would stay in the daemon's session
 * (setsid then fails), and when the daemon dies the kernel sends SIGHUP to
 * such a group, now orphaned, if it holds a stopped process: a job suspended
 * by time-slicing would die with the daemon instead of waiting, stopped, for
 * the next one. A signal sent before the new watcher's setsid() waits for it
 * (a few ms at most); the start itself does not. */
#include "live/executor.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void live_job_path(char *buf, size_t len, const char *run_dir, const live_job_t *j,
                   const char *suffix)
{
    if (!strcmp(suffix, "ckpt") || !strcmp(suffix, "log"))
        snprintf(buf, len, "%s/job-%lld.%s", run_dir, (long long)j->id, suffix);
    else
        snprintf(buf, len, "%s/job-%lld-%d.%s", run_dir, (long long)j->id, j->attempt, suffix);
}

/* Field 22 of /proc/PID/stat: start time in clock ticks since boot; 0 when
 * the process does not exist. */
unsigned long long live_proc_start_time(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    if (!p || p[1] == '\0' || p[2] == 'Z' || p[2] == 'X')
        return 0; /* a zombie has ended */
    unsigned long long start = 0;
    /* after ')': state(3) ... starttime(22) -> skip 19 fields */
    p++;
    for (int field = 3; field < 22 && p; field++)
        p = strchr(p + 1, ' ');
    if (p)
        sscanf(p, " %llu", &start);
    return start;
}

static void set_env_int(const char *k, long v)
{
    char b[32];
    snprintf(b, sizeof b, "%ld", v);
    setenv(k, b, 1);
}

static void set_env_double(const char *k, double v)
{
    char b[64];
    snprintf(b, sizeof b, "%.17g", v);
    setenv(k, b, 1);
}

/* In the child, before exec: the job's environment (see report.h). */
void live_job_environment(const live_job_t *j, const live_launch_t *l)
{
    char ids[4096], path[4096];
    size_t k = 0;
    ids[0] = '\0';
    for (int i = 0; i < j->ngpus && k + 12 < sizeof ids; i++)
        k += (size_t)snprintf(ids + k, sizeof ids - k, "%s%d", i ? "," : "", j->gpu_ids[i]);
    setenv("CUDA_VISIBLE_DEVICES", ids, 1);
    set_env_int("MLSCHED_JOB_ID", (long)j->id);
    setenv("MLSCHED_SOCKET", l->socket, 1);
    set_env_int("MLSCHED_NUM_GPUS", j->ngpus);
    set_env_int("MLSCHED_NUM_NODES", j->nodes);
    setenv("MLSCHED_GPU_TYPE", l->gpu_type, 1);
    setenv("MLSCHED_NODE", l->node_name, 1);
    set_env_int("MLSCHED_BATCH_SIZE", j->batch);
    set_env_int("MLSCHED_ACCUM_STEPS", j->accum);
    set_env_int("MLSCHED_ATTEMPT", j->attempt);
    if (l->token)
        setenv("MLSCHED_TOKEN", l->token, 1);
    setenv("MLSCHED_WORKLOAD", j->spec.workload, 1);
    set_env_double("MLSCHED_TOTAL_WORK", j->spec.work);
    set_env_double("MLSCHED_TIME_SCALE", l->time_scale);
    set_env_double("MLSCHED_START_OVERHEAD", l->start_overhead);
    set_env_double("MLSCHED_LAUNCH_TIME", l->launch_time);
    live_job_path(path, sizeof path, l->run_dir, j, "ckpt");
    setenv("MLSCHED_CHECKPOINT", path, 1);
    /* space sharing (live/pack.h): the partner it starts with, and the file
     * that says whenever the partner changes */
    live_job_path(path, sizeof path, l->run_dir, j, "pack");
    setenv("MLSCHED_PACK_FILE", path, 1);
    /* in-place batch changes (live/batch.h) */
    live_job_path(path, sizeof path, l->run_dir, j, "batch");
    setenv("MLSCHED_BATCH_FILE", path, 1);
    if (j->partner >= 0)
        set_env_int("MLSCHED_PACK_WITH", (long)j->partner);
    else
        unsetenv("MLSCHED_PACK_WITH");
}

static void write_small(const char *path, const char *text)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    ssize_t w = write(fd, text, strlen(text));
    fsync(fd);
    close(fd);
    if (w == (ssize_t)strlen(text))
        rename(tmp, path);
}

/* The watcher: runs the job, records how it ended. Never returns. */
static void watcher(live_job_t *j, const live_launch_t *l)
{
    char path[4096], text[128];
    setsid();
    for (int fd = 3; fd < 1024; fd++)
        close(fd);
    snprintf(text, sizeof text, "%d %llu\n", (int)getpid(), live_proc_start_time(getpid()));
    live_job_path(path, sizeof path, l->run_dir, j, "pid");
    write_small(path, text);
    signal(SIGTERM, SIG_IGN);
    signal(SIGINT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    live_job_path(path, sizeof path, l->run_dir, j, "log");
    int logfd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    int devnull = open("/dev/null", O_RDWR);
    if (devnull >= 0) /* hold none of the daemon's terminal or pipes */
        dup2(devnull, 0);
    if (logfd >= 0) {
        dup2(logfd, 1);
        dup2(logfd, 2);
    }
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGTERM, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        live_job_environment(j, l);
        execvp(j->spec.argv[0], j->spec.argv);
        fprintf(stderr, "mlsched live: cannot run '%s': %s\n", j->spec.argv[0],
                strerror(errno));
        _exit(127);
    }
    int st = 0, code = 127;
    while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (pid > 0)
        code = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(text, sizeof text, "%d %.6f\n", code, (double)ts.tv_sec + ts.tv_nsec * 1e-9);
    live_job_path(path, sizeof path, l->run_dir, j, "exit");
    write_small(path, text);
    _exit(code);
}

static int local_start(live_exec_t *x, live_job_t *j, const live_launch_t *l, mls_err_t *err)
{
    (void)x;
    char path[4096];
    live_job_path(path, sizeof path, l->run_dir, j, "exit");
    unlink(path);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return mls_fail(err, "job %lld: fork: %s", (long long)j->id, strerror(errno));
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL); /* the daemon blocks signals for signalfd */
        watcher(j, l);
    }
    j->pid = pid; /* no setpgid here: it would keep the watcher in our session */
    j->pid_start = live_proc_start_time(pid);
    return 0;
}

static void local_signal(live_exec_t *x, live_job_t *j, int sig)
{
    (void)x;
    if (j->pid <= 0)
        return;
    if (j->pid_start && live_proc_start_time(j->pid) != j->pid_start)
        return; /* gone, and the pid may be someone else's now */
    /* a watcher just forked may not have made its group yet (setsid) */
    pid_t g;
    for (int i = 0; i < 200 && (g = getpgid(j->pid)) >= 0 && g != j->pid; i++) {
        struct timespec ts = {0, 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    kill(-j->pid, sig);
    if (sig == SIGTERM || sig == SIGKILL)
        kill(-j->pid, SIGCONT); /* a suspended job must run to act on it */
}

/* The exit file's status; -1 when absent. */
static int read_exit_file(const char *run_dir, const live_job_t *j, double *when)
{
    char path[4096];
    live_job_path(path, sizeof path, run_dir, j, "exit");
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int code = -1;
    if (fscanf(f, "%d %lf", &code, when) != 2)
        code = -1;
    fclose(f);
    return code;
}

static int local_ended(live_exec_t *x, live_job_t *j, const char *run_dir, int *status,
                       double *when)
{
    (void)x;
    *when = NAN;
    if (j->pid <= 0) {
        *status = read_exit_file(run_dir, j, when);
        return 1;
    }
    int st;
    pid_t r = waitpid(j->pid, &st, WNOHANG);
    if (r == j->pid) {
        int code = read_exit_file(run_dir, j, when);
        if (code < 0)
            code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        *status = code;
        return 1;
    }
    if (r == 0)
        return 0;
    /* Not our child (adopted after a restart): ended once its watcher has
     * written the exit file (just before it exits: the daemon, woken by the
     * file, need not wait for init to reap it), else alive while its start
     * time matches. */
    int code = read_exit_file(run_dir, j, when);
    if (code >= 0) {
        *status = code;
        return 1;
    }
    *when = NAN;
    unsigned long long now = live_proc_start_time(j->pid);
    if (now && (!j->pid_start || now == j->pid_start))
        return 0;
    *status = read_exit_file(run_dir, j, when);
    return 1;
}

static void local_destroy(live_exec_t *x)
{
    (void)x;
}

static const live_exec_ops_t local_ops = {.name = "local",
                                          .start = local_start,
                                          .signal = local_signal,
                                          .ended = local_ended,
                                          .destroy = local_destroy};

int live_exec_local(live_exec_t *x, mls_err_t *err)
{
    (void)err;
    x->ops = &local_ops;
    x->ctx = NULL;
    return 0;
}
