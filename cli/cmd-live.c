/* cmd-live.c: `mlsched live` — the live runner's commands.
 *
 *   serve     the daemon (live/daemon.c)
 *   submit    one job, or every job of a trace as fake jobs
 *   status    the daemon's jobs
 *   cancel    a job
 *   drain     no new jobs; the daemon exits once every job has ended
 *   report    a job's progress record (for jobs that are not C programs)
 *   request   one raw JSON request line (debugging, tests)
 *   fake-job  the synthetic job (cli/fakejob.c)
 *   wrap      a real training command as a live job (cli/wrapjob.c) */
#include "cli/cmd.h"
#include "cli/fakejob.h"
#include "cli/wrapjob.h"
#include "cli/opts.h"
#include "live/daemon.h"
#include "live/proto.h"
#include "live/report.h"
#include "model/trace.h"
#include "sim/policy_exec.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- serve ---------------------------------------------------------------- */

static int parse_preempt(void *base, size_t off, const char *arg, const char *who)
{
    (void)who;
    if (strcmp(arg, "checkpoint") && strcmp(arg, "suspend"))
        return -1;
    *(int *)((char *)base + off) = !strcmp(arg, "suspend");
    return 0;
}

typedef struct serve_opts {
    live_config_t cfg;
    opt_params_t params;
} serve_opts_t;

#define V serve_opts_t
static const opt_t serve_options[] = {
    OPT_SHARED_CLUSTER(V, cfg.cluster, "cluster JSON, bundled name (36v100) or spec (v100=1x4)"),
    OPT_STRING("policy", 'p', "NAME", V, cfg.policy,
               "a policy from `mlsched policies`, or 'exec:PATH [ARGS]'\n"
               "(docs/exec-policy.md)"),
    OPT_SHARED_PARAM(V, params, "policy parameter (repeatable)"),
    OPT_SHARED_THROUGHPUTS(V, cfg.throughputs, "perf model (default: the bundled catalog)"),
    OPT_STRING("executor", 'e', "KIND", V, cfg.executor, "local (default) or slurm"),
    OPT_STRING("partition", 0, "NAME", V, cfg.partition,
               "Slurm partition (default: Slurm's default)"),
    OPT_STRING("slurm-nodes", 0, "A,B,...", V, cfg.slurm_nodes,
               "Slurm node name of each cluster node, in order\n(default: Slurm picks the node)"),
    OPT_STRING("state", 'd', "DB", V, cfg.db_path,
               "state database (default results/live.db);\njob logs and files go to DB.d/"),
    OPT_SHARED_ROUND(V, cfg.round_len, "round length in daemon seconds (default 360)"),
    OPT_SHARED_CADENCE(V, cfg.cadence, "events, rounds or both (default: the policy's)"),
    OPT_STRING("socket", 's', "PATH", V, cfg.socket,
               "Unix socket (default $MLSCHED_SOCKET, else\n"
               "$XDG_RUNTIME_DIR/mlsched/live.sock, else\n"
               "/tmp/mlsched-UID/live.sock); its folder is 0700"),
    OPT_NUM(OPT_DOUBLE, "time-scale", 'x', "X", V, cfg.time_scale, 0, 1e300, OPT_ABOVE_LO, NULL,
            "daemon seconds per wall second (default 1)"),
    OPT_NUM(OPT_DOUBLE, "restart-overhead", 0, "S", V, cfg.restart_overhead, 0, 1e300, 0, NULL,
            "daemon s a (re)started job restores (default 20)"),
    OPT_NUM(OPT_DOUBLE, "grace", 0, "S", V, cfg.grace, 0, 1e300, OPT_ABOVE_LO, NULL,
            "wall s from SIGTERM to SIGKILL (default 10)"),
    OPT_CALL("preempt", 0, "MODE", V, cfg.preempt_suspend, parse_preempt,
             "--preempt wants checkpoint or suspend, got '%s'",
             "checkpoint (SIGTERM, default) or suspend\n"
             "(SIGSTOP; SIGCONT when it resumes on the same GPUs)"),
    OPT_SHARED_PLACEMENT(V, cfg.placement,
                         "a job that fits one node when no node has room: spread,\n"
                         "consolidate, auto (default) or hold (see simulate)"),
    OPT_NUM(OPT_INT, "max-failures", 0, "N", V, cfg.max_failures, 0, INT_MAX, 0, NULL,
            "failed runs before a job is given up (default 3)"),
    OPT_FLAG("quiet", 'q', V, cfg.quiet, "no event lines on stderr"),
    OPT_END_ROW};
