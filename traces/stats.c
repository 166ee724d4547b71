/* stats.c: trace statistics (see stats.h). Durations come from the trace's
 * duration column (the user's estimate, or the traced run time that
 * importers write there); jobs without one are counted apart. */
#include "traces/stats.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct user_share {
    long jobs;
    double gpu_hours;
} user_share_t;

typedef struct summary {
    size_t n, with_duration;
    double span, gpu_hours;
    double *dur; /* sorted durations, s */
    long gpu_hist[8]; /* 1, 2, 3-4, 5-8, 9-16, 17-32, 33-64, >64 */
    double gpu_hours_by_bin[8];
    user_share_t *users;
} summary_t;

static const char *const gpu_bins[8] = {"1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", ">64"};

static int gpu_bin(int g)
{
    int b = 0;
    for (int lim = 1; b < 7 && g > lim; lim *= 2)
        b++;
    return b;
}

static void summarize(const mls_trace_t *t, summary_t *s)
{
    memset(s, 0, sizeof *s);
    s->n = t->n;
    s->dur = xmalloc(sizeof(double) * (t->n ? t->n : 1));
    s->users = xcalloc(t->users.n ? t->users.n : 1, sizeof *s->users);
    for (size_t i = 0; i < t->n; i++) {
        const mls_job_t *j = &t->jobs[i];
        s->gpu_hist[gpu_bin(j->gpus)]++;
        s->users[j->user].jobs++;
        if (!isnan(j->duration)) {
            s->dur[s->with_duration++] = j->duration;
            s->gpu_hours += j->duration * j->gpus / 3600;
            s->users[j->user].gpu_hours += j->duration * j->gpus / 3600;
            s->gpu_hours_by_bin[gpu_bin(j->gpus)] += j->duration * j->gpus / 3600;
        }
    }
    gsl_sort(s->dur, 1, s->with_duration);
    s->span = t->n ? t->jobs[t->n - 1].submit - t->jobs[0].submit : 0;
}

static double pct(const summary_t *s, double q)
{
    return s->with_duration ? gsl_stats_quantile_from_sorted_data(s->dur, 1, s->with_duration, q)
                            : NAN;
}

enum { MAX_DAYS = 366 };

/* Arrivals per day of the trace (day 0 = the first submit's); returns days. */
static int per_day(const mls_trace_t *t, long *days)
{
    memset(days, 0, sizeof(long) * MAX_DAYS);
    int n = 0;
    for (size_t i = 0; i < t->n; i++) {
        long d = (long)((t->jobs[i].submit - t->jobs[0].submit) / 86400);
        if (d < MAX_DAYS) {
            days[d]++;
            if (d + 1 > n)
                n = (int)d + 1;
        }
    }
    return n;
}

typedef struct user_rank {
    double gpu_hours;
    int user;
} user_rank_t;

/* Users by GPU-hours, largest first (ties: index order). */
static int by_gpu_hours(const void *a, const void *b)
{
    const user_rank_t *x = a, *y = b;
    if (x->gpu_hours != y->gpu_hours)
        return x->gpu_hours > y->gpu_hours ? -1 : 1;
    return x->user - y->user;
}

static void print_top_users(const mls_trace_t *t, const summary_t *s, FILE *o)
{
    if (!(s->gpu_hours > 0) || t->users.n < 2)
        return;
    user_rank_t *rank = xmalloc(sizeof *rank * t->users.n);
    for (size_t u = 0; u < t->users.n; u++)
        rank[u] = (user_rank_t){s->users[u].gpu_hours, (int)u};
    qsort(rank, t->users.n, sizeof *rank, by_gpu_hours);
    fprintf(o, "top users by GPU-hours:");
    for (size_t k = 0; k < t->users.n && k < 10; k++)
        fprintf(o, " %s %.1f%%", t->users.names[rank[k].user],
                100 * rank[k].gpu_hours / s->gpu_hours);
    fprintf(o, "\n");
    free(rank);
}

/* Job j (workload w in pm) against its traced duration on type ref. */
static void judge_duration(const mls_job_t *j, const mls_perf_t *pm, int w, int ref,
                           trace_extrap_t *x)
{
    double d = j->duration;
    if (!(d > 0) || !isfinite(d) || !(j->work > 0))
        return;
    /* as the importers size work: one node, or 8-GPU nodes beyond the counts measured */
    int nodes = j->gpus > perf_max_gpus(pm, w, ref) ? (j->gpus + 7) / 8 : 1;
    double rate = perf_throughput(pm, w, ref, j->gpus, nodes, j->batch_size);
    if (!(rate > 0) || !isfinite(rate))
        return; /* the model cannot run it there: not judged */
    double sim = j->work / rate;
    double r = sim > d ? sim / d : d / sim;
    x->judged++;
    if (r <= TRACE_FAR_FACTOR || fabs(sim - d) <= TRACE_FAR_EXCESS)
        return;
    double worst = x->far ? (x->worst_sim > x->worst_traced ? x->worst_sim / x->worst_traced
                                                            : x->worst_traced / x->worst_sim)
                          : 0;
    x->far++;
    if (r > worst) {
        x->worst_id = j->id;
        x->worst_line = j->line;
        x->worst_traced = d;
        x->worst_sim = sim;
    }
}

