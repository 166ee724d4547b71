/* wrap.c: run a training command at one point and measure its iterations (see
 * wrap.h). One loop: poll the command's two pipes (100 ms ticks, also the NVML
 * sampling period), split what arrives into lines, count progress lines, and
 * decide after each line whether enough has been measured. */
#include "profiler/wrap.h"

#include <errno.h>
#include <fcntl.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TAIL_LINES 6
#define MAX_DEVICES 64

typedef struct stream {
    int fd; /* -1 once closed */
    char *buf;
    size_t len, cap;
} stream_t;

typedef struct state {
    const wrap_opts_t *o;
    double start, last_time;
    double last_iter;
    int lines; /* progress lines counted (warm-up included) */
    double *times;
    int n_times, cap_times;
    double mem_line;
    char tail[TAIL_LINES][160];
    int n_tail;
    int bad; /* a malformed progress line was seen */
} state_t;

/* ---- argv ---------------------------------------------------------------------- */

static char *replace_all(const char *s, const char *key, const char *value)
{
    size_t kl = strlen(key), vl = strlen(value), n = 0;
    for (const char *p = strstr(s, key); p; p = strstr(p + kl, key))
        n++;
    char *out = xmalloc(strlen(s) + n * vl + 1), *o = out;
    for (const char *p = s;;) {
        const char *q = strstr(p, key);
        if (!q) {
            strcpy(o, p);
            break;
        }
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        memcpy(o, value, vl);
        o += vl;
        p = q + kl;
    }
    return out;
}

char **wrap_expand_argv(char *const *argv, int batch, int gpus, int accum)
{
    size_t n = 0;
    while (argv[n])
        n++;
    char **out = xcalloc(n + 1, sizeof *out);
    char b[24], g[24], a[24];
    snprintf(b, sizeof b, "%d", batch);
    snprintf(g, sizeof g, "%d", gpus);
    snprintf(a, sizeof a, "%d", accum);
    for (size_t i = 0; i < n; i++) {
        char *s1 = replace_all(argv[i], "{batch}", b);
        char *s2 = replace_all(s1, "{gpus}", g);
        out[i] = replace_all(s2, "{accum}", a);
        free(s1);
        free(s2);
    }
    return out;
}

