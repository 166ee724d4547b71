/* cmd-live.c: `mlsched live` — the live runner's commands.
 *
 *   serve     the daemon (live/daemon.c)
 *   submit    one job, or every job of a trace as fake jobs
 *   status    the daemon's jobs
 *   cancel    a job
 *   drain     no new jobs; the daemon exits once every job has ended
 *   report    a job's progress record (for jobs that are not C programs)
 *   request   one raw JSON request line (debugging, tests)
 *   fake-job  the synthetic job (live/fakejob.c) */
#include "cmd.h"
#include "daemon.h"
#include "fakejob.h"
#include "proto.h"
#include "report.h"
#include "trace.h"

#include <cjson/cJSON.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_PARAMS 64

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mlsched live <command> [options]   (each command has --help)\n"
            "\n"
            "Runs the same policy code on real jobs (local processes or Slurm).\n"
            "\n"
            "  serve     run the scheduler daemon\n"
            "  submit    submit a job (or a whole trace of fake jobs)\n"
            "  status    list the daemon's jobs\n"
            "  cancel    cancel a job\n"
            "  drain     take no new jobs; the daemon exits when every job has ended\n"
            "  report    send a job's progress record to the daemon\n"
            "  request   send one raw JSON request line, print the reply\n"
            "  fake-job  a synthetic job that runs at the perf model's rate\n");
}

static int bad_number(const char *cmd, const char *flag, const char *v)
{
    fprintf(stderr, "mlsched live %s: %s: '%s' is not a valid number\n", cmd, flag, v);
    return MLS_EXIT_USAGE;
}

/* ---- serve ---------------------------------------------------------------- */

static void serve_usage(FILE *out)
{
    fprintf(out,
            "usage: mlsched live serve --cluster C --policy P --state DB [options]\n"
            "\n"
            "The live scheduler daemon: accepts jobs on a Unix socket, calls the policy\n"
            "at its cadence, runs the plan through an executor, keeps all state in DB\n"
            "(SQLite, WAL). Restarted after a crash, it re-adopts the jobs still running.\n"
            "\n"
            "  -c, --cluster FILE|SPEC    cluster JSON or spec (e.g. v100=1x4)\n"
            "  -p, --policy NAME          a policy from `mlsched policies`\n"
            "  -P, --param KEY=VALUE      policy parameter (repeatable)\n"
            "      --throughputs FILE     perf model (default: the bundled catalog)\n"
            "  -e, --executor KIND        local (default) or slurm\n"
            "      --partition NAME       Slurm partition (default: Slurm's default)\n"
            "      --slurm-nodes A,B,...  Slurm node name of each cluster node, in order\n"
            "                             (default: Slurm picks the node)\n"
            "  -d, --state DB             state database (default results/live.db);\n"
            "                             job logs and files go to DB.d/\n"
            "  -r, --round S              round length in daemon seconds (default 360)\n"
            "      --cadence MODE         events, rounds or both (default: the policy's)\n"
            "  -s, --socket PATH          Unix socket (default $MLSCHED_SOCKET, else\n"
            "                             $XDG_RUNTIME_DIR/mlsched/live.sock, else\n"
            "                             /tmp/mlsched-UID/live.sock); its folder is 0700\n"
            "  -x, --time-scale X         daemon seconds per wall second (default 1)\n"
            "      --restart-overhead S   daemon s a (re)started job restores (default 20)\n"
            "      --grace S              wall s from SIGTERM to SIGKILL (default 10)\n"
            "      --preempt MODE         checkpoint (SIGTERM, default) or suspend\n"
            "                             (SIGSTOP; SIGCONT when it resumes on the same GPUs)\n"
            "      --max-failures N       failed runs before a job is given up (default 3)\n"
            "  -q, --quiet                no event lines on stderr\n"
            "  -h, --help                 this text\n"
            "\n"
            "Stops on SIGTERM/SIGINT leaving jobs running (the next daemon re-adopts\n"
            "them), or after `mlsched live drain` once every job has ended.\n");
}

