/* policy_exec.c: an external policy process behind policy_ops_t (see
 * policy_exec.h; the protocol is docs/exec-policy.md).
 *
 * The idea: one process per run, one JSON object per line each way over a
 * socketpair (a bidirectional pipe on which a write to a dead process is
 * EPIPE, not SIGPIPE). The view is written with a small direct writer rather
 * than built as a cJSON tree: at 2,000 active jobs the tree costs a malloc
 * per number; the messages read back (hello, perf questions, the plan) are
 * small and parsed with cJSON. What does not change during a job's life is
 * sent once, when the job first appears, and the finished-job history and the
 * user names only as they grow, so a decision costs what changed plus one
 * row per active job.
 *
 * Every failure is an error naming the decision and the message: a line that
 * is not JSON or not the expected message, a field of the wrong kind, a
 * process that exits or is killed, one that does not answer within the
 * per-decision timeout (exec.timeout, default 60 s). The mechanism then
 * validates the plan as it validates every C policy's. */
#include "sim/policy_exec.h"

#include "model/samples.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_LINE (64u << 20)
#define EXCERPT 120

/* ---- a growable text buffer with a JSON writer ---- */

typedef struct sb {
    char *s;
    size_t n, cap;
} sb_t;

static void sb_need(sb_t *b, size_t k)
{
    if (b->n + k + 1 > b->cap)
        xgrow((void **)&b->s, &b->cap, b->n + k + 1, 1);
}

static void sb_raw(sb_t *b, const char *s, size_t k)
{
    sb_need(b, k);
    memcpy(b->s + b->n, s, k);
    b->n += k;
    b->s[b->n] = '\0';
}

static void sb_puts(sb_t *b, const char *s)
{
    sb_raw(b, s, strlen(s));
}

static void sb_putc(sb_t *b, char c)
{
    sb_raw(b, &c, 1);
}

static void sb_int(sb_t *b, long long v)
{
    char tmp[24];
    int k = sizeof tmp;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        tmp[--k] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        tmp[--k] = '-';
    sb_raw(b, tmp + k, sizeof tmp - (size_t)k);
}

/* A double that reads back exactly (17 significant digits); integral values
 * as integers; NAN and infinities as null. */
static void sb_num(sb_t *b, double d)
{
    if (!isfinite(d)) {
        sb_raw(b, "null", 4);
        return;
    }
    if (d == trunc(d) && fabs(d) < 1e15) {
        sb_int(b, (long long)d);
        return;
    }
    char tmp[32];
    int k = snprintf(tmp, sizeof tmp, "%.17g", d);
    sb_raw(b, tmp, (size_t)k);
}

static void sb_str(sb_t *b, const char *s)
{
    sb_putc(b, '"');
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            sb_putc(b, '\\');
            sb_putc(b, (char)c);
        } else if (c < 0x20) {
            char tmp[8];
            snprintf(tmp, sizeof tmp, "\\u%04x", c);
            sb_puts(b, tmp);
        } else
            sb_putc(b, (char)c);
    }
    sb_putc(b, '"');
}

/* ---- a set of job ids (open addressing), for "sent before" ---- */

typedef struct idset {
    int64_t *keys;
    int *slot; /* the job's index in the decision that filled the set */
    unsigned char *used;
    size_t cap; /* a power of two */
} idset_t;

static void idset_reset(idset_t *s, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n + 2)
        cap *= 2;
    if (cap > s->cap) {
        free(s->keys);
        free(s->used);
        free(s->slot);
        s->keys = xmalloc(cap * sizeof *s->keys);
        s->slot = xmalloc(cap * sizeof *s->slot);
        s->used = xmalloc(cap);
        s->cap = cap;
    }
    memset(s->used, 0, s->cap);
}

static size_t idset_slot(const idset_t *s, int64_t id)
{
    uint64_t h = (uint64_t)id * 0x9E3779B97F4A7C15ULL;
    size_t i = (size_t)(h >> 17) & (s->cap - 1);
    while (s->used[i] && s->keys[i] != id)
        i = (i + 1) & (s->cap - 1);
    return i;
}

/* The slot stored with id, or -1 when id is not in the set. */
static int idset_get(const idset_t *s, int64_t id)
{
    if (!s->cap)
        return -1;
    size_t i = idset_slot(s, id);
    return s->used[i] ? s->slot[i] : -1;
}

static void idset_add(idset_t *s, int64_t id, int slot)
{
    size_t i = idset_slot(s, id);
    s->used[i] = 1;
    s->keys[i] = id;
    s->slot[i] = slot;
}

/* ---- the adapter's state ---- */

typedef struct exec_policy {
    policy_ops_t ops;
    char *spec, *name, *paper, *summary, *params;
    char **argv;
    pid_t pid;
    int fd;
    int created; /* create() took the process over */
    double timeout_s;
    /* the run's arguments: [handle] + the user's, less exec.* */
    const char **keys, **values;
    int n_args;
    /* reading */
    char *rbuf;
    size_t rlen, rcap, rpos;
    sb_t out;
    /* what was sent */
    long decision;
    idset_t sent, next;
    int want_rates;           /* the hello asked for each job's rate per type */
    double *vals, *prev_vals; /* each job's row as numbers, this decision and the last */
    size_t vals_cap, prev_cap, prev_w;
    int users_sent, finished_sent, nodes_sent;
    unsigned char *node_up;
    /* overhead */
    double total_s, policy_s;
} exec_policy_t;

/* The key that marks the handle among create()'s arguments (compared by address). */
static const char handle_key[] = "exec:handle";

int policy_is_exec(const char *spec)
{
    return spec && strncmp(spec, MLS_EXEC_PREFIX, strlen(MLS_EXEC_PREFIX)) == 0;
}

/* ---- process and I/O ---- */

static char **split_args(const char *s)
{
    size_t n = 0, cap = 4;
    char **v = xcalloc(cap, sizeof *v);
    while (*s) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        const char *e = s;
        while (*e && *e != ' ' && *e != '\t')
            e++;
        if (n + 2 > cap)
            xgrow((void **)&v, &cap, n + 2, sizeof *v);
        v[n] = xmalloc((size_t)(e - s) + 1);
        memcpy(v[n], s, (size_t)(e - s));
        v[n][e - s] = '\0';
        v[++n] = NULL;
        s = e;
    }
    return v;
}