#undef V

static const opt_cmd_t serve_cmd = {
    .who = "live serve",
    .usage = "--cluster C --policy P --state DB [options]",
    .about = "The live scheduler daemon: accepts jobs on a Unix socket, calls the policy\n"
             "at its cadence, runs the plan through an executor, keeps all state in DB\n"
             "(SQLite, WAL). Restarted after a crash, it re-adopts the jobs still running.",
    .opts = serve_options,
    .footer = "Stops on SIGTERM/SIGINT leaving jobs running (the next daemon re-adopts\n"
              "them), or after `mlsched live drain` once every job has ended.",
};

static int cmd_serve(int argc, char **argv)
{
    serve_opts_t o;
    memset(&o, 0, sizeof o);
    live_config_defaults(&o.cfg);
    o.cfg.db_path = "results/live.db";
    int rc = opt_parse_only(&serve_cmd, &o, argc, argv);
    if (rc == 0 && (!o.cfg.cluster || !o.cfg.policy))
        rc = cmd_usage_error("live serve", "%s", "needs --cluster and --policy");
    if (rc == 0) {
        policy_args_t args = {o.params.n, o.params.keys, o.params.values, 0, NULL};
        policy_ref_t ref;
        mls_err_t err;
        /* an exec: policy's process starts here, once for the daemon's life */
        if (policy_resolve(o.cfg.policy, &args, &ref, &err) == 0) {
            o.cfg.ops = ref.ops;
            o.cfg.args = ref.args;
            if (live_serve(&o.cfg, &err) < 0)
                rc = -2;
        } else
            rc = -2;
        if (rc == -2) {
            fprintf(stderr, "mlsched live serve: %s\n", err.msg);
            rc = MLS_EXIT_FAIL;
        }
        policy_release(&ref);
    }
    opt_params_free(&o.params);
    return rc < 0 ? MLS_EXIT_OK : rc;
}

/* ---- client commands ---------------------------------------------------- */

/* Sends a request; prints the error of a refusal. Returns the reply object
 * (caller deletes) or NULL. */
