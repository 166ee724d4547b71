/* runner.c: a fork/exec process pool with piped, parsed output (see
 * runner.h). One poll() loop watches every running child's two pipes; a
 * child is reaped once both pipes reach end of file. Pipes are close-on-exec
 * so a child inherits only its own. */
#include "sim/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define ERR_KEEP 8192

void runner_task_init(runner_task_t *t, const char *name, char *const *argv)
{
    memset(t, 0, sizeof *t);
    size_t n = 0;
    while (argv[n])
        n++;
    t->argv = xcalloc(n + 1, sizeof *t->argv);
    for (size_t i = 0; i < n; i++)
        t->argv[i] = xstrdup(argv[i]);
    t->name = xstrdup(name);
    t->fd_out = t->fd_err = -1;
    t->status = -1;
}

void runner_task_free(runner_task_t *t)
{
    for (size_t i = 0; t->argv && t->argv[i]; i++)
        free(t->argv[i]);
    free(t->argv);
    free(t->name);
    free(t->out);
    free(t->err);
    memset(t, 0, sizeof *t);
}

int runner_parse_progress(const char *line, double *hours, long *done, long *total)
{
    long active;
    char h;
    return sscanf(line, "simulate: t=%lf %c, %ld/%ld jobs done, %ld active", hours, &h, done, total,
                  &active) == 5 &&
                   h == 'h'
               ? 0
               : -1;
}

int runner_self_exe(char *buf, size_t len, mls_err_t *err)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n < 0)
        return mls_fail(err, "/proc/self/exe: cannot find this program: %s", strerror(errno));
    buf[n] = '\0';
    return 0;
}

static void append(char **buf, size_t *len, size_t *cap, const char *data, size_t n)
{
    xgrow((void **)buf, cap, *len + n + 1, 1);
    memcpy(*buf + *len, data, n);
    *len += n;
    (*buf)[*len] = '\0';
}

/* Keeps a stderr line unless it is a progress line; keeps the last ERR_KEEP bytes. */
static void err_line(runner_task_t *t, const char *line, size_t n)
{
    double h;
    long d, tot;
    if (runner_parse_progress(line, &h, &d, &tot) == 0) {
        t->sim_hours = h;
        t->jobs_done = d;
        t->jobs_total = tot;
        return;
    }
    append(&t->err, &t->err_len, &t->err_cap, line, n);
    append(&t->err, &t->err_len, &t->err_cap, "\n", 1);
    if (t->err_len > ERR_KEEP) {
        size_t drop = t->err_len - ERR_KEEP;
        memmove(t->err, t->err + drop, t->err_len - drop + 1);
        t->err_len -= drop;
    }
}

static void err_data(runner_task_t *t, const char *data, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (data[i] == '\n' || t->line_len == sizeof t->line - 1) {
            t->line[t->line_len] = '\0';
            err_line(t, t->line, t->line_len);
            t->line_len = 0;
            if (data[i] == '\n')
                continue;
        }
        t->line[t->line_len++] = data[i];
    }
}