static int spawn(exec_policy_t *x, mls_err_t *err)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        return mls_fail(err, "socketpair: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        close(sv[0]);
        close(sv[1]);
        return mls_fail(err, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_DFL);
        if (dup2(sv[1], 0) < 0 || dup2(sv[1], 1) < 0)
            _exit(127);
        execvp(x->argv[0], x->argv);
        fprintf(stderr, "mlsched: exec policy: cannot run '%s': %s\n", x->argv[0], strerror(errno));
        _exit(127);
    }
    close(sv[1]);
    x->pid = pid;
    x->fd = sv[0];
    fcntl(x->fd, F_SETFL, fcntl(x->fd, F_GETFL) | O_NONBLOCK);
    return 0;
}

/* How the process ended, or "closed its output" while still running. */
static void describe_exit(exec_policy_t *x, char *buf, size_t n)
{
    int st = 0;
    pid_t r = 0;
    for (int i = 0; i < 50 && x->pid > 0 && (r = waitpid(x->pid, &st, WNOHANG)) == 0; i++)
        usleep(10000);
    if (r == x->pid) {
        x->pid = -1;
        if (WIFEXITED(st))
            snprintf(buf, n, "the policy process exited with status %d", WEXITSTATUS(st));
        else if (WIFSIGNALED(st))
            snprintf(buf, n, "the policy process was killed by signal %d (%s)", WTERMSIG(st),
                     strsignal(WTERMSIG(st)));
        else
            snprintf(buf, n, "the policy process ended");
    } else
        snprintf(buf, n, "the policy process closed its output");
}

static int remaining_ms(double deadline)
{
    double left = deadline - mls_wall_seconds();
    if (left <= 0)
        return 0;
    return left > 1e6 ? 1000000000 : (int)ceil(left * 1000);
}

/* Where in the run: "at its hello", "decision 12 (t=3600 s)". */
typedef struct where {
    char s[640];
} where_t;

static int send_all(exec_policy_t *x, const char *buf, size_t len, double deadline,
                    const where_t *w, mls_err_t *err)
{
    size_t done = 0;
    while (done < len) {
        ssize_t k = send(x->fd, buf + done, len - done, MSG_NOSIGNAL);
        if (k > 0) {
            done += (size_t)k;
            continue;
        }
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd p = {x->fd, POLLOUT, 0};
            int ms = remaining_ms(deadline);
            if (ms == 0 || (poll(&p, 1, ms) == 0 && remaining_ms(deadline) == 0))
                return mls_fail(err, "%s: no answer within %g s (the policy does not read)", w->s,
                                x->timeout_s);
            continue;
        }
        char why[160];
        describe_exit(x, why, sizeof why);
        return mls_fail(err, "%s: %s (writing: %s)", w->s, why, k < 0 ? strerror(errno) : "closed");
    }
    return 0;
}

/* The next line from the process, NUL-terminated, in *line. */
static int read_line(exec_policy_t *x, double deadline, const where_t *w, char **line,
                     mls_err_t *err)
{
    for (;;) {
        char *nl = x->rlen > x->rpos ? memchr(x->rbuf + x->rpos, '\n', x->rlen - x->rpos) : NULL;
        if (nl) {
            *nl = '\0';
            *line = x->rbuf + x->rpos;
            x->rpos = (size_t)(nl - x->rbuf) + 1;
            return 0;
        }
        if (x->rpos) {
            memmove(x->rbuf, x->rbuf + x->rpos, x->rlen - x->rpos);
            x->rlen -= x->rpos;
            x->rpos = 0;
        }
        if (x->rlen >= MAX_LINE)
            return mls_fail(err, "%s: malformed message: a line longer than %u bytes", w->s,
                            MAX_LINE);
        if (x->rcap - x->rlen < 65536)
            xgrow((void **)&x->rbuf, &x->rcap, x->rlen + 65536 + 1, 1);
        ssize_t k = read(x->fd, x->rbuf + x->rlen, x->rcap - x->rlen - 1);
        if (k > 0) {
            x->rlen += (size_t)k;
            continue;
        }
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd p = {x->fd, POLLIN, 0};
            int ms = remaining_ms(deadline);
            if (ms == 0 || (poll(&p, 1, ms) == 0 && remaining_ms(deadline) == 0))
                return mls_fail(err, "%s: no answer within %g s (timeout; exec.timeout=S sets it)",
                                w->s, x->timeout_s);
            continue;
        }
        char why[160];
        describe_exit(x, why, sizeof why);
        if (x->rlen)
            return mls_fail(err, "%s: %s in the middle of a message", w->s, why);
        return mls_fail(err, "%s: %s", w->s, why);
    }
}

static void excerpt(const char *line, char *buf, size_t n)
{
    size_t k = strlen(line);
    if (k <= EXCERPT)
        snprintf(buf, n, "%s", line);
    else
        snprintf(buf, n, "%.*s...", EXCERPT, line);
}

/* The next message as a cJSON object with a string "type". */
static cJSON *read_msg(exec_policy_t *x, double deadline, const where_t *w, const char **type,
                       mls_err_t *err)
{
    char *line = NULL;
    if (read_line(x, deadline, w, &line, err) < 0)
        return NULL;
    char ex[EXCERPT + 8];
    excerpt(line, ex, sizeof ex);
    cJSON *m = cJSON_Parse(line);
    if (!m) {
        mls_fail(err, "%s: malformed message (not JSON): '%s'", w->s, ex);
        return NULL;
    }
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "type");
    if (!cJSON_IsObject(m) || !cJSON_IsString(t)) {
        mls_fail(err, "%s: malformed message (no string \"type\"): '%s'", w->s, ex);
        cJSON_Delete(m);
        return NULL;
    }
    *type = t->valuestring;
    return m;
}

/* The policy said {"type":"error","message":...}. */
static int policy_error(const cJSON *m, const where_t *w, mls_err_t *err)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(m, "message");
    return mls_fail(err, "%s: the policy reported an error: %s", w->s,
                    cJSON_IsString(s) ? s->valuestring : "(no message)");
}