static int cmd_serve(int argc, char **argv)
{
    static const struct option opts[] = {
        {"cluster", required_argument, 0, 'c'},  {"policy", required_argument, 0, 'p'},
        {"param", required_argument, 0, 'P'},    {"throughputs", required_argument, 0, 'T'},
        {"executor", required_argument, 0, 'e'}, {"partition", required_argument, 0, 'N'},
        {"state", required_argument, 0, 'd'},    {"round", required_argument, 0, 'r'},
        {"cadence", required_argument, 0, 'C'},  {"socket", required_argument, 0, 's'},
        {"time-scale", required_argument, 0, 'x'},
        {"restart-overhead", required_argument, 0, 'o'},
        {"grace", required_argument, 0, 'g'},    {"preempt", required_argument, 0, 'm'},
        {"max-failures", required_argument, 0, 'f'},
        {"slurm-nodes", required_argument, 0, 'S'},
        {"quiet", no_argument, 0, 'q'},          {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    live_config_t cfg;
    live_config_defaults(&cfg);
    cfg.db_path = "results/live.db";
    const char *keys[MAX_PARAMS], *values[MAX_PARAMS];
    char *bufs[MAX_PARAMS];
    int np = 0, c, rc = MLS_EXIT_OK;
    double v;
    long lv;
    while ((c = getopt_long(argc, argv, "c:p:P:e:d:r:s:x:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'c': cfg.cluster = optarg; break;
        case 'p': cfg.policy = optarg; break;
        case 'T': cfg.throughputs = optarg; break;
        case 'e': cfg.executor = optarg; break;
        case 'N': cfg.partition = optarg; break;
        case 'S': cfg.slurm_nodes = optarg; break;
        case 'd': cfg.db_path = optarg; break;
        case 's': cfg.socket = optarg; break;
        case 'q': cfg.quiet = 1; break;
        case 'P': {
            char *eq = strchr(optarg, '=');
            if (!eq || eq == optarg || np == MAX_PARAMS) {
                fprintf(stderr, "mlsched live serve: --param: wants KEY=VALUE, got '%s'\n",
                        optarg);
                rc = MLS_EXIT_USAGE;
                goto out;
            }
            bufs[np] = xstrdup(optarg);
            bufs[np][eq - optarg] = '\0';
            keys[np] = bufs[np];
            values[np] = bufs[np] + (eq - optarg) + 1;
            np++;
            break;
        }
        case 'C':
            cfg.cadence = !strcmp(optarg, "events")   ? MLS_CADENCE_EVENTS
                          : !strcmp(optarg, "rounds") ? MLS_CADENCE_ROUNDS
                          : !strcmp(optarg, "both")   ? MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS
                                                      : 0;
            if (!cfg.cadence) {
                fprintf(stderr, "mlsched live serve: --cadence: events, rounds or both\n");
                rc = MLS_EXIT_USAGE;
                goto out;
            }
            break;
        case 'm':
            if (strcmp(optarg, "checkpoint") && strcmp(optarg, "suspend")) {
                fprintf(stderr, "mlsched live serve: --preempt: checkpoint or suspend\n");
                rc = MLS_EXIT_USAGE;
                goto out;
            }
            cfg.preempt_suspend = !strcmp(optarg, "suspend");
            break;
        case 'f':
            if (mls_parse_long(optarg, &lv) < 0 || lv < 0 || lv > INT_MAX) {
                rc = bad_number("serve", "--max-failures", optarg);
                goto out;
            }
            cfg.max_failures = (int)lv;
            break;
        case 'r': case 'x': case 'o': case 'g':
            if (mls_parse_double(optarg, &v) < 0 || v < 0 || !isfinite(v) ||
                ((c == 'x' || c == 'g') && v <= 0)) {
                rc = bad_number("serve", argv[optind - 1], optarg);
                goto out;
            }
            if (c == 'r')
                cfg.round_len = v;
            else if (c == 'x')
                cfg.time_scale = v;
            else if (c == 'o')
                cfg.restart_overhead = v;
            else
                cfg.grace = v;
            break;
        case 'h': serve_usage(stdout); goto out;
        default: serve_usage(stderr); rc = MLS_EXIT_USAGE; goto out;
        }
    }
    if (!cfg.cluster || !cfg.policy || optind < argc) {
        fprintf(stderr, "mlsched live serve: needs --cluster and --policy (see --help)\n");
        rc = MLS_EXIT_USAGE;
        goto out;
    }
    cfg.args = (policy_args_t){np, keys, values};
    mls_err_t err;
    if (live_serve(&cfg, &err) < 0) {
        fprintf(stderr, "mlsched live serve: %s\n", err.msg);
        rc = MLS_EXIT_FAIL;
    }
out:
    for (int i = 0; i < np; i++)
        free(bufs[i]);
    return rc;
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

static void submit_usage(FILE *out)
{
    fprintf(out,
            "usage: mlsched live submit --workload W --gpus N --work N [options] -- PROG [ARG...]\n"
            "       mlsched live submit --trace FILE [--throughputs F] [--at-offset S]\n"
            "\n"
            "Submits a job: PROG ARG... is run as given (no shell) on the GPUs the policy\n"
            "chooses. With --trace, every job of a canonical trace becomes a fake job\n"
            "(mlsched live fake-job) arriving at its submit_time (daemon time).\n"
            "\n"
            "  -w, --workload W       perf-model workload (what the policy estimates with)\n"
            "  -g, --gpus N           GPUs requested\n"
            "  -n, --work N           total work units\n"
            "      --min-gpus N, --max-gpus N     elastic range (default: --gpus)\n"
            "      --batch B, --min-batch B, --max-batch B   per-GPU batch size bounds\n"
            "      --user NAME        user (default: your login)\n"
            "      --priority W       weight (default 1)\n"
            "      --id N             job id (default: the daemon's next)\n"
            "      --at T             arrival at daemon time T s (default: now)\n"
            "  -t, --trace FILE       submit a whole trace as fake jobs\n"
            "      --throughputs F    perf model the fake jobs use (trace mode)\n"
            "      --at-offset T      daemon time of the trace's time 0 (default: the\n"
            "                         first round boundary at least 1 wall s ahead)\n"
            "  -s, --socket PATH      the daemon's socket\n"
            "  -h, --help             this text\n");
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

static int submit_trace(const char *sock, const char *path, const char *throughputs,
                        double offset)
{
    mls_trace_t tr;
    mls_err_t err;
    double base;
    if (trace_base(sock, offset, &base) < 0)
        return MLS_EXIT_FAIL;
    trace_init(&tr);
    if (trace_read_csv(&tr, path, 0, &err) < 0) {
        fprintf(stderr, "mlsched live submit: %s\n", err.msg);
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
                           base + j->submit, j->id};
        rc = submit_one(sock, &s);
    }
    free(exe);
    trace_free(&tr);
    return rc;
}

static int cmd_submit(int argc, char **argv)
{
    static const struct option opts[] = {
        {"workload", required_argument, 0, 'w'}, {"gpus", required_argument, 0, 'g'},
        {"work", required_argument, 0, 'n'},     {"min-gpus", required_argument, 0, 1},
        {"max-gpus", required_argument, 0, 2},   {"batch", required_argument, 0, 3},
        {"min-batch", required_argument, 0, 4},  {"max-batch", required_argument, 0, 5},
        {"user", required_argument, 0, 'u'},     {"priority", required_argument, 0, 6},
        {"id", required_argument, 0, 7},         {"at", required_argument, 0, 8},
        {"trace", required_argument, 0, 't'},    {"throughputs", required_argument, 0, 'T'},
        {"socket", required_argument, 0, 's'},   {"help", no_argument, 0, 'h'},
        {"at-offset", required_argument, 0, 9},  {0, 0, 0, 0}};
    live_submit_t s = {0};
    double offset = NAN;
    s.priority = 1;
    s.submit_at = NAN;
    s.id = -1;
    long lo = -1, hi = -1, blo = -1, bhi = -1, lv;
    const char *sock = NULL, *trace = NULL, *tp = NULL;
    int c;
    double v;
    while ((c = getopt_long(argc, argv, "+w:g:n:u:t:s:h", opts, NULL)) != -1) {
        int is_int = c == 'g' || (c >= 1 && c <= 5) || c == 7;
        int is_num = is_int || c == 'n' || c == 6 || c == 8 || c == 9;
        if (is_num && (mls_parse_double(optarg, &v) < 0 || !isfinite(v) || v < 0 ||
                       (is_int && (v != floor(v) || v > INT_MAX))))
            return bad_number("submit", argv[optind - 1], optarg);
        lv = is_int ? (long)v : 0;
        switch (c) {
        case 'w': s.workload = optarg; break;
        case 'g': s.gpus = (int)lv; break;
        case 'n': s.work = v; break;
        case 1: lo = lv; break;
        case 2: hi = lv; break;
        case 3: s.batch = (int)lv; break;
        case 4: blo = lv; break;
        case 5: bhi = lv; break;
        case 'u': s.user = optarg; break;
        case 6: s.priority = v; break;
        case 7: s.id = lv; break;
        case 8: s.submit_at = v; break;
        case 9: offset = v; break;
        case 't': trace = optarg; break;
        case 'T': tp = optarg; break;
        case 's': sock = optarg; break;
        case 'h': submit_usage(stdout); return MLS_EXIT_OK;
        default: submit_usage(stderr); return MLS_EXIT_USAGE;
        }
    }
    if (trace)
        return submit_trace(sock, trace, tp, offset);
    if (!s.workload || s.gpus < 1 || !(s.work > 0) || optind >= argc) {
        fprintf(stderr, "mlsched live submit: needs --workload, --gpus >= 1, --work > 0 and "
                        "-- PROG [ARG...] (see --help)\n");
        return MLS_EXIT_USAGE;
    }
    s.min_gpus = lo >= 0 ? (int)lo : s.gpus;
    s.max_gpus = hi >= 0 ? (int)hi : s.gpus;
    s.min_batch = blo >= 0 ? (int)blo : s.batch;
    s.max_batch = bhi >= 0 ? (int)bhi : s.batch;
    s.argc = argc - optind;
    s.argv = argv + optind;
    return submit_one(sock, &s);
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

static int client_common(const char *cmd, int argc, char **argv, const char **sock, int *json,
                         void (*help)(FILE *))
{
    static const struct option opts[] = {{"socket", required_argument, 0, 's'},
                                         {"json", no_argument, 0, 'j'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    int c;
    (void)cmd;
    while ((c = getopt_long(argc, argv, "+s:jh", opts, NULL)) != -1) {
        switch (c) {
        case 's': *sock = optarg; break;
        case 'j':
            if (!json) {
                help(stderr);
                return MLS_EXIT_USAGE;
            }
            *json = 1;
            break;
        case 'h': help(stdout); return -1;
        default: help(stderr); return MLS_EXIT_USAGE;
        }
    }
    return MLS_EXIT_OK;
}

static void status_usage(FILE *out)
{
    fprintf(out, "usage: mlsched live status [--json] [--socket PATH]\n\n"
                 "Lists the daemon's jobs (the reply as JSON with --json).\n");
}

static int cmd_status(int argc, char **argv)
{
    const char *sock = NULL;
    int json = 0, rc = client_common("status", argc, argv, &sock, &json, status_usage);
    if (rc)
        return rc < 0 ? MLS_EXIT_OK : rc;
    if (optind < argc) {
        status_usage(stderr);
        return MLS_EXIT_USAGE;
    }
    cJSON *o = ask("status", sock, "{\"op\":\"status\"}");
    if (!o)
        return MLS_EXIT_FAIL;
    if (json) {
        char *t = cJSON_PrintUnformatted(o);
        puts(t);
        free(t);
    } else
        status_print(o);
    cJSON_Delete(o);
    return MLS_EXIT_OK;
}

static void cancel_usage(FILE *out)
{
    fprintf(out, "usage: mlsched live cancel [--socket PATH] ID\n\n"
                 "Cancels a job: SIGTERM, then SIGKILL after the grace period.\n");
}

static int cmd_cancel(int argc, char **argv)
{
    const char *sock = NULL;
    int rc = client_common("cancel", argc, argv, &sock, NULL, cancel_usage);
    if (rc)
        return rc < 0 ? MLS_EXIT_OK : rc;
    long id;
    if (optind + 1 != argc || mls_parse_long(argv[optind], &id) < 0 || id < 0) {
        cancel_usage(stderr);
        return MLS_EXIT_USAGE;
    }
    char line[96];
    snprintf(line, sizeof line, "{\"op\":\"cancel\",\"id\":%ld}", id);
    return simple("cancel", sock, line);
}

static void drain_usage(FILE *out)
{
    fprintf(out, "usage: mlsched live drain [--socket PATH]\n\n"
                 "The daemon takes no new jobs and exits once every job has ended.\n");
}

static int cmd_drain(int argc, char **argv)
{
    const char *sock = NULL;
    int rc = client_common("drain", argc, argv, &sock, NULL, drain_usage);
    if (rc)
        return rc < 0 ? MLS_EXIT_OK : rc;
    if (optind < argc) {
        drain_usage(stderr);
        return MLS_EXIT_USAGE;
    }
    return simple("drain", sock, "{\"op\":\"drain\"}");
}

static void request_usage(FILE *out)
{
    fprintf(out, "usage: mlsched live request [--socket PATH] LINE\n\n"
                 "Sends LINE as one request (any text; for debugging and tests) and prints\n"
                 "the reply. Exit 0 when the reply says ok, 1 otherwise.\n");
}

static int cmd_request(int argc, char **argv)
{
    const char *sock = NULL;
    char buf[4096];
    mls_err_t err;
    int rc = client_common("request", argc, argv, &sock, NULL, request_usage);
    if (rc)
        return rc < 0 ? MLS_EXIT_OK : rc;
    if (optind + 1 != argc) {
        request_usage(stderr);
        return MLS_EXIT_USAGE;
    }
    if (!sock)
        sock = live_default_socket(buf, sizeof buf);
    char *reply = live_request(sock, argv[optind], 30, &err);
    if (!reply) {
        fprintf(stderr, "mlsched live request: %s\n", err.msg);
        return MLS_EXIT_FAIL;
    }
    fputs(reply, stdout);
    rc = strstr(reply, "\"ok\":true") ? MLS_EXIT_OK : MLS_EXIT_FAIL;
    free(reply);
    return rc;
}

static void report_usage(FILE *out)
{
    fprintf(out,
            "usage: mlsched live report --iter N [--samples N] [--iter-time S] [--batch B]\n"
            "                           [--gns G] [--job ID] [--socket PATH]\n"
            "\n"
            "Sends a progress record for $MLSCHED_JOB_ID to $MLSCHED_SOCKET (as a job\n"
            "started by the daemon has them). Exit 1 when the daemon refuses or is away.\n");
}

static int cmd_report(int argc, char **argv)
{
    static const struct option opts[] = {
        {"iter", required_argument, 0, 'i'},      {"samples", required_argument, 0, 'n'},
        {"iter-time", required_argument, 0, 't'}, {"batch", required_argument, 0, 'b'},
        {"gns", required_argument, 0, 'g'},       {"job", required_argument, 0, 'j'},
        {"socket", required_argument, 0, 's'},    {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    live_progress_t p = {-1, NAN, NAN, NAN, 0, NAN};
    const char *sock = NULL;
    int c;
    double v;
    while ((c = getopt_long(argc, argv, "s:h", opts, NULL)) != -1) {
        if (c != 's' && c != 'h' && c != '?' &&
            (mls_parse_double(optarg, &v) < 0 || !isfinite(v) || v < 0))
            return bad_number("report", argv[optind - 1], optarg);
        switch (c) {
        case 'i': p.iter = v; break;
        case 'n': p.samples = v; break;
        case 't': p.iter_time = v; break;
        case 'b': p.batch = (int)v; break;
        case 'g': p.gns = v; break;
        case 'j': p.id = (int64_t)v; break;
        case 's': sock = optarg; break;
        case 'h': report_usage(stdout); return MLS_EXIT_OK;
        default: report_usage(stderr); return MLS_EXIT_USAGE;
        }
    }
    if (isnan(p.iter) || optind < argc) {
        report_usage(stderr);
        return MLS_EXIT_USAGE;
    }
    mls_err_t err;
    if (live_report(sock, &p, &err) < 0) {
        fprintf(stderr, "mlsched live report: %s\n", err.msg);
        return MLS_EXIT_FAIL;
    }
    return MLS_EXIT_OK;
}

static int live_exec(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } subs[] = {{"serve", cmd_serve},   {"submit", cmd_submit},   {"status", cmd_status},
                {"cancel", cmd_cancel}, {"drain", cmd_drain},     {"report", cmd_report},
                {"request", cmd_request}, {"fake-job", live_fake_job_main}};
    if (argc < 2) {
        usage(stderr);
        return MLS_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return MLS_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (!strcmp(argv[1], subs[i].name)) {
            optind = 1;
            return subs[i].fn(argc - 1, argv + 1);
        }
    fprintf(stderr, "mlsched live: unknown command '%s' (see mlsched live --help)\n", argv[1]);
    return MLS_EXIT_USAGE;
}

const cmd_entry_t cmd_live_entry = {"live", "run policies on real jobs: serve, submit, status, ...",
                                    live_exec};