static cJSON *ask(const char *cmd, const char *sock, const char *line)
{
    char buf[4096];
    mls_err_t err;
    if (!sock)
        sock = live_default_socket(buf, sizeof buf);
    char *reply = live_request(sock, line, 30, &err);
    if (!reply) {
        fprintf(stderr, "mlsched live %s: %s\n", cmd, err.msg);
        return NULL;
    }
    cJSON *o = cJSON_Parse(reply);
    free(reply);
    const cJSON *ok = o ? cJSON_GetObjectItemCaseSensitive(o, "ok") : NULL;
    if (!cJSON_IsTrue(ok)) {
        const cJSON *e = o ? cJSON_GetObjectItemCaseSensitive(o, "error") : NULL;
        fprintf(stderr, "mlsched live %s: %s\n", cmd,
                cJSON_IsString(e) ? e->valuestring : "malformed reply from the daemon");
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static int simple(const char *cmd, const char *sock, const char *line)
{
    cJSON *o = ask(cmd, sock, line);
    cJSON_Delete(o);
    return o ? MLS_EXIT_OK : MLS_EXIT_FAIL;
}

static char *self_exe(void)
{
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return xstrdup("mlsched");
    buf[n] = '\0';
    return xstrdup(buf);
}

static int submit_one(const char *sock, live_submit_t *s)
{
    char *line = live_submit_to_json(s);
    cJSON *o = ask("submit", sock, line);
    free(line);
    if (!o)
        return MLS_EXIT_FAIL;
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(o, "id");
    printf("%.0f\n", cJSON_IsNumber(id) ? id->valuedouble : -1.0);
    cJSON_Delete(o);
    return MLS_EXIT_OK;
}

/* Daemon time at which a trace's time 0 is put: --at-offset, else a round
 * boundary at least one wall second ahead (so the trace's rounds line up
 * with the daemon's, as in the simulator). */
static int trace_base(const char *sock, double given, double *base)
{
    if (!isnan(given)) {
        *base = given;
        return 0;
    }
    cJSON *o = ask("submit", sock, "{\"op\":\"status\"}");
    if (!o)
        return -1;
    const cJSON *now = cJSON_GetObjectItemCaseSensitive(o, "now");
    const cJSON *scale = cJSON_GetObjectItemCaseSensitive(o, "time_scale");
    const cJSON *round = cJSON_GetObjectItemCaseSensitive(o, "round");
    double t = cJSON_IsNumber(now) ? now->valuedouble : 0;
    t += cJSON_IsNumber(scale) ? scale->valuedouble : 1;
    double r = cJSON_IsNumber(round) ? round->valuedouble : 0;
    *base = r > 0 ? ceil(t / r) * r : ceil(t);
    cJSON_Delete(o);
    return 0;
}

/* A job that adapts its own batch (mode accordion or gns, Shockwave's jobs)
 * cannot run live: the fake job keeps its batch, so the run would silently
 * be another experiment than `simulate` on the same trace. Refused whole,
 * before any job is submitted. */
static int check_static(const mls_trace_t *tr, const char *path)
{
    for (size_t i = 0; i < tr->n; i++)
        if (tr->jobs[i].mode != ADAPT_STATIC) {
            fprintf(stderr,
                    "mlsched live submit: %s: job %lld: mode %s: a job that adapts its own "
                    "batch size is not run live (the fake job keeps its batch); nothing "
                    "submitted\n",
                    path, (long long)tr->jobs[i].id,
                    tr->jobs[i].mode == ADAPT_ACCORDION ? "accordion" : "gns");
            return -1;
        }
    return 0;
}

static int submit_trace(const char *sock, const char *path, const char *throughputs,
                        double offset)
{
    mls_trace_t tr;
    mls_err_t err;
    double base;
    trace_init(&tr);
    if (trace_read_csv(&tr, path, 0, &err) < 0) {
        fprintf(stderr, "mlsched live submit: %s\n", err.msg);
        trace_free(&tr);
        return MLS_EXIT_FAIL;
    }
    if (check_static(&tr, path) < 0 || trace_base(sock, offset, &base) < 0) {
        trace_free(&tr);
        return MLS_EXIT_FAIL;
    }
    char *exe = self_exe();
    int rc = MLS_EXIT_OK;
    for (size_t i = 0; i < tr.n && rc == MLS_EXIT_OK; i++) {
        const mls_job_t *j = &tr.jobs[i];
        char *argv[6] = {exe, "live", "fake-job", NULL, NULL, NULL};
        if (throughputs) {
            argv[3] = "--throughputs";
            argv[4] = (char *)throughputs;
        }
        live_submit_t s = {throughputs ? 5 : 3, argv, tr.workloads.names[j->workload],
                           tr.users.names[j->user], j->gpus, j->min_gpus, j->max_gpus,
                           j->batch_size, j->batch_size, j->batch_size, j->work, j->priority,
                           base + j->submit, j->id, j->gang};
        rc = submit_one(sock, &s);
    }
    free(exe);
    trace_free(&tr);
    return rc;
}

typedef struct submit_opts {
    live_submit_t s;
    const char *workload, *user, *sock, *trace, *throughputs;
    int lo, hi, blo, bhi, id, gang;
    double offset;
} submit_opts_t;

/* A count: a whole number >= 0 (given as 4 or 4.0). */
#define COUNT(n_, l_, f_, h_)                                                                      \
    OPT_NUM(OPT_WHOLE, n_, l_, "N", submit_opts_t, f_, 0, INT_MAX, 0, NULL, h_)
#define AMOUNT(n_, a_, f_, h_)                                                                     \
    OPT_NUM(OPT_DOUBLE, n_, 0, a_, submit_opts_t, f_, 0, 1e300, 0, NULL, h_)
static const opt_t submit_options[] = {
    OPT_STRING("workload", 'w', "W", submit_opts_t, workload,
               "perf-model workload (what the policy estimates with)"),
    COUNT("gpus", 'g', s.gpus, "GPUs requested"),
    OPT_NUM(OPT_DOUBLE, "work", 'n', "N", submit_opts_t, s.work, 0, 1e300, 0, NULL,
            "total work units"),
    COUNT("min-gpus", 0, lo, "elastic range (default: --gpus)"),
    COUNT("max-gpus", 0, hi, "elastic range (default: --gpus)"),
    COUNT("batch", 0, s.batch, "per-GPU batch size (default: the workload's own)"),
    COUNT("min-batch", 0, blo, "per-GPU batch size bounds (default: --batch)"),
    COUNT("max-batch", 0, bhi, "per-GPU batch size bounds (default: --batch)"),
    OPT_STRING("user", 'u', "NAME", submit_opts_t, user, "user (default: your login)"),
    AMOUNT("priority", "W", s.priority, "weight (default 1)"),
    COUNT("id", 0, id, "job id (default: the daemon's next)"),
    COUNT("gang", 0, gang, "the multi-component program (Pathways) it is one\n"
                           "computation of (default: none)"),
    AMOUNT("at", "T", s.submit_at, "arrival at daemon time T s (default: now)"),
    OPT_STRING("trace", 't', "FILE", submit_opts_t, trace, "submit a whole trace as fake jobs"),
    OPT_SHARED_THROUGHPUTS(submit_opts_t, throughputs, "perf model the fake jobs use (trace mode)"),
    AMOUNT("at-offset", "T", offset,
           "daemon time of the trace's time 0 (default: the\n"
           "first round boundary at least 1 wall s ahead)"),
    OPT_STRING("socket", 's', "PATH", submit_opts_t, sock, "the daemon's socket"),
    OPT_END_ROW};
#undef COUNT
#undef AMOUNT

static const opt_cmd_t submit_cmd = {
    .who = "live submit",
    .usage = "--workload W --gpus N --work N [options] -- PROG [ARG...]\n"
             "       mlsched live submit --trace FILE [--throughputs F] [--at-offset S]",
    .about = "Submits a job: PROG ARG... is run as given (no shell) on the GPUs the policy\n"
             "chooses. With --trace, every job of a canonical trace becomes a fake job\n"
             "(mlsched live fake-job) arriving at its submit_time (daemon time).",
    .opts = submit_options,
    .flags = OPT_STOP_AT_ARG,
};

static int cmd_submit(int argc, char **argv)
{
    submit_opts_t o;
    memset(&o, 0, sizeof o);
    o.offset = NAN;
    o.s.priority = 1;
    o.s.submit_at = NAN;
    o.lo = o.hi = o.blo = o.bhi = o.id = -1;
    int first, rc = opt_parse(&submit_cmd, &o, argc, argv, &first);
    if (rc)
        return rc < 0 ? MLS_EXIT_OK : rc;
    if (o.trace)
        return submit_trace(o.sock, o.trace, o.throughputs, o.offset);
    live_submit_t *s = &o.s;
    if (!o.workload || s->gpus < 1 || !(s->work > 0) || first >= argc)
        return cmd_usage_error("live submit", "%s",
                               "needs --workload, --gpus >= 1, --work > 0 and -- PROG [ARG...]");
    s->workload = (char *)o.workload;
    s->user = (char *)o.user;
    s->id = o.id;
    s->gang = o.gang;
    s->min_gpus = o.lo >= 0 ? o.lo : s->gpus;
    s->max_gpus = o.hi >= 0 ? o.hi : s->gpus;
    s->min_batch = o.blo >= 0 ? o.blo : s->batch;
    s->max_batch = o.bhi >= 0 ? o.bhi : s->batch;
    s->argc = argc - first;
    s->argv = argv + first;
    return submit_one(o.sock, s);
}

static double num_field(const cJSON *o, const char *k)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(f) ? f->valuedouble : NAN;
}

static const char *str_field(const cJSON *o, const char *k)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(f) ? f->valuestring : "-";
}

