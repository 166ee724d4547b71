/* cmd-simulate.c: `mlsched simulate` — replay one trace under one policy,
 * print the run's summary and append it to the results database. */
#include "cli/cmd.h"
#include "cli/like.h"
#include "cli/opts.h"
#include "model/cluster.h"
#include "model/perf.h"
#include "model/perf_pollux.h"
#include "model/trace.h"
#include "policies/policy.h"
#include "sim/diagnose.h"
#include "sim/engine.h"
#include "sim/faults.h"
#include "sim/mechanism.h"
#include "sim/policy_exec.h"
#include "sim/store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct sim_opts {
    const char *trace, *cluster, *policy, *throughputs, *db, *label;
    const char *measured_rates; /* --measured-rates DIR, NULL: fitted */
    int policies_measured;      /* --policy-rates measured */
    opt_params_t params;
    engine_config_t cfg;
    long seed;
    char measure[64];
    int extra_columns, json, quiet, progress, exec_stats;
    const char *faults_file;
    fault_plan_t faults;
    const char *overheads_file;
    overheads_t overheads;
    const like_peer_t *like; /* --like, NULL none */
} sim_opts_t;

/* --like PEER: the peer's engine settings, where the option stands (a later
 * flag overrides one); its policy parameters are added in run(). */
static int parse_like(void *base, size_t off, const char *s, const char *who)
{
    sim_opts_t *o = base;
    (void)off;
    (void)who;
    if (!(o->like = like_find(s)))
        return -1;
    like_apply_engine(o->like, &o->cfg);
    return 0;
}

/* --round-end fixed|steps (engine_config_t.round_end). */
static int parse_round_end(void *base, size_t off, const char *s, const char *who)
{
    int r = engine_round_end_parse(s);
    (void)who;
    if (r < 0)
        return -1;
    *(int *)((char *)base + off) = r;
    return 0;
}

/* --epoch-times exact|whole (engine_config_t.whole_epochs). */
static int parse_epoch_times(void *base, size_t off, const char *s, const char *who)
{
    (void)who;
    if (strcmp(s, "exact") && strcmp(s, "whole"))
        return -1;
    *(int *)((char *)base + off) = !strcmp(s, "whole");
    return 0;
}

/* --measure LO:HI: the engine's window and the text stored with the run. */
static int parse_measure(void *base, size_t off, const char *s, const char *who)
{
    sim_opts_t *o = base;
    long lo, hi;
    char extra;
    (void)off;
    (void)who;
    if (sscanf(s, "%ld:%ld%c", &lo, &hi, &extra) != 2 || lo < 0 || hi <= lo)
        return -1;
    o->cfg.measure_lo = lo;
    o->cfg.measure_hi = hi;
    snprintf(o->measure, sizeof o->measure, "%s", s);
    return 0;
}

static int parse_failure_rate(void *base, size_t off, const char *s, const char *who)
{
    (void)who;
    return mls_parse_rate(s, "h,d", (double *)((char *)base + off));
}

/* --dispatch parallel|sequential (Pathways' dispatch of a gang's computations). */
static int parse_dispatch(void *base, size_t off, const char *s, const char *who)
{
    (void)who;
    int *seq = (int *)((char *)base + off);
    if (strcmp(s, "parallel") && strcmp(s, "sequential"))
        return -1;
    *seq = !strcmp(s, "sequential");
    return 0;
}