void wrap_free_argv(char **argv)
{
    for (size_t i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}

/* ---- statistics ------------------------------------------------------------------ */

void wrap_summarize(double *x, int n, double *median, double *p10, double *p90, double *rel_ci)
{
    gsl_sort(x, 1, (size_t)n);
    *median = gsl_stats_median_from_sorted_data(x, 1, (size_t)n);
    *p10 = gsl_stats_quantile_from_sorted_data(x, 1, (size_t)n, 0.1);
    *p90 = gsl_stats_quantile_from_sorted_data(x, 1, (size_t)n, 0.9);
    double h = 1.96 * sqrt((double)n) / 2;
    int lo = (int)floor(n / 2.0 - h), hi = (int)ceil(n / 2.0 + h); /* 1-based ranks */
    lo = lo < 1 ? 1 : lo;
    hi = hi > n ? n : hi;
    *rel_ci = *median > 0 ? (x[hi - 1] - x[lo - 1]) / 2 / *median : INFINITY;
}

static int enough(const state_t *st)
{
    const wrap_opts_t *o = st->o;
    if (st->n_times >= o->iters)
        return 1;
    if (o->ci <= 0 || st->n_times < o->min_iters)
        return 0;
    double *x = xmalloc(sizeof(double) * (size_t)st->n_times), med, p10, p90, rel;
    memcpy(x, st->times, sizeof(double) * (size_t)st->n_times);
    wrap_summarize(x, st->n_times, &med, &p10, &p90, &rel);
    free(x);
    return rel <= o->ci;
}

/* ---- lines ----------------------------------------------------------------------- */

static void remember(state_t *st, const char *line)
{
    if (st->n_tail == TAIL_LINES) {
        memmove(st->tail[0], st->tail[1], sizeof st->tail[0] * (TAIL_LINES - 1));
        st->n_tail--;
    }
    snprintf(st->tail[st->n_tail++], sizeof st->tail[0], "%s", line);
}

/* A job may report its per-GPU batch, or that times the GPUs and/or the
 * accumulation steps; anything else means it is not running the point's batch. */
static int batch_matches(const wrap_opts_t *o, double b)
{
    double m = o->batch;
    return b == m || b == m * o->gpus || b == m * o->accum || b == m * o->gpus * o->accum;
}

static int on_line(state_t *st, const char *line, mls_err_t *err)
{
    const wrap_opts_t *o = st->o;
    double now = mls_wall_seconds();
    progress_line_t pl;
    mls_err_t perr = {{0}};
    int r = o->re ? progress_regex_parse(o->re, line, &pl, &perr) : progress_parse(line, &pl, &perr);
    if (o->verbose)
        fprintf(stderr, "  | %s\n", line);
    if (r < 0) {
        st->bad = 1;
        return mls_fail(err, "malformed progress line '%.200s': %s", line, perr.msg);
    }
    if (r == 0) {
        remember(st, line);
        return 0;
    }
    if (pl.has[PG_BATCH] && !batch_matches(o, pl.value[PG_BATCH])) {
        st->bad = 1;
        return mls_fail(err,
                        "the job reports batch=%g but this point's per-GPU batch is %d (does "
                        "it take {batch} or MLSCHED_BATCH_SIZE?): '%.200s'",
                        pl.value[PG_BATCH], o->batch, line);
    }
    if (pl.has[PG_ITER]) {
        if (st->last_iter >= 0 && pl.value[PG_ITER] <= st->last_iter)
            return 0; /* another rank's line for an iteration already counted */
        st->last_iter = pl.value[PG_ITER];
    }
    double t = progress_iter_time(&pl);
    if (t < 0)
        t = now - st->last_time;
    st->last_time = now;
    if (pl.has[PG_MEM] && pl.value[PG_MEM] > st->mem_line)
        st->mem_line = pl.value[PG_MEM];
    /* nothing after enough: lines that came in the same read as the one that
     * met --iters or the --ci target are not measured (it was racy) */
    if (++st->lines <= o->warmup || enough(st))
        return 0;
    if (st->n_times == st->cap_times) {
        st->cap_times = st->cap_times ? 2 * st->cap_times : 64;
        st->times = xrealloc(st->times, sizeof(double) * (size_t)st->cap_times);
    }
    st->times[st->n_times++] = t;
    return 0;
}

/* Reads one chunk: 1 when it read something, 2 when nothing is there now, 0 at
 * EOF (the stream is closed), -1 on a malformed progress line. */
static int pump(state_t *st, stream_t *s, mls_err_t *err)
{
    char chunk[4096];
    ssize_t n = read(s->fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
        return 1;
    if (n < 0)
        return errno == EAGAIN ? 2 : 0;
    if (n == 0) { /* EOF: a last line without a newline still counts */
        int rc = 0;
        if (s->len) {
            xgrow((void **)&s->buf, &s->cap, s->len + 1, 1);
            s->buf[s->len] = '\0';
            rc = on_line(st, s->buf, err) < 0 ? -1 : 0;
            s->len = 0;
        }
        close(s->fd);
        s->fd = -1;
        return rc;
    }
    xgrow((void **)&s->buf, &s->cap, s->len + (size_t)n + 1, 1);
    memcpy(s->buf + s->len, chunk, (size_t)n);
    s->len += (size_t)n;
    size_t start = 0;
    for (size_t i = 0; i < s->len; i++) {
        if (s->buf[i] != '\n')
            continue;
        s->buf[i] = '\0';
        if (i > start && s->buf[i - 1] == '\r')
            s->buf[i - 1] = '\0';
        if (on_line(st, s->buf + start, err) < 0)
            return -1;
        start = i + 1;
    }
    memmove(s->buf, s->buf + start, s->len - start);
    s->len -= start;
    return 1;
}

/* ---- the child ------------------------------------------------------------------ */

static void child(char **argv, const wrap_opts_t *o, int out, int errfd, int report)
{
    char devs[MAX_DEVICES * 8] = "", num[32];
    for (int i = 0; i < o->gpus && i < MAX_DEVICES; i++) {
        snprintf(num, sizeof num, "%s%d", i ? "," : "", o->devices[i]);
        strncat(devs, num, sizeof devs - strlen(devs) - 1);
    }
    setenv("CUDA_VISIBLE_DEVICES", devs, 1);
    setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
    snprintf(num, sizeof num, "%d", o->batch);
    setenv("MLSCHED_BATCH_SIZE", num, 1);
    snprintf(num, sizeof num, "%d", o->gpus);
    setenv("MLSCHED_NUM_GPUS", num, 1);
    snprintf(num, sizeof num, "%d", o->accum);
    setenv("MLSCHED_ACCUM_STEPS", num, 1);
    dup2(out, 1);
    dup2(errfd, 2);
    signal(SIGPIPE, SIG_DFL);
    execvp(argv[0], argv);
    int e = errno;
    if (write(report, &e, sizeof e) < 0)
        _exit(127);
    _exit(127);
}

static void nap(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - floor(s)) * 1e9)};
    nanosleep(&ts, NULL);
}