static int unexpected(const cJSON *m, const char *want, const where_t *w, mls_err_t *err)
{
    char *txt = cJSON_PrintUnformatted(m);
    char ex[EXCERPT + 8];
    excerpt(txt ? txt : "", ex, sizeof ex);
    free(txt);
    return mls_fail(err, "%s: malformed message: expected %s, got '%s'", w->s, want, ex);
}

/* ---- hello, start, end ---- */

static char *dup_field(const cJSON *m, const char *key)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(m, key);
    return xstrdup(cJSON_IsString(s) ? s->valuestring : "");
}

static int parse_cadence(const cJSON *c, unsigned *out)
{
    *out = 0;
    if (!cJSON_IsArray(c) || cJSON_GetArraySize(c) == 0)
        return -1;
    const cJSON *e;
    cJSON_ArrayForEach(e, c)
    {
        if (!cJSON_IsString(e))
            return -1;
        if (!strcmp(e->valuestring, "events"))
            *out |= MLS_CADENCE_EVENTS;
        else if (!strcmp(e->valuestring, "rounds"))
            *out |= MLS_CADENCE_ROUNDS;
        else
            return -1;
    }
    return 0;
}

static int read_hello(exec_policy_t *x, mls_err_t *err)
{
    where_t w;
    snprintf(w.s, sizeof w.s, "exec policy '%s': at its hello", x->spec);
    const char *type;
    cJSON *m = read_msg(x, mls_wall_seconds() + x->timeout_s, &w, &type, err);
    if (!m)
        return -1;
    int rc = 0;
    const cJSON *pv = cJSON_GetObjectItemCaseSensitive(m, "protocol");
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(m, "name");
    const cJSON *orc = cJSON_GetObjectItemCaseSensitive(m, "oracle");
    if (!strcmp(type, "error"))
        rc = policy_error(m, &w, err);
    else if (strcmp(type, "hello"))
        rc = unexpected(m, "{\"type\":\"hello\",...}", &w, err);
    else if (!cJSON_IsNumber(pv) || pv->valuedouble != MLS_EXEC_PROTOCOL)
        rc = mls_fail(err, "%s: protocol %g, mlsched speaks protocol %d", w.s,
                      cJSON_IsNumber(pv) ? pv->valuedouble : NAN, MLS_EXEC_PROTOCOL);
    else if (!cJSON_IsString(nm) || !nm->valuestring[0])
        rc = mls_fail(err, "%s: malformed message: \"name\" must be a non-empty string", w.s);
    else if (!cJSON_IsBool(orc))
        rc = mls_fail(err, "%s: malformed message: \"oracle\" must be true or false", w.s);
    else if (parse_cadence(cJSON_GetObjectItemCaseSensitive(m, "cadence"), &x->ops.cadence) < 0)
        rc = mls_fail(err,
                      "%s: malformed message: \"cadence\" must be a non-empty list of "
                      "\"events\", \"rounds\"",
                      w.s);
    const cJSON *vw = cJSON_GetObjectItemCaseSensitive(m, "view"), *e;
    if (rc == 0 && vw && !cJSON_IsArray(vw))
        rc = mls_fail(err, "%s: malformed message: \"view\" must be a list of options", w.s);
    if (rc == 0 && vw)
        cJSON_ArrayForEach(e, vw)
        {
            if (cJSON_IsString(e) && !strcmp(e->valuestring, "rates"))
                x->want_rates = 1;
            else if (rc == 0)
                rc = mls_fail(err, "%s: unknown view option (protocol 1 has \"rates\")", w.s);
        }
    if (rc == 0) {
        x->name = xstrdup(nm->valuestring);
        x->paper = dup_field(m, "paper");
        x->summary = dup_field(m, "summary");
        x->params = dup_field(m, "params");
        x->ops.oracle = cJSON_IsTrue(orc);
    }
    cJSON_Delete(m);
    return rc;
}

static const char *const job_columns[] = {"id",
                                          "state",
                                          "cur_type",
                                          "cur_gpus",
                                          "cur_nodes",
                                          "cur_partner",
                                          "first_start",
                                          "last_start",
                                          "attained_time",
                                          "attained_service",
                                          "work_done",
                                          "throughput",
                                          "preemptions",
                                          "restarts",
                                          "total_work",
                                          "remaining_work",
                                          "batch_size",
                                          "accum_steps",
                                          "grad_noise_scale",
                                          "epoch",
                                          "batch_changes",
                                          "cur_gpu_ids",
                                          NULL};
static const char *const static_columns[] = {"id",
                                             "user",
                                             "workload",
                                             "workload_name",
                                             "submit",
                                             "priority",
                                             "deadline",
                                             "duration_estimate",
                                             "gpus_requested",
                                             "min_gpus",
                                             "max_gpus",
                                             "adapt_mode",
                                             "cpus",
                                             "mem_gb",
                                             "gang",
                                             "total_batch",
                                             NULL};

static void put_names(sb_t *b, const char *key, const char *const *names)
{
    sb_putc(b, '"');
    sb_puts(b, key);
    sb_puts(b, "\":[");
    for (int i = 0; names[i]; i++) {
        if (i)
            sb_putc(b, ',');
        sb_str(b, names[i]);
    }
    sb_putc(b, ']');
}

