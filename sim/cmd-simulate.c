/* cmd-simulate.c: `mlsched simulate` — replay one trace under one policy,
 * print the run's summary and append it to the results database. */
#include "cluster.h"
#include "cmd.h"
#include "engine.h"
#include "faults.h"
#include "perf.h"
#include "policy.h"
#include "store.h"
#include "trace.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_PARAMS 64

typedef struct sim_opts {
    const char *trace, *cluster, *policy, *throughputs, *db, *label;
    const char *keys[MAX_PARAMS], *values[MAX_PARAMS];
    char *param_buf[MAX_PARAMS];
    int n_params;
    engine_config_t cfg;
    char measure[64];
    unsigned trace_flags;
    int json, quiet;
    const char *faults_file;
    fault_plan_t faults;
    const char *overheads_file;
    overheads_t overheads;
} sim_opts_t;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mlsched simulate --trace FILE --cluster FILE|SPEC --policy NAME [options]\n"
            "\n"
            "Replays a trace on a cluster under one policy, prints the run's summary and\n"
            "appends the run (every job, the timeline, the summary) to a results database.\n"
            "\n"
            "  -t, --trace FILE          canonical trace CSV (see README: trace format)\n"
            "  -c, --cluster FILE|SPEC   cluster JSON, or an inline spec like v100=32x1,k80=4x8\n"
            "  -p, --policy NAME         a policy from `mlsched policies`\n"
            "  -P, --param KEY=VALUE     a policy parameter (repeatable)\n"
            "      --throughputs FILE    perf model (Gavel-format throughput JSON, or a\n"
            "                            pollux catalog: traces/catalog/pollux.json);\n"
            "                            default: the bundled Gavel catalog\n"
            "  -r, --round SECONDS       round length (default 360, as Gavel); 0 = call the\n"
            "                            policy on arrivals and completions only\n"
            "      --cadence MODE        events, rounds or both (default: the policy's own)\n"
            "      --restart-overhead S  seconds lost at every (re)start (default 20)\n"
            "      --overheads FILE      per-workload start/restart/resize/migrate/suspend costs\n"
            "                            (JSON, see README)\n"
            "  -s, --seed N              seed of the run (default 1)\n"
            "      --measure LO:HI       measure jobs with ids in [LO, HI) only; the run ends\n"
            "                            when they have all finished (Gavel's steady state)\n"
            "      --timeline-step S     seconds between timeline samples (default: round)\n"
            "      --faults FILE         fault schedule CSV: time,node,event[,factor] with\n"
            "                            event fail, recover, slow (factor = speed) or unslow\n"
            "      --failure-rate R      random node failures, R per node per hour (or R/d)\n"
            "      --mttr S              mean time to repair a failed node (default 3600)\n"
            "      --checkpoint-interval S  seconds of progress between checkpoints; a\n"
            "                            failure loses the work since the last one\n"
            "                            (default 0: since the job's last (re)start)\n"
            "  -d, --db FILE             results database to append to (SQLite)\n"
            "      --label TEXT          free text stored with the run\n"
            "      --ignore-extra-columns  accept trace columns mlsched does not know\n"
            "      --json                print the summary as JSON\n"
            "  -q, --quiet               no progress lines on stderr\n"
            "      --progress            progress lines on stderr even when it is not a\n"
            "                            terminal (default: only on a terminal)\n"
            "  -h, --help                this text\n"
            "\n"
            "Exit status: 0 done, 1 the run failed (bad input, a rejected plan), 2 usage.\n");
}

static int parse_measure(const char *s, engine_config_t *cfg)
{
    long lo, hi;
    char extra;
    if (sscanf(s, "%ld:%ld%c", &lo, &hi, &extra) != 2 || lo < 0 || hi <= lo)
        return -1;
    cfg->measure_lo = lo;
    cfg->measure_hi = hi;
    return 0;
}

static int parse_cadence(const char *s, unsigned *out)
{
    if (!strcmp(s, "events"))
        *out = MLS_CADENCE_EVENTS;
    else if (!strcmp(s, "rounds"))
        *out = MLS_CADENCE_ROUNDS;
    else if (!strcmp(s, "both"))
        *out = MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS;
    else
        return -1;
    return 0;
}

static int add_param(sim_opts_t *o, const char *kv)
{
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv || o->n_params >= MAX_PARAMS)
        return -1;
    char *buf = xstrdup(kv);
    buf[eq - kv] = '\0';
    o->param_buf[o->n_params] = buf;
    o->keys[o->n_params] = buf;
    o->values[o->n_params] = buf + (eq - kv) + 1;
    o->n_params++;
    return 0;
}