#define S sim_opts_t
static const opt_t options[] = {
    OPT_STRING("trace", 't', "FILE", S, trace, "canonical trace CSV (see docs/traces.md)"),
    OPT_SHARED_CLUSTER(S, cluster, "cluster JSON, a bundled cluster by name (36v100, gavel-108; traces/clusters), or an inline spec like v100=32x1,k80=4x8"),
    OPT_STRING("policy", 'p', "NAME", S, policy,
               "a policy from `mlsched policies`, or 'exec:PATH [ARGS]':\n"
               "a program speaking docs/exec-policy.md"),
    OPT_SHARED_PARAM(S, params, "a policy parameter (repeatable)"),
    OPT_SHARED_THROUGHPUTS(S, throughputs,
                           "perf model (Gavel-format throughput JSON, or a\n"
                           "pollux catalog: traces/catalog/pollux.json);\n"
                           "default: the bundled Gavel catalog"),
    OPT_STRING("measured-rates", 0, "DIR", S, measured_rates,
               "with a pollux catalog: jobs on t4 run at the measured step\n"
               "times of DIR/<workload>/placements.csv and scalability.csv\n"
               "(Pollux's profiles, as its simulator runs them); policies\n"
               "still see the fitted model (docs/simulate.md)"),
    OPT_FLAG("policy-rates-measured", 0, S, policies_measured,
             "with --measured-rates: policies see the measured rates too\n"
             "(the artifact's Optimus does; default: the fitted model)"),
    OPT_SHARED_ROUND(S, cfg.round_len,
                     "round length (default 360, as Gavel); 0 = call the\n"
                     "policy on arrivals and completions only"),
    OPT_SHARED_CADENCE(S, cfg.cadence, "events, rounds or both (default: the policy's own)"),
    OPT_CALL("like", 0, "PEER", S, like, parse_like,
             "--like wants gavel, shockwave, pollux, tiresias or helios, got '%s'",
             "run as PEER's simulator does: gavel, shockwave, pollux,\n"
             "tiresias or helios (docs/reproducing.md: the settings of each); a\n"
             "flag after it overrides one setting"),
    OPT_SHARED_PLACEMENT(S, cfg.placement,
                         "a job that fits one node when no node has room: spread\n"
                         "(over nodes, at the spread rate), consolidate (it waits\n"
                         "for one node), auto (default: spread when that is at\n"
                         "most 10 % slower, else wait) or hold (consolidate, and\n"
                         "a start that waits holds back the later ones: Helios)"),
    OPT_SHARED_SPREAD_RATE(S, cfg.consolidated_rates,
                           "a job over several nodes runs at the perf model's rate\n"
                           "for those nodes (placed, default) or at its one-node\n"
                           "rate (consolidated: Gavel, Shockwave, Tiresias)"),
    OPT_CALL("round-end", 0, "HOW", S, cfg.round_end, parse_round_end,
             "--round-end wants fixed or steps, got '%s'",
             "a round ends on a fixed grid of --round seconds (fixed,\n"
             "default) or when its last job has run its steps for the\n"
             "round (steps: Gavel's simulator; --like gavel)"),
    OPT_CALL("epoch-times", 0, "HOW", S, cfg.whole_epochs, parse_epoch_times,
             "--epoch-times wants exact or whole, got '%s'",
             "a job's epoch ends and completion at the exact instant\n"
             "(exact, default) or at the nearest whole second (whole:\n"
             "Pollux's simulator rounds each epoch's time; --like pollux)"),
    OPT_NUM(OPT_DOUBLE, "restart-overhead", 0, "S", S, cfg.restart_overhead, 0, 1e300, 0,
            "--restart-overhead wants seconds >= 0, got '%s'",
            "seconds lost at every (re)start (default 20)"),
    OPT_STRING("overheads", 0, "FILE", S, overheads_file,
               "per-workload start/restart/resize/migrate/suspend costs\n(JSON, see docs/simulate.md)"),
    OPT_SHARED_SEED(S, seed, "seed of the run (default 1)"),
    OPT_CALL("measure", 0, "LO:HI", S, measure, parse_measure,
             "--measure wants LO:HI with 0 <= LO < HI, got '%s'",
             "measure jobs with ids in [LO, HI) only; the run ends\n"
             "when they have all finished (Gavel's steady state)"),
    OPT_NUM(OPT_DOUBLE, "timeline-step", 0, "S", S, cfg.timeline_step, 0, INFINITY,
            OPT_ABOVE_LO | OPT_INF_OK, "--timeline-step wants seconds > 0, got '%s'",
            "seconds between timeline samples (default: round)"),
    OPT_STRING("faults", 0, "FILE", S, faults_file,
               "fault schedule CSV: time,node,event[,factor] with\n"
               "event fail, recover, slow (factor = speed) or unslow"),
    OPT_CALL("failure-rate", 0, "R", S, faults.rate_per_hour, parse_failure_rate,
             "--failure-rate wants R (per node per hour) or R/d, got '%s'",
             "random node failures, R per node per hour (or R/d)"),
    OPT_NUM(OPT_DOUBLE, "mttr", 0, "S", S, faults.mttr, 0, 1e300, OPT_ABOVE_LO,
            "--mttr wants seconds > 0, got '%s'",
            "mean time to repair a failed node (default 3600)"),
    OPT_NUM(OPT_DOUBLE, "checkpoint-interval", 0, "S", S, faults.checkpoint_interval, 0, 1e300, 0,
            "--checkpoint-interval wants seconds >= 0, got '%s'",
            "seconds of progress between checkpoints; a\n"
            "failure loses the work since the last one\n"
            "(default 0: since the job's last (re)start)"),
    OPT_NUM(OPT_DOUBLE, "dispatch-latency", 0, "S", S, cfg.dispatch_latency, 0, 1e300, 0,
            "--dispatch-latency wants seconds >= 0, got '%s'",
            "seconds to dispatch one computation of a gang\n"
            "(trace column gang; default 0)"),
    OPT_CALL("dispatch", 0, "MODE", S, cfg.dispatch_sequential, parse_dispatch,
             "--dispatch wants parallel or sequential, got '%s'",
             "a gang's computations dispatched in parallel (one\n"
             "latency, default) or sequential (the i-th after i)"),
    OPT_NUM(OPT_DOUBLE, "feedback-work", 0, "N", S, cfg.feedback_work, 0, 1e300, OPT_ABOVE_LO,
            "--feedback-work wants work units > 0, got '%s'",
            "early feedback (Gandiva): each job's time to its first\n"
            "N work units (default 100; table `early_feedback`)"),
    OPT_SHARED_DB(S, db, "results database to append to (SQLite)"),
    OPT_STRING("label", 0, "TEXT", S, label, "free text stored with the run"),
    OPT_FLAG("ignore-extra-columns", 0, S, extra_columns,
             "accept trace columns mlsched does not know"),
    OPT_FLAG("json", 0, S, json, "print the summary as JSON"),
    OPT_FLAG("exec-stats", 0, S, exec_stats,
             "an exec: policy's protocol time per decision on stderr"),
    OPT_FLAG("quiet", 'q', S, quiet, "no progress lines on stderr"),
    OPT_FLAG("progress", 0, S, progress,
             "progress lines on stderr even when it is not a\n"
             "terminal (default: only on a terminal)"),
    OPT_END_ROW};