static int exec_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    *state = NULL;
    if (!args || args->n < 1 || args->keys[0] != handle_key) {
        snprintf(err, errlen, "an exec policy must be looked up with policy_resolve()");
        return -1;
    }
    exec_policy_t *x = (exec_policy_t *)(void *)args->values[0];
    x->created = 1;
    *state = x;
    sb_t *b = &x->out;
    b->n = 0;
    sb_puts(b, "{\"type\":\"start\",\"protocol\":");
    sb_int(b, MLS_EXEC_PROTOCOL);
    sb_puts(b, ",\"params\":{");
    for (int i = 1; i < args->n; i++) {
        if (i > 1)
            sb_putc(b, ',');
        sb_str(b, args->keys[i]);
        sb_putc(b, ':');
        sb_str(b, args->values[i]);
    }
    sb_puts(b, "},");
    put_names(b, "job_columns", job_columns);
    sb_putc(b, ',');
    put_names(b, "static_columns", static_columns);
    sb_puts(b, "}\n");
    where_t w;
    snprintf(w.s, sizeof w.s, "at start");
    mls_err_t e = {{0}};
    double deadline = mls_wall_seconds() + x->timeout_s;
    const char *type;
    cJSON *m = NULL;
    int rc = send_all(x, b->s, b->n, deadline, &w, &e);
    if (rc == 0 && !(m = read_msg(x, deadline, &w, &type, &e)))
        rc = -1;
    if (rc == 0 && !strcmp(type, "error"))
        rc = policy_error(m, &w, &e);
    else if (rc == 0 && strcmp(type, "ready"))
        rc = unexpected(m, "{\"type\":\"ready\"}", &w, &e);
    cJSON_Delete(m);
    if (rc < 0)
        snprintf(err, errlen, "%s", e.msg);
    return rc;
}