static void status_print(const cJSON *o)
{
    printf("t=%.1f s%s\n", num_field(o, "now"),
           cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "draining")) ? " (draining)" : "");
    printf("%-6s %-9s %-28s %4s %9s %12s %12s %10s\n", "id", "state", "workload", "gpus",
           "alloc", "work_done", "work", "jct");
    const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(o, "jobs");
    const cJSON *j;
    cJSON_ArrayForEach(j, jobs)
    {
        char alloc[32] = "-";
        const cJSON *ids = cJSON_GetObjectItemCaseSensitive(j, "gpu_ids");
        const cJSON *mate = cJSON_GetObjectItemCaseSensitive(j, "pack_with");
        if (ids && cJSON_IsNumber(mate)) /* sharing its GPUs with job `mate` */
            snprintf(alloc, sizeof alloc, "%dx%s&%.0f", cJSON_GetArraySize(ids),
                     str_field(j, "type"), mate->valuedouble);
        else if (ids)
            snprintf(alloc, sizeof alloc, "%dx%s", cJSON_GetArraySize(ids), str_field(j, "type"));
        printf("%-6.0f %-9s %-28.28s %4.0f %9s %12.1f %12.1f %10.1f\n", num_field(j, "id"),
               str_field(j, "state"), str_field(j, "workload"), num_field(j, "gpus"), alloc,
               num_field(j, "work_done"), num_field(j, "work"), num_field(j, "jct"));
    }
}