#undef S

static const opt_cmd_t command = {
    .who = "simulate",
    .usage = "--trace FILE --cluster FILE|SPEC --policy NAME [options]",
    .about = "Replays a trace on a cluster under one policy, prints the run's summary and\n"
             "appends the run (every job, the timeline, the summary) to a results database.",
    .opts = options,
    .footer = "Exit status: 0 done, 1 the run failed (bad input, a rejected plan), 2 usage.",
};

static int parse_args(int argc, char **argv, sim_opts_t *o)
{
    engine_config_defaults(&o->cfg);
    o->cfg.progress = isatty(2);
    o->seed = (long)o->cfg.seed;
    snprintf(o->measure, sizeof o->measure, "all");
    int rc = opt_parse_only(&command, o, argc, argv);
    if (rc)
        return rc;
    o->cfg.seed = (uint64_t)o->seed;
    if (o->progress)
        o->cfg.progress = 1;
    if (o->quiet)
        o->cfg.progress = 0;
    o->cfg.no_timeline = !o->db; /* only the results database reads it */
    if (!o->trace || !o->cluster || !o->policy)
        return cmd_usage_error("simulate", "%s", "--trace, --cluster and --policy are required");
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

/* Per result job: the largest GPU count the perf model measured for its
 * workload on the cluster's GPU types (perf_measured_gpus) when the job's GPUs
 * are above it, else 0. Also counts them and their share of the GPU-seconds. */
typedef struct extrap_run {
    int *measured;
    long jobs;
    double share;
} extrap_run_t;

static void mark_extrapolated(const mls_trace_t *t, const mls_cluster_t *cl,
                              const mls_perf_t *pm, const sim_result_t *res, extrap_run_t *x)
{
    int *types = xmalloc(sizeof(int) * (size_t)(cl->n_types ? cl->n_types : 1));
    for (int k = 0; k < cl->n_types; k++)
        types[k] = perf_gpu_type_index(pm, cl->types[k].name);
    int *meas = xmalloc(sizeof(int) * (t->workloads.n ? t->workloads.n : 1));
    for (size_t w = 0; w < t->workloads.n; w++) {
        int pw = perf_workload_index(pm, t->workloads.names[w]);
        meas[w] = pw >= 0 ? perf_measured_gpus(pm, pw, types, cl->n_types) : 0;
    }
    x->measured = xcalloc(res->n_jobs ? res->n_jobs : 1, sizeof *x->measured);
    x->jobs = 0;
    double gs = 0, all = 0;
    for (size_t k = 0; k < res->n_jobs; k++) {
        const job_result_t *j = &res->jobs[k];
        double g = isfinite(j->gpu_seconds) ? j->gpu_seconds : 0;
        all += g;
        int m = meas[j->workload];
        if (m > 0 && j->gpus > m) {
            x->measured[k] = m;
            x->jobs++;
            gs += g;
        }
    }
    x->share = all > 0 ? gs / all : 0;
    free(meas);
    free(types);
}

/* Jobs that ran (held GPUs) far longer than the trace says they ran: the
 * sign of a placement penalty, a perf model on other GPUs than the trace's,
 * or thrashing preemptions. The worst (largest ratio) is named. */
#define SLOW_FACTOR 2.0
#define SLOW_EXCESS 600.0 /* s over the traced duration: start costs of short jobs are not news */
typedef struct slow_jobs {
    long n;
    size_t worst; /* index into the results, when n > 0 */
    double worst_ratio;
} slow_jobs_t;

static slow_jobs_t find_slow_jobs(const mls_trace_t *t, const sim_result_t *res)
{
    slow_jobs_t s = {0, 0, 0};
    for (size_t k = 0; k < res->n_jobs && k < t->n; k++) {
        const job_result_t *j = &res->jobs[k];
        double d = t->jobs[k].duration;
        if (t->jobs[k].id != j->id || !j->finished || !(d > 0) || !isfinite(d))
            continue;
        double r = j->run_time / d;
        if (r > SLOW_FACTOR && j->run_time - d > SLOW_EXCESS) {
            s.n++;
            if (r > s.worst_ratio) {
                s.worst_ratio = r;
                s.worst = k;
            }
        }
    }
    return s;
}

static void print_slow_jobs(const slow_jobs_t *s, const sim_result_t *res, const mls_trace_t *t,
                            const char *db, int64_t run_id)
{
    if (!s->n)
        return;
    const job_result_t *j = &res->jobs[s->worst];
    char ran[32], traced[32];
    fmt_time(ran, sizeof ran, j->run_time);
    fmt_time(traced, sizeof traced, t->jobs[s->worst].duration);
    printf("slow jobs         %ld ran over %gx (and 10 min over) their traced duration; worst: "
           "job %lld, %s on %d "
           "GPUs for a traced %s (%.1fx, %d preemptions): a placement penalty (a job spread "
           "over nodes), a perf model of other GPUs than the trace's, or preemptions",
           s->n, SLOW_FACTOR, (long long)j->id, ran, j->gpus, traced, s->worst_ratio,
           j->preemptions);
    if (run_id > 0)
        printf(" (sqlite3 %s \"SELECT * FROM jobs WHERE run_id = %lld AND job_id = %lld\")", db,
               (long long)run_id, (long long)j->id);
    printf("\n");
}

/* What explains the run's numbers (sim/diagnose.h): whether the load
 * saturated the cluster or was a batch that drains, how long GPUs idled while
 * jobs waited, and the job that set the makespan. Only for a run stored in a
 * database (the HTML report, report --html, says more from it), computed from
 * the results in memory: what reading the stored rows back gives, without
 * reading them (a sixth of a 100,000-job run's time). */
static void print_diagnosis(const sim_result_t *res, int64_t run_id)
{
    run_diag_t d;
    if (run_id <= 0)
        return;
    run_diagnose_result(res, run_id, &d);
    if (d.saturated)
        printf("load              saturated: the queue grew from %.0f to %.0f jobs over the second "
               "half of the arrivals; the cluster does not keep up\n",
               d.q_half < 0 ? 0 : d.q_half, d.q_end);
    else if (d.burst)
        printf("load              a batch that drains: arrivals end at %.1f h, %.0f %% into the "
               "run (queue peak %.0f jobs)\n",
               d.last_submit / 3600, 100 * d.last_submit / d.makespan, d.q_peak);
    else if (!isnan(d.q_end))
        printf("load              not saturated: %.0f jobs queued at mid-arrivals, %.0f at the "
               "last arrival\n",
               d.q_half < 0 ? 0 : d.q_half, d.q_end < 0 ? 0 : d.q_end);
    if (d.idle_waiting > 0.1)
        printf("idle while queued %.1f %% of the run had jobs waiting while a quarter of the GPUs "
               "idled (placement constraints or fragmentation)\n",
               100 * d.idle_waiting);
    if (d.last.id >= 0 && d.p99_finish > 0 && d.makespan > 1.5 * d.p99_finish)
        printf("makespan tail     set by job %lld (%d GPUs): it finished at %.1f h, the 99th "
               "percentile at %.1f h; it held GPUs %.1f h%s\n",
               (long long)d.last.id, d.last.gpus, d.last.finish / 3600, d.p99_finish / 3600,
               d.last.run_time / 3600, d.last.isolated > 0 ? "" : " (time alone unknown)");
}

static void print_summary(const sim_opts_t *o, const policy_ops_t *pol,
                          const run_summary_t *s, int64_t run_id, const extrap_run_t *x)
{
    char a[32], b[32], c[32], d[32], q[32], fb[32];
    fmt_time(fb, sizeof fb, s->avg_feedback);
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
    printf("early feedback    %s to a job's first %g work units, on average (Gandiva)\n", fb,
           o->cfg.feedback_work);
    printf("utilization       %.1f %%\n", 100 * s->utilization);
    printf("unfair fraction   %.1f %% (rho > %.2f), worst rho %.2f, Jain %.3f\n",
           100 * s->unfair_fraction, MLS_UNFAIR_RHO, s->worst_ftf, s->jain_index);
    printf("preemptions       %ld\n", s->preemptions);
    printf("decision time     %.3f ms mean, %.3f ms max over %ld calls\n",
           1e3 * s->decision_time_mean, 1e3 * s->decision_time_max, s->decisions);
    if (x->jobs)
        printf("extrapolated      %ld jobs above the perf model's measured GPU counts: %.1f %% of "
               "the GPU-seconds\n",
               x->jobs, 100 * x->share);
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

static void print_json(const policy_ops_t *pol, const run_summary_t *s, int64_t run_id,
                       const extrap_run_t *x)
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
    json_num("avg_feedback", s->avg_feedback, 0);
    json_num("utilization", s->utilization, 0);
    json_num("unfair_fraction", s->unfair_fraction, 0);
    json_num("worst_ftf", s->worst_ftf, 0);
    json_num("jain_index", s->jain_index, 0);
    json_num("decision_time_mean", s->decision_time_mean, 0);
    json_num("wall_seconds", s->wall_seconds, 0);
    printf("  \"extrapolated_jobs\": %ld,\n", x->jobs);
    json_num("extrapolated_gpu_seconds_share", x->share, 0);
    printf("  \"events\": %ld,\n  \"decisions\": %ld\n", s->events, s->decisions);
    printf("}\n");
}

static char *params_text(const sim_opts_t *o)
{
    size_t n = 1;
    const opt_params_t *p = &o->params;
    for (int i = 0; i < p->n; i++)
        n += strlen(p->keys[i]) + strlen(p->values[i]) + 2;
    char *s = xmalloc(n);
    s[0] = '\0';
    for (int i = 0; i < p->n; i++) {
        if (i)
            strcat(s, ",");
        strcat(s, p->keys[i]);
        strcat(s, "=");
        strcat(s, p->values[i]);
    }
    return s;
}

static int store_run(const sim_opts_t *o, const policy_ops_t *pol, const mls_trace_t *trace,
                     const mls_cluster_t *cl, const mls_perf_t *pm, const sim_result_t *res,
                     const extrap_run_t *x, int64_t *run_id, mls_err_t *err)
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
    const char *settings[] = {"placement",
                              mech_placement_name(o->cfg.placement),
                              "spread_rate",
                              o->cfg.consolidated_rates ? "consolidated" : "placed",
                              "like",
                              o->like ? o->like->name : "none",
                              "round_end",
                              engine_round_end_name(o->cfg.round_end),
                              "epoch_times",
                              o->cfg.whole_epochs ? "whole" : "exact",
                              "measured_rates",
                              o->measured_rates ? o->measured_rates : "none",
                              "policy_rates",
                              o->measured_rates && o->policies_measured ? "measured" : "model",
                              NULL};
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
                       opt_cadence_name(o->cfg.cadence ? o->cfg.cadence : pol->cadence),
                       o->cfg.restart_overhead,
                       o->measure,
                       o->label,
                       o->cfg.faults ? faults : NULL,
                       o->overheads_file ? ovh : NULL,
                       x->measured,
                       o->cfg.feedback_work,
                       settings};
    int rc = store_write_run(o->db, &info, trace, res, run_id, err);
    free(params);
    free(cj);
    return rc;
}