/* Ends the process: {"type":"end"}, its input closed, up to 2 s to exit, then SIGKILL. */
static void end_process(exec_policy_t *x)
{
    if (x->fd >= 0) {
        static const char end[] = "{\"type\":\"end\"}\n";
        ssize_t k = send(x->fd, end, sizeof end - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
        (void)k;
        shutdown(x->fd, SHUT_WR);
    }
    if (x->pid > 0) {
        int st;
        pid_t r = 0;
        for (int i = 0; i < 200 && (r = waitpid(x->pid, &st, WNOHANG)) == 0; i++)
            usleep(10000);
        if (r == 0) {
            kill(x->pid, SIGKILL);
            while (waitpid(x->pid, &st, 0) < 0 && errno == EINTR)
                ;
        }
        x->pid = -1;
    }
    if (x->fd >= 0)
        close(x->fd);
    x->fd = -1;
}

static void exec_destroy(void *state)
{
    if (state)
        end_process(state);
}

/* ---- the view ---- */

static const char *const why_names[] = {"arrival", "completion", "round", "fault", "batch_change"};

static void put_header(exec_policy_t *x, const view_t *v)
{
    sb_t *b = &x->out;
    sb_puts(b, "{\"type\":\"decide\",\"decision\":");
    sb_int(b, x->decision);
    sb_puts(b, ",\"now\":");
    sb_num(b, v->now);
    sb_puts(b, ",\"round_len\":");
    sb_num(b, v->round_len);
    sb_puts(b, ",\"round\":");
    sb_int(b, v->round);
    sb_puts(b, ",\"seed\":");
    sb_int(b, (long long)v->seed);
    sb_puts(b, ",\"reasons\":[");
    int first = 1;
    for (int k = 0; k < 5; k++)
        if (v->reasons & (1u << k)) {
            if (!first)
                sb_putc(b, ',');
            sb_str(b, why_names[k]);
            first = 0;
        }
    sb_puts(b, "],\"types\":[");
    for (int t = 0; t < v->n_types; t++) {
        const view_gpu_type_t *g = &v->types[t];
        sb_puts(b, t ? ",[" : "[");
        sb_str(b, g->name);
        sb_putc(b, ',');
        sb_int(b, g->total_gpus);
        sb_putc(b, ',');
        sb_int(b, g->free_gpus);
        sb_putc(b, ',');
        sb_num(b, g->mem_gb);
        sb_putc(b, ']');
    }
    sb_puts(b, "],\"n_gpus\":");
    sb_int(b, v->n_gpus);
}

/* Nodes in full the first time and whenever one went down or came up. */
static void put_nodes(exec_policy_t *x, const view_t *v)
{
    int changed = !x->nodes_sent || x->nodes_sent != v->n_nodes + 1;
    for (int k = 0; !changed && k < v->n_nodes; k++)
        changed = x->node_up[k] != (v->nodes[k].up != 0);
    if (!changed)
        return;
    free(x->node_up);
    x->node_up = xmalloc((size_t)v->n_nodes + 1);
    x->nodes_sent = v->n_nodes + 1;
    sb_t *b = &x->out;
    sb_puts(b, ",\"nodes\":[");
    for (int k = 0; k < v->n_nodes; k++) {
        const view_node_t *n = &v->nodes[k];
        x->node_up[k] = n->up != 0;
        sb_puts(b, k ? ",[" : "[");
        sb_int(b, n->type);
        sb_putc(b, ',');
        sb_int(b, n->gpus);
        sb_putc(b, ',');
        sb_int(b, n->first_gpu);
        sb_putc(b, ',');
        sb_int(b, n->rack);
        sb_putc(b, ',');
        sb_int(b, n->up);
        sb_putc(b, ',');
        sb_int(b, n->cpus);
        sb_putc(b, ',');
        sb_num(b, n->mem_gb);
        sb_putc(b, ']');
    }
    sb_putc(b, ']');
}

/* Users and finished jobs: only the entries added since the last decision
 * (from 0 again if the list shrank). */
static void put_growing(exec_policy_t *x, const view_t *v)
{
    sb_t *b = &x->out;
    if (x->users_sent > v->n_users)
        x->users_sent = 0;
    sb_puts(b, ",\"users_from\":");
    sb_int(b, x->users_sent);
    sb_puts(b, ",\"users\":[");
    for (int u = x->users_sent; u < v->n_users; u++) {
        if (u > x->users_sent)
            sb_putc(b, ',');
        sb_str(b, v->users ? v->users[u] : "");
    }
    x->users_sent = v->n_users;
    if (x->finished_sent > v->n_finished)
        x->finished_sent = 0;
    sb_puts(b, "],\"finished_from\":");
    sb_int(b, x->finished_sent);
    sb_puts(b, ",\"finished\":[");
    for (int i = x->finished_sent; i < v->n_finished; i++) {
        const view_finished_t *f = &v->finished[i];
        sb_puts(b, i > x->finished_sent ? ",[" : "[");
        sb_int(b, f->user);
        sb_putc(b, ',');
        sb_int(b, f->workload);
        sb_putc(b, ',');
        sb_int(b, f->gpus_requested);
        double d[5] = {f->submit, f->first_start, f->finish, f->run_time, f->gpu_seconds};
        for (int k = 0; k < 5; k++) {
            sb_putc(b, ',');
            sb_num(b, d[k]);
        }
        sb_putc(b, ']');
    }
    x->finished_sent = v->n_finished;
    sb_putc(b, ']');
}

static void put_static(sb_t *b, const view_job_t *j)
{
    sb_putc(b, '[');
    sb_int(b, j->id);
    sb_putc(b, ',');
    sb_int(b, j->user);
    sb_putc(b, ',');
    sb_int(b, j->workload);
    sb_putc(b, ',');
    sb_str(b, j->workload_name ? j->workload_name : "");
    double d1[4] = {j->submit, j->priority, j->deadline, j->duration_estimate};
    for (int k = 0; k < 4; k++) {
        sb_putc(b, ',');
        sb_num(b, d1[k]);
    }
    int i1[4] = {j->gpus_requested, j->min_gpus, j->max_gpus, j->adapt_mode};
    for (int k = 0; k < 4; k++) {
        sb_putc(b, ',');
        sb_int(b, i1[k]);
    }
    sb_putc(b, ',');
    sb_num(b, j->cpus);
    sb_putc(b, ',');
    sb_num(b, j->mem_gb);
    sb_putc(b, ',');
    sb_int(b, j->gang);
    sb_putc(b, ',');
    sb_int(b, j->total_batch);
    sb_putc(b, ']');
}

/* A job's row as numbers (ints exactly as doubles), rates per type last:
 * compared bitwise with the last decision's to elide unchanged rows. */
#define ROW_FIXED 20

static int min_nodes(const view_t *v, int type, int gpus)
{
    int biggest = 0;
    for (int k = 0; k < v->n_nodes; k++)
        if (v->nodes[k].type == type && v->nodes[k].gpus > biggest)
            biggest = v->nodes[k].gpus;
    return biggest <= 0 || gpus <= biggest ? 1 : (gpus + biggest - 1) / biggest;
}

static void pack_row(const exec_policy_t *x, const view_t *v, const view_job_t *j, double *r)
{
    double f[ROW_FIXED] = {
        (double)j->state,    j->cur_type,         j->cur_gpus,       j->cur_nodes,
        j->cur_partner,      j->first_start,      j->last_start,     j->attained_time,
        j->attained_service, j->work_done,        j->throughput,     j->preemptions,
        j->restarts,         j->total_work,       j->remaining_work, j->batch_size,
        j->accum_steps,      j->grad_noise_scale, j->epoch,          j->batch_changes};
    memcpy(r, f, sizeof f);
    if (!x->want_rates)
        return;
    const view_perf_t *p = v->perf;
    int g = j->gpus_requested;
    for (int t = 0; t < v->n_types; t++)
        r[ROW_FIXED + t] = p && p->throughput && g > 0 && g <= v->types[t].total_gpus
                               ? p->throughput(p->ctx, j, t, g, min_nodes(v, t, g), 0)
                               : (p && p->throughput ? 0 : NAN);
}

/* Fields 1..5, 11, 12, 15, 16, 19 of the row are ints. */
static int row_is_int(int k)
{
    return k < 5 || k == 11 || k == 12 || k == 15 || k == 16 || k == 19;
}

static void put_row(exec_policy_t *x, const view_t *v, const view_job_t *j, const double *r)
{
    sb_t *b = &x->out;
    sb_putc(b, '[');
    sb_int(b, j->id);
    for (int k = 0; k < ROW_FIXED; k++) {
        sb_putc(b, ',');
        if (row_is_int(k))
            sb_int(b, (long long)r[k]);
        else
            sb_num(b, r[k]);
    }
    sb_putc(b, ',');
    if (j->cur_gpu_ids && j->cur_gpus > 0) {
        sb_putc(b, '[');
        for (int g = 0; g < j->cur_gpus; g++) {
            if (g)
                sb_putc(b, ',');
            sb_int(b, j->cur_gpu_ids[g]);
        }
        sb_putc(b, ']');
    } else
        sb_raw(b, "null", 4);
    if (x->want_rates) {
        sb_puts(b, ",[");
        for (int t = 0; t < v->n_types; t++) {
            if (t)
                sb_putc(b, ',');
            sb_num(b, r[ROW_FIXED + t]);
        }
        sb_putc(b, ']');
    }
    sb_putc(b, ']');
}

/* New jobs' static fields; then one row per job, or just its id when the
 * job holds no GPUs and its row is bitwise the last decision's. */
static void put_jobs(exec_policy_t *x, const view_t *v)
{
    sb_t *b = &x->out;
    size_t w = ROW_FIXED + (size_t)(x->want_rates ? v->n_types : 0);
    size_t need = (size_t)v->n_jobs * w + 1;
    if (need > x->vals_cap)
        xgrow((void **)&x->vals, &x->vals_cap, need, sizeof *x->vals);
    idset_reset(&x->next, (size_t)v->n_jobs);
    sb_puts(b, ",\"new_jobs\":[");
    int first = 1;
    for (int i = 0; i < v->n_jobs; i++) {
        const view_job_t *j = &v->jobs[i];
        idset_add(&x->next, j->id, i);
        pack_row(x, v, j, x->vals + (size_t)i * w);
        if (idset_get(&x->sent, j->id) >= 0)
            continue;
        if (!first)
            sb_putc(b, ',');
        put_static(b, j);
        first = 0;
    }
    sb_puts(b, "],\"jobs\":[");
    for (int i = 0; i < v->n_jobs; i++) {
        const view_job_t *j = &v->jobs[i];
        const double *r = x->vals + (size_t)i * w;
        int k = idset_get(&x->sent, j->id);
        if (i)
            sb_putc(b, ',');
        if (k >= 0 && j->cur_gpus == 0 && x->prev_w == w &&
            !memcmp(r, x->prev_vals + (size_t)k * w, w * sizeof *r))
            sb_int(b, j->id);
        else
            put_row(x, v, j, r);
    }
    sb_puts(b, "]}\n");
    idset_t t = x->sent;
    x->sent = x->next;
    x->next = t;
    double *pv = x->prev_vals;
    size_t pc = x->prev_cap;
    x->prev_vals = x->vals;
    x->prev_cap = x->vals_cap;
    x->vals = pv;
    x->vals_cap = pc;
    x->prev_w = w;
}

/* ---- perf questions ---- */

static int arg_int(const cJSON *call, int k, int *out)
{
    const cJSON *e = cJSON_GetArrayItem(call, k);
    if (!cJSON_IsNumber(e) || e->valuedouble != trunc(e->valuedouble) || fabs(e->valuedouble) > 1e9)
        return -1;
    *out = (int)e->valuedouble;
    return 0;
}

static int job_arg(const view_t *v, const cJSON *call, int k, const view_job_t **j)
{
    int i;
    if (arg_int(call, k, &i) < 0 || i < 0 || i >= v->n_jobs)
        return -1;
    *j = &v->jobs[i];
    return 0;
}

/* Ints args[1..n] of call (after the name and `jobs` job indices). */
static int int_args(const cJSON *call, int from, int n, int *out)
{
    if (cJSON_GetArraySize(call) != from + n)
        return -1;
    for (int k = 0; k < n; k++)
        if (arg_int(call, from + k, &out[k]) < 0)
            return -1;
    return 0;
}

static int perf_type_ok(const view_t *v, int t, int allow_all)
{
    return (t >= 0 && t < v->n_types) || (allow_all && t == -1);
}

/* One perf call answered into b. -1 when the call is malformed. */
static int answer_call(const view_t *v, const cJSON *call, sb_t *b)
{
    const view_perf_t *p = v->perf;
    const cJSON *nm = cJSON_GetArrayItem(call, 0);
    if (!cJSON_IsArray(call) || !cJSON_IsString(nm) || !p)
        return -1;
    const char *f = nm->valuestring;
    const view_job_t *a, *c;
    int q[5];
    if (!strcmp(f, "throughput") || !strcmp(f, "samples_throughput") || !strcmp(f, "goodput")) {
        int n = strcmp(f, "throughput") ? 5 : 4;
        if (job_arg(v, call, 1, &a) < 0 || int_args(call, 2, n, q) < 0 || !perf_type_ok(v, q[0], 0))
            return -1;
        double r = NAN;
        if (!strcmp(f, "throughput") && p->throughput)
            r = p->throughput(p->ctx, a, q[0], q[1], q[2], q[3]);
        else if (!strcmp(f, "goodput") && p->goodput)
            r = p->goodput(p->ctx, a, q[0], q[1], q[2], q[3], q[4]);
        else if (!strcmp(f, "samples_throughput") && p->samples_throughput)
            r = p->samples_throughput(p->ctx, a, q[0], q[1], q[2], q[3], q[4]);
        sb_num(b, r);
    } else if (!strcmp(f, "pair_throughput")) {
        double out[2];
        if (job_arg(v, call, 1, &a) < 0 || job_arg(v, call, 2, &c) < 0 ||
            int_args(call, 3, 2, q) < 0 || !perf_type_ok(v, q[0], 0))
            return -1;
        if (!p->pair_throughput || p->pair_throughput(p->ctx, a, c, q[0], q[1], out) < 0) {
            sb_raw(b, "null", 4);
            return 0;
        }
        sb_putc(b, '[');
        sb_num(b, out[0]);
        sb_putc(b, ',');
        sb_num(b, out[1]);
        sb_putc(b, ']');
    } else if (!strcmp(f, "efficiency")) {
        const cJSON *m = cJSON_GetArrayItem(call, 2);
        if (job_arg(v, call, 1, &a) < 0 || cJSON_GetArraySize(call) != 3 || !cJSON_IsNumber(m))
            return -1;
        sb_num(b, p->efficiency ? p->efficiency(p->ctx, a, m->valuedouble) : NAN);
    } else if (!strcmp(f, "batch_limits")) {
        view_batch_limits_t l;
        if (job_arg(v, call, 1, &a) < 0 || int_args(call, 2, 1, q) < 0 || !perf_type_ok(v, q[0], 1))
            return -1;
        if (!p->batch_limits || p->batch_limits(p->ctx, a, q[0], &l) < 0) {
            sb_raw(b, "null", 4);
            return 0;
        }
        int li[4] = {l.init_batch, l.max_batch, l.min_local_batch, l.max_local_batch};
        sb_putc(b, '[');
        for (int k = 0; k < 4; k++) {
            sb_int(b, li[k]);
            sb_putc(b, ',');
        }
        sb_num(b, l.epoch_work);
        sb_putc(b, ']');
    } else if (!strcmp(f, "batch_schedule")) {
        if (job_arg(v, call, 1, &a) < 0 || int_args(call, 2, 1, q) < 0 || q[0] < 1 || q[0] > 100000)
            return -1;
        view_batch_step_t *s = xcalloc((size_t)q[0], sizeof *s);
        int n = p->batch_schedule ? p->batch_schedule(p->ctx, a, s, q[0]) : -1;
        if (n < 0)
            sb_raw(b, "null", 4);
        else {
            sb_putc(b, '[');
            for (int k = 0; k < n && k < q[0]; k++) {
                sb_puts(b, k ? ",[" : "[");
                sb_int(b, s[k].epoch);
                sb_putc(b, ',');
                sb_int(b, s[k].batch);
                sb_putc(b, ']');
            }
            sb_putc(b, ']');
        }
        free(s);
    } else
        return -1;
    return 0;
}

static int answer_perf(exec_policy_t *x, const view_t *v, const cJSON *m, double deadline,
                       const where_t *w, mls_err_t *err)
{
    const cJSON *calls = cJSON_GetObjectItemCaseSensitive(m, "calls");
    if (!cJSON_IsArray(calls))
        return unexpected(m, "a perf request with a \"calls\" list", w, err);
    sb_t *b = &x->out;
    b->n = 0;
    sb_puts(b, "{\"type\":\"perf_result\",\"values\":[");
    int k = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, calls)
    {
        if (k++)
            sb_putc(b, ',');
        if (answer_call(v, c, b) < 0) {
            char *txt = cJSON_PrintUnformatted(c);
            char ex[EXCERPT + 8];
            excerpt(txt ? txt : "", ex, sizeof ex);
            free(txt);
            return mls_fail(err, "%s: malformed perf call %d: '%s' (see docs/exec-policy.md)", w->s,
                            k - 1, ex);
        }
    }
    sb_puts(b, "]}\n");
    return send_all(x, b->s, b->n, deadline, w, err);
}