typedef struct client_opts {
    const char *sock;
    int json;
} client_opts_t;

static const opt_t socket_options[] = {
    OPT_STRING("socket", 's', "PATH", client_opts_t, sock, "the daemon's socket"), OPT_END_ROW};
static const opt_t status_options[] = {
    OPT_FLAG("json", 'j', client_opts_t, json, "print the daemon's reply as JSON"),
    OPT_INCLUDE(client_opts_t, sock, socket_options), OPT_END_ROW};

static const opt_cmd_t status_cmd = {
    .who = "live status",
    .usage = "[--json] [--socket PATH]",
    .about = "Lists the daemon's jobs (the reply as JSON with --json).",
    .opts = status_options,
    .flags = OPT_STOP_AT_ARG,
};
static const opt_cmd_t cancel_cmd = {
    .who = "live cancel",
    .usage = "[--socket PATH] ID",
    .about = "Cancels a job: SIGTERM, then SIGKILL after the grace period.",
    .opts = socket_options,
    .flags = OPT_STOP_AT_ARG,
};
static const opt_cmd_t drain_cmd = {
    .who = "live drain",
    .usage = "[--socket PATH]",
    .about = "The daemon takes no new jobs and exits once every job has ended.",
    .opts = socket_options,
    .flags = OPT_STOP_AT_ARG,
};
static const opt_cmd_t request_cmd = {
    .who = "live request",
    .usage = "[--socket PATH] LINE",
    .about = "Sends LINE as one request (any text; for debugging and tests) and prints\n"
             "the reply. Exit 0 when the reply says ok, 1 otherwise.",
    .opts = socket_options,
    .flags = OPT_STOP_AT_ARG,
};

static int cmd_status(int argc, char **argv)
{
    client_opts_t o = {0};
    int rc = opt_parse_only(&status_cmd, &o, argc, argv);
    if (rc)
        return rc < 0 ? MLS_EXIT_OK : rc;
    cJSON *r = ask("status", o.sock, "{\"op\":\"status\"}");
    if (!r)
        return MLS_EXIT_FAIL;
    if (o.json) {
        char *t = cJSON_PrintUnformatted(r);
        puts(t);
        free(t);
    } else
        status_print(r);
    cJSON_Delete(r);
    return MLS_EXIT_OK;
}

static int cmd_cancel(int argc, char **argv)
{
    client_opts_t o = {0};
    int first, rc = opt_parse(&cancel_cmd, &o, argc, argv, &first);
    if (rc)
        return rc < 0 ? MLS_EXIT_OK : rc;
    long id;
    if (first + 1 != argc)
        return cmd_usage_error("live cancel", "%s", "wants one job ID");
    if (mls_parse_long(argv[first], &id) < 0 || id < 0)
        return cmd_usage_error("live cancel", "'%s' is not a job id", argv[first]);
    char line[96];
    snprintf(line, sizeof line, "{\"op\":\"cancel\",\"id\":%ld}", id);
    return simple("cancel", o.sock, line);
}

static int cmd_drain(int argc, char **argv)
{
    client_opts_t o = {0};
    int rc = opt_parse_only(&drain_cmd, &o, argc, argv);
    if (rc)
        return rc < 0 ? MLS_EXIT_OK : rc;
    return simple("drain", o.sock, "{\"op\":\"drain\"}");
}