static int cloexec_pipe(int fd[2])
{
    if (pipe(fd) < 0)
        return -1;
    fcntl(fd[0], F_SETFD, FD_CLOEXEC);
    fcntl(fd[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

static void child(const char *exe, char **argv, int out, int errfd)
{
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0)
        dup2(null, 0);
    dup2(out, 1);
    dup2(errfd, 2);
    signal(SIGPIPE, SIG_DFL);
    if (strchr(exe, '/'))
        execv(exe, argv);
    else
        execvp(exe, argv); /* a plain name (sbatch, squeue): search PATH */
    dprintf(2, "cannot run %s: %s\n", exe, strerror(errno));
    _exit(127);
}

static int start(runner_task_t *t, const char *exe, mls_err_t *err)
{
    int po[2], pe[2];
    if (cloexec_pipe(po) < 0)
        return mls_fail(err, "pipe: %s", strerror(errno));
    if (cloexec_pipe(pe) < 0) {
        close(po[0]);
        close(po[1]);
        return mls_fail(err, "pipe: %s", strerror(errno));
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
        return mls_fail(err, "fork: %s", strerror(errno));
    }
    if (pid == 0)
        child(exe, t->argv, po[1], pe[1]);
    close(po[1]);
    close(pe[1]);
    t->pid = pid;
    t->fd_out = po[0];
    t->fd_err = pe[0];
    t->state = TASK_RUNNING;
    t->start = mls_wall_seconds();
    return 0;
}

static void reap(runner_task_t *t)
{
    int ws = 0;
    while (waitpid(t->pid, &ws, 0) < 0 && errno == EINTR)
        ;
    t->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : 1;
    if (t->line_len) {
        t->line[t->line_len] = '\0';
        err_line(t, t->line, t->line_len);
        t->line_len = 0;
    }
    t->wall = mls_wall_seconds() - t->start;
    t->state = TASK_DONE;
}

/* Reads what is there on fd; closes it at end of file. */
static void drain(runner_task_t *t, int *fd, int is_err)
{
    char buf[4096];
    ssize_t n = read(*fd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        close(*fd);
        *fd = -1;
        return;
    }
    if (is_err)
        err_data(t, buf, (size_t)n);
    else
        append(&t->out, &t->out_len, &t->out_cap, buf, (size_t)n);
}

typedef struct pool {
    runner_task_t *tasks;
    size_t n, next, running, failed;
    struct pollfd *pfd;
    size_t *owner;
} pool_t;

static size_t fill_pollfds(pool_t *p)
{
    size_t k = 0;
    for (size_t i = 0; i < p->n; i++) {
        runner_task_t *t = &p->tasks[i];
        if (t->state != TASK_RUNNING)
            continue;
        int fds[2] = {t->fd_out, t->fd_err};
        for (int j = 0; j < 2; j++)
            if (fds[j] >= 0) {
                p->pfd[k].fd = fds[j];
                p->pfd[k].events = POLLIN;
                p->pfd[k].revents = 0;
                p->owner[k++] = i;
            }
    }
    return k;
}

/* One poll round; returns the number of tasks that ended. */
static int poll_once(pool_t *p, int timeout_ms)
{
    size_t k = fill_pollfds(p);
    if (poll(p->pfd, (nfds_t)k, timeout_ms) < 0 && errno != EINTR)
        return 0;
    int ended = 0;
    for (size_t i = 0; i < k; i++) {
        if (!p->pfd[i].revents)
            continue;
        runner_task_t *t = &p->tasks[p->owner[i]];
        if (p->pfd[i].fd == t->fd_out)
            drain(t, &t->fd_out, 0);
        else if (p->pfd[i].fd == t->fd_err)
            drain(t, &t->fd_err, 1);
        if (t->fd_out < 0 && t->fd_err < 0 && t->state == TASK_RUNNING) {
            reap(t);
            p->running--;
            p->failed += t->status != 0;
            ended++;
        }
    }
    return ended;
}

int runner_run(runner_task_t *tasks, size_t n, const runner_opts_t *o, mls_err_t *err)
{
    int jobs = o->jobs > 0 ? o->jobs : 1;
    double tick = o->tick > 0 ? o->tick : 1.0;
    pool_t p = {tasks,
                n,
                0,
                0,
                0,
                xcalloc(2 * (size_t)jobs, sizeof(struct pollfd)),
                xcalloc(2 * (size_t)jobs, sizeof(size_t))};
    double t0 = mls_wall_seconds(), last_cb = t0;
    int rc = 0;
    while (p.next < n || p.running > 0) {
        while (p.next < n && p.running < (size_t)jobs && rc == 0) {
            rc = start(&tasks[p.next], o->exe, err);
            p.next += rc == 0;
            p.running += rc == 0;
        }
        if (rc < 0 && p.running == 0)
            break;
        double now = mls_wall_seconds();
        int wait_ms = (int)(1000 * (last_cb + tick - now));
        int ended = poll_once(&p, wait_ms > 0 ? wait_ms : 0);
        now = mls_wall_seconds();
        if (o->cb && (ended || now - last_cb >= tick)) {
            o->cb(o->ctx, tasks, n, now - t0);
            last_cb = now;
        }
    }
    free(p.pfd);
    free(p.owner);
    return rc < 0 ? -1 : (int)p.failed;
}

int runner_capture(const char *exe, char *const *argv, char **out, char **errtext, int *status,
                   mls_err_t *err)
{
    runner_task_t t;
    runner_task_init(&t, argv[0], argv);
    runner_opts_t o = {exe, 1, 3600, NULL, NULL};
    int rc = runner_run(&t, 1, &o, err);
    if (rc >= 0) {
        *status = t.status;
        if (out)
            *out = t.out ? t.out : xstrdup(""), t.out = NULL;
        if (errtext)
            *errtext = t.err ? t.err : xstrdup(""), t.err = NULL;
    }
    runner_task_free(&t);
    return rc < 0 ? -1 : 0;
}