void trace_extrap_count(const mls_trace_t *t, const mls_perf_t *pm, int ref, const char *ref_name,
                        trace_extrap_t *x)
{
    memset(x, 0, sizeof *x);
    x->model = pm->source;
    x->ref_name = ref_name;
    int *w = xmalloc(sizeof(int) * (t->workloads.n ? t->workloads.n : 1));
    for (size_t k = 0; k < t->workloads.n; k++)
        w[k] = perf_workload_index(pm, t->workloads.names[k]);
    for (size_t i = 0; i < t->n; i++) {
        const mls_job_t *j = &t->jobs[i];
        if (w[j->workload] < 0) {
            x->unknown++;
            continue;
        }
        judge_duration(j, pm, w[j->workload], ref, x);
        if (perf_extrapolated(pm, w[j->workload], ref, j->gpus)) {
            x->jobs++;
            if (!isnan(j->duration))
                x->gpu_hours += j->duration * j->gpus / 3600;
            if (j->gpus > x->max_gpus)
                x->max_gpus = j->gpus;
        }
    }
    free(w);
}

static void print_extrap(const summary_t *s, const trace_extrap_t *x, FILE *o)
{
    fprintf(o, "extrapolated     %ld jobs (%.1f%%) above the GPU counts measured on %s", x->jobs,
            100.0 * x->jobs / (double)(s->n ? s->n : 1), x->ref_name);
    if (x->jobs)
        fprintf(o, " (up to %d GPUs)", x->max_gpus);
    if (s->gpu_hours > 0)
        fprintf(o, ": %.1f GPU-hours (%.1f%%)", x->gpu_hours, 100 * x->gpu_hours / s->gpu_hours);
    fprintf(o, "; perf model %s", x->model);
    if (x->unknown)
        fprintf(o, " (lacks the workloads of %ld jobs: not judged; see --throughputs)",
                x->unknown);
    fprintf(o, "\n");
}

static void fmt_hours(char *buf, size_t n, double s)
{
    if (s < 3600)
        snprintf(buf, n, "%.0f s", s);
    else
        snprintf(buf, n, "%.1f h", s / 3600);
}

/* Jobs whose simulated duration on the reference GPU is far from the traced
 * one (see trace_extrap_t): a warning naming how many and the worst. */
static void print_far(const trace_extrap_t *x, FILE *o)
{
    if (!x->judged)
        return;
    if (!x->far) {
        fprintf(o, "sim duration     every job within %gx of its traced duration on %s (%ld "
                   "judged)\n",
                TRACE_FAR_FACTOR, x->ref_name, x->judged);
        return;
    }
    char traced[32], sim[32], line[40] = "";
    fmt_hours(traced, sizeof traced, x->worst_traced);
    fmt_hours(sim, sizeof sim, x->worst_sim);
    if (x->worst_line > 0)
        snprintf(line, sizeof line, " (line %ld)", x->worst_line);
    fprintf(o, "sim duration     warning: %ld of %ld jobs would run over %gx %s or shorter on %s "
               "than traced (and %.0f min apart); worst: job %lld%s, traced %s, simulated %s "
               "(%.2fx): another reference GPU (--reference-gpu), another perf model, or work "
               "not derived from the duration\n",
            x->far, x->judged, TRACE_FAR_FACTOR, "longer", x->ref_name, TRACE_FAR_EXCESS / 60,
            (long long)x->worst_id, line, traced, sim, x->worst_sim / x->worst_traced);
}