/* SIGTERM, then SIGKILL after kill_after s; reaps the child. */
static int stop_child(pid_t pid, double kill_after, int *status, int *killed)
{
    kill(pid, SIGTERM);
    double until = mls_wall_seconds() + kill_after;
    while (mls_wall_seconds() < until) {
        if (waitpid(pid, status, WNOHANG) == pid)
            return 0;
        nap(0.01);
    }
    kill(pid, SIGKILL);
    *killed = 1;
    return waitpid(pid, status, 0) == pid ? 0 : -1;
}

static void sample_memory(const wrap_opts_t *o, const uint64_t *base, uint64_t *peak)
{
    for (int i = 0; o->nvml && i < o->gpus && i < MAX_DEVICES; i++) {
        uint64_t used;
        if (nvml_mem_used(o->nvml, o->devices[i], &used) == 0 && used > base[i] &&
            used - base[i] > *peak)
            *peak = used - base[i];
    }
}

static int spawn(char **argv, const wrap_opts_t *o, pid_t *pid, stream_t s[2], mls_err_t *err)
{
    int out[2], errp[2], rep[2];
    if (pipe(out) < 0 || pipe(errp) < 0 || pipe(rep) < 0)
        return mls_fail(err, "pipe: %s", strerror(errno));
    fcntl(rep[1], F_SETFD, FD_CLOEXEC);
    fflush(NULL);
    *pid = fork();
    if (*pid < 0)
        return mls_fail(err, "fork: %s", strerror(errno));
    if (*pid == 0) {
        close(out[0]);
        close(errp[0]);
        close(rep[0]);
        child(argv, o, out[1], errp[1], rep[1]);
    }
    close(out[1]);
    close(errp[1]);
    close(rep[1]);
    int e = 0;
    ssize_t n = read(rep[0], &e, sizeof e); /* EOF: exec succeeded */
    close(rep[0]);
    if (n == (ssize_t)sizeof e) {
        waitpid(*pid, NULL, 0);
        *pid = -1;
        close(out[0]);
        close(errp[0]);
        return mls_fail(err, "cannot run '%s': %s", argv[0], strerror(e));
    }
    s[0].fd = out[0];
    s[1].fd = errp[0];
    for (int i = 0; i < 2; i++)
        fcntl(s[i].fd, F_SETFL, fcntl(s[i].fd, F_GETFL) | O_NONBLOCK);
    return 0;
}