/* --exec-stats: time between sending a view and reading its plan, less the
 * time the policy reported as its own work. */
static void print_exec_stats(const policy_ref_t *ref)
{
    long n;
    double total, own;
    policy_exec_stats(ref, &n, &total, &own);
    if (n > 0)
        fprintf(stderr,
                "exec policy: %ld decisions, %.3f ms per decision in all, %.3f ms the "
                "policy's own work, %.3f ms protocol\n",
                n, 1e3 * total / (double)n, 1e3 * own / (double)n, 1e3 * (total - own) / (double)n);
}

static int run(sim_opts_t *o)
{
    mls_err_t err = {{0}};
    if (!policy_is_exec(o->policy) && !policy_find(o->policy)) {
        fprintf(stderr, "mlsched simulate: unknown policy '%s' (see mlsched policies)\n",
                o->policy);
        return MLS_EXIT_USAGE;
    }
    mls_trace_t trace;
    mls_cluster_t cl = {0};
    mls_perf_t *pm = NULL;
    sim_result_t res = {0};
    int64_t run_id = 0;
    if (o->like) {
        int lrc = like_apply_params(o->like, policy_find(o->policy), &o->params, "simulate");
        if (lrc)
            return lrc;
    }
    trace_init(&trace);
    policy_args_t args = {o->params.n, o->params.keys, o->params.values, 0, NULL};
    policy_ref_t ref = {0};
    const policy_ops_t *pol = NULL;
    /* the checksum goes to the results database alone */
    int rc = trace_read_csv(&trace, o->trace,
                            (o->extra_columns ? TRACE_IGNORE_EXTRA : 0) |
                                (o->db ? 0 : TRACE_NO_CHECKSUM),
                            &err);
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
        rc = perf_load_or_default(&pm, o->throughputs, &err);
    if (rc == 0 && o->measured_rates)
        rc = perf_pollux_measured(pm, o->measured_rates, o->policies_measured, &err);
    if (rc == 0) /* an exec: policy's process starts here, once for the run */
        rc = policy_resolve(o->policy, &args, &ref, &err);
    pol = ref.ops;
    if (rc == 0)
        rc = engine_run(&trace, &cl, pm, pol, &ref.args, &o->cfg, &res, &err);
    if (rc == 0 && o->exec_stats)
        print_exec_stats(&ref);
    extrap_run_t x = {NULL, 0, 0};
    if (rc == 0)
        mark_extrapolated(&trace, &cl, pm, &res, &x);
    if (rc == 0 && o->db)
        rc = store_run(o, pol, &trace, &cl, pm, &res, &x, &run_id, &err);
    if (rc == 0) {
        if (o->json)
            print_json(pol, &res.summary, run_id, &x);
        else {
            print_summary(o, pol, &res.summary, run_id, &x);
            slow_jobs_t slow = find_slow_jobs(&trace, &res);
            print_slow_jobs(&slow, &res, &trace, o->db, run_id);
            print_diagnosis(&res, run_id);
        }
    } else {
        fprintf(stderr, "mlsched simulate: %s\n", err.msg);
    }
    policy_release(&ref);
    free(x.measured);
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
    opt_params_free(&o.params);
    return rc;
}

const cmd_entry_t cmd_simulate_entry = {"simulate", "replay a trace under one policy",
                                        exec_simulate};