static int cmd_request(int argc, char **argv)
{
    client_opts_t o = {0};
    char buf[4096];
    mls_err_t err;
    int first, rc = opt_parse(&request_cmd, &o, argc, argv, &first);
    if (rc)
        return rc < 0 ? MLS_EXIT_OK : rc;
    if (first + 1 != argc)
        return cmd_usage_error("live request", "%s", "wants one request LINE");
    const char *sock = o.sock ? o.sock : live_default_socket(buf, sizeof buf);
    char *reply = live_request(sock, argv[first], 30, &err);
    if (!reply) {
        fprintf(stderr, "mlsched live request: %s\n", err.msg);
        return MLS_EXIT_FAIL;
    }
    fputs(reply, stdout);
    rc = strstr(reply, "\"ok\":true") ? MLS_EXIT_OK : MLS_EXIT_FAIL;
    free(reply);
    return rc;
}

typedef struct report_opts {
    double iter, samples, iter_time, batch, gns, job;
    const char *sock;
} report_opts_t;

#define AMOUNT(n_, a_, f_, h_)                                                                     \
    OPT_NUM(OPT_DOUBLE, n_, 0, a_, report_opts_t, f_, 0, 1e300, 0, NULL, h_)
static const opt_t report_options[] = {
    AMOUNT("iter", "N", iter, "iterations done (required)"),
    AMOUNT("samples", "N", samples, "samples done"),
    AMOUNT("iter-time", "S", iter_time, "seconds per iteration"),
    AMOUNT("batch", "B", batch, "per-GPU batch size"),
    AMOUNT("gns", "G", gns, "gradient noise scale"),
    AMOUNT("job", "ID", job, "the job (default $MLSCHED_JOB_ID)"),
    OPT_STRING("socket", 's', "PATH", report_opts_t, sock,
               "the daemon's socket (default $MLSCHED_SOCKET)"),
    OPT_END_ROW};
#undef AMOUNT

static const opt_cmd_t report_cmd = {
    .who = "live report",
    .usage = "--iter N [--samples N] [--iter-time S] [--batch B]\n"
             "                           [--gns G] [--job ID] [--socket PATH]",
    .about = "Sends a progress record for $MLSCHED_JOB_ID to $MLSCHED_SOCKET (as a job\n"
             "started by the daemon has them). Exit 1 when the daemon refuses or is away.",
    .opts = report_options,
};

static int cmd_report(int argc, char **argv)
{
    report_opts_t o = {NAN, NAN, NAN, 0, NAN, -1, NULL};
    int rc = opt_parse_only(&report_cmd, &o, argc, argv);
    if (rc)
        return rc < 0 ? MLS_EXIT_OK : rc;
    if (isnan(o.iter))
        return cmd_usage_error("live report", "%s", "--iter is required");
    live_progress_t p = {(int64_t)o.job, o.iter, o.samples, o.iter_time, (int)o.batch, o.gns, ""};
    mls_err_t err;
    if (live_report(o.sock, &p, &err) < 0) {
        fprintf(stderr, "mlsched live report: %s\n", err.msg);
        return MLS_EXIT_FAIL;
    }
    return MLS_EXIT_OK;
}

static const cmd_verb_t verbs[] = {
    {"serve", "run the scheduler daemon", cmd_serve},
    {"submit", "submit a job (or a whole trace of fake jobs)", cmd_submit},
    {"status", "list the daemon's jobs", cmd_status},
    {"cancel", "cancel a job", cmd_cancel},
    {"drain", "take no new jobs; the daemon exits when every job has ended", cmd_drain},
    {"report", "send a job's progress record to the daemon", cmd_report},
    {"request", "send one raw JSON request line, print the reply", cmd_request},
    {"fake-job", "a synthetic job that runs at the perf model's rate", live_fake_job_main},
    {"wrap", "run a training command that prints progress lines as a job", live_wrap_main},
};
#define N_VERBS (sizeof verbs / sizeof verbs[0])

static void usage(FILE *out)
{
    fprintf(out, "usage: mlsched live <command> [options]   (each command has --help)\n"
                 "\n"
                 "Runs the same policy code on real jobs (local processes or Slurm).\n"
                 "\n");
    cmd_list_verbs(out, verbs, N_VERBS, 9);
}

static int live_exec(int argc, char **argv)
{
    return cmd_run_verb("live", verbs, N_VERBS, usage, argc, argv);
}

const cmd_entry_t cmd_live_entry = {"live", "run policies on real jobs: serve, submit, status, ...",
                                    live_exec};