/* ---- the plan ---- */

static int field_int(const cJSON *o, const char *key, int def, int *out)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!e) {
        *out = def;
        return 0;
    }
    if (!cJSON_IsNumber(e) || e->valuedouble != trunc(e->valuedouble) || fabs(e->valuedouble) > 1e9)
        return -1;
    *out = (int)e->valuedouble;
    return 0;
}

static int bad_alloc(const cJSON *a, int k, const char *why, const where_t *w, mls_err_t *err)
{
    char *txt = cJSON_PrintUnformatted(a);
    char ex[EXCERPT + 8];
    excerpt(txt ? txt : "", ex, sizeof ex);
    free(txt);
    return mls_fail(err, "%s: malformed plan: allocation %d %s: '%s'", w->s, k, why, ex);
}

static int parse_alloc(const cJSON *a, int k, plan_t *plan, const where_t *w, mls_err_t *err)
{
    int job, type, gpus, batch, accum, pack;
    if (!cJSON_IsObject(a))
        return bad_alloc(a, k, "is not an object", w, err);
    if (!cJSON_GetObjectItemCaseSensitive(a, "job") ||
        !cJSON_GetObjectItemCaseSensitive(a, "type") ||
        !cJSON_GetObjectItemCaseSensitive(a, "gpus"))
        return bad_alloc(a, k, "lacks one of job, type, gpus", w, err);
    if (field_int(a, "job", 0, &job) < 0 || field_int(a, "type", 0, &type) < 0 ||
        field_int(a, "gpus", 0, &gpus) < 0 || field_int(a, "batch", 0, &batch) < 0 ||
        field_int(a, "accum", 0, &accum) < 0 || field_int(a, "pack_with", -1, &pack) < 0)
        return bad_alloc(a, k, "has a field that is not an integer", w, err);
    const cJSON *ids = cJSON_GetObjectItemCaseSensitive(a, "ids");
    int r;
    if (ids && !cJSON_IsNull(ids)) {
        if (!cJSON_IsArray(ids) || cJSON_GetArraySize(ids) != gpus || gpus < 0)
            return bad_alloc(a, k, "has \"ids\" that is not a list of `gpus` GPU ids", w, err);
        int *v = xcalloc((size_t)gpus + 1, sizeof *v);
        for (int g = 0; g < gpus; g++)
            if (arg_int(ids, g, &v[g]) < 0) {
                free(v);
                return bad_alloc(a, k, "has a GPU id that is not an integer", w, err);
            }
        r = plan_run_on(plan, job, type, v, gpus);
        free(v);
    } else
        r = plan_run(plan, job, type, gpus);
    plan->allocs[r].batch_size = batch;
    plan->allocs[r].accum_steps = accum;
    plan->allocs[r].pack_with = pack;
    return 0;
}