static int bad_usage(const char *fmt, const char *arg)
{
    return cmd_usage_error("simulate", fmt, arg);
}

static int parse_args(int argc, char **argv, sim_opts_t *o)
{
    enum { O_THR = 256, O_CAD, O_OVH, O_MEASURE, O_TL, O_LABEL, O_EXTRA, O_JSON, O_PROG,
           O_FAULTS, O_FRATE, O_MTTR, O_CKPT, O_OVHF };
    static const struct option longopts[] = {
        {"trace", required_argument, 0, 't'},
        {"cluster", required_argument, 0, 'c'},
        {"policy", required_argument, 0, 'p'},
        {"param", required_argument, 0, 'P'},
        {"throughputs", required_argument, 0, O_THR},
        {"round", required_argument, 0, 'r'},
        {"cadence", required_argument, 0, O_CAD},
        {"restart-overhead", required_argument, 0, O_OVH},
        {"seed", required_argument, 0, 's'},
        {"measure", required_argument, 0, O_MEASURE},
        {"timeline-step", required_argument, 0, O_TL},
        {"db", required_argument, 0, 'd'},
        {"label", required_argument, 0, O_LABEL},
        {"ignore-extra-columns", no_argument, 0, O_EXTRA},
        {"json", no_argument, 0, O_JSON},
        {"quiet", no_argument, 0, 'q'},
        {"progress", no_argument, 0, O_PROG},
        {"faults", required_argument, 0, O_FAULTS},
        {"overheads", required_argument, 0, O_OVHF},
        {"failure-rate", required_argument, 0, O_FRATE},
        {"mttr", required_argument, 0, O_MTTR},
        {"checkpoint-interval", required_argument, 0, O_CKPT},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    engine_config_defaults(&o->cfg);
    o->cfg.progress = isatty(2);
    snprintf(o->measure, sizeof o->measure, "all");
    optind = 1;
    int c;
    double d;
    long l;
    while ((c = getopt_long(argc, argv, "t:c:p:P:r:s:d:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 't': o->trace = optarg; break;
        case 'c': o->cluster = optarg; break;
        case 'p': o->policy = optarg; break;
        case 'P':
            if (add_param(o, optarg) < 0)
                return bad_usage("--param wants KEY=VALUE, got '%s'", optarg);
            break;
        case O_THR: o->throughputs = optarg; break;
        case 'r':
            if (mls_parse_double(optarg, &d) < 0 || d < 0 || !isfinite(d))
                return bad_usage("--round wants seconds >= 0, got '%s'", optarg);
            o->cfg.round_len = d;
            break;
        case O_CAD:
            if (parse_cadence(optarg, &o->cfg.cadence) < 0)
                return bad_usage("--cadence wants events, rounds or both, got '%s'", optarg);
            break;
        case O_OVH:
            if (mls_parse_double(optarg, &d) < 0 || d < 0 || !isfinite(d))
                return bad_usage("--restart-overhead wants seconds >= 0, got '%s'", optarg);
            o->cfg.restart_overhead = d;
            break;
        case 's':
            if (mls_parse_long(optarg, &l) < 0 || l < 0)
                return bad_usage("--seed wants an integer >= 0, got '%s'", optarg);
            o->cfg.seed = (uint64_t)l;
            break;
        case O_MEASURE:
            if (parse_measure(optarg, &o->cfg) < 0)
                return bad_usage("--measure wants LO:HI with 0 <= LO < HI, got '%s'", optarg);
            snprintf(o->measure, sizeof o->measure, "%s", optarg);
            break;
        case O_TL:
            if (mls_parse_double(optarg, &d) < 0 || d <= 0)
                return bad_usage("--timeline-step wants seconds > 0, got '%s'", optarg);
            o->cfg.timeline_step = d;
            break;
        case 'd': o->db = optarg; break;
        case O_LABEL: o->label = optarg; break;
        case O_EXTRA: o->trace_flags |= TRACE_IGNORE_EXTRA; break;
        case O_JSON: o->json = 1; break;
        case 'q': o->quiet = 1; break;
        case O_PROG: o->cfg.progress = 1; break;
        case O_FAULTS: o->faults_file = optarg; break;
        case O_OVHF: o->overheads_file = optarg; break;
        case O_FRATE:
            if (mls_parse_rate(optarg, "h,d", &o->faults.rate_per_hour) < 0)
                return bad_usage("--failure-rate wants R (per node per hour) or R/d, got '%s'",
                                 optarg);
            break;
        case O_MTTR:
            if (mls_parse_double(optarg, &d) < 0 || !(d > 0) || !isfinite(d))
                return bad_usage("--mttr wants seconds > 0, got '%s'", optarg);
            o->faults.mttr = d;
            break;
        case O_CKPT:
            if (mls_parse_double(optarg, &d) < 0 || d < 0 || !isfinite(d))
                return bad_usage("--checkpoint-interval wants seconds >= 0, got '%s'", optarg);
            o->faults.checkpoint_interval = d;
            break;
        case 'h': usage(stdout); return -1;
        default: return bad_usage("%s", "unknown option");
        }
    }
    if (o->quiet)
        o->cfg.progress = 0;
    if (optind < argc)
        return bad_usage("unexpected argument '%s'", argv[optind]);
    if (!o->trace || !o->cluster || !o->policy)
        return bad_usage("%s", "--trace, --cluster and --policy are required");
    return 0;
}

static void fmt_time(char *buf, size_t n, double s)
{
    if (!isfinite(s))
        snprintf(buf, n, "-");
    else if (s >= 3600)
        snprintf(buf, n, "%.2f h", s / 3600);
    else
        snprintf(buf, n, "%.1f s", s);
}

static void print_summary(const sim_opts_t *o, const policy_ops_t *pol,
                          const run_summary_t *s, int64_t run_id)
{
    char a[32], b[32], c[32], d[32], q[32];
    fmt_time(a, sizeof a, s->avg_jct);
    fmt_time(b, sizeof b, s->p50_jct);
    fmt_time(c, sizeof c, s->p99_jct);
    fmt_time(d, sizeof d, s->makespan);
    fmt_time(q, sizeof q, s->avg_queue_delay);
    printf("policy            %s%s\n", pol->name, pol->oracle ? " (oracle)" : "");
    printf("trace             %s\n", o->trace);
    printf("jobs              %d finished", s->jobs);
    if (s->unfinished)
        printf(", %d unfinished", s->unfinished);
    printf(" (measured: %s)\n", o->measure);
    printf("avg JCT           %s\n", a);
    printf("median JCT        %s\n", b);
    printf("p99 JCT           %s\n", c);
    printf("makespan          %s\n", d);
    printf("avg queueing      %s\n", q);
    printf("utilization       %.1f %%\n", 100 * s->utilization);
    printf("unfair fraction   %.1f %% (rho > %.2f), worst rho %.2f, Jain %.3f\n",
           100 * s->unfair_fraction, MLS_UNFAIR_RHO, s->worst_ftf, s->jain_index);
    printf("preemptions       %ld\n", s->preemptions);
    printf("decision time     %.3f ms mean, %.3f ms max over %ld calls\n",
           1e3 * s->decision_time_mean, 1e3 * s->decision_time_max, s->decisions);
    printf("simulated in      %.2f s wall (%ld events)\n", s->wall_seconds, s->events);
    if (run_id > 0)
        printf("stored            %s, run %lld\n", o->db, (long long)run_id);
}

static void json_num(const char *key, double v, int last)
{
    if (isfinite(v))
        printf("  \"%s\": %.17g%s\n", key, v, last ? "" : ",");
    else
        printf("  \"%s\": null%s\n", key, last ? "" : ",");
}

static void print_json(const policy_ops_t *pol, const run_summary_t *s, int64_t run_id)
{
    printf("{\n  \"policy\": \"%s\",\n  \"oracle\": %s,\n  \"run_id\": %lld,\n", pol->name,
           pol->oracle ? "true" : "false", (long long)run_id);
    printf("  \"jobs\": %d,\n  \"unfinished\": %d,\n", s->jobs, s->unfinished);
    json_num("avg_jct", s->avg_jct, 0);
    json_num("p50_jct", s->p50_jct, 0);
    json_num("p95_jct", s->p95_jct, 0);
    json_num("p99_jct", s->p99_jct, 0);
    json_num("makespan", s->makespan, 0);
    json_num("avg_queue_delay", s->avg_queue_delay, 0);
    json_num("utilization", s->utilization, 0);
    json_num("unfair_fraction", s->unfair_fraction, 0);
    json_num("worst_ftf", s->worst_ftf, 0);
    json_num("jain_index", s->jain_index, 0);
    json_num("decision_time_mean", s->decision_time_mean, 0);
    json_num("wall_seconds", s->wall_seconds, 0);
    printf("  \"events\": %ld,\n  \"decisions\": %ld\n", s->events, s->decisions);
    printf("}\n");
}

static char *params_text(const sim_opts_t *o)
{
    size_t n = 1;
    for (int i = 0; i < o->n_params; i++)
        n += strlen(o->keys[i]) + strlen(o->values[i]) + 2;
    char *s = xmalloc(n);
    s[0] = '\0';
    for (int i = 0; i < o->n_params; i++) {
        if (i)
            strcat(s, ",");
        strcat(s, o->keys[i]);
        strcat(s, "=");
        strcat(s, o->values[i]);
    }
    return s;
}

static const char *cadence_name(unsigned c)
{
    return c == MLS_CADENCE_EVENTS ? "events" : c == MLS_CADENCE_ROUNDS ? "rounds" : "both";
}

static int store_run(const sim_opts_t *o, const policy_ops_t *pol, const mls_trace_t *trace,
                     const mls_cluster_t *cl, const mls_perf_t *pm, const sim_result_t *res,
                     int64_t *run_id, mls_err_t *err)
{
    char *params = params_text(o);
    char *cj = cluster_to_json(cl);
    char faults[512] = "";
    if (o->cfg.faults)
        snprintf(faults, sizeof faults, "file=%s,rate_per_hour=%g,mttr=%g,checkpoint=%g",
                 o->faults_file ? o->faults_file : "", o->faults.rate_per_hour, o->faults.mttr,
                 o->faults.checkpoint_interval);
    char ovh[512];
    snprintf(ovh, sizeof ovh, "%s", o->overheads_file ? o->overheads_file : "");
    run_info_t info = {pol->name,
                       params,
                       pol->oracle,
                       o->trace,
                       trace->checksum,
                       o->cluster,
                       cj,
                       cl->n_gpus,
                       pm->source,
                       o->cfg.seed,
                       o->cfg.round_len,
                       cadence_name(o->cfg.cadence ? o->cfg.cadence : pol->cadence),
                       o->cfg.restart_overhead,
                       o->measure,
                       o->label,
                       o->cfg.faults ? faults : NULL,
                       o->overheads_file ? ovh : NULL};
    int rc = store_write_run(o->db, &info, trace, res, run_id, err);
    free(params);
    free(cj);
    return rc;
}

static int run(sim_opts_t *o)
{
    mls_err_t err = {{0}};
    const policy_ops_t *pol = policy_find(o->policy);
    if (!pol) {
        fprintf(stderr, "mlsched simulate: unknown policy '%s' (see mlsched policies)\n",
                o->policy);
        return MLS_EXIT_USAGE;
    }
    mls_trace_t trace;
    mls_cluster_t cl = {0};
    mls_perf_t *pm = NULL;
    sim_result_t res = {0};
    int64_t run_id = 0;
    trace_init(&trace);
    policy_args_t args = {o->n_params, o->keys, o->values};
    int rc = trace_read_csv(&trace, o->trace, o->trace_flags, &err);
    if (rc == 0)
        rc = cluster_load(&cl, o->cluster, &err);
    if (rc == 0 && o->faults_file)
        rc = faults_read_csv(&o->faults, o->faults_file, &cl, &err);
    overheads_init(&o->overheads, o->cfg.restart_overhead);
    if (rc == 0 && o->overheads_file) {
        rc = overheads_load_json(&o->overheads, o->overheads_file, &err);
        o->cfg.overheads = &o->overheads;
    }
    if (o->faults_file || o->faults.rate_per_hour > 0 || o->faults.checkpoint_interval > 0)
        o->cfg.faults = &o->faults;
    if (rc == 0)
        rc = perf_load(&pm, o->throughputs ? o->throughputs : perf_default_catalog(), &err);
    if (rc == 0)
        rc = engine_run(&trace, &cl, pm, pol, &args, &o->cfg, &res, &err);
    if (rc == 0 && o->db)
        rc = store_run(o, pol, &trace, &cl, pm, &res, &run_id, &err);
    if (rc == 0) {
        if (o->json)
            print_json(pol, &res.summary, run_id);
        else
            print_summary(o, pol, &res.summary, run_id);
    } else {
        fprintf(stderr, "mlsched simulate: %s\n", err.msg);
    }
    sim_result_free(&res);
    if (pm)
        perf_free(pm);
    cluster_free(&cl);
    trace_free(&trace);
    faults_free(&o->faults);
    overheads_free(&o->overheads);
    return rc == 0 ? MLS_EXIT_OK : MLS_EXIT_FAIL;
}

static int exec_simulate(int argc, char **argv)
{
    sim_opts_t o;
    memset(&o, 0, sizeof o);
    faults_init(&o.faults);
    int rc = parse_args(argc, argv, &o);
    if (rc == 0)
        rc = run(&o);
    else
        rc = rc < 0 ? MLS_EXIT_OK : rc;
    for (int i = 0; i < o.n_params; i++)
        free(o.param_buf[i]);
    return rc;
}

const cmd_entry_t cmd_simulate_entry = {"simulate", "replay a trace under one policy",
                                        exec_simulate};