static void print_text(const mls_trace_t *t, const summary_t *s, FILE *o,
                       const trace_extrap_t *x)
{
    fprintf(o, "trace            %s\n", t->path ? t->path : "-");
    fprintf(o, "jobs             %zu\n", s->n);
    fprintf(o, "users            %zu\n", t->users.n);
    fprintf(o, "workloads        %zu\n", t->workloads.n);
    fprintf(o, "span             %.2f h\n", s->span / 3600);
    fprintf(o, "arrival rate     %.2f jobs/h\n", s->span > 0 ? (s->n - 1) / (s->span / 3600) : 0);
    if (s->with_duration) {
        fprintf(o, "GPU-hours        %.1f (from %zu jobs with a duration)\n", s->gpu_hours,
                s->with_duration);
        fprintf(o, "duration         p10 %.0f s, p50 %.0f s, p90 %.0f s, p99 %.0f s\n",
                pct(s, .1), pct(s, .5), pct(s, .9), pct(s, .99));
    } else {
        fprintf(o, "GPU-hours        unknown (no duration column)\n");
    }
    if (x) {
        print_extrap(s, x, o);
        print_far(x, o);
    }
    fprintf(o, "GPUs per job     ");
    for (int b = 0; b < 8; b++)
        if (s->gpu_hist[b])
            fprintf(o, "%s: %ld (%.1f%%)  ", gpu_bins[b], s->gpu_hist[b],
                    100.0 * s->gpu_hist[b] / (double)s->n);
    if (s->gpu_hours > 0) {
        fprintf(o, "\nGPU-hours by size ");
        for (int b = 0; b < 8; b++)
            if (s->gpu_hist[b])
                fprintf(o, "%s: %.1f%%  ", gpu_bins[b],
                        100 * s->gpu_hours_by_bin[b] / s->gpu_hours);
    }
    long days[MAX_DAYS];
    int nd = per_day(t, days);
    fprintf(o, "\narrivals per day (%d days):", nd);
    for (int d = 0; d < nd && d < 120; d++)
        fprintf(o, " %ld", days[d]);
    if (nd > 120)
        fprintf(o, " ...");
    fprintf(o, "\narrivals per hour of the trace (first 24):");
    long per_hour[24] = {0};
    for (size_t i = 0; i < t->n; i++) {
        long h = (long)((t->jobs[i].submit - t->jobs[0].submit) / 3600);
        if (h < 24)
            per_hour[h]++;
    }
    for (int h = 0; h < 24 && h <= s->span / 3600; h++)
        fprintf(o, " %ld", per_hour[h]);
    fprintf(o, "\n%-20s %8s %7s %10s %7s\n", "user", "jobs", "share", "GPU-hours", "share");
    for (size_t u = 0; u < t->users.n && u < 50; u++)
        fprintf(o, "%-20s %8ld %6.1f%% %10.1f %6.1f%%\n", t->users.names[u], s->users[u].jobs,
                100.0 * s->users[u].jobs / (double)(s->n ? s->n : 1), s->users[u].gpu_hours,
                s->gpu_hours > 0 ? 100 * s->users[u].gpu_hours / s->gpu_hours : 0);
    if (t->users.n > 50)
        fprintf(o, "... %zu more users\n", t->users.n - 50);
    print_top_users(t, s, o);
}

static void json_num(FILE *o, const char *k, double v, const char *after)
{
    if (isfinite(v))
        fprintf(o, "\"%s\": %.10g%s", k, v, after);
    else
        fprintf(o, "\"%s\": null%s", k, after);
}

static void print_json(const mls_trace_t *t, const summary_t *s, FILE *o,
                       const trace_extrap_t *x)
{
    fprintf(o, "{\"jobs\": %zu, \"users\": %zu, \"workloads\": %zu, ", s->n, t->users.n,
            t->workloads.n);
    json_num(o, "span_s", s->span, ", ");
    json_num(o, "arrival_rate_per_hour", s->span > 0 ? (s->n - 1) / (s->span / 3600) : NAN,
             ", ");
    json_num(o, "gpu_hours", s->with_duration ? s->gpu_hours : NAN, ", ");
    json_num(o, "duration_p10", pct(s, .1), ", ");
    json_num(o, "duration_p50", pct(s, .5), ", ");
    json_num(o, "duration_p90", pct(s, .9), ", ");
    json_num(o, "duration_p99", pct(s, .99), ", ");
    fprintf(o, "\"gpu_histogram\": {");
    for (int b = 0; b < 8; b++)
        fprintf(o, "%s\"%s\": %ld", b ? ", " : "", gpu_bins[b], s->gpu_hist[b]);
    fprintf(o, "}, \"gpu_hours_by_size\": {");
    for (int b = 0; b < 8; b++)
        fprintf(o, "%s\"%s\": %.6g", b ? ", " : "", gpu_bins[b], s->gpu_hours_by_bin[b]);
    long days[MAX_DAYS];
    int nd = per_day(t, days);
    fprintf(o, "}, \"arrivals_per_day\": [");
    for (int d = 0; d < nd; d++)
        fprintf(o, "%s%ld", d ? ", " : "", days[d]);
    fprintf(o, "]");
    if (x) {
        fprintf(o, ", \"extrapolated\": {\"jobs\": %ld, ", x->jobs);
        json_num(o, "gpu_hours", s->with_duration ? x->gpu_hours : NAN, ", ");
        json_num(o, "gpu_hours_share", s->gpu_hours > 0 ? x->gpu_hours / s->gpu_hours : NAN,
                 ", ");
        fprintf(o, "\"max_gpus\": %d, \"unknown_workload_jobs\": %ld, \"reference_gpu\": \"%s\"}",
                x->max_gpus, x->unknown, x->ref_name);
        fprintf(o, ", \"duration_check\": {\"judged\": %ld, \"far\": %ld", x->judged, x->far);
        if (x->far) {
            fprintf(o, ", \"worst\": {\"id\": %lld, \"line\": %ld, ", (long long)x->worst_id,
                    x->worst_line);
            json_num(o, "traced_s", x->worst_traced, ", ");
            json_num(o, "simulated_s", x->worst_sim, "}");
        }
        fprintf(o, "}");
    }
    fprintf(o, "}\n");
}

void trace_stats_print(const mls_trace_t *t, FILE *out, int json, const trace_extrap_t *x)
{
    summary_t s;
    summarize(t, &s);
    if (json)
        print_json(t, &s, out, x);
    else
        print_text(t, &s, out, x);
    free(s.dur);
    free(s.users);
}