static int parse_plan(exec_policy_t *x, const cJSON *m, plan_t *plan, const where_t *w,
                      mls_err_t *err)
{
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(m, "decision");
    const cJSON *al = cJSON_GetObjectItemCaseSensitive(m, "allocs");
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(m, "seconds");
    if (!cJSON_IsNumber(d) || d->valuedouble != (double)x->decision)
        return unexpected(m, "a plan with this decision's number", w, err);
    if (!cJSON_IsArray(al))
        return unexpected(m, "a plan with an \"allocs\" list", w, err);
    if (cJSON_IsNumber(s) && s->valuedouble >= 0)
        x->policy_s += s->valuedouble;
    int k = 0;
    const cJSON *a;
    cJSON_ArrayForEach(a, al)
    {
        if (parse_alloc(a, k++, plan, w, err) < 0)
            return -1;
    }
    return 0;
}

static int exec_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    exec_policy_t *x = state;
    double t0 = mls_wall_seconds(), deadline = t0 + x->timeout_s;
    x->decision++;
    where_t w;
    snprintf(w.s, sizeof w.s, "decision %ld (t=%.3f s)", x->decision, v->now);
    mls_err_t e = {{0}};
    if (x->fd < 0) {
        snprintf(err, errlen, "%s: the policy process has ended", w.s);
        return -1;
    }
    x->out.n = 0;
    put_header(x, v);
    put_nodes(x, v);
    put_growing(x, v);
    put_jobs(x, v);
    int rc = send_all(x, x->out.s, x->out.n, deadline, &w, &e);
    while (rc == 0) {
        const char *type;
        cJSON *m = read_msg(x, deadline, &w, &type, &e);
        if (!m) {
            rc = -1;
            break;
        }
        if (!strcmp(type, "perf"))
            rc = answer_perf(x, v, m, deadline, &w, &e);
        else {
            if (!strcmp(type, "plan"))
                rc = parse_plan(x, m, plan, &w, &e);
            else if (!strcmp(type, "error"))
                rc = policy_error(m, &w, &e);
            else
                rc = unexpected(m, "a \"plan\" or a \"perf\" request", &w, &e);
            cJSON_Delete(m);
            break;
        }
        cJSON_Delete(m);
    }
    x->total_s += mls_wall_seconds() - t0;
    if (rc < 0) {
        snprintf(err, errlen, "%s", e.msg);
        end_process(x); /* the run fails: do not leave the process behind */
    }
    return rc;
}

/* ---- resolving ---- */

static void free_exec(exec_policy_t *x)
{
    if (!x)
        return;
    end_process(x);
    for (size_t i = 0; x->argv && x->argv[i]; i++)
        free(x->argv[i]);
    free(x->argv);
    free(x->spec);
    free(x->name);
    free(x->paper);
    free(x->summary);
    free(x->params);
    free(x->keys);
    free(x->values);
    free(x->rbuf);
    free(x->out.s);
    free(x->sent.keys);
    free(x->sent.used);
    free(x->next.keys);
    free(x->next.used);
    free(x->sent.slot);
    free(x->next.slot);
    free(x->vals);
    free(x->prev_vals);
    free(x->node_up);
    free(x);
}