static void describe_exit(int status, char *buf, size_t n)
{
    if (WIFEXITED(status))
        snprintf(buf, n, "exited with status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(buf, n, "was killed by signal %d", WTERMSIG(status));
    else
        snprintf(buf, n, "ended");
}

static int too_few(const state_t *st, const char *cmd, const char *how, mls_err_t *err)
{
    const wrap_opts_t *o = st->o;
    char tail[TAIL_LINES * 170] = "";
    for (int i = 0; i < st->n_tail; i++) {
        strncat(tail, "\n    ", sizeof tail - strlen(tail) - 1);
        strncat(tail, st->tail[i], sizeof tail - strlen(tail) - 1);
    }
    return mls_fail(err,
                    "'%s' %s after %d progress line(s) (%d warm-up + %d measured; at least %d "
                    "measured needed)%s%s%s",
                    cmd, how, st->lines, st->lines < o->warmup ? st->lines : o->warmup,
                    st->n_times, o->min_iters,
                    st->lines == 0 ? "; it printed no progress line: it must print "
                                     "'mlsched-progress iter=N iter_time=S ...' or match --regex"
                                   : "",
                    st->n_tail ? "; its last output:" : "", tail);
}

int wrap_measure(const wrap_opts_t *o, wrap_result_t *res, mls_err_t *err)
{
    memset(res, 0, sizeof *res);
    char **argv = wrap_expand_argv(o->argv, o->batch, o->gpus, o->accum);
    state_t st;
    memset(&st, 0, sizeof st);
    st.o = o;
    st.last_iter = -1;
    uint64_t base[MAX_DEVICES] = {0}, peak = 0;
    for (int i = 0; o->nvml && i < o->gpus && i < MAX_DEVICES; i++)
        if (nvml_mem_used(o->nvml, o->devices[i], &base[i]) < 0)
            base[i] = 0;
    stream_t s[2] = {{-1, NULL, 0, 0}, {-1, NULL, 0, 0}};
    pid_t pid = -1;
    st.start = st.last_time = mls_wall_seconds();
    int rc = spawn(argv, o, &pid, s, err);
    int status = 0, exited = 0, timed_out = 0;
    while (rc == 0 && !enough(&st)) {
        double left = o->timeout - (mls_wall_seconds() - st.start);
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd pf[2];
        nfds_t np = 0;
        for (int i = 0; i < 2; i++)
            if (s[i].fd >= 0)
                pf[np++] = (struct pollfd){s[i].fd, POLLIN, 0};
        int ms = left < 0.1 ? (int)(left * 1000) + 1 : 100;
        if (np)
            poll(pf, np, ms);
        else
            nap(ms / 1000.0);
        if (waitpid(pid, &status, WNOHANG) == pid)
            exited = 1;
        /* read all that is there; after the exit, that is the last of it (a
         * grandchild may hold the pipes open: no waiting for their EOF) */
        for (int i = 0; i < 2 && rc == 0; i++) {
            int r = 1; /* 0 (EOF) and 2 (no data) end it; a bounded number of
                        * chunks per tick keeps a chatty command from starving
                        * the checks */
            for (int k = 0; k < 256 && s[i].fd >= 0 && r == 1 && !enough(&st); k++)
                r = pump(&st, &s[i], err);
            rc = r < 0 ? -1 : 0;
        }
        sample_memory(o, base, &peak);
        if (exited)
            break;
    }
    if (pid > 0 && !exited) {
        res->stopped = 1;
        stop_child(pid, o->kill_after, &status, &res->killed);
    }
    for (int i = 0; i < 2; i++) {
        if (s[i].fd >= 0)
            close(s[i].fd);
        free(s[i].buf);
    }
    char how[96];
    describe_exit(status, how, sizeof how);
    if (rc == 0 && st.n_times < o->min_iters)
        rc = too_few(&st, argv[0], timed_out ? "timed out (--timeout)" : how, err);
    if (rc == 0) {
        wrap_summarize(st.times, st.n_times, &res->median, &res->p10, &res->p90, &res->rel_ci);
        res->measured = st.n_times;
        res->mem_bytes = st.mem_line > 0 ? (int64_t)st.mem_line : (int64_t)peak;
    }
    free(st.times);
    wrap_free_argv(argv);
    return rc;
}