/* The run's arguments: the handle first, then the user's less exec.*. */
static int take_args(exec_policy_t *x, const policy_args_t *args, mls_err_t *err)
{
    int n = args ? args->n : 0;
    x->keys = xcalloc((size_t)n + 1, sizeof *x->keys);
    x->values = xcalloc((size_t)n + 1, sizeof *x->values);
    x->keys[0] = handle_key;
    x->values[0] = (const char *)(void *)x;
    x->n_args = 1;
    x->timeout_s = 60;
    for (int i = 0; i < n; i++) {
        if (!strcmp(args->keys[i], "exec.timeout")) {
            if (mls_parse_double(args->values[i], &x->timeout_s) < 0 || !(x->timeout_s > 0))
                return mls_fail(err, "exec policy: exec.timeout wants seconds > 0, got '%s'",
                                args->values[i]);
            continue;
        }
        if (!strncmp(args->keys[i], "exec.", 5))
            return mls_fail(err, "exec policy: unknown adapter parameter '%s' (exec.timeout)",
                            args->keys[i]);
        x->keys[x->n_args] = args->keys[i];
        x->values[x->n_args++] = args->values[i];
    }
    return 0;
}

static int resolve_exec(const char *spec, const policy_args_t *args, policy_ref_t *out,
                        mls_err_t *err)
{
    exec_policy_t *x = xcalloc(1, sizeof *x);
    x->pid = -1;
    x->fd = -1;
    x->spec = xstrdup(spec);
    x->argv = split_args(spec + strlen(MLS_EXEC_PREFIX));
    int rc = 0;
    if (!x->argv[0])
        rc = mls_fail(err, "exec policy: '%s' names no program (exec:PATH [ARGS])", spec);
    if (rc == 0)
        rc = take_args(x, args, err);
    if (rc == 0)
        rc = spawn(x, err);
    if (rc == 0)
        rc = read_hello(x, err);
    if (rc < 0) {
        free_exec(x);
        return -1;
    }
    x->ops.name = x->spec;
    x->ops.paper = x->paper;
    x->ops.summary = x->summary;
    x->ops.params = x->params;
    x->ops.create = exec_create;
    x->ops.schedule = exec_schedule;
    x->ops.destroy = exec_destroy;
    out->ops = &x->ops;
    out->args = (policy_args_t){x->n_args, x->keys, x->values, 0, NULL};
    out->exec = x;
    return 0;
}

/* Reads each sample file that args names among ops->file_params ("key:column"
 * words) into out->samples and points out->args at them. */
static int read_file_params(const policy_ops_t *ops, policy_ref_t *out, mls_err_t *err)
{
    const char *w = ops->file_params;
    while (w && *w) {
        size_t len = strcspn(w, " "), klen = strcspn(w, ":");
        char key[64], column[64], id_column[64] = "";
        if (klen >= len || klen >= sizeof key || len - klen - 1 >= sizeof column)
            return mls_fail(err, "%s: bad file_params word '%.*s'", ops->name, (int)len, w);
        snprintf(key, sizeof key, "%.*s", (int)klen, w);
        snprintf(column, sizeof column, "%.*s", (int)(len - klen - 1), w + klen + 1);
        char *colon = strchr(column, ':'); /* "key:id_column:column": per job */
        if (colon) {
            *colon = '\0';
            snprintf(id_column, sizeof id_column, "%s", column);
            memmove(column, colon + 1, strlen(colon + 1) + 1);
        }
        w += len + strspn(w + len, " ");
        const char *path = policy_arg_str(&out->args, key, NULL);
        if (!path)
            continue;
        long *v, n;
        int64_t *ids = NULL;
        mls_err_t e;
        if ((*id_column ? samples_read_keyed(path, id_column, column, &ids, &v, &n, &e)
                        : samples_read(path, column, &v, &n, &e)) < 0)
            return mls_fail(err, "%s: %s=%s", ops->name, key, e.msg);
        int i = out->args.n_samples;
        out->samples = xrealloc(out->samples, (size_t)(i + 1) * sizeof *out->samples);
        /* the key lives as long as the caller's args, as the values do */
        for (int k = 0; k < out->args.n; k++)
            if (!strcmp(out->args.keys[k], key))
                out->samples[i].key = out->args.keys[k];
        out->samples[i].values = v;
        out->samples[i].n = n;
        out->samples[i].ids = ids;
        out->args.n_samples = i + 1;
        out->args.samples = out->samples;
    }
    return 0;
}

static void free_samples(policy_ref_t *ref)
{
    for (int i = 0; i < ref->args.n_samples; i++) {
        free((long *)ref->samples[i].values);
        free((int64_t *)ref->samples[i].ids);
    }
    free(ref->samples);
}

int policy_resolve(const char *spec, const policy_args_t *args, policy_ref_t *out, mls_err_t *err)
{
    memset(out, 0, sizeof *out);
    if (!spec)
        return mls_fail(err, "no policy given");
    if (policy_is_exec(spec))
        return resolve_exec(spec, args, out, err);
    out->ops = policy_find(spec);
    if (!out->ops)
        return mls_fail(err, "unknown policy '%s' (see mlsched policies)", spec);
    if (args) {
        out->args = *args;
        out->args.n_samples = 0;
        out->args.samples = NULL;
    }
    if (read_file_params(out->ops, out, err) < 0) {
        free_samples(out);
        memset(out, 0, sizeof *out);
        return -1;
    }
    return 0;
}

void policy_release(policy_ref_t *ref)
{
    if (!ref)
        return;
    free_samples(ref);
    free_exec(ref->exec);
    memset(ref, 0, sizeof *ref);
}

void policy_exec_stats(const policy_ref_t *ref, long *decisions, double *total_s, double *policy_s)
{
    const exec_policy_t *x = ref ? ref->exec : NULL;
    *decisions = x ? x->decision : 0;
    *total_s = x ? x->total_s : 0;
    *policy_s = x ? x->policy_s : 0;
}
